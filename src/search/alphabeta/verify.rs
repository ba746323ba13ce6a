//! An independent check of McCarthy's proofs (seed 000, "Game trees": the four cases after
//! `treemax`/`treemin`) against the game, sharing no code with the search that built them.

use std::fmt;

use crate::game::{Game, Player, Value};
use crate::search::Bound;
use crate::search::alphabeta::{Proof, ProofId, ProofResult, ProofStep};

/// What a proof claims about the value of a position to MAX.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Claim<V> {
    /// The value is at least this: MAX can force it (the seed's `pfmax`).
    AtLeast(V),
    /// The value is at most this: MIN can force it (the seed's `pfmin`).
    AtMost(V),
}

impl<V: Value> Claim<V> {
    /// The player the proof speaks for: the one who chooses a single move at their turn,
    /// while every move of the other player must be answered.
    #[must_use]
    pub fn prover(self) -> Player {
        match self {
            Claim::AtLeast(_) => Player::Max,
            Claim::AtMost(_) => Player::Min,
        }
    }

    /// Whether a terminal value meets the claim.
    #[must_use]
    pub fn holds_for(self, value: V) -> bool {
        match self {
            Claim::AtLeast(bound) => value >= bound,
            Claim::AtMost(bound) => value <= bound,
        }
    }
}

impl<V: fmt::Display> fmt::Display for Claim<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Claim::AtLeast(value) => write!(f, "value ≥ {value}"),
            Claim::AtMost(value) => write!(f, "value ≤ {value}"),
        }
    }
}

/// Where a proof fails: the moves from the position it was checked at, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct VerifyError<M, V> {
    /// The moves from the starting position to the position where the proof fails.
    pub path: Vec<M>,
    /// What is wrong there.
    pub failure: VerifyFailure<M, V>,
}

/// What is wrong with a proof at one position.
#[derive(Clone, Debug, PartialEq)]
pub enum VerifyFailure<M, V> {
    /// The proof ends with `<v>` but the position is not terminal.
    NotTerminal {
        /// The value the proof gives the position.
        proof_value: V,
    },
    /// The position is terminal but the proof goes on with moves.
    Terminal,
    /// `<v>` at a terminal position whose `imval` is another value.
    WrongValue {
        /// The value in the proof.
        proof_value: V,
        /// The game's value of the position.
        game_value: V,
    },
    /// A terminal value that does not meet the claim.
    BoundNotMet {
        /// The terminal value.
        value: V,
        /// What the proof claims.
        claim: Claim<V>,
    },
    /// The prover is to move, so the proof must name one move (`mv . pf`), not a list.
    ExpectedChoice {
        /// The player to move.
        to_move: Player,
    },
    /// The prover's opponent is to move, so the proof must answer every move (a list of
    /// `mv . pf`), not name one.
    ExpectedReplies {
        /// The player to move.
        to_move: Player,
    },
    /// A move that is not among the position's successors.
    IllegalMove(M),
    /// A move answered twice in one list of replies.
    DuplicateReply(M),
    /// A successor the list of replies does not answer.
    MissingReply(M),
    /// [`verify_result`]: the search's bound requires a proof the result does not have.
    MissingProof(Claim<V>),
}

impl<M: fmt::Debug, V: fmt::Display> fmt::Display for VerifyError<M, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str("at the starting position: ")?;
        } else {
            f.write_str("after moves")?;
            for mv in &self.path {
                write!(f, " {mv:?}")?;
            }
            f.write_str(": ")?;
        }
        match &self.failure {
            VerifyFailure::NotTerminal { proof_value } => {
                write!(
                    f,
                    "the proof ends with <{proof_value}> at a position that is not terminal"
                )
            }
            VerifyFailure::Terminal => {
                f.write_str("the position is terminal but the proof goes on with moves")
            }
            VerifyFailure::WrongValue {
                proof_value,
                game_value,
            } => write!(
                f,
                "the proof gives the value {proof_value} but the position's value is {game_value}"
            ),
            VerifyFailure::BoundNotMet { value, claim } => {
                write!(
                    f,
                    "the terminal value {value} does not meet the claim {claim}"
                )
            }
            VerifyFailure::ExpectedChoice { to_move } => write!(
                f,
                "{to_move} is to move and proves the claim, so the proof must name one move"
            ),
            VerifyFailure::ExpectedReplies { to_move } => write!(
                f,
                "{to_move} is to move against the claim, so the proof must answer every move"
            ),
            VerifyFailure::IllegalMove(mv) => write!(f, "{mv:?} is not a legal move"),
            VerifyFailure::DuplicateReply(mv) => write!(f, "the move {mv:?} is answered twice"),
            VerifyFailure::MissingReply(mv) => write!(f, "the move {mv:?} is not answered"),
            VerifyFailure::MissingProof(claim) => write!(f, "no proof of {claim}"),
        }
    }
}

