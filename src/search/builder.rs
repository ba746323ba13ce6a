//! One entry point to the searches of a game: [`Search::new`], a few settings, and one of
//! [`Search::run`] (McCarthy's alpha-beta deepened iteratively, seed 000 and 002),
//! [`Search::run_m_and_n`] (Slagle's m&n alpha-beta, seed 003), [`Search::solve`] (the
//! null-window solver) or [`Search::run_to_end`] (alpha-beta to the end of the game, for a
//! game without an evaluation). Each returns a [`SearchResult`]: value, bound, best move,
//! principal line, depth and statistics.
//!
//! The free functions ([`crate::alphabeta_line`], [`crate::iterative_deepening`],
//! [`crate::mn_alphabeta_depth`], [`crate::Solver`], …) stay as they were: the builder calls
//! them, and a reader of the seeds finds each of McCarthy's and Slagle's programs there.
//!
//! # Example
//! ```
//! use std::time::Duration;
//! use gametree::prelude::*;
//! use gametree::Checkers;
//!
//! let mut game = Checkers::new();
//! let mut table = TranspositionTable::with_mib(4);
//! let result = Search::new(&mut game)
//!     .depth(8)
//!     .time_limit(Duration::from_secs(10))
//!     .table(&mut table)
//!     .run();
//! assert_eq!(result.depth, 8);
//! assert!(result.best_move.is_some());
//! assert_eq!(result.principal_line.first(), result.best_move.as_ref());
//! ```

use std::time::{Duration, Instant};

use crate::game::{Evaluate, Game};
use crate::search::alphabeta::alphabeta_line;
use crate::search::deepening::{
    DeepeningResult, Iteration, SearchOptions, StopReason, StopSignal, TableSearch,
    VerifiedPruning, iterative_deepening, iterative_deepening_with_table,
};
use crate::search::float_valued::FloatValued;
use crate::search::m_and_n::{
    BackingUp, mn_alphabeta_depth_quiescent, mn_alphabeta_value_depth_quiescent,
};
use crate::search::solver::{Solvable, SolveOptions, Solver};
use crate::search::transposition::{PositionKey, TranspositionTable};
use crate::search::{Bound, SearchStats, Window};

/// What every search of the builder returns.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M, V> {
    /// The value of the position to MAX (the last completed depth's, for a depth-limited
    /// search); `None` when the budget ran out before any depth was completed, or before
    /// the solver proved the value.
    pub value: Option<V>,
    /// How `value` relates to the true value of the search: exact but for a value at the
    /// type's extremes (see [`crate::search::deepening::Iteration::bound`]).
    pub bound: Bound,
    /// The move to play: whenever the position has a move, one is given (seed 002's
    /// `chooseMove` guarantee), even when no depth was completed.
    pub best_move: Option<M>,
    /// The main line of play from the position, best move first.
    pub principal_line: Vec<M>,
    /// Plies of the last completed depth (for [`Search::run_to_end`] and
    /// [`Search::solve`], the length of the principal line).
    pub depth: u32,
    /// Why the search stopped.
    pub stop: StopReason,
    /// Every completed depth of an iterative search, shallowest first (empty otherwise).
    pub iterations: Vec<Iteration<M, V>>,
    /// What the whole search did.
    pub stats: SearchStats,
}

impl<M: Clone, V: Copy> From<DeepeningResult<M, V>> for SearchResult<M, V> {
    fn from(result: DeepeningResult<M, V>) -> Self {
        SearchResult {
            value: result.value,
            bound: result
                .iterations
                .last()
                .map_or(Bound::Exact, |iteration| iteration.bound),
            best_move: result.best_move,
            principal_line: result.principal_line,
            depth: result.depth,
            stop: result.stop,
            iterations: result.iterations,
            stats: result.stats,
        }
    }
}

/// The callback [`Search::on_iteration`] installs.
type IterationCallback<'a, G> =
    Box<dyn FnMut(&Iteration<<G as Game>::Move, <G as Game>::Value>) + 'a>;

/// The callback iterative deepening is given.
type OnIteration<'c, G> = dyn FnMut(&Iteration<<G as Game>::Move, <G as Game>::Value>) + 'c;

