//! Aspiration search: alpha-beta in an estimated window, searched again when the value
//! falls outside it (seed 000, "Game trees", the paragraph after the four proof cases:
//! "Suppose we estimate that a < vmax p < b ...").

use std::time::Instant;

use crate::game::{Game, Value};
use crate::search::alphabeta::{ValueResult, alphabeta_value};
use crate::search::{Bound, SearchStats, Window};

/// What aspiration search needs of a value beyond [`Value`]: moving it by a width and
/// widening the width. Implemented for the integer types (saturating at their `MIN` and
/// `MAX`) and for `f32`/`f64` (reaching ±∞).
pub trait AspirationValue: Value {
    /// `self` lowered by `width`, no lower than [`Value::MIN`].
    #[must_use]
    fn lowered_by(self, width: Self) -> Self;
    /// `self` raised by `width`, no higher than [`Value::MAX`].
    #[must_use]
    fn raised_by(self, width: Self) -> Self;
    /// The next width after a failed search: twice `self`, and at least the unit (1) so a
    /// width of zero or less still grows.
    #[must_use]
    fn widened(self) -> Self;
}

macro_rules! integer_aspiration {
    ($($t:ty),*) => {$(
        impl AspirationValue for $t {
            fn lowered_by(self, width: Self) -> Self {
                self.saturating_sub(width)
            }
            fn raised_by(self, width: Self) -> Self {
                self.saturating_add(width)
            }
            fn widened(self) -> Self {
                self.saturating_mul(2).max(1)
            }
        }
    )*};
}
integer_aspiration!(i8, i16, i32, i64, i128, isize);

macro_rules! float_aspiration {
    ($($t:ty),*) => {$(
        impl AspirationValue for $t {
            fn lowered_by(self, width: Self) -> Self {
                self - width
            }
            fn raised_by(self, width: Self) -> Self {
                self + width
            }
            fn widened(self) -> Self {
                // NaN and non-positive widths become 1.
                if self > 0.0 { self * 2.0 } else { 1.0 }
            }
        }
    )*};
}
float_aspiration!(f32, f64);

/// The value found by aspiration search, and what it took.
#[derive(Clone, Debug, PartialEq)]
pub struct AspirationResult<V> {
    /// The minimax value (for a game whose `ter` ignores the window): what a search in
    /// the full window returns.
    pub value: V,
    /// Every window searched, in order; the first is the estimate.
    pub windows: Vec<Window<V>>,
    /// The figures of all the searches added up (elapsed time included).
    pub stats: SearchStats,
}

impl<V> AspirationResult<V> {
    /// How many searches were repeated after a fail low or fail high.
    #[must_use]
    pub fn re_searches(&self) -> usize {
        self.windows.len().saturating_sub(1)
    }
}

/// Aspiration search: McCarthy's `valmax`/`valmin` ([`alphabeta_value`]) first in the
/// window (`guess − width`, `guess + width`), then again until the value is known.
///
/// The seed: "if `valmax[p, a, b] = val` with `a < val < b` then we win as we now have the
/// correct value and hopefully the narrower range caused even more pruning than usual. If
/// `val ≤ a` then we must lower the estimate of the value and try again. Similarly if
/// `val ≥ b` then we raise the estimate." A fail low at `a` shows the value is at most
/// `a`, so the next window is (`a − w`, `a`) with the width `w` doubled; a fail high at
/// `b` gives (`b`, `b + w`). The doubling reaches the ends of the value type, which is the
/// full window on that side, so the search always ends. Each window also stays inside what
/// earlier searches proved; when a bound meets a proven bound (a fail low at a proven lower
/// bound, say) the value is that bound, and at [`Value::MIN`] or [`Value::MAX`] it is the
/// end itself.
///
/// The value equals that of a full-window search for any game whose `is_terminal`
/// ignores the window. A width of zero or less starts at the unit width (1).
///
/// The game is returned to the position it was in.
///
/// # Example
/// ```
/// use gametree::{ExplicitTree, aspiration_value};
///
/// let mut tree: ExplicitTree = "((3 5) (2 9))".parse()?;
/// // Guessing 10 ± 1 fails low in (9, 11), (7, 9) and (3, 7), then high in (−5, 3):
/// // the value is at most 3 and at least 3.
/// let result = aspiration_value(&mut tree, 10.0, 1.0);
/// assert_eq!(result.value, 3.0);
/// assert_eq!(result.re_searches(), 3);
/// # Ok::<(), gametree::ParseTreeError>(())
/// ```
pub fn aspiration_value<G>(
    game: &mut G,
    guess: G::Value,
    width: G::Value,
) -> AspirationResult<G::Value>
where
    G: Game,
    G::Value: AspirationValue,
{
    aspiration_search(guess, width, |window| alphabeta_value(game, window))
}