impl<M: fmt::Debug, V: fmt::Debug + fmt::Display> std::error::Error for VerifyError<M, V> {}

/// Checks that `proof` proves `claim` about the current position of `game`, by the seed's
/// four cases.
///
/// Where the prover (MAX for [`Claim::AtLeast`], MIN for [`Claim::AtMost`]) is to move, the
/// step must be `mv . pf'`: a legal move and a proof for the position it leads to (cases 1
/// and 3). Where the opponent is to move, the step must be a list with exactly one
/// `mv . pf'` for each successor, in any order (cases 2 and 4); a non-terminal position
/// without successors is proved by the empty list. A terminal step `<v>` must stand at a
/// terminal position whose `imval` is `v`, and `v` must meet the claim.
///
/// A position is terminal when [`Game::is_terminal`] holds with the full window (−∞, ∞),
/// the seed's one-argument `ter p`: the proofs are about the game that `successors`, that
/// `ter` and `imval` define. For a game whose `ter` also stops when the window makes the
/// rest pointless (McCarthy's tic-tac-toe does), a search in a narrow window may end a
/// proof at a position that is terminal only for that window; `verify` rejects such a
/// proof with [`VerifyFailure::NotTerminal`], because `imval` there is not a bound of the
/// position's value.
///
/// The check walks the game with `update` and `revert`, without recursion (any depth is
/// safe), and leaves the game in the position it started in, also on failure.
///
/// # Errors
/// A [`VerifyError`] with the moves leading to the first position, in the proof's order,
/// where a case fails.
///
/// # Example
/// ```
/// use gametree::{Claim, ExplicitTree, Window, alphabeta_proof, verify};
///
/// let mut tree: ExplicitTree = "((3 5) (2 9))".parse()?;
/// let result = alphabeta_proof(&mut tree, Window::full());
/// let pfmax = result.at_least.expect("the value is exact");
/// assert!(verify(&mut tree, &pfmax, Claim::AtLeast(3.0)).is_ok());
/// assert!(verify(&mut tree, &pfmax, Claim::AtLeast(4.0)).is_err());
/// # Ok::<(), gametree::ParseTreeError>(())
/// ```
pub fn verify<G: Game>(
    game: &mut G,
    proof: &Proof<G::Move, G::Value>,
    claim: Claim<G::Value>,
) -> Result<(), VerifyError<G::Move, G::Value>> {
    /// A step being checked, with the move that led to it and how many of its replies
    /// have been gone into.
    struct Frame<M> {
        step: ProofId,
        entered_by: Option<M>,
        gone_into: usize,
    }
    let mut checker = Checker {
        moves: Vec::new(),
        answered: Vec::new(),
    };
    let mut stack = vec![Frame {
        step: proof.root(),
        entered_by: None,
        gone_into: 0,
    }];
    let mut failure = checker.check(game, proof.step(proof.root()), claim).err();
    while failure.is_none() {
        let Some(frame) = stack.last_mut() else { break };
        let next = match proof.step(frame.step) {
            ProofStep::Terminal(_) => None,
            ProofStep::Choice(mv, next) => (frame.gone_into == 0).then_some((*mv, *next)),
            ProofStep::Replies(replies) => replies.get(frame.gone_into).copied(),
        };
        frame.gone_into += 1;
        match next {
            Some((mv, step)) => {
                game.update(mv);
                stack.push(Frame {
                    step,
                    entered_by: Some(mv),
                    gone_into: 0,
                });
                failure = checker.check(game, proof.step(step), claim).err();
            }
            None => {
                if let Some(Frame {
                    entered_by: Some(mv),
                    ..
                }) = stack.pop()
                {
                    game.revert(mv);
                }
            }
        }
    }
    let Some(failure) = failure else {
        return Ok(());
    };
    let path: Vec<G::Move> = stack.iter().filter_map(|frame| frame.entered_by).collect();
    for &mv in path.iter().rev() {
        game.revert(mv);
    }
    Err(VerifyError { path, failure })
}