/// Iterative deepening with a table, chosen when the table is given (where the game is
/// known to have a position key), called when the search runs.
type TableRun<G> = fn(
    &mut G,
    u32,
    &SearchOptions,
    &mut TableSearch<'_, <G as Game>::Move, <G as Game>::Value>,
    &mut OnIteration<'_, G>,
) -> DeepeningResult<<G as Game>::Move, <G as Game>::Value>;

/// A table and the search that uses it.
type TablePlan<'a, G> = (
    TableSearch<'a, <G as Game>::Move, <G as Game>::Value>,
    TableRun<G>,
);

/// The depth a search without a depth limit deepens to at most: far beyond what any budget
/// reaches, and a bound on the recursion.
pub const UNLIMITED_DEPTH: u32 = 256;

/// A search of `game`, set up step by step (see the [module documentation](self)).
///
/// Defaults: no depth limit (deepening until the tree is exhausted or a budget runs out),
/// no time or node budget, the previous iteration's principal line tried first, killers
/// off, no table.
#[must_use = "a search does nothing until it is run"]
pub struct Search<'a, G: Game> {
    game: &'a mut G,
    depth: Option<u32>,
    options: SearchOptions,
    table: Option<TablePlan<'a, G>>,
    on_iteration: Option<IterationCallback<'a, G>>,
}

impl<'a, G: Game> Search<'a, G> {
    /// A search of the current position of `game`; the game is returned to it afterwards.
    pub fn new(game: &'a mut G) -> Self {
        Search {
            game,
            depth: None,
            options: SearchOptions::default(),
            table: None,
            on_iteration: None,
        }
    }

    /// Look at most `depth` plies ahead ([`Search::run`] deepens 1, 2, …, `depth`;
    /// [`Search::run_m_and_n`] searches at `depth`).
    pub fn depth(mut self, depth: u32) -> Self {
        self.depth = Some(depth);
        self
    }

    /// Stop once `limit` has passed: the depth under way is abandoned and the result is the
    /// last completed depth's.
    pub fn time_limit(mut self, limit: Duration) -> Self {
        self.options.time_limit = Some(limit);
        self
    }

    /// Play to a game clock: the move's time is what the clock allots
    /// ([`GameClock::move_time`](crate::GameClock::move_time)), and no new depth begins
    /// after half of it ([`SearchOptions::new_depth_limit`]). Replaces a time limit.
    pub fn clock(mut self, clock: crate::GameClock) -> Self {
        let (hard, soft) = clock.time_limits();
        self.options.time_limit = Some(hard);
        self.options.new_depth_limit = Some(soft);
        self
    }

    /// Stop when another thread raises `signal` (a stop button; a client that has gone):
    /// the depth under way is abandoned and the result is the last completed depth's, as at
    /// a time limit.
    pub fn stop_signal(mut self, signal: StopSignal) -> Self {
        self.options.stop = Some(signal);
        self
    }

    /// The history heuristic ([`SearchOptions::use_history`]); off by default.
    pub fn history(mut self, on: bool) -> Self {
        self.options.use_history = on;
        self
    }

    /// Principal variation search ([`SearchOptions::use_pvs`]); off by default.
    pub fn pvs(mut self, on: bool) -> Self {
        self.options.use_pvs = on;
        self
    }

    /// Late move reductions ([`SearchOptions::late_move_reductions`]); off by default,
    /// and, with [`Self::extend_recaptures`], one of the two options that may change the
    /// value.
    pub fn late_move_reductions(mut self, on: bool) -> Self {
        self.options.late_move_reductions = on;
        self
    }

    /// Verified pruning ([`SearchOptions::verified_pruning`]); off (`None`) by default, and
    /// it may change the value.
    pub fn verified_pruning(mut self, pruning: Option<VerifiedPruning>) -> Self {
        self.options.verified_pruning = pruning;
        self
    }

    /// Recapture extension ([`SearchOptions::extend_recaptures`]): a capture answering a
    /// capture costs no ply; off by default, and it may change the value.
    pub fn extend_recaptures(mut self, on: bool) -> Self {
        self.options.extend_recaptures = on;
        self
    }

