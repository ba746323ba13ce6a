//! Depth-first proof-number search, df-pn (Nagai 2002, after Allis' proof-number search,
//! 1994), with the 1 + ε trick of Pawlewicz and Lew (2007) and a transposition table of
//! bounded size.
//!
//! Proof-number search proves or disproves one claim about a position: here a [`Claim`]
//! on the value to MAX, "at least v" (MAX proves it) or "at most v" (MIN proves it). A
//! terminal position proves the claim when its value meets it. The *proof number* of a
//! position is the least number of leaves that must still be proven to prove the claim
//! there, the *disproof number* the least to disprove it: where the prover is to move the
//! proof number is the least of the children's and the disproof number their sum, where the
//! opponent is to move the other way round. Whose turn it is comes from [`Game::to_move`] at
//! every position, so a player may move twice in a row.
//!
//! df-pn explores the most-proving position depth first, with thresholds on both numbers
//! that say when to come back up; the thresholds of the child searched are those of its
//! parent, tightened to the second-best child's number. Pawlewicz and Lew's trick widens
//! that second-best bound to `(1 + ε)` times it, so the search stays longer in one subtree
//! instead of switching back and forth. Numbers are kept in a transposition table of fixed
//! size by [`PositionKey`]; an evicted entry is searched again when needed.
//!
//! A game with draws is weakly solved with two claims: "at least a draw" and "a win"
//! ([`DfPn::weak_value`]). The game must be acyclic (no position repeats); a node budget
//! stops a search that runs too long.

mod table;

use std::time::Instant;

use crate::game::{Game, Value};

use crate::search::alphabeta::{Claim, Proof, ProofId, ProofStep};
use crate::search::transposition::PositionKey;
use crate::search::{MoveBuffers, SearchStats, with_stack};

use table::{Entry, Table};

/// A proof or disproof number that cannot be reached: the claim is disproven (as a proof
/// number) or proven (as a disproof number).
pub const INFINITY: u64 = u64::MAX >> 2;

/// The settings of a df-pn search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DfPnOptions {
    /// The size of the transposition table in mebibytes (at least 1).
    pub table_mib: usize,
    /// Pawlewicz and Lew's ε: the threshold of the child searched is `(1 + ε)` times the
    /// second-best child's number (at least one more than it). 0 is Nagai's df-pn.
    pub epsilon: f64,
    /// The search stops with [`DfPnOutcome::Unknown`] after this many positions.
    pub max_nodes: u64,
}

impl Default for DfPnOptions {
    /// A 64 MiB table, ε = ¼ (Pawlewicz and Lew's choice), no node limit.
    fn default() -> Self {
        DfPnOptions {
            table_mib: 64,
            epsilon: 0.25,
            max_nodes: u64::MAX,
        }
    }
}

/// What a df-pn search established about its claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DfPnOutcome {
    /// The claim holds.
    Proven,
    /// The claim does not hold: the opponent of the prover can keep every terminal value
    /// from meeting it.
    Disproven,
    /// The node budget ran out first.
    Unknown,
}

/// The result of [`DfPn::prove`].
#[derive(Clone, Debug, PartialEq)]
pub struct DfPnResult<M, V> {
    /// The claim searched.
    pub claim: Claim<V>,
    /// Whether it holds.
    pub outcome: DfPnOutcome,
    /// The proof of the claim when it is [`DfPnOutcome::Proven`]; when it is disproven,
    /// the proof of what disproves it, [`DfPnResult::refutation`]. `None` when unknown or
    /// when no proof was asked for.
    pub proof: Option<Proof<M, V>>,
    /// What a disproof proves instead: "at most the greatest terminal value of the
    /// disproof" for a claim "at least", and the other way round (the claim [`verify`]
    /// checks the disproof against). `None` unless disproven with a proof.
    ///
    /// [`verify`]: crate::verify
    pub refutation: Option<Claim<V>>,
    /// `nodes`: positions searched (each call of the search at a position, repeated
    /// visits included; the proof's extraction included); `leaves`: terminal positions
    /// reached; `elapsed`: wall-clock time.
    pub stats: SearchStats,
}