/// Checks the proofs of an alpha-beta result as the seed states them for `tmaxlis`: when
/// the value is at most α (a fail low), `pfmin` proves the position worth at most the
/// value; strictly inside the window, `pfmax` proves it worth at least the value and
/// `pfmin` at most; at least β (a fail high), `pfmax` proves it worth at least the value.
/// The proof the seed requires nothing of is not checked.
///
/// # Errors
/// [`VerifyFailure::MissingProof`] when a required proof is absent, or the first failure
/// [`verify`] finds, `pfmax` first.
///
/// # Example
/// ```
/// use gametree::{ExplicitTree, Window, alphabeta_proof, verify_result};
///
/// let mut tree: ExplicitTree = "((3 5) (2 9))".parse()?;
/// for window in [Window::full(), Window::new(4.0, 10.0), Window::new(0.0, 2.0)] {
///     let result = alphabeta_proof(&mut tree, window);
///     assert!(verify_result(&mut tree, &result).is_ok());
/// }
/// # Ok::<(), gametree::ParseTreeError>(())
/// ```
pub fn verify_result<G: Game>(
    game: &mut G,
    result: &ProofResult<G::Move, G::Value>,
) -> Result<(), VerifyError<G::Move, G::Value>> {
    let (needs_at_least, needs_at_most) = match result.bound {
        Bound::Upper => (false, true),
        Bound::Exact => (true, true),
        Bound::Lower => (true, false),
    };
    let required = [
        (
            needs_at_least,
            &result.at_least,
            Claim::AtLeast(result.value),
        ),
        (needs_at_most, &result.at_most, Claim::AtMost(result.value)),
    ];
    for (needed, proof, claim) in required {
        if !needed {
            continue;
        }
        let Some(proof) = proof else {
            return Err(VerifyError {
                path: Vec::new(),
                failure: VerifyFailure::MissingProof(claim),
            });
        };
        verify(game, proof, claim)?;
    }
    Ok(())
}

/// Buffers reused from position to position, so checking allocates nothing per step once
/// they have grown to the widest position.
struct Checker<M> {
    moves: Vec<M>,
    answered: Vec<bool>,
}