    /// Threat extension ([`SearchOptions::extend_threats`]): a quiet position at the
    /// horizon whose player to move is threatened is searched a ply more; off by default,
    /// and it may change the value.
    pub fn extend_threats(mut self, on: bool) -> Self {
        self.options.extend_threats = on;
        self
    }

    /// Stop once `nodes` positions have been visited.
    pub fn max_nodes(mut self, nodes: u64) -> Self {
        self.options.max_nodes = Some(nodes);
        self
    }

    /// Try the killer moves of each ply early (seed 004's killer heuristic); off by default
    /// (see [`SearchOptions::default`] for why).
    pub fn killers(mut self, on: bool) -> Self {
        self.options.use_killers = on;
        self
    }

    /// Search on past the horizon, for at most `plies` plies, from positions that are not
    /// quiet (checkers: a capture is forced); 0, the default, turns it off. See
    /// [`SearchOptions::quiescence_plies`].
    pub fn quiescence(mut self, plies: u32) -> Self {
        self.options.quiescence_plies = plies;
        self
    }

    /// Try the previous depth's principal line first; on by default.
    pub fn principal_line_first(mut self, on: bool) -> Self {
        self.options.principal_line_first = on;
        self
    }

    /// Calls `callback` after each completed depth of [`Search::run`], to print progress.
    pub fn on_iteration(
        mut self,
        callback: impl FnMut(&Iteration<G::Move, G::Value>) + 'a,
    ) -> Self {
        self.on_iteration = Some(Box::new(callback));
        self
    }

    /// The settings as the free functions take them.
    #[must_use]
    pub fn options(&self) -> SearchOptions {
        self.options.clone()
    }

    /// The depth limit, or [`UNLIMITED_DEPTH`].
    fn max_depth(&self) -> u32 {
        self.depth.unwrap_or(UNLIMITED_DEPTH)
    }
}

impl<'a, G> Search<'a, G>
where
    G: Game + Evaluate + PositionKey,
    G::Value: Default,
{
    /// Use `table` (kept by the caller from one search to the next): stored bounds end
    /// searches of positions met before and stored moves are tried first
    /// ([`crate::iterative_deepening_with_table`], with [`TableSearch::new`]'s settings).
    pub fn table(self, table: &'a mut TranspositionTable<G::Move, G::Value>) -> Self {
        self.table_search(TableSearch::new(table))
    }

    /// Use a table with other settings (which stored depths may end a search, a distance
    /// adjustment for values scored by distance from the root).
    pub fn table_search(mut self, search: TableSearch<'a, G::Move, G::Value>) -> Self {
        fn run<G>(
            game: &mut G,
            depth: u32,
            options: &SearchOptions,
            table: &mut TableSearch<'_, G::Move, G::Value>,
            on_iteration: &mut OnIteration<'_, G>,
        ) -> DeepeningResult<G::Move, G::Value>
        where
            G: Game + Evaluate + PositionKey,
            G::Value: Default,
        {
            iterative_deepening_with_table(game, depth, options, table, on_iteration)
        }
        self.table = Some((search, run::<G>));
        self
    }
}

