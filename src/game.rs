//! What a game-tree search may know of a game: McCarthy's `successors`, `ter`, `imval`,
//! `update` and `revert` (seed 000, "Game trees" and "The hidden board trick"), and nothing
//! more.
//!
//! The control programs in [`crate::search`](mod@crate::search) are written against [`Game`] alone; a game
//! never knows which algorithm searches it.

use std::fmt;

/// The two players of a game tree. McCarthy calls them the maximizing and the minimizing
/// player; values are always from MAX's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The maximizing player: prefers greater values.
    Max,
    /// The minimizing player: prefers smaller values.
    Min,
}

impl Player {
    /// The other player.
    #[must_use]
    pub fn opponent(self) -> Player {
        match self {
            Player::Max => Player::Min,
            Player::Min => Player::Max,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::Max => "MAX",
            Player::Min => "MIN",
        })
    }
}

/// A totally ordered value of a position, from MAX's point of view.
///
/// Integers and floating point numbers are values. `MIN` and `MAX` play the role of the
/// seed's −∞ and ∞ ("numbers that are smaller and larger than any actual values"): the
/// default window of a search, and the value of a position whose player to move has no
/// successors. Floating point values must not be NaN: a NaN has no place in the order.
pub trait Value: Copy + PartialOrd + fmt::Debug + fmt::Display {
    /// The seed's −∞: no value a game produces is smaller.
    const MIN: Self;
    /// The seed's ∞: no value a game produces is greater.
    const MAX: Self;

    /// The least value greater than this one, if the type has one: what a null-window
    /// search (principal variation search) needs, the window (α, α⁺) holding no value.
    /// `None` by default: the searches that need it then search in the full window.
    fn just_above(self) -> Option<Self> {
        None
    }

    /// The greatest value less than this one, if the type has one (see
    /// [`just_above`](Self::just_above)).
    fn just_below(self) -> Option<Self> {
        None
    }

    /// This value moved `points` of the evaluation's units up (down where negative), if
    /// the type can say so and the result is a value: what a margin round a bound needs
    /// ([`crate::SearchOptions::verified_pruning`]). `None` by default: the searches that
    /// need it then do without.
    fn shifted(self, _points: i32) -> Option<Self> {
        None
    }
}

macro_rules! integer_values {
    ($($t:ty),*) => {$(
        impl Value for $t {
            const MIN: Self = <$t>::MIN;
            const MAX: Self = <$t>::MAX;

            fn just_above(self) -> Option<Self> {
                self.checked_add(1)
            }

            fn just_below(self) -> Option<Self> {
                self.checked_sub(1)
            }

            fn shifted(self, points: i32) -> Option<Self> {
                <$t>::try_from(points).ok().and_then(|points| self.checked_add(points))
            }
        }
    )*};
}
integer_values!(i8, i16, i32, i64, i128, isize);

impl Value for f32 {
    const MIN: Self = f32::NEG_INFINITY;
    const MAX: Self = f32::INFINITY;

    fn just_above(self) -> Option<Self> {
        (self < f32::INFINITY).then(|| self.next_up())
    }

    fn just_below(self) -> Option<Self> {
        (self > f32::NEG_INFINITY).then(|| self.next_down())
    }

    fn shifted(self, points: i32) -> Option<Self> {
        let shifted = self + points as f32;
        shifted.is_finite().then_some(shifted)
    }
}

impl Value for f64 {
    const MIN: Self = f64::NEG_INFINITY;
    const MAX: Self = f64::INFINITY;

    fn just_above(self) -> Option<Self> {
        (self < f64::INFINITY).then(|| self.next_up())
    }

    fn just_below(self) -> Option<Self> {
        (self > f64::NEG_INFINITY).then(|| self.next_down())
    }

    fn shifted(self, points: i32) -> Option<Self> {
        let shifted = self + points as f64;
        shifted.is_finite().then_some(shifted)
    }
}

