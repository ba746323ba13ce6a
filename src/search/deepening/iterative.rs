//! Iterative deepening: depth 1, 2, …, each iteration ordered by the ones before it (seed
//! 000's "short look-ahead to a much smaller depth than the main search").

use std::time::Instant;

use super::SearchOptions;
use super::depth_limited::{Engine, Exhausted};
use super::table::{NoTable, TableAccess, TableSearch};
use crate::game::{Evaluate, Game, Player};
use crate::search::transposition::PositionKey;
use crate::search::{Bound, SearchStats, Window};

/// One completed iteration of [`iterative_deepening`]: a depth-limited search of the root
/// in the full window.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration<M, V> {
    /// Plies looked ahead.
    pub depth: u32,
    /// The value of the root at this depth: that of [`super::depth_limited_value`] at the
    /// same depth in the full window, whatever the ordering.
    pub value: V,
    /// How `value` relates to the true depth-limited value (exact unless a value reached
    /// the type's [`Value::MIN`](crate::Value::MIN) or [`Value::MAX`](crate::Value::MAX)).
    pub bound: Bound,
    /// The main line of play found, as [`super::depth_limited_line`] keeps it.
    pub principal_line: Vec<M>,
    /// The move to play: the root move that raised the value or caused a cutoff last, or
    /// the first move tried when none did (seed 002's "myBest.move = any legal move");
    /// `None` only when the root is terminal or has no successors.
    pub best_move: Option<M>,
    /// Positions valued by the evaluation function because no plies were left. When it is
    /// 0 the iteration saw every line to its end and deeper ones would change nothing.
    pub horizon_leaves: u64,
    /// What this iteration did; `elapsed` is its own time.
    pub stats: SearchStats,
}

/// Why [`iterative_deepening`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// Every depth up to the maximum was searched.
    DepthReached,
    /// An iteration reached no horizon (every line it examined ended at a terminal
    /// position), so deeper iterations would give the same result. With a table, only an
    /// iteration that no table entry cut short counts: an entry may stand for lines that
    /// reached a horizon.
    TreeExhausted,
    /// The node budget ran out during an iteration, which was abandoned.
    NodeBudget,
    /// The time limit passed during an iteration, which was abandoned.
    TimeLimit,
    /// Another thread raised [`SearchOptions::stop`](super::SearchOptions::stop) during an
    /// iteration, which was abandoned.
    Stopped,
}

/// The outcome of [`iterative_deepening`].
#[derive(Clone, Debug, PartialEq)]
pub struct DeepeningResult<M, V> {
    /// The move to play: the best move of the last completed iteration, or of the
    /// abandoned one when it found a better move ([`Self::partial`]); when no iteration
    /// completed, the first of the game's successors (seed 002's guarantee: a legal move
    /// whenever one exists). `None` only when the root is terminal or has no successors.
    pub best_move: Option<M>,
    /// The value of the last completed iteration, `None` when none completed.
    pub value: Option<V>,
    /// The principal line of the last completed iteration (empty when none completed).
    pub principal_line: Vec<M>,
    /// The depth of the last completed iteration, 0 when none completed.
    pub depth: u32,
    /// Every completed iteration, shallowest first.
    pub iterations: Vec<Iteration<M, V>>,
    /// The iteration the budget cut short, when what it finished is worth playing: it
    /// searched the last completed iteration's best move to the end first, as it always
    /// does, and then found a move better at its depth. Its `best_move` is that move and
    /// [`Self::best_move`]; its `value` is that move's, a bound on the root's
    /// ([`Bound::Lower`] for MAX, [`Bound::Upper`] for MIN: the moves it did not finish may
    /// be better still); its `principal_line` begins with the move. `None` when no
    /// iteration was cut short, when the one cut short had found nothing better yet, or
    /// without [`SearchOptions::play_partial_iteration`].
    pub partial: Option<Iteration<M, V>>,
    /// Why the search stopped.
    pub stop: StopReason,
    /// What the whole search did, the abandoned iteration included.
    pub stats: SearchStats,
}