impl<G: Game + Evaluate> Search<'_, G> {
    /// Alpha-beta deepened one ply at a time up to the depth limit, each depth ordered by
    /// the ones before, valuing the horizon with [`Evaluate::evaluate`]
    /// ([`crate::iterative_deepening`]). Stops early when a depth reaches no horizon (the
    /// whole tree was seen) or a budget runs out.
    ///
    /// # Example
    /// ```
    /// use gametree::prelude::*;
    /// use gametree::SimpleTicTacToe;
    ///
    /// let mut game = SimpleTicTacToe::new();
    /// let result = Search::new(&mut game).run();
    /// assert_eq!(result.value, Some(0)); // perfect play draws
    /// assert_eq!(result.stop, StopReason::TreeExhausted);
    /// ```
    pub fn run(self) -> SearchResult<G::Move, G::Value> {
        let depth = self.max_depth();
        let mut callback = self.on_iteration;
        let mut on_iteration = |iteration: &Iteration<G::Move, G::Value>| {
            if let Some(callback) = callback.as_mut() {
                callback(iteration);
            }
        };
        match self.table {
            Some((mut table, run)) => run(
                self.game,
                depth,
                &self.options,
                &mut table,
                &mut on_iteration,
            )
            .into(),
            None => iterative_deepening(self.game, depth, &self.options, on_iteration).into(),
        }
    }

    /// Slagle's m&n alpha-beta (seed 003, Appendix C) at the depth limit (default 4) with
    /// the backing-up function `backing` (e.g. [`crate::Slagle::two_and_two`]), on the
    /// game's values as `f64`.
    ///
    /// The value is the root's m&n value ([`crate::mn_alphabeta_value_depth`] in the full
    /// window); the best move is the successor m&n chooses ([`crate::mn_alphabeta_depth`]),
    /// both with [`Search::quiescence`] when it is set;
    /// the principal line is the move chosen, then the move m&n chooses after it one ply
    /// shallower, and so on. The statistics add up every search made. A time or node budget
    /// is checked between these searches, so a search under way finishes.
    ///
    /// # Example
    /// ```
    /// use gametree::prelude::*;
    /// use gametree::SimpleTicTacToe;
    ///
    /// let mut game = SimpleTicTacToe::new();
    /// let result = Search::new(&mut game).depth(9).run_m_and_n(&Slagle::one_and_one());
    /// assert_eq!(result.value, Some(0.0)); // 1&1 is ordinary minimaxing
    /// assert_eq!(result.principal_line.len(), 9);
    /// ```
    pub fn run_m_and_n<B>(self, backing: &B) -> SearchResult<G::Move, f64>
    where
        G::Value: Into<f64>,
        B: BackingUp + ?Sized,
    {
        const DEFAULT_DEPTH: u32 = 4;
        let started = Instant::now();
        let depth = self.depth.unwrap_or(DEFAULT_DEPTH);
        let budget_left = |stats: &SearchStats| {
            self.options
                .time_limit
                .is_none_or(|limit| started.elapsed() < limit)
                && self
                    .options
                    .max_nodes
                    .is_none_or(|nodes| stats.nodes < nodes)
                && !self
                    .options
                    .stop
                    .as_ref()
                    .is_some_and(StopSignal::is_stopped)
        };
        let fallback = first_move(self.game);
        let mut game = FloatValued(&mut *self.game);
        let mut stats = SearchStats::default();
        let quiescence = self.options.quiescence_plies;
        let root = mn_alphabeta_value_depth_quiescent(
            &mut game,
            backing,
            Window::full(),
            depth,
            quiescence,
        );
        stats.add_counts(&root.stats);
        let mut line = Vec::new();
        let mut stop = StopReason::DepthReached;
        for plies in (1..=depth).rev() {
            if !budget_left(&stats) {
                stop = if self
                    .options
                    .max_nodes
                    .is_some_and(|nodes| stats.nodes >= nodes)
                {
                    StopReason::NodeBudget
                } else if self
                    .options
                    .stop
                    .as_ref()
                    .is_some_and(StopSignal::is_stopped)
                {
                    StopReason::Stopped
                } else {
                    StopReason::TimeLimit
                };
                break;
            }
            let chosen = mn_alphabeta_depth_quiescent(&mut game, backing, plies, quiescence);
            stats.add_counts(&chosen.stats);
            let Some(mv) = chosen.best_move else {
                break;
            };
            game.update(mv);
            line.push(mv);
        }
        for &mv in line.iter().rev() {
            game.revert(mv);
        }
        stats.elapsed = started.elapsed();
        SearchResult {
            value: Some(root.value),
            bound: root.bound,
            best_move: line.first().copied().or(fallback),
            depth: u32::try_from(line.len()).unwrap_or(u32::MAX),
            principal_line: line,
            stop,
            iterations: Vec::new(),
            stats,
        }
    }
}

