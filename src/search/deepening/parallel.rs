//! Iterative deepening on several threads that share one transposition table ("Lazy
//! SMP", as chess programs such as Stockfish have run it since 2015): every thread
//! deepens the same position on its own copy of the game, and what one thread stores —
//! bounds that end searches, moves that order them — the others find. The calling
//! thread's iterations are the result; the helpers only fill the table, and stop when it
//! is done.
//!
//! Threads that searched the same tree in the same order would only duplicate each other.
//! So the helpers part ways: helper *i* begins its deepening at depth 1 + (*i* mod 2),
//! half of them one ply ahead of the calling thread, whose deeper entries it then reuses
//! with [`Reuse::AtLeastDepth`], and tries the root moves
//! from the *i*-th on (its previous best move no longer first): while the calling thread
//! searches its best move, the helper values others, which the calling thread then finds
//! in the table. (On checkers from the start to depth 18 on two cores, the calling thread
//! then visits 15.5–20.0 M positions instead of 21.0 M alone.) The threads' timing decides which entries each
//! finds, so the positions visited, and with entries from deeper searches the value and
//! move of a fixed depth, may differ from a run on one thread; with
//! [`Reuse::SameDepth`] every iteration's value is that of the
//! search on one thread (the conditions of [`super::table`]), only the work differs.

use super::iterative::deepen_from;
use super::table::{DistanceAdjustment, Probe, Reuse, TableAccess, TableStats, probe_entry};
use super::{DeepeningResult, Iteration, SearchOptions, StopSignal};
use crate::game::{Evaluate, Game};
use crate::search::Window;
use crate::search::shared_table::{SharedEntry, SharedTable};
use crate::search::transposition::{PositionKey, TableEntry};

/// A depth-limited search's use of a [`SharedTable`], the lock-free table the
/// [`Solver`](crate::Solver)'s threads share: the settings of
/// [`TableSearch`](super::TableSearch) for a table that other threads probe and store
/// into at the same time, for games whose values are `i32`.
///
/// An entry holds the depth searched as its effort (the replacement scheme keeps the
/// deeper entry, as [`TranspositionTable`](crate::TranspositionTable)'s does) and its move
/// by its place in the list [`Game::successors`] gives: the move itself may not fit the
/// entry's word.
#[derive(Debug)]
pub struct SharedTableSearch<'t> {
    /// The table, shared with the other threads.
    pub table: &'t SharedTable,
    /// Which entries may end a search.
    pub reuse: Reuse,
    /// How values are made position-relative for the table.
    pub distance: DistanceAdjustment<i32>,
    /// What this thread's searches did with the table.
    pub stats: TableStats,
}

impl<'t> SharedTableSearch<'t> {
    /// The table used with [`Reuse::AtLeastDepth`] and no distance adjustment.
    pub fn new(table: &'t SharedTable) -> Self {
        SharedTableSearch {
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
    pub fn with_distance(mut self, distance: DistanceAdjustment<i32>) -> Self {
        self.distance = distance;
        self
    }
}

impl<G> TableAccess<G> for SharedTableSearch<'_>
where
    G: PositionKey + Game<Value = i32>,
{
    const WINDOW_STOPS: bool = false;
    const MOVES_BY_PLACE: bool = true;

    #[inline]
    fn probe(
        &mut self,
        game: &G,
        depth: u32,
        ply: usize,
        window: Window<i32>,
        keep_exact: bool,
    ) -> Probe<G::Move, i32> {
        let shared = self.table.probe(game.hash_key());
        let entry = shared.map(|entry| TableEntry {
            value: entry.value,
            bound: entry.bound,
            depth: u32::from(entry.effort),
            best_move: None,
        });
        let mut probe = probe_entry(
            entry,
            (self.reuse, &self.distance, &mut self.stats),
            (depth, ply, window, keep_exact),
        );
        probe.best_place = shared.and_then(|entry| entry.move_place);
        probe
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
        window: Window<i32>,
        value: i32,
        (_, best_place): (Option<G::Move>, Option<usize>),
    ) {
        self.stats.stores += 1;
        self.table.store(
            game.hash_key(),
            SharedEntry {
                value: (self.distance.to_position)(value, ply),
                bound: window.bound_of(value),
                effort: u8::try_from(depth).unwrap_or(u8::MAX),
                move_place: best_place.and_then(|place| u8::try_from(place).ok()),
            },
        );
    }
}

/// [`iterative_deepening`](super::iterative_deepening) on `threads` threads sharing
/// `table` (see the module documentation): the calling thread's deepening, to
/// `max_depth`, is the result, its iterations passed to `on_iteration`; `threads − 1`
/// helpers, each on a clone of the game, fill the table until it is done, then stop. The
/// result's statistics count every thread's positions; its iterations', the calling
/// thread's. One thread (or fewer) is the search on one thread with this table.
///
/// Each helper is a thread with the default stack: a game whose search goes deep enough
/// to need more runs it on the calling thread only (the searches grow their stack as they
/// go deeper, on any thread).
///
/// # Example
/// ```
/// use gametree::search::shared_table::SharedTable;
/// use gametree::{Checkers, SearchOptions, SharedTableSearch, parallel_deepening};
///
/// let mut game = Checkers::new();
/// let table = SharedTable::growing(16 << 20, 16 << 20);
/// let mut search = SharedTableSearch::new(&table);
/// let result = parallel_deepening(&mut game, 8, &SearchOptions::default(), 2, &mut search, |_| {});
/// assert_eq!(result.depth, 8);
/// assert!(result.best_move.is_some());
/// ```
pub fn parallel_deepening<G, F>(
    game: &mut G,
    max_depth: u32,
    options: &SearchOptions,
    threads: usize,
    table: &mut SharedTableSearch<'_>,
    on_iteration: F,
) -> DeepeningResult<G::Move, i32>
where
    G: Game<Value = i32> + Evaluate + PositionKey + Clone + Send,
    G::Move: Send,
    F: FnMut(&Iteration<G::Move, i32>),
{
    let helpers_stop = StopSignal::new();
    // Raised when the calling thread's search returns, or unwinds from a panic (in
    // `on_iteration`, say): the helpers never outlive it by more than a clock check.
    let stop_helpers = StopOnDrop(helpers_stop.clone());
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads.max(1))
            .map(|helper| {
                let mut helper_game = game.clone();
                let helper_options = SearchOptions {
                    stop: Some(helpers_stop.clone()),
                    ..options.clone()
                };
                let mut helper_table = SharedTableSearch {
                    table: table.table,
                    reuse: table.reuse,
                    distance: table.distance,
                    stats: TableStats::default(),
                };
                let first_depth = if helper % 2 == 1 { 2 } else { 1 };
                scope.spawn(move || {
                    // A helper goes on past the calling thread's depth until it is stopped.
                    let result = deepen_from(
                        &mut helper_game,
                        max_depth.saturating_add(1),
                        &helper_options,
                        &mut helper_table,
                        (first_depth, helper),
                        |_| {},
                    );
                    result.stats
                })
            })
            .collect();
        let mut result = deepen_from(game, max_depth, options, table, (1, 0), on_iteration);
        drop(stop_helpers);
        for helper in helpers {
            if let Ok(stats) = helper.join() {
                result.stats.add_counts(&stats);
            }
        }
        result
    })
}

/// Raises its signal when dropped.
struct StopOnDrop(StopSignal);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}
