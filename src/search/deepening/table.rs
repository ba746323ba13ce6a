//! The depth-limited searches with a [`TranspositionTable`]: what they store, and when a
//! stored bound may stand in for a search.
//!
//! # What is stored
//! After searching a position with `depth` plies left in the window (α, β), the fail-hard
//! result `r` is stored with its bound ([`Window::bound_of`]): exact when α < r < β, an upper
//! bound when r ≤ α (fail low), a lower bound when r ≥ β (fail high); with the move that
//! raised the value last or caused the cutoff (none on a fail low). Values pass through
//! [`TableSearch::distance`] first, so a game that scores wins by their distance from the
//! root stores them as distances from the position.
//!
//! # When a stored entry ends a search
//! At a position other than the root, an entry deep enough ([`Reuse`]) ends the search at
//! once with the value the search would have returned: the stored exact value clamped to
//! the window, β for a lower bound at or above β, α for an upper bound at or below α. In
//! a search that keeps its principal line, an exact value strictly inside the window is
//! not used (the line below it is not stored) — the position is searched, its stored move
//! first. Every entry's move is tried first (after the previous principal line's move).
//!
//! # When the results equal those without a table
//! With [`Reuse::SameDepth`], the value of every search (and of every iteration of
//! iterative deepening) is that of the search without the table, provided
//! 1. the key identifies what the value depends on: equal keys, equal depth-limited values
//!    (positions whose values depend on the history — draw by repetition, a move-count
//!    rule — break this unless the history is in the key);
//! 2. the game's [`Game::is_terminal`] ignores the window: McCarthy's `ter[p, α, β]` may
//!    stop a search early because of the window, and then a result found in one window is
//!    not a bound valid in another (do not use a table with such a game);
//! 3. values that depend on the distance from the root are made position-relative by
//!    [`TableSearch::distance`];
//! 4. no two positions the search meets share a key (a Zobrist collision, about 2⁻⁶⁴ per
//!    pair).
//!
//! The reported line and best move may differ where moves tie, since the stored moves
//! reorder the search. [`Reuse::AtLeastDepth`], the usual choice in play, also takes
//! entries from deeper searches: its values are then at least as well informed, but not
//! those of a fixed-depth search.

use crate::game::Game;
use crate::search::transposition::{PositionKey, TableEntry, TranspositionTable};
use crate::search::{Bound, Window};

/// Which stored entries may end a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reuse {
    /// Only entries searched to exactly the plies left here: results equal those of the
    /// search without a table (see the module documentation for the conditions).
    SameDepth,
    /// Entries searched at least as deep: fewer positions, values at least as deep.
    AtLeastDepth,
    /// No entry ends a search; stored moves only order the moves.
    OrderingOnly,
}

/// Converts values between the root's point of view and the position's, for games that
/// score a win by its distance from the root (a win in 3 plies from the root is a win in
/// 1 ply from a position 2 plies down).
#[derive(Clone, Copy, Debug)]
pub struct DistanceAdjustment<V> {
    /// A value found `ply` plies below the root, as the position's own.
    pub to_position: fn(V, usize) -> V,
    /// A position's stored value, as seen from a root `ply` plies above.
    pub to_root: fn(V, usize) -> V,
}

impl<V> DistanceAdjustment<V> {
    /// No conversion: values that depend on the position alone.
    #[must_use]
    pub fn none() -> Self {
        DistanceAdjustment {
            to_position: |value, _| value,
            to_root: |value, _| value,
        }
    }
}

/// What the table did in a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    /// Positions looked up.
    pub probes: u64,
    /// Lookups that found an entry.
    pub hits: u64,
    /// Searches an entry ended.
    pub cutoffs: u64,
    /// Entries stored.
    pub stores: u64,
}