impl<M: Copy + Eq> Checker<M> {
    /// Checks one step of the proof against the current position (not its sub-proofs).
    fn check<G: Game<Move = M>>(
        &mut self,
        game: &G,
        step: &ProofStep<M, G::Value>,
        claim: Claim<G::Value>,
    ) -> Result<(), VerifyFailure<M, G::Value>> {
        let terminal = game.is_terminal();
        let replies = match step {
            ProofStep::Terminal(proof_value) => {
                let proof_value = *proof_value;
                if !terminal {
                    return Err(VerifyFailure::NotTerminal { proof_value });
                }
                let game_value = game.value();
                if game_value != proof_value {
                    return Err(VerifyFailure::WrongValue {
                        proof_value,
                        game_value,
                    });
                }
                if !claim.holds_for(proof_value) {
                    return Err(VerifyFailure::BoundNotMet {
                        value: proof_value,
                        claim,
                    });
                }
                return Ok(());
            }
            _ if terminal => return Err(VerifyFailure::Terminal),
            ProofStep::Choice(mv, _) => {
                let to_move = game.to_move();
                if to_move != claim.prover() {
                    return Err(VerifyFailure::ExpectedReplies { to_move });
                }
                self.moves.clear();
                game.successors(&mut self.moves);
                if !self.moves.contains(mv) {
                    return Err(VerifyFailure::IllegalMove(*mv));
                }
                return Ok(());
            }
            ProofStep::Replies(replies) => replies,
        };
        let to_move = game.to_move();
        if to_move == claim.prover() {
            return Err(VerifyFailure::ExpectedChoice { to_move });
        }
        self.moves.clear();
        game.successors(&mut self.moves);
        self.answered.clear();
        self.answered.resize(self.moves.len(), false);
        let count = self.moves.len();
        for (index, &(mv, _)) in replies.iter().enumerate() {
            // Proofs list replies in the order of the successors or, as the seed's `cons`
            // builds them, in reverse: try those places first, then look everywhere.
            let likely = [index, count.wrapping_sub(index + 1)];
            let unanswered = |at: usize| at < count && !self.answered[at] && self.moves[at] == mv;
            let found = likely
                .into_iter()
                .find(|&at| unanswered(at))
                .or_else(|| (0..count).find(|&at| unanswered(at)));
            match found {
                Some(at) => self.answered[at] = true,
                None if self.moves.contains(&mv) => return Err(VerifyFailure::DuplicateReply(mv)),
                None => return Err(VerifyFailure::IllegalMove(mv)),
            }
        }
        if let Some(at) = self.answered.iter().position(|&answered| !answered) {
            return Err(VerifyFailure::MissingReply(self.moves[at]));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Window;
    use crate::search::alphabeta::alphabeta_proof;
    use crate::search::test_tree::small;

    fn replies(list: &[(usize, usize)]) -> ProofStep<usize, i32> {
        ProofStep::Replies(
            list.iter()
                .map(|&(mv, id)| (mv, ProofId::new(id)))
                .collect(),
        )
    }

    /// `((3 5) (2 9))`'s pfmin by hand: `((2 1 2) (1 1 3))`.
    fn hand_pfmin() -> Vec<ProofStep<usize, i32>> {
        vec![
            replies(&[(2, 1), (1, 3)]),
            ProofStep::Choice(1, ProofId::new(2)),
            ProofStep::Terminal(2),
            ProofStep::Choice(1, ProofId::new(4)),
            ProofStep::Terminal(3),
        ]
    }

    fn check(steps: Vec<ProofStep<usize, i32>>, claim: Claim<i32>) -> Result<(), String> {
        let mut game = small();
        let proof = Proof::from_steps(steps, ProofId::new(0)).expect("a tree");
        let result = verify(&mut game, &proof, claim).map_err(|error| error.to_string());
        assert!(game.path.is_empty(), "the game is back at the root");
        result
    }

    #[test]
    fn the_issue_example_proofs_are_accepted_in_every_window() {
        let mut game = small();
        for (alpha, beta) in [(i32::MIN, i32::MAX), (4, 10), (0, 2), (3, 4), (2, 3)] {
            let result = alphabeta_proof(&mut game, Window::new(alpha, beta));
            assert_eq!(verify_result(&mut game, &result), Ok(()));
            assert!(game.path.is_empty());
        }
    }

    #[test]
    fn a_hand_written_pfmin_proves_at_most_3_and_not_at_most_2() {
        assert_eq!(check(hand_pfmin(), Claim::AtMost(3)), Ok(()));
        assert_eq!(
            check(hand_pfmin(), Claim::AtMost(2)),
            Err("after moves 1 1: the terminal value 3 does not meet the claim value ≤ 2".into())
        );
    }

    #[test]
    fn a_missing_reply_is_named() {
        let mut steps = hand_pfmin();
        steps[0] = replies(&[(2, 1)]);
        assert_eq!(
            check(steps, Claim::AtMost(3)),
            Err("at the starting position: the move 1 is not answered".into())
        );
    }

    #[test]
    fn a_duplicate_or_illegal_reply_is_named() {
        let mut steps = hand_pfmin();
        steps[0] = replies(&[(2, 1), (2, 3)]);
        assert_eq!(
            check(steps, Claim::AtMost(3)),
            Err("at the starting position: the move 2 is answered twice".into())
        );
        let mut steps = hand_pfmin();
        steps[0] = replies(&[(2, 1), (1, 3), (3, 5)]);
        steps.push(ProofStep::Terminal(3));
        assert_eq!(
            check(steps, Claim::AtMost(3)),
            Err("at the starting position: 3 is not a legal move".into())
        );
    }

    #[test]
    fn a_changed_leaf_value_is_named() {
        let mut steps = hand_pfmin();
        steps[2] = ProofStep::Terminal(1);
        assert_eq!(
            check(steps, Claim::AtMost(3)),
            Err(
                "after moves 2 1: the proof gives the value 1 but the position's value is 2".into()
            )
        );
    }

    #[test]
    fn steps_of_the_wrong_kind_are_rejected() {
        // MAX to move cannot be answered with a single move in a proof of at most.
        let steps = vec![
            ProofStep::Choice(1, ProofId::new(1)),
            ProofStep::Terminal(3),
        ];
        assert!(
            check(steps, Claim::AtMost(3))
                .expect_err("wrong kind")
                .contains("must answer every move")
        );
        // A proof that stops early, or goes on past a leaf.
        assert!(
            check(vec![ProofStep::Terminal(3)], Claim::AtMost(3))
                .expect_err("not terminal")
                .contains("not terminal")
        );
        let mut steps = hand_pfmin();
        steps[2] = ProofStep::Choice(1, ProofId::new(5));
        steps.push(ProofStep::Terminal(2));
        assert!(
            check(steps, Claim::AtMost(3))
                .expect_err("past a leaf")
                .contains("after moves 2 1: the position is terminal")
        );
    }

    #[test]
    fn a_result_without_the_proof_its_bound_requires_is_rejected() {
        let mut game = small();
        let mut result = alphabeta_proof(&mut game, Window::full());
        result.at_most = None;
        assert_eq!(
            verify_result(&mut game, &result)
                .expect_err("missing")
                .failure,
            VerifyFailure::MissingProof(Claim::AtMost(3))
        );
    }
}