/// A game as McCarthy characterises it for game-tree search, on a make/unmake board
/// (the seed's "hidden board": the search moves one board forward with [`Game::update`]
/// and back with [`Game::revert`]).
///
/// The search calls, at each position it visits:
/// 1. [`Game::is_terminal`] and, in a window-aware search, [`Game::stops_early`] with the
///    current window — together McCarthy's `ter[p, alpha, beta]`;
/// 2. if terminal, [`Game::value`] — McCarthy's `imval`;
/// 3. otherwise [`Game::successors`], then for each move `update`, the recursive search,
///    and `revert`.
///
/// A non-terminal position without successors is valued as a loss for the player to move:
/// [`Value::MIN`] when MAX is to move and [`Value::MAX`] when MIN is to move. That is what
/// McCarthy's `maxlis`/`minlis` give for an empty list (−∞ and ∞), and what his `vmaxlis`
/// gives clamped to the window (`alpha`), so minimax and alpha-beta agree on it.
pub trait Game {
    /// A move: what [`Game::update`] plays and [`Game::revert`] takes back.
    type Move: Copy + Eq + fmt::Debug;
    /// The value of a position to MAX.
    type Value: Value;

    /// Whose turn it is in the current position.
    ///
    /// The players need not alternate: a game may let the same player move twice or more
    /// in a row (Kalah's extra move). Every search asks at each position it expands and
    /// assumes nothing from the player who moved before (`tests/repeated_movers.rs` holds
    /// them all to that).
    fn to_move(&self) -> Player;

    /// McCarthy's `successors`: appends the moves from the current position to `moves`,
    /// in the order the search is to try them. This is where move ordering lives. The
    /// buffer is owned by the search and reused, so generating moves allocates nothing.
    fn successors(&self, moves: &mut Vec<Self::Move>);

    /// Whether the game is over at the current position: the rules alone decide. With
    /// [`Game::stops_early`] this is McCarthy's `ter[p, alpha, beta]`.
    fn is_terminal(&self) -> bool;

    /// The rest of McCarthy's `ter[p, alpha, beta]`: whether a search in the window
    /// (`alpha`, `beta`) may stop at the current position although the game goes on,
    /// because no value the position can still reach would matter (his tic-tac-toe stops
    /// when even a win on the next move could not beat α). The default never stops early.
    ///
    /// A game that overrides it must value such a position with [`Game::value`] on the
    /// far side of the window (at or below α, at or above β), as McCarthy's `imval` does.
    /// The window-aware searches ([`crate::alphabeta_value`] and its siblings, m&n,
    /// depth-limited search without a table) ask it at every position they visit; the
    /// searches with a transposition table and the solver never do, since a value stored
    /// from a position stopped for one window would be reused in another.
    fn stops_early(&self, alpha: Self::Value, beta: Self::Value) -> bool {
        let _ = (alpha, beta);
        false
    }

    /// McCarthy's `imval`: the value to MAX of a position the search stopped at.
    fn value(&self) -> Self::Value;

    /// McCarthy's `update`: play `mv` on the board.
    fn update(&mut self, mv: Self::Move);

    /// McCarthy's `revert`: take back `mv`, the last move played.
    fn revert(&mut self, mv: Self::Move);
}

/// An optional capability: a static evaluation of any position, used by depth-limited
/// searches at their horizon (seed 002's "evaluation functions"; McCarthy's `imval` applied
/// to "reasonably static positions").
pub trait Evaluate: Game {
    /// An estimate of the current position's value to MAX.
    fn evaluate(&self) -> Self::Value;

    /// Whether the position is "reasonably static" (McCarthy), so that [`evaluate`] can
    /// be trusted where it stands. A depth-limited search with quiescence
    /// ([`crate::SearchOptions::quiescence_plies`]) searches on past its horizon from a
    /// position that is not quiet. Every position is quiet unless the game says
    /// otherwise; checkers says a position where a capture is forced is not.
    ///
    /// [`evaluate`]: Evaluate::evaluate
    fn is_quiet(&self) -> bool {
        true
    }

    /// Whether the player who just moved threatens something the evaluation cannot see:
    /// the position is quiet for the player to move, but would not be if the other player
    /// were to move again (checkers: the player who just moved could capture). With
    /// [`crate::SearchOptions::extend_threats`] such a position at the horizon is searched
    /// one ply more, so that the player to move answers the threat and the quiescence
    /// search plays out what is left of it (GuiNN 2.06 extends so at its leaves). No
    /// threats, the default.
    fn is_threatened(&self) -> bool {
        false
    }

