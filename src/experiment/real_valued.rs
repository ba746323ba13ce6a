//! A game with integer values seen through real ones: Slagle's backing-up functions
//! (seed 003, section 8) add 2^(x − (a₂ − α)·y) to a value, which needs real numbers, while
//! checkers values positions in whole points.

use crate::game::{Evaluate, Game, Player};

/// `G` with its `i32` values as `f64`, so the m&n searches ([`crate::mn_alphabeta_depth`]),
/// which back up real values, can search it. Every integer value is exactly representable,
/// so 1&1 search on the wrapper finds exactly the values of the integer game.
///
/// # Example
/// ```
/// use gametree::experiment::RealValued;
/// use gametree::{Checkers, Evaluate};
///
/// let game = RealValued(Checkers::new());
/// assert_eq!(game.evaluate(), 0.0);
/// ```
#[derive(Clone, Debug)]
pub struct RealValued<G>(pub G);

/// The window bound `value` as an integer that keeps the window at least as wide: `floor`
/// for α, `ceil` for β, saturating at the integer infinities.
fn widen(value: f64, floor: bool) -> i32 {
    let rounded = if floor { value.floor() } else { value.ceil() };
    // `as` saturates, and maps ±∞ to i32::MIN / i32::MAX, the integer infinities.
    rounded as i32
}

impl<G: Game<Value = i32>> Game for RealValued<G> {
    type Move = G::Move;
    type Value = f64;

    fn to_move(&self) -> Player {
        self.0.to_move()
    }

    fn successors(&self, moves: &mut Vec<Self::Move>) {
        self.0.successors(moves);
    }

    fn is_terminal(&self, alpha: f64, beta: f64) -> bool {
        self.0.is_terminal(widen(alpha, true), widen(beta, false))
    }

    fn value(&self) -> f64 {
        f64::from(self.0.value())
    }

    fn update(&mut self, mv: Self::Move) {
        self.0.update(mv);
    }

    fn revert(&mut self, mv: Self::Move) {
        self.0.revert(mv);
    }
}

impl<G: Evaluate<Value = i32>> Evaluate for RealValued<G> {
    fn evaluate(&self) -> f64 {
        f64::from(self.0.evaluate())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_are_widened_to_whole_points_and_infinities_saturate() {
        assert_eq!(widen(2.5, true), 2);
        assert_eq!(widen(2.5, false), 3);
        assert_eq!(widen(f64::NEG_INFINITY, true), i32::MIN);
        assert_eq!(widen(f64::INFINITY, false), i32::MAX);
    }
}
