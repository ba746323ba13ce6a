//! The m&n alpha-beta procedure: Slagle's `sta`, `minv`/`minvl`/`minvl3`,
//! `maxv`/`maxvl`/`maxvl3` of Appendix C (seed 003), generalized to m, n ≥ 1 so that 1&1 is
//! ordinary alpha-beta.
//!
//! Each position is searched in a window (α, β): a value at or below α, or at or above β,
//! is not needed exactly. A MAX position keeps its m best successor values so far, best
//! first (Slagle's list `a` and his `alpha`), and hands its successors the window
//! (floor, β), where floor is the greater of
//! - the m-th best value so far (a successor worth no more does not enter the m best), and
//! - the least of its m − 1 best values or, if smaller, Slagle's `glbua`: the greatest last
//!   value that, with the m − 1 best so far, backs up to at most α. A successor worth no
//!   more can only be the m-th best if no later successor enters the m − 1 best, and then
//!   the position is worth at most α: not needed.
//!
//! A successor worth β or more ends the search of the position (the backed-up value is at
//! least the best successor value); one worth no more than the floor is passed over. MIN
//! positions are the mirror image, with `lubub`. When the backing-up function is monotone in
//! every value ([`BackingUp::is_monotone`]), the search also stops as soon as the values so
//! far back up to β or more: later successors can only raise them.
//!
//! The floor comes from an inverse function through logarithms; to keep the procedure in
//! step with m&n minimaxing to the last bit, the inverse is only a first guess and the
//! floor is the exact floating point boundary of the backing-up function itself (see
//! `boundary.rs`).

use std::time::Instant;

use super::boundary::last_passing;
use super::{
    BackingUp, MnResult, back_up_keys, below, evaluate_quiet, insert_best, key, leaf_value,
    mth_best,
};
use crate::game::{Evaluate, Game, Player};
use crate::search::alphabeta::ValueResult;
use crate::search::history::HistoryTable;
use crate::search::killer::Killers;
use crate::search::observe::{CutoffReason, NoObserver, Observer};
use crate::search::{MoveBuffers, Quiescence, SearchStats, Window, with_stack};

/// Slagle's m&n alpha-beta `sta[p; m; n; dmax]` (Appendix C), searching to terminal
/// positions: the move [`crate::mn_minimax`] chooses, with the same value, found while
/// examining less of the tree.
///
/// Successors are searched in the order of [`Game::successors`]; of equal successors the
/// first is chosen (McCarthy's `bestmax`; Slagle's `sta1` takes the later). With m = n = 1
/// this is ordinary alpha-beta and examines exactly the positions
/// [`crate::alphabeta_value`] examines. [`Game::is_terminal`] receives the window of each
/// position. `backing` must meet the contract of [`BackingUp`].
///
/// The game is returned to the position it was in.
///
/// # Example
/// ```
/// use gametree::{Exponents, Slagle, mn_alphabeta, mn_minimax};
/// # use gametree::{Game, Player};
/// # /// A uniform tree: 3 moves a position, 3 plies, leaf values from the path.
/// # struct Uniform { path: Vec<u32> }
/// # impl Game for Uniform {
/// #     type Move = u32;
/// #     type Value = f64;
/// #     fn to_move(&self) -> Player { if self.path.len().is_multiple_of(2) { Player::Max } else { Player::Min } }
/// #     fn successors(&self, moves: &mut Vec<u32>) { moves.extend(0..3) }
/// #     fn is_terminal(&self) -> bool { self.path.len() == 3 }
/// #     fn value(&self) -> f64 {
/// #         f64::from(self.path.iter().fold(7u32, |hash, &mv| (hash * 31 + mv * 17) % 23))
/// #     }
/// #     fn update(&mut self, mv: u32) { self.path.push(mv) }
/// #     fn revert(&mut self, _: u32) { self.path.pop(); }
/// # }
/// let monotone = Exponents::new(2.0, 0.25)?; // 0.25 · 2² · ln 2 ≤ 1
/// let two_and_two = Slagle::new(2, 2, monotone, monotone)?;
/// let pruned = mn_alphabeta(&mut Uniform { path: vec![] }, &two_and_two);
/// let full = mn_minimax(&mut Uniform { path: vec![] }, &two_and_two);
/// assert_eq!((pruned.value, pruned.best_move), (full.value, full.best_move));
/// assert!(pruned.stats.leaves < full.stats.leaves);
/// # Ok::<(), gametree::BackingUpError>(())
/// ```
pub fn mn_alphabeta<G, B>(game: &mut G, backing: &B) -> MnResult<G::Move>
where
    G: Game<Value = f64>,
    B: BackingUp + ?Sized,
{
    mn_alphabeta_observed(game, backing, &mut NoObserver)
}