    /// The value of the current position when the game knows it without a search, as an
    /// endgame database knows the positions it holds; `None`, the default, when it does
    /// not. The depth-limited search ([`crate::iterative_deepening`] and the searches built
    /// on it) ends a branch at such a position below the root, as it ends one at a terminal
    /// position: searching on would only find the value again, at the cost of the subtree
    /// (Chinook and Cake probe their databases so at every node). Unless the root's own
    /// value is known: then every line leads to known positions, and the search looks
    /// past them to choose among its moves by [`evaluate`] at the horizon — a won ending
    /// is played towards the win, not round it.
    ///
    /// [`evaluate`]: Evaluate::evaluate
    fn known_value(&self) -> Option<Self::Value> {
        None
    }

    /// A small number naming `mv` for the history heuristic
    /// ([`crate::SearchOptions::use_history`]): moves that cut off the search anywhere in
    /// the tree are tried early everywhere, by this number. Two moves may share a number
    /// (the heuristic is only an ordering); the search keeps a counter for each number up to
    /// the largest it meets, so keep them small (checkers: from-square × 32 + to-square).
    /// `None`, the default, leaves the game's own order.
    fn history_slot(&self, mv: Self::Move) -> Option<usize> {
        let _ = mv;
        None
    }
}

/// A game borrowed mutably is the game: adapters that take a game by value (such as
/// [`crate::search::float_valued::FloatValued`]) can then wrap a borrowed one.
impl<G: Game + ?Sized> Game for &mut G {
    type Move = G::Move;
    type Value = G::Value;

    fn to_move(&self) -> Player {
        (**self).to_move()
    }

    fn successors(&self, moves: &mut Vec<Self::Move>) {
        (**self).successors(moves);
    }

    fn is_terminal(&self) -> bool {
        (**self).is_terminal()
    }

    fn stops_early(&self, alpha: Self::Value, beta: Self::Value) -> bool {
        (**self).stops_early(alpha, beta)
    }

    fn value(&self) -> Self::Value {
        (**self).value()
    }

    fn update(&mut self, mv: Self::Move) {
        (**self).update(mv);
    }

    fn revert(&mut self, mv: Self::Move) {
        (**self).revert(mv);
    }
}

impl<G: Evaluate + ?Sized> Evaluate for &mut G {
    fn evaluate(&self) -> Self::Value {
        (**self).evaluate()
    }

    fn is_quiet(&self) -> bool {
        (**self).is_quiet()
    }

    fn is_threatened(&self) -> bool {
        (**self).is_threatened()
    }

    fn known_value(&self) -> Option<Self::Value> {
        (**self).known_value()
    }

    fn history_slot(&self, mv: Self::Move) -> Option<usize> {
        (**self).history_slot(mv)
    }
}

/// McCarthy's `ter[p, alpha, beta]`: the game is over, or the window lets the search stop
/// ([`Game::stops_early`], asked at every position so that a game may watch the windows).
#[inline]
pub(crate) fn ter<G: Game + ?Sized>(game: &G, alpha: G::Value, beta: G::Value) -> bool {
    let early = game.stops_early(alpha, beta);
    game.is_terminal() || early
}

#[cfg(test)]
mod tests {
    use super::Value;

    #[test]
    fn a_null_window_bound_has_no_value_between_it_and_its_neighbour() {
        assert_eq!(5_i32.just_above(), Some(6));
        assert_eq!(5_i32.just_below(), Some(4));
        assert_eq!(i32::MAX.just_above(), None);
        assert_eq!(i8::MIN.just_below(), None);
        let above = 0.5_f64.just_above().expect("a neighbour");
        assert!(above > 0.5);
        // Nothing lies between: their midpoint rounds to one of them.
        let middle = f64::midpoint(0.5, above);
        assert!(middle == 0.5 || middle == above);
        assert_eq!(f64::INFINITY.just_above(), None);
        assert_eq!(f32::NEG_INFINITY.just_below(), None);
    }

    #[test]
    fn a_value_shifted_by_a_margin_stays_a_value_or_is_none() {
        assert_eq!(100_i32.shifted(-28), Some(72));
        assert_eq!(100_i32.shifted(28), Some(128));
        assert_eq!((i32::MAX - 10).shifted(28), None);
        assert_eq!(0_i8.shifted(300), None);
        assert_eq!(1.5_f64.shifted(-2), Some(-0.5));
        assert_eq!(f64::INFINITY.shifted(-28), None);
        assert_eq!(f32::MIN.shifted(1), Some(f32::MIN));
    }
}