/// A transposition table and how a depth-limited search uses it: the argument of
/// [`super::depth_limited_value_with_table`] and its siblings. The table outlives the
/// search, so the next search (the next move in a game) can use what this one stored.
///
/// # Example
/// ```
/// use gametree::games::checkers::DrawRules;
/// use gametree::{Checkers, Reuse, TableSearch, TranspositionTable, Window};
/// use gametree::{depth_limited_value, depth_limited_value_with_table};
///
/// let rules = DrawRules { quiet_move_limit: 0, repetitions: 0 };
/// let mut game = Checkers::new().with_rules(rules);
/// let mut table = TranspositionTable::with_mib(1);
/// let mut search = TableSearch::new(&mut table).with_reuse(Reuse::SameDepth);
/// search.distance = Checkers::distance_adjustment();
/// let with = depth_limited_value_with_table(&mut game, 7, Window::full(), &mut search);
/// let without = depth_limited_value(&mut game, 7, Window::full());
/// assert_eq!(with.value, without.value);
/// assert!(with.stats.nodes < without.stats.nodes);
/// ```
#[derive(Debug)]
pub struct TableSearch<'t, M, V> {
    /// The table, shared with later searches.
    pub table: &'t mut TranspositionTable<M, V>,
    /// Which entries may end a search.
    pub reuse: Reuse,
    /// How values are made position-relative for the table.
    pub distance: DistanceAdjustment<V>,
    /// What the table did, added up over the searches that used this `TableSearch`.
    pub stats: TableStats,
}

impl<'t, M, V> TableSearch<'t, M, V> {
    /// The table used with [`Reuse::AtLeastDepth`] and no distance adjustment.
    pub fn new(table: &'t mut TranspositionTable<M, V>) -> Self {
        TableSearch {
            table,
            reuse: Reuse::AtLeastDepth,
            distance: DistanceAdjustment::none(),
            stats: TableStats::default(),
        }
    }

    /// The same with another [`Reuse`].
    #[must_use]
    pub fn with_reuse(mut self, reuse: Reuse) -> Self {
        self.reuse = reuse;
        self
    }

    /// The same with a [`DistanceAdjustment`].
    #[must_use]
    pub fn with_distance(mut self, distance: DistanceAdjustment<V>) -> Self {
        self.distance = distance;
        self
    }
}

/// What a lookup found: a value that ends the search, or a move to try first.
pub(super) struct Probe<M, V> {
    pub(super) cutoff: Option<V>,
    pub(super) best_move: Option<M>,
    /// The stored move by its place in [`Game::successors`]' list, for a table that keeps
    /// moves so ([`TableAccess::MOVES_BY_PLACE`]).
    pub(super) best_place: Option<u8>,
}

/// The engine's access to a table, or to none: the search without a table compiles to
/// what it was before tables existed.
pub(super) trait TableAccess<G: Game> {
    /// Whether the search may stop where the window allows ([`Game::stops_early`]): not
    /// with a table, whose entries are reused in other windows.
    const WINDOW_STOPS: bool;

    /// Whether the table keeps moves by their places in [`Game::successors`]' list: the
    /// search then tells [`store`](Self::store) the best move's place.
    const MOVES_BY_PLACE: bool = false;

    /// Looks the current position up; `keep_exact` says an exact value strictly inside
    /// the window must not end the search (its line is needed).
    fn probe(
        &mut self,
        game: &G,
        depth: u32,
        ply: usize,
        window: Window<G::Value>,
        keep_exact: bool,
    ) -> Probe<G::Move, G::Value>;

    /// Starts loading the current position's entry into the cache: the search calls it
    /// right after making a move whose position it will probe, so that the child's
    /// terminal test and move generation overlap the memory's latency.
    #[inline(always)]
    fn prefetch(&self, _game: &G) {}

    /// Starts loading the entry of the position `mv` leads to, where the game computes
    /// that key cheaply ([`PositionKey::KEY_AFTER_IS_CHEAP`]): the search calls it for the
    /// next move before it searches the current one, so that the memory's latency overlaps
    /// a whole subtree instead of a terminal test (`prefetch` alone hides little of it).
    #[inline(always)]
    fn prefetch_after(&self, _game: &mut G, _mv: G::Move) {}

    /// How many searches entries have ended so far.
    fn cutoffs(&self) -> u64;

    /// Stores the fail-hard result `value` of the current position, searched with `depth`
    /// plies left in `window`, with its best move (and, where the table keeps moves by
    /// place, its place in the list of successors).
    fn store(
        &mut self,
        game: &G,
        depth_ply: (u32, usize),
        window: Window<G::Value>,
        value: G::Value,
        best: (Option<G::Move>, Option<usize>),
    );
}