/// [`mn_alphabeta`] telling `observer` each position it enters (with its window), each
/// leaf, each m&n value backed up and each cutoff with its reason (`gametree serve` shows
/// them). The root is entered with the full window; each successor of the root is searched
/// in its own window, as in [`mn_alphabeta`].
pub fn mn_alphabeta_observed<G, B, O>(
    game: &mut G,
    backing: &B,
    observer: &mut O,
) -> MnResult<G::Move>
where
    G: Game<Value = f64>,
    B: BackingUp + ?Sized,
    O: Observer<G::Move, f64>,
{
    run_root(
        game,
        backing,
        (None, 0),
        |game: &G, _| Some(game.value()),
        observer,
        (MnOrdering::NONE, |_: &G, _| None),
    )
}

/// [`mn_alphabeta`] to a depth limit (Slagle's `dmax`): positions `depth` plies below the
/// root that are not terminal are valued by [`Evaluate::evaluate`]. `backing` sees the plies
/// left below each successor as `depth_below`.
pub fn mn_alphabeta_depth<G, B>(game: &mut G, backing: &B, depth: u32) -> MnResult<G::Move>
where
    G: Game<Value = f64> + Evaluate,
    B: BackingUp + ?Sized,
{
    mn_alphabeta_depth_quiescent(game, backing, depth, 0)
}

/// [`mn_alphabeta_depth`] with quiescence: the move and value of
/// [`crate::mn_minimax_depth_quiescent`], positions at the depth limit that are not quiet
/// searched on for at most `quiescence_plies` plies past it.
pub fn mn_alphabeta_depth_quiescent<G, B>(
    game: &mut G,
    backing: &B,
    depth: u32,
    quiescence_plies: u32,
) -> MnResult<G::Move>
where
    G: Game<Value = f64> + Evaluate,
    B: BackingUp + ?Sized,
{
    mn_alphabeta_depth_ordered(game, backing, depth, quiescence_plies, MnOrdering::NONE)
}

/// How the m&n alpha-beta procedure orders the successors of the positions below the root.
///
/// The m&n value of a position does not depend on the order its successors are searched
/// in, and the root is always searched in the game's order (of equal successors the first
/// is chosen), so an ordering changes only how much of the tree is examined: the move and
/// the value stay those of [`mn_alphabeta_depth_quiescent`]. It lets 1&1 and 2&2 be
/// compared with the same move ordering (issue 15, "a fair baseline"), as
/// [`crate::SearchOptions`] orders the moves of ordinary alpha-beta.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MnOrdering {
    /// The killer heuristic ([`crate::search::killer`]): the moves that last caused a
    /// cutoff at the same distance from the root are tried first.
    pub killers: bool,
    /// The history heuristic: then the moves that caused the most cutoffs anywhere in the
    /// tree, weighted by the square of the plies searched below them, by
    /// [`Evaluate::history_slot`].
    pub history: bool,
}

impl MnOrdering {
    /// The game's order everywhere, as Slagle's procedure searches.
    pub const NONE: MnOrdering = MnOrdering::both(false);
    /// Killers, then the history heuristic.
    pub const KILLERS_AND_HISTORY: MnOrdering = MnOrdering::both(true);

    /// Both heuristics on, or both off.
    #[must_use]
    pub const fn both(on: bool) -> MnOrdering {
        MnOrdering {
            killers: on,
            history: on,
        }
    }
}

/// [`mn_alphabeta_depth_quiescent`] with the successors of the positions below the root
/// ordered as `ordering` says: the same move and value, usually with fewer positions
/// examined.
pub fn mn_alphabeta_depth_ordered<G, B>(
    game: &mut G,
    backing: &B,
    depth: u32,
    quiescence_plies: u32,
    ordering: MnOrdering,
) -> MnResult<G::Move>
where
    G: Game<Value = f64> + Evaluate,
    B: BackingUp + ?Sized,
{
    run_root(
        game,
        backing,
        (Some(depth), quiescence_plies),
        evaluate_quiet,
        &mut NoObserver,
        (ordering, |game: &G, mv| game.history_slot(mv)),
    )
}

