//! The proof search's memory: the reclaiming arena against the search as it was before
//! it (an arena that kept every step, copied out at the end), and bounds on the peak
//! number of live steps.

use super::arena::FREE_SLOT;
use super::*;
use crate::random::SplitMix64;
use crate::tree::{ExplicitTree, RandomTreeConfig};
use proptest::prelude::*;

/// The search before slots were reclaimed, kept as the oracle: every step pushed on
/// one vector, never freed, the proofs copied out at the end.
struct ReferenceSearch<M, V> {
    stats: SearchStats,
    arena: Vec<ProofStep<M, V>>,
}

impl<M: Copy, V: crate::game::Value> ReferenceSearch<M, V> {
    fn push(&mut self, step: ProofStep<M, V>) -> ProofId {
        self.arena.push(step);
        ProofId(self.arena.len() - 1)
    }

    fn choice(&mut self, mv: M, proof: Option<ProofId>) -> Option<ProofId> {
        proof.map(|proof| self.push(ProofStep::Choice(mv, proof)))
    }

    fn tree<G: Game<Move = M, Value = V>>(
        &mut self,
        game: &mut G,
        mut alpha: V,
        mut beta: V,
    ) -> Found<V> {
        fn add_reply<M>(replies: &mut Option<Vec<(M, ProofId)>>, mv: M, proof: Option<ProofId>) {
            match (replies.as_mut(), proof) {
                (Some(list), Some(proof)) => list.push((mv, proof)),
                _ => *replies = None,
            }
        }
        self.stats.nodes += 1;
        if crate::game::ter(game, alpha, beta) {
            self.stats.leaves += 1;
            let value = game.value();
            let leaf = self.push(ProofStep::Terminal(value));
            return Found {
                value,
                at_least: Some(leaf),
                at_most: Some(leaf),
            };
        }
        let player = game.to_move();
        let mut moves = Vec::new();
        game.successors(&mut moves);
        let mut choice = None;
        let mut replies = Some(Vec::new());
        for mv in moves {
            game.update(mv);
            let s = with_stack(|| self.tree(game, alpha, beta));
            game.revert(mv);
            match player {
                Player::Max if s.value <= alpha => add_reply(&mut replies, mv, s.at_most),
                Player::Max if s.value < beta => {
                    choice = self.choice(mv, s.at_least);
                    add_reply(&mut replies, mv, s.at_most);
                    alpha = s.value;
                }
                Player::Max => {
                    self.stats.cutoffs += 1;
                    let at_least = self.choice(mv, s.at_least);
                    return Found {
                        value: beta,
                        at_least,
                        at_most: None,
                    };
                }
                Player::Min if s.value <= alpha => {
                    self.stats.cutoffs += 1;
                    let at_most = self.choice(mv, s.at_most);
                    return Found {
                        value: alpha,
                        at_least: None,
                        at_most,
                    };
                }
                Player::Min if s.value < beta => {
                    add_reply(&mut replies, mv, s.at_least);
                    choice = self.choice(mv, s.at_most);
                    beta = s.value;
                }
                Player::Min => add_reply(&mut replies, mv, s.at_least),
            }
        }
        let every_reply = replies.map(|mut replies| {
            replies.reverse();
            self.push(ProofStep::Replies(replies))
        });
        match player {
            Player::Max => Found {
                value: alpha,
                at_least: choice,
                at_most: every_reply,
            },
            Player::Min => Found {
                value: beta,
                at_least: every_reply,
                at_most: choice,
            },
        }
    }
}

/// The reference's result and how many steps its arena ended with.
fn reference_proof<G: Game>(
    game: &mut G,
    window: Window<G::Value>,
) -> (ProofResult<G::Move, G::Value>, usize) {
    let mut search = ReferenceSearch {
        stats: SearchStats::default(),
        arena: Vec::new(),
    };
    let found = search.tree(game, window.alpha, window.beta);
    let result = ProofResult {
        value: found.value,
        bound: window.bound_of(found.value),
        at_least: found
            .at_least
            .map(|root| Proof::extract(&search.arena, root)),
        at_most: found
            .at_most
            .map(|root| Proof::extract(&search.arena, root)),
        stats: search.stats,
    };
    (result, search.arena.len())
}