/// No table.
pub(super) struct NoTable;

impl<G: Game> TableAccess<G> for NoTable {
    const WINDOW_STOPS: bool = true;

    #[inline(always)]
    fn probe(
        &mut self,
        _game: &G,
        _depth: u32,
        _ply: usize,
        _window: Window<G::Value>,
        _keep_exact: bool,
    ) -> Probe<G::Move, G::Value> {
        Probe {
            cutoff: None,
            best_move: None,
            best_place: None,
        }
    }

    fn cutoffs(&self) -> u64 {
        0
    }

    #[inline(always)]
    fn store(
        &mut self,
        _game: &G,
        _depth_ply: (u32, usize),
        _window: Window<G::Value>,
        _value: G::Value,
        _best: (Option<G::Move>, Option<usize>),
    ) {
    }
}

impl<G> TableAccess<G> for TableSearch<'_, G::Move, G::Value>
where
    G: PositionKey,
    G::Value: Default,
{
    const WINDOW_STOPS: bool = false;

    #[inline]
    fn probe(
        &mut self,
        game: &G,
        depth: u32,
        ply: usize,
        window: Window<G::Value>,
        keep_exact: bool,
    ) -> Probe<G::Move, G::Value> {
        let entry = self.table.probe(game.hash_key());
        probe_entry(
            entry,
            (self.reuse, &self.distance, &mut self.stats),
            (depth, ply, window, keep_exact),
        )
    }

    #[inline(always)]
    fn prefetch(&self, game: &G) {
        self.table.prefetch(game.hash_key());
    }

    #[inline(always)]
    fn prefetch_after(&self, game: &mut G, mv: G::Move) {
        if G::KEY_AFTER_IS_CHEAP {
            self.table.prefetch(game.hash_key_after(mv));
        }
    }

    fn cutoffs(&self) -> u64 {
        self.stats.cutoffs
    }

    #[inline]
    fn store(
        &mut self,
        game: &G,
        (depth, ply): (u32, usize),
        window: Window<G::Value>,
        value: G::Value,
        (best_move, _): (Option<G::Move>, Option<usize>),
    ) {
        self.stats.stores += 1;
        self.table.store(
            game.hash_key(),
            TableEntry {
                value: (self.distance.to_position)(value, ply),
                bound: window.bound_of(value),
                depth,
                best_move,
            },
        );
    }
}

/// What a probe that read `entry` found (see the module documentation for when an entry
/// ends a search), counted in `stats`: shared by the tables a search may use.
#[inline]
pub(super) fn probe_entry<M, V: crate::game::Value>(
    entry: Option<TableEntry<M, V>>,
    (reuse, distance, stats): (Reuse, &DistanceAdjustment<V>, &mut TableStats),
    (depth, ply, window, keep_exact): (u32, usize, Window<V>, bool),
) -> Probe<M, V> {
    stats.probes += 1;
    let Some(entry) = entry else {
        return Probe {
            cutoff: None,
            best_move: None,
            best_place: None,
        };
    };
    stats.hits += 1;
    let deep_enough = match reuse {
        Reuse::SameDepth => entry.depth == depth.min(u32::from(u8::MAX)),
        Reuse::AtLeastDepth => entry.depth >= depth.min(u32::from(u8::MAX)),
        Reuse::OrderingOnly => false,
    };
    let cutoff = if deep_enough {
        let value = (distance.to_root)(entry.value, ply);
        match entry.bound {
            Bound::Exact if keep_exact && window.bound_of(value) == Bound::Exact => None,
            Bound::Exact => Some(window.clamp(value)),
            Bound::Lower if value >= window.beta => Some(window.beta),
            Bound::Upper if value <= window.alpha => Some(window.alpha),
            Bound::Lower | Bound::Upper => None,
        }
    } else {
        None
    };
    if cutoff.is_some() {
        stats.cutoffs += 1;
    }
    Probe {
        cutoff,
        best_move: entry.best_move,
        best_place: None,
    }
}
