//! McCarthy's `treemax`/`treemin` with `tmaxlis`/`tminlis`: alpha-beta returning the value
//! and a proof of it, as two move trees.

use std::fmt::{self, Write as _};
use std::time::Instant;

use crate::game::{Game, Player};
use crate::search::{Bound, MoveBuffers, SearchStats, Window, with_stack};

mod arena;

use arena::Arena;

/// The index of a step in a [`Proof`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ProofId(usize);

impl ProofId {
    /// The id of the step at this position of the steps given to [`Proof::from_steps`]
    /// (which checks that it names a step).
    pub fn new(index: usize) -> Self {
        ProofId(index)
    }

    /// The position of the step in [`Proof::steps`].
    pub fn index(self) -> usize {
        self.0
    }
}

/// One step of a proof, in the seed's notation.
#[derive(Clone, Debug, PartialEq)]
pub enum ProofStep<M, V> {
    /// `<imval p>`: the position is terminal and has this value.
    Terminal(V),
    /// `mv . pf'`: the prover plays `mv`, and `pf'` proves the bound for the position it
    /// leads to.
    Choice(M, ProofId),
    /// A list of `mv . pf'`, one for each successor: whatever the opponent plays, the
    /// bound holds. Listed in the order McCarthy's programs `cons` them: the successor
    /// searched last comes first.
    Replies(Vec<(M, ProofId)>),
}

/// A proof that the value of a position is at least (or at most) some value: a move tree
/// with terminal values, McCarthy's `pfmax` / `pfmin`.
///
/// A proof that MAX's position is worth at least `v` names one move for MAX and, after it,
/// an answer to every move of MIN, down to terminal positions worth at least `v`; a proof
/// that it is worth at most `v` lists every move of MAX. The steps are stored in one
/// vector, so proofs of any depth are built, dropped and printed without recursion.
#[derive(Clone, Debug, PartialEq)]
pub struct Proof<M, V> {
    steps: Vec<ProofStep<M, V>>,
    root: ProofId,
}

impl<M: Copy, V: Copy> Proof<M, V> {
    /// A proof made of a single terminal value.
    pub fn terminal(value: V) -> Self {
        Proof {
            steps: vec![ProofStep::Terminal(value)],
            root: ProofId(0),
        }
    }

    /// Builds a proof from steps and the id of its root step.
    ///
    /// # Errors
    /// When an id names no step or a step is reachable twice (the steps must form a tree).
    pub fn from_steps(steps: Vec<ProofStep<M, V>>, root: ProofId) -> Result<Self, String> {
        let mut seen = vec![false; steps.len()];
        let mut pending = vec![root];
        while let Some(id) = pending.pop() {
            let Some(step) = steps.get(id.0) else {
                return Err(format!("proof step {} does not exist", id.0));
            };
            if std::mem::replace(&mut seen[id.0], true) {
                return Err(format!("proof step {} is reached twice", id.0));
            }
            match step {
                ProofStep::Terminal(_) => {}
                ProofStep::Choice(_, next) => pending.push(*next),
                ProofStep::Replies(replies) => pending.extend(replies.iter().map(|&(_, id)| id)),
            }
        }
        Ok(Proof { steps, root })
    }

    /// Copies the tree under `root` out of an arena of steps, dropping everything else.
    fn extract(arena: &[ProofStep<M, V>], root: ProofId) -> Self {
        let mut new_id = vec![usize::MAX; arena.len()];
        let mut order = Vec::new();
        let mut pending = vec![root.0];
        while let Some(old) = pending.pop() {
            new_id[old] = order.len();
            order.push(old);
            match &arena[old] {
                ProofStep::Terminal(_) => {}
                ProofStep::Choice(_, next) => pending.push(next.0),
                ProofStep::Replies(replies) => {
                    pending.extend(replies.iter().rev().map(|&(_, id)| id.0));
                }
            }
        }
        let steps = order
            .iter()
            .map(|&old| match &arena[old] {
                ProofStep::Terminal(value) => ProofStep::Terminal(*value),
                ProofStep::Choice(mv, next) => ProofStep::Choice(*mv, ProofId(new_id[next.0])),
                ProofStep::Replies(replies) => ProofStep::Replies(
                    replies
                        .iter()
                        .map(|&(mv, id)| (mv, ProofId(new_id[id.0])))
                        .collect(),
                ),
            })
            .collect();
        Proof {
            steps,
            root: ProofId(0),
        }
    }

    /// The root step's id.
    pub fn root(&self) -> ProofId {
        self.root
    }

    /// The step with this id.
    ///
    /// # Panics
    /// When the id does not belong to this proof.
    pub fn step(&self, id: ProofId) -> &ProofStep<M, V> {
        &self.steps[id.0]
    }