/// How the arena of one search was used.
#[derive(Debug)]
struct ArenaUse {
    /// The most steps alive at once: the arena's length, as it only grows when no
    /// slot is free.
    peak_slots: usize,
    /// Steps alive when the search returned.
    live_slots: usize,
    /// Steps reachable from the two proofs the search returned.
    reachable_slots: usize,
}

/// [`alphabeta_proof`], with a look at its arena before the proofs are copied out.
fn proof_and_arena_use<G: Game>(
    game: &mut G,
    window: Window<G::Value>,
) -> (ProofResult<G::Move, G::Value>, ArenaUse) {
    let started = Instant::now();
    let mut search = ProofSearch::new();
    let found = search.tree(game, window.alpha, window.beta);
    let arena = &search.arena;
    let mut reachable = vec![false; arena.steps.len()];
    let mut pending: Vec<ProofId> = [found.at_least, found.at_most]
        .into_iter()
        .flatten()
        .collect();
    while let Some(id) = pending.pop() {
        if std::mem::replace(&mut reachable[id.0], true) {
            continue;
        }
        assert_ne!(
            arena.references[id.0], FREE_SLOT,
            "a proof reaches a freed step"
        );
        match &arena.steps[id.0] {
            ProofStep::Terminal(_) => {}
            ProofStep::Choice(_, next) => pending.push(*next),
            ProofStep::Replies(replies) => pending.extend(replies.iter().map(|&(_, id)| id)),
        }
    }
    assert!(
        search.replies.is_empty(),
        "every list in progress was finished"
    );
    let arena_use = ArenaUse {
        peak_slots: arena.steps.len(),
        live_slots: arena.steps.len() - arena.free.len(),
        reachable_slots: reachable.iter().filter(|&&reached| reached).count(),
    };
    (search.finish(found, window, started), arena_use)
}

fn text<M: Copy + fmt::Display, V: Copy + fmt::Display>(result: &ProofResult<M, V>) -> String {
    result.to_sexpr(
        |out, mv| {
            let _ = write!(out, "{mv}");
        },
        |out, value| {
            let _ = write!(out, "{value}");
        },
    )
}

/// Searches with both and checks they agree on everything but the time, that the
/// game is back at its position, and that no step outlives the search's proofs.
fn assert_same_as_reference<G: Game>(game: &mut G, window: Window<G::Value>) -> ArenaUse
where
    G::Move: fmt::Display + fmt::Debug + PartialEq,
    G::Value: fmt::Display,
{
    let (expected, _) = reference_proof(game, window);
    let (result, arena_use) = proof_and_arena_use(game, window);
    assert_eq!(text(&result), text(&expected));
    assert_eq!(result.value, expected.value);
    assert_eq!(result.bound, expected.bound);
    assert_eq!(result.at_least, expected.at_least);
    assert_eq!(result.at_most, expected.at_most);
    let counts = |stats: SearchStats| (stats.nodes, stats.leaves, stats.cutoffs);
    assert_eq!(counts(result.stats), counts(expected.stats));
    assert_eq!(
        arena_use.live_slots, arena_use.reachable_slots,
        "the steps alive at the end are those of the proofs"
    );
    arena_use
}

/// A big tree that costs no memory: a position is the hash of its path, its number of
/// successors and its value come from the hash. Every leaf is `depth` plies down.
struct HashTree {
    path: Vec<u64>,
    depth: usize,
    branching: u64,
}

impl HashTree {
    fn new(seed: u64, depth: usize, branching: u64) -> Self {
        HashTree {
            path: vec![SplitMix64::new(seed).next_u64()],
            depth,
            branching,
        }
    }

    fn position(&self) -> u64 {
        *self
            .path
            .last()
            .expect("invariant: the root is on the path")
    }
}