/// Slagle's `maxv[p; oldalpha]` / `minv[p; oldbeta]` (Appendix C): the m&n value of the
/// current position, searched to terminal positions in `window`.
///
/// The value is fail-soft: inside the window it is exact; at or below α the true value is
/// at most the value returned, at or above β at least — as [`ValueResult::bound`] says.
/// Slagle's α and β of the position's predecessors are the window: `maxv[P23; 10]` with
/// the predecessor's β = 15 is the window (10, 15).
pub fn mn_alphabeta_value<G, B>(game: &mut G, backing: &B, window: Window<f64>) -> ValueResult<f64>
where
    G: Game<Value = f64>,
    B: BackingUp + ?Sized,
{
    run_value(game, backing, None, 0, window, |game: &G, _| {
        Some(game.value())
    })
}

/// [`mn_alphabeta_value`] to a depth limit, with [`Evaluate::evaluate`] at the horizon.
pub fn mn_alphabeta_value_depth<G, B>(
    game: &mut G,
    backing: &B,
    window: Window<f64>,
    depth: u32,
) -> ValueResult<f64>
where
    G: Game<Value = f64> + Evaluate,
    B: BackingUp + ?Sized,
{
    mn_alphabeta_value_depth_quiescent(game, backing, window, depth, 0)
}

/// [`mn_alphabeta_value_depth`] with quiescence, as [`mn_alphabeta_depth_quiescent`].
pub fn mn_alphabeta_value_depth_quiescent<G, B>(
    game: &mut G,
    backing: &B,
    window: Window<f64>,
    depth: u32,
    quiescence_plies: u32,
) -> ValueResult<f64>
where
    G: Game<Value = f64> + Evaluate,
    B: BackingUp + ?Sized,
{
    run_value(
        game,
        backing,
        Some(depth),
        quiescence_plies,
        window,
        evaluate_quiet,
    )
}

fn searcher<'b, 'o, B: BackingUp + ?Sized, M, E, O>(
    backing: &'b B,
    quiescence_plies: u32,
    evaluate: E,
    observer: &'o mut O,
) -> AlphaBeta<'b, 'o, B, M, E, O> {
    AlphaBeta {
        backing,
        evaluate,
        observer,
        quiescence: Quiescence::new(quiescence_plies),
        stats: SearchStats::default(),
        moves: MoveBuffers::new(),
        values: MoveBuffers::new(),
        scratch: Vec::new(),
        ordering: None,
        ply: 0,
    }
}

/// The root search of every `mn_alphabeta*` entry point: `limits` are the depth (none:
/// to terminal positions) and the quiescence plies; `ordering` orders the positions below
/// the root, naming moves for the history heuristic by its `slot` function.
fn run_root<G, B, E, O, S>(
    game: &mut G,
    backing: &B,
    (depth, quiescence_plies): (Option<u32>, u32),
    evaluate: E,
    observer: &mut O,
    (ordering, slot): (MnOrdering, S),
) -> MnResult<G::Move>
where
    G: Game<Value = f64>,
    B: BackingUp + ?Sized,
    E: Fn(&G, bool) -> Option<f64>,
    O: Observer<G::Move, f64>,
    S: Fn(&G, G::Move) -> Option<usize>,
{
    let started = Instant::now();
    let mut search = searcher(backing, quiescence_plies, evaluate, observer);
    if ordering != MnOrdering::NONE {
        search.ordering = Some(Ordering {
            killers: ordering.killers.then(Killers::new),
            history: ordering.history.then(HistoryTable::default),
        });
    }
    let (value, best_move) = search.root(game, depth, slot);
    let mut stats = search.stats;
    stats.elapsed = started.elapsed();
    MnResult {
        value,
        best_move,
        stats,
    }
}

fn run_value<G, B, E>(
    game: &mut G,
    backing: &B,
    depth: Option<u32>,
    quiescence_plies: u32,
    window: Window<f64>,
    evaluate: E,
) -> ValueResult<f64>
where
    G: Game<Value = f64>,
    B: BackingUp + ?Sized,
    E: Fn(&G, bool) -> Option<f64>,
{
    let started = Instant::now();
    let mut observer = NoObserver;
    let mut search = searcher(backing, quiescence_plies, evaluate, &mut observer);
    let value = search.value(game, depth, window.alpha, window.beta, &|_: &G, _| None);
    let mut stats = search.stats;
    stats.elapsed = started.elapsed();
    ValueResult {
        value,
        bound: window.bound_of(value),
        stats,
    }
}