    /// Every step; the root is at [`Proof::root`].
    pub fn steps(&self) -> &[ProofStep<M, V>] {
        &self.steps
    }

    /// Writes the proof as the seed prints it, an S-expression: `<v>` is `(v)`,
    /// `mv . pf` is `pf` with `mv` put in front, a list of replies is a list of those.
    /// `write_move` writes a move (tic-tac-toe prints its squares in octal, as the seed).
    pub fn to_sexpr(
        &self,
        mut write_move: impl FnMut(&mut String, &M),
        mut write_value: impl FnMut(&mut String, &V),
    ) -> String {
        enum Token<M> {
            /// The inside of a step's list, without its parentheses.
            Contents(ProofId),
            Move(M),
            Text(&'static str),
        }
        let is_empty_list = |id: ProofId| matches!(&self.steps[id.0], ProofStep::Replies(replies) if replies.is_empty());
        let mut out = String::from("(");
        let mut pending = vec![Token::Text(")"), Token::Contents(self.root)];
        while let Some(token) = pending.pop() {
            match token {
                Token::Text(text) => out.push_str(text),
                Token::Move(mv) => write_move(&mut out, &mv),
                Token::Contents(id) => match &self.steps[id.0] {
                    ProofStep::Terminal(value) => write_value(&mut out, value),
                    ProofStep::Choice(mv, next) => {
                        write_move(&mut out, mv);
                        if !is_empty_list(*next) {
                            pending.push(Token::Contents(*next));
                            pending.push(Token::Text(" "));
                        }
                    }
                    ProofStep::Replies(replies) => {
                        for (index, &(mv, reply)) in replies.iter().enumerate().rev() {
                            pending.push(Token::Text(")"));
                            if !is_empty_list(reply) {
                                pending.push(Token::Contents(reply));
                                pending.push(Token::Text(" "));
                            }
                            pending.push(Token::Move(mv));
                            pending.push(Token::Text("("));
                            if index > 0 {
                                pending.push(Token::Text(" "));
                            }
                        }
                    }
                },
            }
        }
        out
    }
}

impl<M: Copy + fmt::Display, V: Copy + fmt::Display> fmt::Display for Proof<M, V> {
    /// The seed's S-expression notation, moves and values in their `Display` form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_sexpr(
            |out, mv| {
                let _ = write!(out, "{mv}");
            },
            |out, value| {
                let _ = write!(out, "{value}");
            },
        ))
    }
}

/// The value of an alpha-beta search with McCarthy's two proofs.
#[derive(Clone, Debug, PartialEq)]
pub struct ProofResult<M, V> {
    /// The fail-hard value, as [`crate::alphabeta_value`] returns it.
    pub value: V,
    /// How `value` relates to the true value.
    pub bound: Bound,
    /// `pfmax`: a proof that the position is worth at least `value` to MAX. Present
    /// unless the search failed low (`value ≤ α`), where the seed requires nothing of it
    /// (its `alpha . ALPHA-CUTOFF`).
    pub at_least: Option<Proof<M, V>>,
    /// `pfmin`: a proof that the position is worth at most `value`. Present unless the
    /// search failed high (`value ≥ β`).
    pub at_most: Option<Proof<M, V>>,
    /// What the search did.
    pub stats: SearchStats,
}

impl<M: Copy, V: Copy> ProofResult<M, V> {
    /// The seed's `<val, pfmax, pfmin>` as an S-expression, a missing proof as `NIL`.
    pub fn to_sexpr(
        &self,
        mut write_move: impl FnMut(&mut String, &M),
        mut write_value: impl FnMut(&mut String, &V),
    ) -> String {
        let mut out = String::from("(");
        write_value(&mut out, &self.value);
        for proof in [&self.at_least, &self.at_most] {
            out.push(' ');
            match proof {
                Some(proof) => out.push_str(&proof.to_sexpr(&mut write_move, &mut write_value)),
                None => out.push_str("NIL"),
            }
        }
        out.push(')');
        out
    }
}

