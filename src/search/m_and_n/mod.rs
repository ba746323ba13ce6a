//! Slagle's m&n minimaxing and the m&n alpha-beta procedure (seed 003, sections 6–8 and
//! Appendices A–C): a MAX position backs up its m greatest successor values, a MIN position
//! its n least, through a [`BackingUp`] function; 1&1 is ordinary minimaxing.
//!
//! [`mn_minimax`] is Appendix B, the reference; [`mn_alphabeta`] is Appendix C, which
//! chooses the same move while examining less of the tree. Both take the first of equal
//! successors at the root, as McCarthy's `bestmax` does (seed 000); Slagle's `sta1` takes
//! the later one (`alpha ≤ u`). Values are `f64`, from MAX's point of view.

mod alphabeta;
mod backing_up;
mod boundary;
mod minimax;

pub use alphabeta::{
    MnOrdering, mn_alphabeta, mn_alphabeta_depth, mn_alphabeta_depth_ordered,
    mn_alphabeta_depth_quiescent, mn_alphabeta_observed, mn_alphabeta_value,
    mn_alphabeta_value_depth, mn_alphabeta_value_depth_quiescent,
};
pub use backing_up::{
    BackingUp, BackingUpError, Exponents, MonotoneClaim, Slagle, slagle_is_increasing,
};
pub use minimax::{mn_minimax, mn_minimax_depth, mn_minimax_depth_quiescent, mn_minimax_observed};

use crate::game::{Evaluate, Game, Player};
use crate::search::SearchStats;

/// The move an m&n search chooses at the root.
#[derive(Clone, Debug, PartialEq)]
pub struct MnResult<M> {
    /// The value of the chosen successor (Slagle's procedures return the successor, not a
    /// backed-up value of the root). For a terminal root, or a root at the depth limit, its
    /// own value; for a root without successors, the loss for the player to move (−∞ for
    /// MAX, ∞ for MIN).
    pub value: f64,
    /// The first successor, in the order of [`crate::Game::successors`], with the best
    /// value for the player to move; `None` when the root is not searched below.
    pub best_move: Option<M>,
    /// What the search did.
    pub stats: SearchStats,
}

/// A value seen from the side of `player`: greater is better for `player`. Negating is its
/// own inverse, so the same function turns a key back into a value.
#[inline]
fn key(player: Player, value: f64) -> f64 {
    match player {
        Player::Max => value,
        Player::Min => -value,
    }
}

/// Inserts `new` into `best`, a list of keys in decreasing order holding at most `count`
/// keys, and keeps the `count` greatest. Returns the position it took, if it was kept.
fn insert_best(best: &mut Vec<f64>, new: f64, count: usize) -> Option<usize> {
    let position = best.iter().position(|&old| new > old).unwrap_or(best.len());
    if position >= count {
        return None;
    }
    if best.len() == count {
        best.pop();
    }
    best.insert(position, new);
    Some(position)
}

/// The m-th best key so far (`best` keeps at most `count`), or −∞ while fewer are known.
#[inline]
fn mth_best(best: &[f64], count: usize) -> f64 {
    if best.len() == count {
        best[count - 1]
    } else {
        f64::NEG_INFINITY
    }
}

/// Counts the position in `stats` and returns its value if the search stops there:
/// Slagle's `final[p; alpha; beta; dmax]`, that is McCarthy's `ter` with the window, or
/// the evaluation at the depth limit. `evaluate` is asked at the depth limit whether the
/// search may still go on there (`may_extend`: quiescence plies are left) and answers
/// `None` to search on from a position that is not quiet.
fn leaf_value<G: Game<Value = f64>>(
    stats: &mut SearchStats,
    game: &G,
    depth: Option<u32>,
    (alpha, beta): (f64, f64),
    may_extend: bool,
    evaluate: impl Fn(&G, bool) -> Option<f64>,
) -> Option<f64> {
    stats.nodes += 1;
    if crate::game::ter(game, alpha, beta) {
        stats.leaves += 1;
        Some(game.value())
    } else if depth == Some(0) {
        let value = evaluate(game, may_extend);
        stats.leaves += u64::from(value.is_some());
        value
    } else {
        None
    }
}

/// The evaluation at the depth limit with quiescence: `None` (search on) where the
/// position is not quiet and plies past the limit are left.
fn evaluate_quiet<G: Evaluate<Value = f64>>(game: &G, may_extend: bool) -> Option<f64> {
    (!may_extend || game.is_quiet()).then(|| game.evaluate())
}

/// Calls the backing-up function on keys: `best` (decreasing keys, possibly fewer than
/// `count`) followed by `last` if given, padded with the player's worst value, turned into
/// values for `backing` and the answer back into a key. `scratch` is reused.
fn back_up_keys<B: BackingUp + ?Sized>(
    backing: &B,
    scratch: &mut Vec<f64>,
    player: Player,
    best: &[f64],
    last: Option<f64>,
    depth_below: Option<u32>,
) -> f64 {
    let count = backing.count(player);
    scratch.clear();
    scratch.extend(best.iter().chain(last.iter()).map(|&k| key(player, k)));
    scratch.resize(count, key(player, f64::NEG_INFINITY));
    key(player, backing.back_up(player, scratch, depth_below))
}

/// The depth left for the successors of a position with `depth` left.
#[inline]
fn below(depth: Option<u32>) -> Option<u32> {
    depth.map(|depth| depth.saturating_sub(1))
}