/// A weak solution by df-pn: who wins with perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WeakValue {
    /// 1 when MAX wins, −1 when MIN wins, 0 for a draw; `None` when the node budget ran
    /// out first.
    pub value: Option<i32>,
    /// Positions searched by both claims together.
    pub stats: SearchStats,
}

/// A proof or refutation as extracted, with the extreme terminal value it reaches.
type Extracted<M, V> = (Proof<M, V>, Option<V>);

/// One move of a position being searched: its key and its numbers as last seen.
#[derive(Clone, Copy, Debug)]
struct Child<M> {
    mv: M,
    key: u64,
    proof: u64,
    disproof: u64,
}

/// A df-pn searcher: its transposition table and buffers, kept between searches (the
/// table is cleared at the start of each).
///
/// # Example
/// ```
/// use gametree::search::proof_number::{DfPn, DfPnOptions, DfPnOutcome};
/// use gametree::{Claim, ConnectFour, verify};
///
/// // X to move wins at once in column 4.
/// let mut game = ConnectFour::from_moves("112233")?;
/// let mut dfpn = DfPn::new(DfPnOptions::default());
/// let result = dfpn.prove_with_proof(&mut game, Claim::AtLeast(1));
/// assert_eq!(result.outcome, DfPnOutcome::Proven);
/// let proof = result.proof.expect("a proof");
/// assert!(verify(&mut game, &proof, Claim::AtLeast(1)).is_ok());
/// assert_eq!(dfpn.weak_value(&mut game).value, Some(1));
/// # Ok::<(), gametree::games::connect_four::ParseMovesError>(())
/// ```
pub struct DfPn<G: PositionKey> {
    options: DfPnOptions,
    table: Table,
    children: MoveBuffers<Child<G::Move>>,
    moves: MoveBuffers<G::Move>,
    /// The claim of the search in progress.
    claim: Option<Claim<G::Value>>,
    stats: SearchStats,
    aborted: bool,
}

impl<G: PositionKey> std::fmt::Debug for DfPn<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DfPn")
            .field("options", &self.options)
            .field("table_bytes", &self.table.memory_bytes())
            .finish_non_exhaustive()
    }
}

/// The sum of numbers, [`INFINITY`] if one is, otherwise at most `INFINITY − 1`.
fn add(sum: u64, number: u64) -> u64 {
    if sum >= INFINITY || number >= INFINITY {
        INFINITY
    } else {
        (sum + number).min(INFINITY - 1)
    }
}

impl<G: PositionKey> DfPn<G> {
    /// A searcher with a table of `options.table_mib` mebibytes.
    #[must_use]
    pub fn new(options: DfPnOptions) -> Self {
        DfPn {
            options,
            table: Table::with_mib(options.table_mib),
            children: MoveBuffers::new(),
            moves: MoveBuffers::new(),
            claim: None,
            stats: SearchStats::default(),
            aborted: false,
        }
    }

    /// Bytes the transposition table takes.
    #[must_use]
    pub fn table_memory_bytes(&self) -> usize {
        self.table.memory_bytes()
    }

    /// Whether `claim` holds at the current position of `game`, without a proof. The game
    /// is left as it was.
    pub fn prove(&mut self, game: &mut G, claim: Claim<G::Value>) -> DfPnResult<G::Move, G::Value> {
        let start = Instant::now();
        let outcome = self.search(game, claim);
        let mut stats = self.stats;
        stats.elapsed = start.elapsed();
        DfPnResult {
            claim,
            outcome,
            proof: None,
            refutation: None,
            stats,
        }
    }