/// McCarthy's `treemax`/`treemin`: the value of the current position by alpha-beta in the
/// window (α, β), with a proof that the position is worth at least that value (`pfmax`)
/// and one that it is worth at most that value (`pfmin`).
///
/// The search and its value are those of [`crate::alphabeta_value`]. As the seed states
/// of `tmaxlis`: if the value is at most α, `pfmin` proves the position worth at most the
/// value; if strictly inside the window, `pfmax` and `pfmin` prove it worth at least and at
/// most the value; if at least β, `pfmax` proves it worth at least the value. Successors
/// that do not improve the value still contribute their own proof to the opponent's list,
/// exactly as `tmaxlis`/`tminlis` cons them.
///
/// The window should not be empty (α < β). In an empty window the seed's statement does
/// not hold: the search still returns a value, but a proof it cannot build is `None`
/// (and [`crate::verify_result`] reports it missing) instead of a wrong one.
///
/// The steps of proofs the search abandons (a successor's proof it does not use, a choice
/// replaced by a better one, the lists dropped at a cutoff) are freed as it goes, so its
/// memory follows the proofs under construction, not the number of positions searched.
///
/// The game is returned to the position it was in.
pub fn alphabeta_proof<G: Game>(
    game: &mut G,
    window: Window<G::Value>,
) -> ProofResult<G::Move, G::Value> {
    let started = Instant::now();
    let mut search = ProofSearch::new();
    let found = search.tree(game, window.alpha, window.beta);
    search.finish(found, window, started)
}

/// What `treemax`/`treemin` return: `<val, pfmax, pfmin>`, proofs as ids in the arena.
///
/// The two ids are "floating": the arena does not count them as references, so whoever
/// receives a `Found` either adopts an id into a step or a list of replies, or releases
/// it. At a terminal position both ids are the same step.
struct Found<V> {
    value: V,
    at_least: Option<ProofId>,
    at_most: Option<ProofId>,
}

struct ProofSearch<M, V> {
    stats: SearchStats,
    buffers: MoveBuffers<M>,
    /// The steps of the proofs being built.
    arena: Arena<M, V>,
    /// The lists of every reply in progress, one above the other for the positions on the
    /// current path, in search order; each entry holds a counted reference. A list
    /// becomes a [`ProofStep::Replies`] only when it is complete, so a list dropped at a
    /// cutoff allocates nothing.
    replies: Vec<(M, ProofId)>,
}

impl<M: Copy, V: crate::game::Value> ProofSearch<M, V> {
    fn new() -> Self {
        ProofSearch {
            stats: SearchStats::default(),
            buffers: MoveBuffers::new(),
            arena: Arena::new(),
            replies: Vec::new(),
        }
    }

    /// The result for the root's `found`, its proofs copied out of the arena.
    fn finish(&self, found: Found<V>, window: Window<V>, started: Instant) -> ProofResult<M, V> {
        let mut stats = self.stats;
        stats.elapsed = started.elapsed();
        ProofResult {
            value: found.value,
            bound: window.bound_of(found.value),
            at_least: found
                .at_least
                .map(|root| Proof::extract(&self.arena.steps, root)),
            at_most: found
                .at_most
                .map(|root| Proof::extract(&self.arena.steps, root)),
            stats,
        }
    }

    /// `mv . pf'`: the prover plays `mv`, and `proof` proves the bound after it. Adopts
    /// `proof`; the new step is floating.
    fn choice(&mut self, mv: M, proof: Option<ProofId>) -> Option<ProofId> {
        proof.map(|proof| {
            self.arena.adopt(proof);
            self.arena.push(ProofStep::Choice(mv, proof))
        })
    }

    /// Releases whichever of a successor's proofs were not adopted, each id once.
    fn release_found(&mut self, found: &Found<V>) {
        if let Some(id) = found.at_least {
            self.arena.release(id);
        }
        if let Some(id) = found.at_most
            && found.at_most != found.at_least
        {
            self.arena.release(id);
        }
    }

    /// Adds `mv . proof` to the list of replies in progress from `start`, adopting
    /// `proof`; or, when the successor has no proof, marks the list unproved and drops it.
    fn add_reply(&mut self, start: usize, proved: &mut bool, mv: M, proof: Option<ProofId>) {
        if !*proved {
            return;
        }
        match proof {
            Some(proof) => {
                self.arena.adopt(proof);
                self.replies.push((mv, proof));
            }
            None => {
                *proved = false;
                self.drop_replies(start);
            }
        }
    }

    /// Drops the list of replies in progress from `start`.
    fn drop_replies(&mut self, start: usize) {
        while self.replies.len() > start {
            let (_, reply) = self.replies.pop().expect("invariant: longer than start");
            self.arena.unreference(reply);
        }
    }