/// The aspiration loop of [`aspiration_value`] around any fail-hard search in a window:
/// `search` is called with each window in turn. The depth-limited searches use it too.
pub(crate) fn aspiration_search<V: AspirationValue>(
    guess: V,
    width: V,
    mut search: impl FnMut(Window<V>) -> ValueResult<V>,
) -> AspirationResult<V> {
    let started = Instant::now();
    // `width − width < width` holds exactly for the positive widths (not for NaN or ∞).
    let mut width = if width.lowered_by(width) < width {
        width
    } else {
        width.widened()
    };
    // What the searches so far have shown: lowest ≤ value ≤ highest.
    let (mut lowest, mut highest) = (V::MIN, V::MAX);
    let mut window = Window::new(guess.lowered_by(width), guess.raised_by(width));
    let mut windows = Vec::new();
    let mut stats = SearchStats::default();
    let value = loop {
        // Keep the window inside what is known, and never empty.
        if window.alpha < lowest {
            window.alpha = lowest;
        }
        if window.beta > highest {
            window.beta = highest;
        }
        if window.alpha >= window.beta {
            window = Window::new(lowest, highest);
        }
        let result = search(window);
        windows.push(window);
        stats.add_counts(&result.stats);
        width = width.widened();
        match result.bound {
            Bound::Exact => break result.value,
            Bound::Upper => {
                // Fail low: value ≤ alpha.
                highest = window.alpha;
                if window.alpha <= lowest {
                    break window.alpha;
                }
                window = Window::new(window.alpha.lowered_by(width), window.alpha);
            }
            Bound::Lower => {
                // Fail high: value ≥ beta.
                lowest = window.beta;
                if window.beta >= highest {
                    break window.beta;
                }
                window = Window::new(window.beta, window.beta.raised_by(width));
            }
        }
    };
    stats.elapsed = started.elapsed();
    AspirationResult {
        value,
        windows,
        stats,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::minimax::minimax;
    use crate::search::test_tree::small;

    #[test]
    fn a_good_guess_needs_one_search_and_fewer_leaves() {
        let mut game = small();
        let full = alphabeta_value(&mut game, Window::full());
        let result = aspiration_value(&mut game, 3, 1);
        assert_eq!(result.value, 3);
        assert_eq!(result.windows, vec![Window::new(2, 4)]);
        assert_eq!(result.re_searches(), 0);
        assert!(result.stats.leaves <= full.stats.leaves);
        assert!(game.path.is_empty());
    }

    #[test]
    fn a_guess_too_high_fails_low_then_widens() {
        let mut game = small();
        let result = aspiration_value(&mut game, 20, 1);
        assert_eq!(result.value, 3);
        assert_eq!(
            result.windows,
            vec![
                Window::new(19, 21),
                Window::new(17, 19),
                Window::new(13, 17),
                Window::new(5, 13),
                Window::new(-11, 5)
            ]
        );
    }

    #[test]
    fn a_guess_too_low_fails_high_then_widens() {
        let mut game = small();
        let result = aspiration_value(&mut game, -2, 1);
        assert_eq!(result.value, 3);
        assert_eq!(
            result.windows,
            vec![Window::new(-3, -1), Window::new(-1, 1), Window::new(1, 5)]
        );
    }

    #[test]
    fn a_fail_low_at_a_proven_lower_bound_is_the_value() {
        let mut game = small();
        let result = aspiration_value(&mut game, 1, 2);
        assert_eq!(result.value, 3);
        // (−1, 3) fails high at 3, then (3, 7) fails low at 3.
        assert_eq!(result.windows, vec![Window::new(-1, 3), Window::new(3, 7)]);
        assert_eq!(result.stats.nodes, {
            let mut total = 0;
            for window in &result.windows {
                total += alphabeta_value(&mut game, *window).stats.nodes;
            }
            total
        });
    }

    #[test]
    fn extreme_guesses_and_widths_still_end_with_the_minimax_value() {
        let mut game = small();
        let expected = minimax(&mut game).value;
        for (guess, width) in [(i32::MAX, 1), (i32::MIN, 1), (0, 0), (0, -5), (0, i32::MAX)] {
            let result = aspiration_value(&mut game, guess, width);
            assert_eq!(result.value, expected, "guess {guess}, width {width}");
            assert!(
                result
                    .windows
                    .iter()
                    .all(|window| window.alpha < window.beta)
            );
        }
    }

    #[test]
    fn floating_point_widths_reach_the_infinities() {
        let mut game = crate::ExplicitTree::parse("((3.5 5) (2 9))").expect("well formed");
        for (guess, width) in [
            (1e300, 1.0),
            (-1e300, 0.5),
            (0.0, 0.0),
            (f64::INFINITY, 1.0),
        ] {
            assert_eq!(aspiration_value(&mut game, guess, width).value, 3.5);
        }
    }
}