    /// [`prove`](Self::prove), with the proof of the claim or of its refutation, as
    /// [`verify`](crate::verify) checks them.
    ///
    /// The proof is a tree: a position reached by two paths is written out under both,
    /// so on games with many transpositions it can be much larger than the search.
    pub fn prove_with_proof(
        &mut self,
        game: &mut G,
        claim: Claim<G::Value>,
    ) -> DfPnResult<G::Move, G::Value> {
        let start = Instant::now();
        let outcome = self.search(game, claim);
        // The proof is built from what the search settled: the node budget no longer
        // applies.
        let max_nodes = std::mem::replace(&mut self.options.max_nodes, u64::MAX);
        let (proof, refutation) = match outcome {
            DfPnOutcome::Unknown => (None, None),
            DfPnOutcome::Proven => (Some(self.extract(game, true).0), None),
            DfPnOutcome::Disproven => {
                let (proof, bound) = self.extract(game, false);
                let refutation = match claim {
                    Claim::AtLeast(_) => Claim::AtMost(bound.unwrap_or(G::Value::MIN)),
                    Claim::AtMost(_) => Claim::AtLeast(bound.unwrap_or(G::Value::MAX)),
                };
                (Some(proof), Some(refutation))
            }
        };
        self.options.max_nodes = max_nodes;
        let mut stats = self.stats;
        stats.elapsed = start.elapsed();
        DfPnResult {
            claim,
            outcome,
            proof,
            refutation,
            stats,
        }
    }

    /// Clears the table, proves or disproves `claim` at the root.
    fn search(&mut self, game: &mut G, claim: Claim<G::Value>) -> DfPnOutcome {
        self.table.clear();
        self.claim = Some(claim);
        self.stats = SearchStats::default();
        self.aborted = false;
        let key = game.hash_key();
        let (proof, disproof) = self.mid(game, key, INFINITY, INFINITY);
        if proof == 0 {
            DfPnOutcome::Proven
        } else if disproof == 0 {
            DfPnOutcome::Disproven
        } else {
            DfPnOutcome::Unknown
        }
    }

    fn claim(&self) -> Claim<G::Value> {
        self.claim
            .expect("invariant: a claim is set before searching")
    }

    /// The numbers of a terminal position, or of one whose player to move has no move;
    /// `None` for a position with moves.
    fn leaf_numbers(&self, game: &G, has_moves: bool) -> Option<(u64, u64)> {
        let claim = self.claim();
        if game.is_terminal() {
            return Some(if claim.holds_for(game.value()) {
                (0, INFINITY)
            } else {
                (INFINITY, 0)
            });
        }
        if has_moves {
            return None;
        }
        // No move: a loss for the player to move, as `Game` values it.
        Some(if game.to_move() == claim.prover() {
            (INFINITY, 0)
        } else {
            (0, INFINITY)
        })
    }