    /// `treemax` or `treemin`, by whose turn it is.
    fn tree<G: Game<Move = M, Value = V>>(
        &mut self,
        game: &mut G,
        mut alpha: V,
        mut beta: V,
    ) -> Found<V> {
        self.stats.nodes += 1;
        if crate::game::ter(game, alpha, beta) {
            self.stats.leaves += 1;
            let value = game.value();
            let leaf = self.arena.push(ProofStep::Terminal(value));
            return Found {
                value,
                at_least: Some(leaf),
                at_most: Some(leaf),
            };
        }
        let player = game.to_move();
        let mut moves = self.buffers.take();
        game.successors(&mut moves);
        // tmaxlis: `trmax` (a choice, none yet) and `trmin` (every reply);
        // tminlis: `trmax` (every reply) and `trmin` (a choice, none yet).
        // A reply whose proof is missing (only possible in an empty window, α ≥ β, where
        // the seed's claims do not hold) leaves the list of every reply unproved.
        let mut choice: Option<ProofId> = None;
        let replies_start = self.replies.len();
        let mut replies_proved = true;
        let mut cutoff: Option<Found<V>> = None;
        for &mv in &moves {
            game.update(mv);
            let s = with_stack(|| self.tree(game, alpha, beta));
            game.revert(mv);
            // Adopt what is kept first, then release the rest of `s`: a terminal
            // successor's two proofs are one step.
            match player {
                Player::Max => {
                    if s.value <= alpha {
                        self.add_reply(replies_start, &mut replies_proved, mv, s.at_most);
                    } else if s.value < beta {
                        let better = self.choice(mv, s.at_least);
                        if let Some(replaced) = std::mem::replace(&mut choice, better) {
                            self.arena.release(replaced);
                        }
                        self.add_reply(replies_start, &mut replies_proved, mv, s.at_most);
                        alpha = s.value;
                    } else {
                        cutoff = Some(Found {
                            value: beta,
                            at_least: self.choice(mv, s.at_least),
                            at_most: None,
                        });
                    }
                }
                Player::Min => {
                    if s.value <= alpha {
                        cutoff = Some(Found {
                            value: alpha,
                            at_least: None,
                            at_most: self.choice(mv, s.at_most),
                        });
                    } else if s.value < beta {
                        self.add_reply(replies_start, &mut replies_proved, mv, s.at_least);
                        let better = self.choice(mv, s.at_most);
                        if let Some(replaced) = std::mem::replace(&mut choice, better) {
                            self.arena.release(replaced);
                        }
                        beta = s.value;
                    } else {
                        self.add_reply(replies_start, &mut replies_proved, mv, s.at_least);
                    }
                }
            }
            self.release_found(&s);
            if cutoff.is_some() {
                break;
            }
        }
        self.buffers.give_back(moves);
        if let Some(found) = cutoff {
            self.stats.cutoffs += 1;
            if let Some(choice) = choice {
                self.arena.release(choice);
            }
            self.drop_replies(replies_start);
            return found;
        }
        let every_reply = replies_proved.then(|| {
            // `cons` puts the successor searched last first. The entries' references
            // pass to the new step.
            let mut list = self.arena.take_list();
            list.extend(self.replies.drain(replies_start..).rev());
            self.arena.push(ProofStep::Replies(list))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_tree::small;

    #[test]
    fn proof_of_the_issue_example_matches_the_seed_construction() {
        // Issue 3, section 5: ((3 5) (2 9)) proves as value 3 with
        // pfmax (1 (2 5) (1 3)) and pfmin ((2 1 2) (1 1 3)).
        let mut game = small();
        let result = alphabeta_proof(&mut game, Window::full());
        assert_eq!(result.value, 3);
        assert_eq!(result.bound, Bound::Exact);
        assert_eq!(
            result.at_least.expect("exact").to_string(),
            "(1 (2 5) (1 3))"
        );
        assert_eq!(
            result.at_most.expect("exact").to_string(),
            "((2 1 2) (1 1 3))"
        );
        assert!(game.path.is_empty());
    }

    #[test]
    fn failing_low_leaves_no_proof_of_at_least() {
        let mut game = small();
        let result = alphabeta_proof(&mut game, Window::new(4, 10));
        assert_eq!(result.value, 4);
        assert_eq!(result.bound, Bound::Upper);
        assert!(result.at_least.is_none());
        assert_eq!(
            result.at_most.expect("fail low").to_string(),
            "((2 1 2) (1 1 3))"
        );
    }

    #[test]
    fn an_empty_window_gives_no_proof_rather_than_a_panic() {
        // In (3, 3) MIN's first position ends its list with β = 3 and no proof of at
        // most 3: the seed's statement needs α < β.
        for (alpha, beta) in [(3, 3), (0, 0), (5, 3)] {
            let mut game = small();
            let result = alphabeta_proof(&mut game, Window::new(alpha, beta));
            assert!(game.path.is_empty());
            if let Some(proof) = &result.at_most {
                assert!(
                    crate::verify(&mut game, proof, crate::Claim::AtMost(result.value)).is_ok(),
                    "({alpha}, {beta})"
                );
            }
            if let Some(proof) = &result.at_least {
                assert!(
                    crate::verify(&mut game, proof, crate::Claim::AtLeast(result.value)).is_ok(),
                    "({alpha}, {beta})"
                );
            }
        }
    }
}

#[cfg(test)]
mod memory_tests;