/// Iterative deepening: depth-limited alpha-beta ([`super::depth_limited_line`]) in the
/// full window at depths 1, 2, …, `max_depth`, each ordered by the ones before it, until
/// the depth, the tree or the budget runs out.
///
/// Orderings ([`SearchOptions`]) only move the game's own moves forward in the search's
/// buffers: with `principal_line_first`, along the previous iteration's principal line its
/// move is tried first at each ply (seed 000: the ordering "is made with a short look-ahead
/// to a much smaller depth than the main search"); with `use_killers`, the killers of the
/// ply follow (seed 004), kept from one iteration to the next. Ties keep the first move
/// found, as in McCarthy's programs, so an ordering can change which of two equal lines is
/// reported but never an iteration's value. Root moves are not sorted by their previous
/// scores: in a fail-hard search every move but the best one only gets a bound (at most
/// the α of its time), which says nothing about how the others compare.
///
/// Deepening stops early when an iteration reaches no horizon ([`StopReason::TreeExhausted`]).
/// When the node budget or the time limit runs out, the iteration under way is abandoned
/// and the result is that of the last completed iteration, but for the move to play: when
/// the abandoned iteration had finished its first move (the previous best) and then found
/// a better one, that move is played ([`DeepeningResult::partial`], unless
/// [`SearchOptions::play_partial_iteration`] is off): searched to the end at
/// the greater depth, it is better than the move the shallower search chose, seen at the
/// same depth. Game programs do the same with the time they would otherwise throw away.
/// `on_iteration` is called after each completed iteration, so a caller can print them as
/// they come.
///
/// The game is returned to the position it was in.
///
/// # Example
/// ```
/// use gametree::{SearchOptions, SimpleTicTacToe, StopReason, iterative_deepening};
///
/// let mut game = SimpleTicTacToe::new();
/// let mut depths = Vec::new();
/// let result = iterative_deepening(&mut game, 9, &SearchOptions::default(), |iteration| {
///     depths.push(iteration.depth);
/// });
/// assert_eq!(result.value, Some(0));
/// assert_eq!(depths, (1..=9).collect::<Vec<_>>());
/// assert!(result.best_move.is_some());
///
/// // With almost no budget, a legal move is still returned.
/// let hurried = SearchOptions { max_nodes: Some(1), ..SearchOptions::default() };
/// let result = iterative_deepening(&mut game, 9, &hurried, |_| {});
/// assert_eq!((result.stop, result.depth, result.best_move), (StopReason::NodeBudget, 0, Some(1)));
/// ```
pub fn iterative_deepening<G, F>(
    game: &mut G,
    max_depth: u32,
    options: &SearchOptions,
    on_iteration: F,
) -> DeepeningResult<G::Move, G::Value>
where
    G: Game + Evaluate,
    F: FnMut(&Iteration<G::Move, G::Value>),
{
    deepen(game, max_depth, options, &mut NoTable, on_iteration)
}

/// [`iterative_deepening`] with a transposition table, kept from one iteration to the
/// next (and, since the caller owns it, from one search to the next): each iteration finds
/// the previous ones' moves stored and tries them first, and with
/// [`Reuse::SameDepth`](super::Reuse::SameDepth) takes their values where the plies left
/// agree (a position one ply further from the root in the next iteration). Under the
/// conditions of [`super::table`], every iteration's value is that of
/// [`iterative_deepening`]; with [`Reuse::AtLeastDepth`](super::Reuse::AtLeastDepth),
/// deeper entries from earlier searches may make it better informed. Deepening may stop
/// at another depth than without the table when the tree is exhausted
/// ([`StopReason::TreeExhausted`]): the stored moves change which positions are visited,
/// and an iteration that an entry cut short never counts as exhausted.
///
/// # Example
/// ```
/// use gametree::{Checkers, SearchOptions, TableSearch, TranspositionTable};
/// use gametree::iterative_deepening_with_table;
///
/// let mut game = Checkers::new();
/// let mut table = TranspositionTable::with_mib(4);
/// let mut search = TableSearch::new(&mut table);
/// let result = iterative_deepening_with_table(&mut game, 8, &SearchOptions::default(), &mut search, |_| {});
/// assert_eq!(result.depth, 8);
/// assert!(search.stats.cutoffs > 0);
/// ```
pub fn iterative_deepening_with_table<G, F>(
    game: &mut G,
    max_depth: u32,
    options: &SearchOptions,
    table: &mut TableSearch<'_, G::Move, G::Value>,
    on_iteration: F,
) -> DeepeningResult<G::Move, G::Value>
where
    G: Game + Evaluate + PositionKey,
    G::Value: Default,
    F: FnMut(&Iteration<G::Move, G::Value>),
{
    deepen(game, max_depth, options, table, on_iteration)
}

fn deepen<G, T, F>(
    game: &mut G,
    max_depth: u32,
    options: &SearchOptions,
    table: &mut T,
    on_iteration: F,
) -> DeepeningResult<G::Move, G::Value>
where
    G: Game + Evaluate,
    T: TableAccess<G>,
    F: FnMut(&Iteration<G::Move, G::Value>),
{
    deepen_from(game, max_depth, options, table, (1, 0), on_iteration)
}