struct AlphaBeta<'b, 'o, B: ?Sized, M, E, O> {
    backing: &'b B,
    evaluate: E,
    observer: &'o mut O,
    quiescence: Quiescence,
    stats: SearchStats,
    moves: MoveBuffers<M>,
    values: MoveBuffers<f64>,
    scratch: Vec<f64>,
    /// The move ordering below the root, if any ([`MnOrdering`]).
    ordering: Option<Ordering<M>>,
    /// The distance from the root of the position being searched.
    ply: usize,
}

/// The tables of [`MnOrdering`].
struct Ordering<M> {
    killers: Option<Killers<M>>,
    history: Option<HistoryTable>,
}

impl<M: Copy + Eq> Ordering<M> {
    /// Killers of `ply` first, then the rest by their history counts (equals in the
    /// game's order: an insertion sort, in place, as move lists are short).
    fn order(
        &self,
        ply: usize,
        player: Player,
        moves: &mut [M],
        slot: impl Fn(M) -> Option<usize>,
    ) {
        let first = self
            .killers
            .as_ref()
            .map_or(0, |killers| killers.order(ply, moves));
        if let Some(history) = &self.history {
            history.order(&mut moves[first..], player, slot);
        }
    }

    /// Remembers that `mv` cut off the search of a position `ply` from the root with
    /// `depth` plies left.
    fn record(
        &mut self,
        ply: usize,
        player: Player,
        mv: M,
        depth: Option<u32>,
        slot: Option<usize>,
    ) {
        if let Some(killers) = &mut self.killers {
            killers.record(ply, mv);
        }
        if let (Some(history), Some(slot)) = (&mut self.history, slot) {
            // Plies left + 1: a cutoff at the horizon (quiescence) still counts.
            let weight = u64::from(depth.unwrap_or(0)) + 1;
            history.record(slot, player, weight * weight);
        }
    }
}

impl<B: BackingUp + ?Sized, M: Copy + Eq, E, O: Observer<M, f64>> AlphaBeta<'_, '_, B, M, E, O> {
    /// Slagle's `sta1`: the first successor of greatest value, each searched in the window
    /// (best so far, ∞) for MAX — (−∞, best so far) for MIN.
    fn root<G, S>(&mut self, game: &mut G, depth: Option<u32>, slot: S) -> (f64, Option<M>)
    where
        G: Game<Value = f64, Move = M>,
        E: Fn(&G, bool) -> Option<f64>,
        S: Fn(&G, M) -> Option<usize>,
    {
        if let Some(value) = self.leaf_value(game, depth, f64::NEG_INFINITY, f64::INFINITY) {
            return (value, None);
        }
        let player = game.to_move();
        let mut moves = self.moves.take();
        game.successors(&mut moves);
        let mut best: Option<(f64, M)> = None;
        for &mv in &moves {
            let floor = best.map_or(f64::NEG_INFINITY, |(best_key, _)| best_key);
            let (alpha, beta) = window_for(player, floor, f64::INFINITY);
            self.observer.descend(mv);
            game.update(mv);
            let past = self.quiescence.enter(depth == Some(0));
            self.ply += 1;
            let value = key(
                player,
                with_stack(|| self.value(game, below(depth), alpha, beta, &slot)),
            );
            self.ply -= 1;
            self.quiescence.leave(past);
            game.revert(mv);
            if best.is_none_or(|(best_key, _)| value > best_key) {
                best = Some((value, mv));
            }
        }
        self.moves.give_back(moves);
        let (value, best_move) = match best {
            Some((best_key, mv)) => (key(player, best_key), Some(mv)),
            None => (key(player, f64::NEG_INFINITY), None),
        };
        self.observer.leave(value);
        (value, best_move)
    }

    /// Counts the position and returns its value if the search stops there, asking `ter`
    /// with the position's window; tells the observer it entered the position, and when it
    /// is a leaf, its value.
    fn leaf_value<G>(&mut self, game: &G, depth: Option<u32>, alpha: f64, beta: f64) -> Option<f64>
    where
        G: Game<Value = f64, Move = M>,
        E: Fn(&G, bool) -> Option<f64>,
    {
        self.observer.enter(Some(Window { alpha, beta }));
        let may_extend = self.quiescence.may_extend();
        let value = leaf_value(
            &mut self.stats,
            game,
            depth,
            (alpha, beta),
            may_extend,
            &self.evaluate,
        );
        if let Some(value) = value {
            self.observer.leaf(value);
            self.observer.leave(value);
        }
        value
    }

