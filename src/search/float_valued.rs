//! A game seen with `f64` values, for the searches that compute with real numbers (Slagle's
//! m&n backing-up functions, seed 003) on games whose values are integers.

use crate::game::{Evaluate, Game, Player};

/// `game` with its values converted to `f64` (exactly, for `i32` values and smaller), so
/// that [`crate::mn_alphabeta_depth`] and the other m&n searches, which need
/// `Game<Value = f64>`, can search it. Everything else is the wrapped game's.
///
/// # Example
/// ```
/// use gametree::{Exponents, FloatValued, Slagle, SimpleTicTacToe, mn_alphabeta_depth};
///
/// let mut game = FloatValued(SimpleTicTacToe::new());
/// let one_and_one = Slagle::new(1, 1, Exponents::new(0.0, 1.0)?, Exponents::new(0.0, 1.0)?)?;
/// // 1&1 is ordinary minimaxing: perfect play draws.
/// assert_eq!(mn_alphabeta_depth(&mut game, &one_and_one, 9).value, 0.0);
/// # Ok::<(), gametree::BackingUpError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct FloatValued<G>(pub G);

impl<G> Game for FloatValued<G>
where
    G: Game,
    G::Value: Into<f64>,
{
    type Move = G::Move;
    type Value = f64;

    fn to_move(&self) -> Player {
        self.0.to_move()
    }

    fn successors(&self, moves: &mut Vec<Self::Move>) {
        self.0.successors(moves);
    }

    /// The wrapped game's `ter` in its full window: an `f64` window cannot in general be
    /// turned back into the game's values, and the full window can only make a game that
    /// looks at it search more, never stop too early. A game that ignores the window (as
    /// McCarthy's games whose rules alone decide) sees no difference.
    fn is_terminal(&self) -> bool {
        self.0.is_terminal()
    }

    fn value(&self) -> f64 {
        self.0.value().into()
    }

    fn update(&mut self, mv: Self::Move) {
        self.0.update(mv);
    }

    fn revert(&mut self, mv: Self::Move) {
        self.0.revert(mv);
    }
}

impl<G> Evaluate for FloatValued<G>
where
    G: Evaluate,
    G::Value: Into<f64>,
{
    fn evaluate(&self) -> f64 {
        self.0.evaluate().into()
    }

    fn is_quiet(&self) -> bool {
        self.0.is_quiet()
    }

    fn is_threatened(&self) -> bool {
        self.0.is_threatened()
    }

    fn known_value(&self) -> Option<f64> {
        self.0.known_value().map(Into::into)
    }

    fn history_slot(&self, mv: Self::Move) -> Option<usize> {
        self.0.history_slot(mv)
    }
}