impl Game for HashTree {
    type Move = u32;
    type Value = i32;
    fn to_move(&self) -> Player {
        if self.path.len() % 2 == 1 {
            Player::Max
        } else {
            Player::Min
        }
    }
    fn successors(&self, moves: &mut Vec<u32>) {
        if self.path.len() <= self.depth {
            let count = 1 + (self.position() >> 7) % self.branching;
            moves.extend(1..=u32::try_from(count).expect("small branching"));
        }
    }
    fn is_terminal(&self) -> bool {
        self.path.len() > self.depth
    }
    fn value(&self) -> i32 {
        i32::try_from((self.position() >> 17) % 19).expect("below 19") - 9
    }
    fn update(&mut self, mv: u32) {
        let next = SplitMix64::with_stream(self.position(), u64::from(mv)).next_u64();
        self.path.push(next);
    }
    fn revert(&mut self, _mv: u32) {
        self.path.pop();
    }
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 512,
        failure_persistence: None,
        rng_algorithm: proptest::test_runner::RngAlgorithm::ChaCha,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x7072_6f6f_665f_6d65),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn reclaiming_steps_changes_no_value_proof_or_count_on_random_trees(
        seed in any::<u64>(),
        most_branching in 1usize..=5,
        least_depth in 0usize..=3,
        extra_depth in 0usize..=4,
        most_value in 0i32..=9,
        window in (-11i32..=11, -11i32..=11),
    ) {
        let config = RandomTreeConfig {
            branching: 1..=most_branching,
            depth: least_depth..=least_depth + extra_depth,
            values: -most_value..=most_value,
        };
        let mut tree = ExplicitTree::random(&config, seed);
        // Full windows, and any (α, β), empty ones included (where proofs go missing).
        for window in [
            Window::full(),
            Window::new(f64::from(window.0), f64::from(window.1)),
        ] {
            assert_same_as_reference(&mut tree, window);
            prop_assert!(tree.moves_from_root().is_empty());
        }
    }
}

#[test]
fn a_wide_search_keeps_steps_for_its_proofs_not_for_its_positions() {
    // Leaves 14 plies down, 1 to 6 successors: 243,041 positions searched (measured).
    let mut game = HashTree::new(1, 14, 6);
    let (expected, reference_slots) = reference_proof(&mut game, Window::full());
    let arena_use = assert_same_as_reference(&mut game, Window::full());
    let nodes = usize::try_from(expected.stats.nodes).expect("fits");
    assert_eq!(nodes, 243_041);
    // The old arena held a step for nearly every position searched.
    assert!(reference_slots >= nodes, "{reference_slots} < {nodes}");
    let proof_steps = arena_use.reachable_slots;
    assert!(
        arena_use.peak_slots <= 3 * proof_steps,
        "peak {} steps for proofs of {proof_steps}",
        arena_use.peak_slots
    );
    assert!(
        arena_use.peak_slots * 10 <= nodes,
        "peak {} steps for {nodes} positions",
        arena_use.peak_slots
    );
    assert_eq!(game.path.len(), 1);
}

#[test]
fn a_proof_100_000_levels_deep_is_freed_without_recursion() {
    // MAX first finds the 0 at the bottom of a chain 100,000 levels deep, then the 5
    // beside it: the chain's proof of at least 0 is dropped, its proof of at most 0
    // stays in the list of replies.
    let levels = 100_000;
    let mut text = "(".repeat(levels);
    text.push('0');
    text.push_str(&")".repeat(levels - 1));
    text.push_str(" 5)");
    let mut tree = ExplicitTree::parse(&text).expect("well formed");
    let arena_use = assert_same_as_reference(&mut tree, Window::full());
    let (result, _) = proof_and_arena_use(&mut tree, Window::full());
    assert_eq!(result.value, 5.0);
    assert_eq!(result.at_least.expect("exact").to_string(), "(2 5)");
    // The list of MAX's two moves, the chain's proof of at most 0 (its 99,999
    // positions and the 0), the leaf 5.
    assert_eq!(result.at_most.expect("exact").steps().len(), 1 + levels + 1);
    // Alive: both proofs, which share the leaf 5.
    assert_eq!(arena_use.live_slots, 2 + (levels + 2) - 1);
}