    /// `maxv`/`maxvl`/`maxvl3` or `minv`/`minvl`/`minvl3`, by whose turn it is: the
    /// fail-soft value of the position in the window (α, β).
    fn value<G, S>(
        &mut self,
        game: &mut G,
        depth: Option<u32>,
        alpha: f64,
        beta: f64,
        slot: &S,
    ) -> f64
    where
        G: Game<Value = f64, Move = M>,
        E: Fn(&G, bool) -> Option<f64>,
        S: Fn(&G, M) -> Option<usize>,
    {
        if let Some(value) = self.leaf_value(game, depth, alpha, beta) {
            return value;
        }
        let player = game.to_move();
        let count = self.backing.count(player);
        let depth_below = below(depth);
        // The window as keys: greater is better for the player to move.
        let (low, high) = match player {
            Player::Max => (alpha, beta),
            Player::Min => (-beta, -alpha),
        };
        let monotone = self.backing.is_monotone(player, depth_below);
        let mut moves = self.moves.take();
        game.successors(&mut moves);
        if let Some(ordering) = &self.ordering {
            ordering.order(self.ply, player, &mut moves, |mv| slot(game, mv));
        }
        // The best keys so far, best first: Slagle's `a` (or `b`) with his `alpha`.
        let mut best = self.values.take();
        // min(glbua, the (m−1)-th best so far); for m = 1 there is no (m−1)-th best and
        // this is α itself, as in ordinary alpha-beta.
        let mut raised = if count == 1 {
            self.threshold(player, &[], low, f64::INFINITY, depth_below)
        } else {
            f64::NEG_INFINITY
        };
        let mut floor = raised;
        let mut cut = None;
        for (index, &mv) in moves.iter().enumerate() {
            let (child_alpha, child_beta) = window_for(player, floor, high);
            self.observer.descend(mv);
            game.update(mv);
            let past = self.quiescence.enter(depth == Some(0));
            self.ply += 1;
            let value = key(
                player,
                with_stack(|| self.value(game, depth_below, child_alpha, child_beta, slot)),
            );
            self.ply -= 1;
            self.quiescence.leave(past);
            game.revert(mv);
            if value >= high {
                // A beta cutoff (an alpha cutoff at MIN): the position is worth at least
                // this successor, which is at least β.
                let reason = match player {
                    Player::Max => CutoffReason::BetaCutoff { value, beta },
                    Player::Min => CutoffReason::AlphaCutoff {
                        value: -value,
                        alpha,
                    },
                };
                self.observer.cutoff(&moves[index + 1..], reason);
                if let Some(ordering) = &mut self.ordering {
                    ordering.record(self.ply, player, mv, depth, slot(game, mv));
                }
                cut = Some(value);
                break;
            }
            if value <= floor {
                continue;
            }
            let position = insert_best(&mut best, value, count)
                .expect("invariant: a value above the floor enters the best values");
            if position + 1 < count {
                // The m − 1 best changed: recompute glbua for them.
                raised = if best.len() + 1 >= count {
                    let cap = best[count - 2];
                    self.threshold(player, &best[..count - 1], low, cap, depth_below)
                } else {
                    f64::NEG_INFINITY
                };
            }
            floor = mth_best(&best, count).max(raised);
            if monotone {
                let bound = back_up_keys(
                    self.backing,
                    &mut self.scratch,
                    player,
                    &best,
                    None,
                    depth_below,
                );
                if bound >= high {
                    let reason = CutoffReason::Bound {
                        value: key(player, bound),
                        bound: key(player, high),
                    };
                    self.observer.cutoff(&moves[index + 1..], reason);
                    if let Some(ordering) = &mut self.ordering {
                        ordering.record(self.ply, player, mv, depth, slot(game, mv));
                    }
                    cut = Some(bound);
                    break;
                }
            }
        }
        let value = if let Some(value) = cut {
            self.stats.cutoffs += 1;
            value
        } else if moves.is_empty() {
            f64::NEG_INFINITY
        } else {
            if floor > mth_best(&best, count) {
                // Slagle's bua[alpha; a] with alpha raised by glbua: at most α.
                back_up_keys(
                    self.backing,
                    &mut self.scratch,
                    player,
                    &best[..count - 1],
                    Some(floor),
                    depth_below,
                )
            } else {
                back_up_keys(
                    self.backing,
                    &mut self.scratch,
                    player,
                    &best,
                    None,
                    depth_below,
                )
            }
        };
        self.moves.give_back(moves);
        self.values.give_back(best);
        let value = key(player, value);
        self.observer.leave(value);
        value
    }