impl<G: Game> Search<'_, G> {
    /// McCarthy's `linemax` (seed 000): alpha-beta to the end of the game in the full
    /// window, with the main line ([`crate::alphabeta_line`]), for a game small enough to
    /// search whole — no evaluation, depth limit, budget or table is used.
    ///
    /// # Example
    /// ```
    /// use gametree::prelude::*;
    /// use gametree::ExplicitTree;
    ///
    /// let mut tree = ExplicitTree::parse("((3 5) (2 9))").expect("a tree");
    /// let result = Search::new(&mut tree).run_to_end();
    /// assert_eq!((result.value, result.best_move), (Some(3.0), Some(1)));
    /// assert_eq!(result.principal_line, vec![1, 1]);
    /// ```
    pub fn run_to_end(self) -> SearchResult<G::Move, G::Value> {
        let result = alphabeta_line(self.game, Window::full());
        let best_move = result
            .principal_line
            .first()
            .copied()
            .or_else(|| first_move(self.game));
        SearchResult {
            value: Some(result.value),
            bound: result.bound,
            best_move,
            depth: u32::try_from(result.principal_line.len()).unwrap_or(u32::MAX),
            principal_line: result.principal_line,
            stop: StopReason::TreeExhausted,
            iterations: Vec::new(),
            stats: result.stats,
        }
    }
}

impl<G: Solvable> Search<'_, G> {
    /// The exact value by the null-window [`Solver`] (a table of up to 64 MiB of its own;
    /// [`Search::table`] is not used), the best move and the principal line: at each
    /// position along the line, the first move whose successor has the position's value.
    /// A node budget ([`Search::max_nodes`]) is honoured; a time limit is not (the solver
    /// cannot stop on the clock).
    ///
    /// # Example
    /// ```
    /// use gametree::prelude::*;
    /// use gametree::ConnectFour;
    ///
    /// // The first player wins with their fourth stone, in column 3 or 7.
    /// let mut game = ConnectFour::from_moves("445566").expect("legal moves");
    /// let result = Search::new(&mut game).solve();
    /// assert_eq!(result.value, Some(18));
    /// assert_eq!(result.best_move, Some(2)); // 0-based: column 3
    /// assert_eq!(result.principal_line, vec![2]);
    /// ```
    pub fn solve(self) -> SearchResult<G::Move, i32> {
        let started = Instant::now();
        let mut solver = Solver::new(SolveOptions::default());
        let budget = self.options.max_nodes.unwrap_or(u64::MAX);
        let mut stats = SearchStats::default();
        let root = solver.solve_within(self.game, budget);
        let value = match &root {
            Ok(solution) => solution.value,
            Err(unsolved) => {
                stats.nodes = unsolved.stats.nodes;
                stats.elapsed = started.elapsed();
                return SearchResult {
                    value: None,
                    bound: Bound::Exact,
                    best_move: first_move(self.game),
                    principal_line: Vec::new(),
                    depth: 0,
                    stop: StopReason::NodeBudget,
                    iterations: Vec::new(),
                    stats,
                };
            }
        };
        if let Ok(solution) = &root {
            stats.add_counts(&solution.stats);
        }
        // The line: follow, from each position, the first move that keeps its value.
        let mut line = Vec::new();
        let mut moves = Vec::new();
        while !self.game.is_terminal() {
            moves.clear();
            self.game.successors(&mut moves);
            let mut next = None;
            for &mv in &moves {
                self.game.update(mv);
                let child = solver.solve(self.game);
                stats.add_counts(&child.stats);
                if child.value == value {
                    next = Some(mv);
                    break;
                }
                self.game.revert(mv);
            }
            match next {
                Some(mv) => line.push(mv),
                None => break,
            }
        }
        for &mv in line.iter().rev() {
            self.game.revert(mv);
        }
        stats.elapsed = started.elapsed();
        SearchResult {
            value: Some(value),
            bound: Bound::Exact,
            best_move: line.first().copied().or_else(|| first_move(self.game)),
            depth: u32::try_from(line.len()).unwrap_or(u32::MAX),
            principal_line: line,
            stop: StopReason::TreeExhausted,
            iterations: Vec::new(),
            stats,
        }
    }
}

/// The first of the game's moves, when the position is not over: seed 002's "myBest.move =
/// any legal move".
fn first_move<G: Game>(game: &G) -> Option<G::Move> {
    if game.is_terminal() {
        return None;
    }
    let mut moves = Vec::new();
    game.successors(&mut moves);
    moves.first().copied()
}
