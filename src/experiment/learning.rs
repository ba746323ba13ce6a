//! Learning the backing-up functions (seed 003, section 8, steps a–g with procedures 8.1
//! and 8.2): for dmax = 0, 1, …, D − 2 in turn, the deep value of each typical position
//! against the values of its two best successors searched dmax deeper by 2&2 alpha-beta
//! with the functions already learned.

use serde::{Deserialize, Serialize};

use super::fitting::{LEAST_SHIFT, Observation};
use super::game::{deep_value_in, two_best_successors_in};
use super::parameters::SlagleParameters;
use crate::game::Player;
use crate::games::checkers::{Checkers, Position, WIN_VALUE};
use crate::search::m_and_n::{Exponents, Slagle};

/// Values this large belong to decided games (a win or loss seen within the search), not
/// to the evaluation: such positions are left out of the fit, where one would outweigh
/// thousands of others.
pub const DECIDED: f64 = (WIN_VALUE / 2) as f64;

/// Which kind of position backs up over successors with this dmax in a search of depth
/// `depth` from a MAX root (section 8: with D = 8, MIN positions at even dmax and MAX
/// positions at odd dmax). The root itself does not back up; it picks its best successor.
#[must_use]
pub fn position_kind(depth: u32, dmax: u32) -> Player {
    if (depth - dmax).is_multiple_of(2) {
        Player::Min
    } else {
        Player::Max
    }
}

/// What section 8 needs of one typical position at one dmax, all from the side of the
/// player to move there (greater is better for that player).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LearningSample {
    /// The position's index among the typical positions.
    pub position: usize,
    /// The plies searched below each successor.
    pub dmax: u32,
    /// Slagle's a₂ (b₂ at MIN): the best successor value.
    pub best: f64,
    /// Slagle's α (β at MIN): the second best successor value.
    pub second: f64,
    /// Slagle's v⁽ⁱ⁾: the 1&1 alpha-beta value of the position at the full depth D.
    pub deep: f64,
}

impl LearningSample {
    /// Whether a value is a won or lost game rather than an evaluation.
    #[must_use]
    pub fn is_decided(&self) -> bool {
        self.best.abs() >= DECIDED || self.second.abs() >= DECIDED || self.deep.abs() >= DECIDED
    }

    /// The sample as the fit sees it: gap a₂ − α and excess v − a₂.
    #[must_use]
    pub fn observation(&self) -> Observation {
        Observation {
            gap: self.best - self.second,
            excess: self.deep - self.best,
        }
    }
}

/// Slagle's v⁽ᵏ⁾: the value of `position` by 1&1 alpha-beta `depth` plies deep (with
/// `quiescence_plies` of quiescence), from the side of the player to move, and the
/// positions the search visited.
#[must_use]
pub fn deep_value(position: &Position, depth: u32, quiescence_plies: u32) -> (f64, u64) {
    deep_value_in(
        &mut Checkers::from_position(*position),
        depth,
        quiescence_plies,
    )
}

/// The two best successor values of `position` (best first, from the side of the player
/// to move), each successor searched `dmax` plies deep by m&n alpha-beta with `functions`
/// (sections 8.1 and 8.2), and the positions visited. A successor that cannot be among the
/// two best is searched in a window that only proves it (fail-soft), not valued exactly.
/// `None` when the position has fewer than two successors.
#[must_use]
pub fn two_best_successors(
    position: &Position,
    dmax: u32,
    functions: &Slagle,
    quiescence_plies: u32,
) -> Option<((f64, f64), u64)> {
    two_best_successors_in(
        Checkers::from_position(*position),
        dmax,
        functions,
        quiescence_plies,
    )
}

/// The functions learned so far, for the 2&2 searches of the next dmax: each fitted dmax
/// with its exponents for both players (checkers is the same game for both colours, so
/// the function a MIN position learns at a dmax serves a MAX position there too).
#[must_use]
pub fn functions_so_far(fitted: &[(u32, Exponents)]) -> Slagle {
    if fitted.is_empty() {
        // dmax = 0: successors are evaluated where they stand and nothing is backed up.
        let nothing = Exponents::new(LEAST_SHIFT, 1.0).expect("invariant: valid exponents");
        return Slagle::new(2, 2, nothing, nothing).expect("invariant: 2&2");
    }
    SlagleParameters::symmetric(fitted)
        .to_slagle()
        .expect("invariant: fitted exponents are finite with a positive slope")
}

/// Section 8's sample of typical position number `index` at `dmax`: its deep value (from
/// [`deep_value`]) against its two best successors; `None` when it has fewer than two.
#[must_use]
pub fn learning_sample(
    index: usize,
    position: &Position,
    deep: f64,
    dmax: u32,
    functions: &Slagle,
    quiescence_plies: u32,
) -> Option<(LearningSample, u64)> {
    let ((best, second), nodes) = two_best_successors(position, dmax, functions, quiescence_plies)?;
    Some((
        LearningSample {
            position: index,
            dmax,
            best,
            second,
            deep,
        },
        nodes,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::float_valued::FloatValued;
    use crate::search::m_and_n::mn_alphabeta_depth;

    #[test]
    fn slagles_kinds_alternate_with_min_positions_at_even_dmax_for_depth_eight() {
        // Section 8, steps a–g: dmax 0, 2, 4, 6 at MIN positions, 1, 3, 5 at MAX positions.
        let kinds: Vec<Player> = (0..=6).map(|dmax| position_kind(8, dmax)).collect();
        assert_eq!(
            kinds,
            [
                Player::Min,
                Player::Max,
                Player::Min,
                Player::Max,
                Player::Min,
                Player::Max,
                Player::Min
            ]
        );
    }

    #[test]
    fn at_dmax_zero_the_two_best_are_the_evaluations_of_the_successors() {
        let position = Position::initial();
        let ((best, second), _) =
            two_best_successors(&position, 0, &functions_so_far(&[]), 0).expect("seven moves");
        let mut values = Vec::new();
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        for mv in moves {
            let child = Checkers::from_position(position.play(mv));
            values.push(f64::from(crate::Evaluate::evaluate(&child)));
        }
        values.sort_by(|a, b| b.total_cmp(a));
        assert_eq!((best, second), (values[0], values[1]));
    }

    #[test]
    fn the_best_successor_is_the_value_the_root_search_finds() {
        // The best of the successors searched one ply less deep is the 2&2 root value.
        let functions = functions_so_far(&[(0, Exponents::new(2.0, 0.1).expect("valid"))]);
        let position = Position::from_fen(
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,13",
        )
        .expect("valid");
        let ((best, _), _) = two_best_successors(&position, 1, &functions, 0).expect("moves");
        let mut game = FloatValued(Checkers::from_position(position));
        let root = mn_alphabeta_depth(&mut game, &functions, 2);
        assert_eq!(best, -root.value);
    }
}