/// [`deepen`] from `first_depth`, the root's moves rotated by `root_rotation` places (a
/// helper of [`super::parallel_deepening`] may begin a ply deeper than the calling thread,
/// and with another move).
pub(super) fn deepen_from<G, T, F>(
    game: &mut G,
    max_depth: u32,
    options: &SearchOptions,
    table: &mut T,
    (first_depth, root_rotation): (u32, usize),
    mut on_iteration: F,
) -> DeepeningResult<G::Move, G::Value>
where
    G: Game + Evaluate,
    T: TableAccess<G>,
    F: FnMut(&Iteration<G::Move, G::Value>),
{
    let started = Instant::now();
    // Seed 002's "myBest.move = any legal move", in case no iteration completes.
    let fallback = if game.is_terminal() {
        None
    } else {
        let mut moves = Vec::new();
        game.successors(&mut moves);
        moves.first().copied()
    };
    let mut engine = Engine::new(options, started);
    engine.root_rotation = root_rotation;
    let window = Window::full();
    let mut iterations: Vec<Iteration<G::Move, G::Value>> = Vec::new();
    let mut stop = StopReason::DepthReached;
    let mut partial = None;
    for depth in first_depth.max(1)..=max_depth {
        // The soft limit: no new depth once it has passed (never before the first).
        if !iterations.is_empty()
            && options
                .new_depth_limit
                .is_some_and(|limit| started.elapsed() >= limit)
        {
            stop = StopReason::TimeLimit;
            break;
        }
        let iteration_started = Instant::now();
        let before = engine.stats;
        let horizon_before = engine.horizon_leaves;
        let table_cutoffs_before = table.cutoffs();
        let value = engine.search(game, table, depth, 0, true, window);
        let iteration = Iteration {
            depth,
            value,
            bound: window.bound_of(value),
            principal_line: engine.line().to_vec(),
            best_move: engine.root_best,
            horizon_leaves: engine.horizon_leaves - horizon_before,
            stats: SearchStats {
                nodes: engine.stats.nodes - before.nodes,
                leaves: engine.stats.leaves - before.leaves,
                cutoffs: engine.stats.cutoffs - before.cutoffs,
                elapsed: iteration_started.elapsed(),
            },
        };
        if let Some(exhausted) = engine.exhausted {
            if options.play_partial_iteration {
                partial = worth_playing(iteration, iterations.last(), &engine, game.to_move());
            }
            stop = match exhausted {
                Exhausted::Nodes => StopReason::NodeBudget,
                Exhausted::Time => StopReason::TimeLimit,
                Exhausted::Stopped => StopReason::Stopped,
            };
            break;
        }
        engine.previous_line.clone_from(&iteration.principal_line);
        on_iteration(&iteration);
        // A table entry that ended a search may stand for lines that reached a horizon.
        let exhausted_tree =
            iteration.horizon_leaves == 0 && table.cutoffs() == table_cutoffs_before;
        iterations.push(iteration);
        if exhausted_tree {
            stop = StopReason::TreeExhausted;
            break;
        }
    }
    let mut stats = engine.stats;
    stats.elapsed = started.elapsed();
    let last = iterations.last();
    DeepeningResult {
        best_move: partial
            .as_ref()
            .and_then(|iteration| iteration.best_move)
            .or_else(|| last.map_or(fallback, |iteration| iteration.best_move)),
        value: last.map(|iteration| iteration.value),
        principal_line: last
            .map(|iteration| iteration.principal_line.clone())
            .unwrap_or_default(),
        depth: last.map_or(0, |iteration| iteration.depth),
        iterations,
        partial,
        stop,
        stats,
    }
}

/// The iteration the budget cut short, when it is worth playing: it finished the previous
/// iteration's best move first and then found a better one, whose value (`cut_short`'s,
/// what the search returns when it stops at the root) is a bound on the root's, the moves
/// not finished being perhaps better still. `None` otherwise.
fn worth_playing<M: Copy + Eq, V>(
    mut cut_short: Iteration<M, V>,
    previous: Option<&Iteration<M, V>>,
    engine: &Engine<M>,
    player: Player,
) -> Option<Iteration<M, V>> {
    let previous_best = previous?.best_move?;
    // The root's best move is its first until a finished move raises the value.
    let better = engine.root_best?;
    if engine.root_first? != previous_best || better == previous_best {
        return None;
    }
    cut_short.bound = match player {
        Player::Max => Bound::Lower,
        Player::Min => Bound::Upper,
    };
    Some(cut_short)
}