    /// Nagai's multiple iterative deepening at one position: searches below it until its
    /// proof number reaches `proof_threshold` or its disproof number `disproof_threshold`,
    /// stores its numbers and returns them.
    fn mid(
        &mut self,
        game: &mut G,
        key: u64,
        proof_threshold: u64,
        disproof_threshold: u64,
    ) -> (u64, u64) {
        self.stats.nodes += 1;
        let work_before = self.stats.nodes;
        if self.stats.nodes > self.options.max_nodes {
            self.aborted = true;
        }
        if self.aborted {
            return self
                .table
                .probe(key)
                .map_or((1, 1), |entry| (entry.proof, entry.disproof));
        }
        let mut moves = self.moves.take();
        if !game.is_terminal() {
            game.successors(&mut moves);
        }
        if let Some((proof, disproof)) = self.leaf_numbers(game, !moves.is_empty()) {
            self.stats.leaves += 1;
            self.moves.give_back(moves);
            self.table.store(Entry {
                key,
                proof,
                disproof,
                work: 1,
                generation: 0,
            });
            return (proof, disproof);
        }
        let prover_to_move = game.to_move() == self.claim().prover();
        let mut children = self.children.take();
        let claim = self.claim();
        for &mv in &moves {
            let child_key = game.hash_key_after(mv);
            let (proof, disproof) = match self.table.probe(child_key) {
                Some(entry) => (entry.proof, entry.disproof),
                None => {
                    // A child the table does not know is looked at once: a terminal one is
                    // settled at once, so a win in one move proves its parent without
                    // another descent (Allis 1994 evaluates new leaves on creation).
                    game.update(mv);
                    self.stats.nodes += 1;
                    let numbers = if game.is_terminal() {
                        self.stats.leaves += 1;
                        if claim.holds_for(game.value()) {
                            (0, INFINITY)
                        } else {
                            (INFINITY, 0)
                        }
                    } else {
                        (1, 1)
                    };
                    game.revert(mv);
                    numbers
                }
            };
            children.push(Child {
                mv,
                key: child_key,
                proof,
                disproof,
            });
        }
        self.moves.give_back(moves);
        let epsilon = self.options.epsilon.max(0.0);
        let (proof, disproof) = loop {
            // The numbers of the position, and its most-proving child with the runner-up's
            // number: the least proof number where the prover is to move, the least
            // disproof number where the opponent is.
            let (mut proof, mut disproof) = if prover_to_move {
                (INFINITY, 0)
            } else {
                (0, INFINITY)
            };
            let (mut best, mut best_number, mut second) = (0, INFINITY, INFINITY);
            for (index, child) in children.iter().enumerate() {
                let number = if prover_to_move {
                    proof = proof.min(child.proof);
                    disproof = add(disproof, child.disproof);
                    child.proof
                } else {
                    proof = add(proof, child.proof);
                    disproof = disproof.min(child.disproof);
                    child.disproof
                };
                if number < best_number {
                    second = best_number;
                    best_number = number;
                    best = index;
                } else if number < second {
                    second = number;
                }
            }
            if proof >= proof_threshold || disproof >= disproof_threshold || self.aborted {
                break (proof, disproof);
            }
            // Pawlewicz and Lew: (1 + ε) times the runner-up, at least one more than it.
            let widened = if second >= INFINITY {
                INFINITY
            } else {
                let scaled = (second as f64 * (1.0 + epsilon)).ceil();
                let scaled = if scaled >= (INFINITY - 1) as f64 {
                    INFINITY - 1
                } else {
                    scaled as u64
                };
                scaled.max(second + 1)
            };
            let child = children[best];
            let (child_proof_threshold, child_disproof_threshold) = if prover_to_move {
                let others = disproof - child.disproof;
                (
                    proof_threshold.min(widened),
                    if disproof_threshold >= INFINITY {
                        INFINITY
                    } else {
                        disproof_threshold - others
                    },
                )
            } else {
                let others = proof - child.proof;
                (
                    if proof_threshold >= INFINITY {
                        INFINITY
                    } else {
                        proof_threshold - others
                    },
                    disproof_threshold.min(widened),
                )
            };
            game.update(child.mv);
            let numbers = with_stack(|| {
                self.mid(
                    game,
                    child.key,
                    child_proof_threshold,
                    child_disproof_threshold,
                )
            });
            game.revert(child.mv);
            children[best].proof = numbers.0;
            children[best].disproof = numbers.1;
        };
        self.children.give_back(children);
        let work = u32::try_from(self.stats.nodes - work_before + 1).unwrap_or(u32::MAX);
        if !self.aborted {
            self.table.store(Entry {
                key,
                proof,
                disproof,
                work,
                generation: 0,
            });
        }
        (proof, disproof)
    }

    /// Whether the position after `mv` is proven (`proven`) or disproven, searching it
    /// again if the table no longer says.
    fn child_settled(&mut self, game: &mut G, mv: G::Move, proven: bool) -> bool {
        let key = game.hash_key_after(mv);
        let settled = |proof: u64, disproof: u64| if proven { proof == 0 } else { disproof == 0 };
        if let Some(entry) = self.table.probe(key) {
            if settled(entry.proof, entry.disproof) {
                return true;
            }
            if entry.proof == 0 || entry.disproof == 0 {
                return false;
            }
        }
        game.update(mv);
        let (proof, disproof) = with_stack(|| self.mid(game, key, INFINITY, INFINITY));
        game.revert(mv);
        settled(proof, disproof)
    }