    /// Slagle's `glbua` (MAX) / `lubub` (MIN) as keys, made exact: the greatest key `c` no
    /// greater than `cap` such that `leading` followed by `c` backs up to at most `low`, or
    /// −∞ when none does (no successor is then passed over on this account).
    fn threshold(
        &mut self,
        player: Player,
        leading: &[f64],
        low: f64,
        cap: f64,
        depth_below: Option<u32>,
    ) -> f64 {
        if low == f64::NEG_INFINITY {
            return f64::NEG_INFINITY;
        }
        self.scratch.clear();
        self.scratch.extend(leading.iter().map(|&k| key(player, k)));
        let guess = self
            .backing
            .inverse(player, &self.scratch, key(player, low), depth_below)
            .map(|value| key(player, value));
        let backing = self.backing;
        let scratch = &mut self.scratch;
        let mut passes = |last: f64| {
            back_up_keys(backing, scratch, player, leading, Some(last), depth_below) <= low
        };
        if passes(cap) {
            return cap;
        }
        if !passes(f64::NEG_INFINITY) {
            return f64::NEG_INFINITY;
        }
        last_passing(passes, cap, guess)
    }
}

/// The window (α, β) of a successor of a `player` position whose keys below `floor` and
/// from `high` on are not needed.
fn window_for(player: Player, floor: f64, high: f64) -> (f64, f64) {
    match player {
        Player::Max => (floor, high),
        Player::Min => (-high, -floor),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::m_and_n::{Exponents, Slagle, mn_minimax};

    /// A complete tree of branching 3 and depth 4 with leaf values from the path.
    struct Hashed {
        path: Vec<u32>,
    }

    impl Game for Hashed {
        type Move = u32;
        type Value = f64;
        fn to_move(&self) -> Player {
            if self.path.len().is_multiple_of(2) {
                Player::Max
            } else {
                Player::Min
            }
        }
        fn successors(&self, moves: &mut Vec<u32>) {
            moves.extend(0..3);
        }
        fn is_terminal(&self) -> bool {
            self.path.len() == 4
        }
        fn value(&self) -> f64 {
            let hash = self
                .path
                .iter()
                .fold(11u32, |hash, &mv| (hash * 37 + mv * 13 + 5) % 101);
            f64::from(hash) / 4.0
        }
        fn update(&mut self, mv: u32) {
            self.path.push(mv);
        }
        fn revert(&mut self, _mv: u32) {
            self.path.pop();
        }
    }

    #[test]
    fn alphabeta_agrees_with_minimaxing_and_examines_fewer_leaves() {
        for (m, n) in [(1, 1), (2, 2), (3, 2), (2, 3), (3, 3)] {
            for (shift, slope) in [(3.0, 1.0), (1.0, 0.5), (-1.0, 2.0)] {
                let exponents = Exponents::new(shift, slope).expect("valid exponents");
                let backing = Slagle::new(m, n, exponents, exponents).expect("valid counts");
                let full = mn_minimax(&mut Hashed { path: vec![] }, &backing);
                let pruned = mn_alphabeta(&mut Hashed { path: vec![] }, &backing);
                assert_eq!(pruned.value, full.value, "{m}&{n} x={shift} y={slope}");
                assert_eq!(pruned.best_move, full.best_move, "{m}&{n}");
                assert!(pruned.stats.leaves < full.stats.leaves, "{m}&{n}");
                assert_eq!(full.stats.leaves, 81);
            }
        }
    }

    #[test]
    fn a_window_value_is_exact_inside_and_a_bound_outside() {
        let exponents = Exponents::new(1.0, 0.5).expect("valid exponents");
        let backing = Slagle::new(2, 2, exponents, exponents).expect("valid counts");
        let exact = mn_alphabeta_value(&mut Hashed { path: vec![] }, &backing, Window::full());
        let root_value = exact.value;
        assert_eq!(exact.bound, crate::Bound::Exact);
        let low = mn_alphabeta_value(
            &mut Hashed { path: vec![] },
            &backing,
            Window::new(root_value + 1.0, root_value + 2.0),
        );
        assert_eq!(low.bound, crate::Bound::Upper);
        assert!(low.value >= root_value);
        let high = mn_alphabeta_value(
            &mut Hashed { path: vec![] },
            &backing,
            Window::new(root_value - 2.0, root_value - 1.0),
        );
        assert_eq!(high.bound, crate::Bound::Lower);
        assert!(high.value <= root_value);
    }
}