    /// Builds the proof (`proven`) or the disproof of the searched claim at the current
    /// position, known to hold, from the table, searching again where entries were
    /// replaced. Returns it with the extreme terminal value it reaches on the side of the
    /// disproof (the greatest for a claim "at least", the least for "at most").
    fn extract(&mut self, game: &mut G, proven: bool) -> Extracted<G::Move, G::Value> {
        let mut steps = Vec::new();
        let mut extreme = None;
        let root = with_stack(|| self.extract_step(game, proven, &mut steps, &mut extreme));
        let proof = Proof::from_steps(steps, root).expect("invariant: extraction builds a tree");
        (proof, extreme)
    }

    fn extract_step(
        &mut self,
        game: &mut G,
        proven: bool,
        steps: &mut Vec<ProofStep<G::Move, G::Value>>,
        extreme: &mut Option<G::Value>,
    ) -> ProofId {
        let id = ProofId::new(steps.len());
        if game.is_terminal() {
            let value = game.value();
            if !proven {
                let more_extreme = match (self.claim(), *extreme) {
                    (_, None) => true,
                    (Claim::AtLeast(_), Some(current)) => value > current,
                    (Claim::AtMost(_), Some(current)) => value < current,
                };
                if more_extreme {
                    *extreme = Some(value);
                }
            }
            steps.push(ProofStep::Terminal(value));
            return id;
        }
        steps.push(ProofStep::Replies(Vec::new()));
        let mut moves = Vec::new();
        game.successors(&mut moves);
        let chooser_to_move = (game.to_move() == self.claim().prover()) == proven;
        if chooser_to_move {
            let chosen = moves
                .iter()
                .copied()
                .find(|&mv| self.child_settled(game, mv, proven))
                .expect("invariant: a settled position has a settled child for its chooser");
            game.update(chosen);
            let next = with_stack(|| self.extract_step(game, proven, steps, extreme));
            game.revert(chosen);
            steps[id.index()] = ProofStep::Choice(chosen, next);
        } else {
            let mut replies = Vec::with_capacity(moves.len());
            for mv in moves {
                let settled = self.child_settled(game, mv, proven);
                debug_assert!(settled, "every reply of a settled position is settled");
                game.update(mv);
                let next = with_stack(|| self.extract_step(game, proven, steps, extreme));
                game.revert(mv);
                replies.push((mv, next));
            }
            // As McCarthy's programs `cons` them: the reply searched last first.
            replies.reverse();
            steps[id.index()] = ProofStep::Replies(replies);
        }
        id
    }
}

impl<G: PositionKey<Value = i32>> DfPn<G> {
    /// Weak solving with two claims: the value to MAX is 1 (MAX wins: "at least 1"
    /// proven), 0 (a draw: "at least 0" proven, "at least 1" not) or −1, by the sign of the
    /// game's values.
    pub fn weak_value(&mut self, game: &mut G) -> WeakValue {
        let start = Instant::now();
        let win = self.prove(game, Claim::AtLeast(1));
        let mut stats = win.stats;
        let value = match win.outcome {
            DfPnOutcome::Proven => Some(1),
            DfPnOutcome::Unknown => None,
            DfPnOutcome::Disproven => {
                let draw = self.prove(game, Claim::AtLeast(0));
                stats.nodes += draw.stats.nodes;
                stats.leaves += draw.stats.leaves;
                match draw.outcome {
                    DfPnOutcome::Proven => Some(0),
                    DfPnOutcome::Disproven => Some(-1),
                    DfPnOutcome::Unknown => None,
                }
            }
        };
        stats.elapsed = start.elapsed();
        WeakValue { value, stats }
    }
}

#[cfg(test)]
mod tests;
