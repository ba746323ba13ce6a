//! McCarthy's `valmax`/`linemax` cut off at a depth, valuing horizon positions with
//! [`Evaluate::evaluate`]; the engine [`super::iterative_deepening`] drives.

use std::time::Instant;

use super::table::{NoTable, Probe, TableAccess, TableSearch};
use super::{
    MOVES_BEFORE_REDUCTION, REDUCTION_MIN_DEPTH, SearchOptions, StopSignal, TIME_CHECK_INTERVAL,
    VerifiedPruning,
};
use crate::game::{Evaluate, Game, Player, Value};
use crate::search::alphabeta::{
    AspirationResult, AspirationValue, LineResult, ValueResult, aspiration_search,
};
use crate::search::history::HistoryTable;
use crate::search::killer::{Killers, move_to_front};
use crate::search::transposition::PositionKey;
use crate::search::{MoveBuffers, Quiescence, SearchStats, Window, with_stack};

/// The value of the current position by alpha-beta in the window (α, β), looking at most
/// `depth` moves ahead.
///
/// A position is valued, and counted as a leaf, when [`Game::is_terminal`] holds (by
/// [`Game::value`], McCarthy's `imval`), failing that when the game knows its value below a
/// root whose value it does not know ([`Evaluate::known_value`]: an endgame database's),
/// or else when no plies are left (by [`Evaluate::evaluate`], seed 002's evaluation
/// function). Otherwise the search is McCarthy's `valmax`/`valmin` exactly, fail-hard,
/// with successors in the order the game gives them: for a game without known values, at a
/// depth at least the length of the longest line of play, the result is that of
/// [`crate::alphabeta_value`].
///
/// The game is returned to the position it was in.
///
/// # Example
/// ```
/// use gametree::{SimpleTicTacToe, Window, depth_limited_value};
///
/// let mut game = SimpleTicTacToe::new();
/// // Nine plies see every game to its end: perfect play draws.
/// assert_eq!(depth_limited_value(&mut game, 9, Window::full()).value, 0);
/// // One ply sees the nine replies and evaluates each.
/// let shallow = depth_limited_value(&mut game, 1, Window::full());
/// assert_eq!((shallow.stats.nodes, shallow.stats.leaves), (10, 9));
/// ```
pub fn depth_limited_value<G: Game + Evaluate>(
    game: &mut G,
    depth: u32,
    window: Window<G::Value>,
) -> ValueResult<G::Value> {
    value_search(game, depth, window, 0, &mut NoTable)
}

/// [`depth_limited_value`] with quiescence: at the depth limit a position that is not
/// quiet ([`Evaluate::is_quiet`]) is searched on, every move, for at most
/// `quiescence_plies` plies (see [`SearchOptions::quiescence_plies`]); 0 is
/// [`depth_limited_value`] itself.
pub fn depth_limited_value_quiescent<G: Game + Evaluate>(
    game: &mut G,
    depth: u32,
    window: Window<G::Value>,
    quiescence_plies: u32,
) -> ValueResult<G::Value> {
    value_search(game, depth, window, quiescence_plies, &mut NoTable)
}

/// [`depth_limited_value`] with a transposition table: stored bounds end the search of
/// positions met before, stored moves are tried first, and every position searched is
/// stored. With [`Reuse::SameDepth`](super::Reuse::SameDepth) the value is that of
/// [`depth_limited_value`] under the conditions of [`super::table`]; `stats` then counts
/// fewer positions.
///
/// See [`TableSearch`] for an example.
pub fn depth_limited_value_with_table<G>(
    game: &mut G,
    depth: u32,
    window: Window<G::Value>,
    table: &mut TableSearch<'_, G::Move, G::Value>,
) -> ValueResult<G::Value>
where
    G: Game + Evaluate + PositionKey,
    G::Value: Default,
{
    value_search(game, depth, window, 0, table)
}

fn value_search<G: Game + Evaluate, T: TableAccess<G>>(
    game: &mut G,
    depth: u32,
    window: Window<G::Value>,
    quiescence_plies: u32,
    table: &mut T,
) -> ValueResult<G::Value> {
    let started = Instant::now();
    let options = SearchOptions {
        quiescence_plies,
        ..SearchOptions::plain()
    };
    let mut engine = Engine::new(&options, started);
    engine.track_lines = false;
    let value = engine.search(game, table, depth, 0, false, window);
    let mut stats = engine.stats;
    stats.elapsed = started.elapsed();
    ValueResult {
        value,
        bound: window.bound_of(value),
        stats,
    }
}

/// The value of the current position by alpha-beta in the window (α, β), looking at most
/// `depth` moves ahead, and the main line of play: McCarthy's `linemax`/`linemin` cut off
/// at a depth.
///
/// The search and its value are those of [`depth_limited_value`]; the line is kept as
/// [`crate::alphabeta_line`] keeps it, so at a depth at least the length of the longest
/// line of play the result (value and line) is that of `alphabeta_line`. The line ends at
/// a terminal position or at the horizon, whichever comes first.
///
/// The game is returned to the position it was in.
///
/// # Example
/// ```
/// use gametree::{Game, SimpleTicTacToe, Window, depth_limited_line};
///
/// // X on 1 and 2, O on 4 and 5: X to move completes the top row.
/// let mut game = SimpleTicTacToe::from_moves(&[1, 4, 2, 5]).expect("legal moves");
/// let result = depth_limited_line(&mut game, 2, Window::full());
/// assert_eq!(result.value, 1);
/// assert_eq!(result.principal_line, vec![3]);
/// ```
pub fn depth_limited_line<G: Game + Evaluate>(
    game: &mut G,
    depth: u32,
    window: Window<G::Value>,
) -> LineResult<G::Move, G::Value> {
    line_search(game, depth, window, &mut NoTable)
}

/// [`depth_limited_line`] with a transposition table. The value is that of
/// [`depth_limited_value_with_table`]; the line is complete (an exact stored value inside
/// the window does not end a search whose line is wanted), but where moves tie it may
/// differ from the line without the table, as stored moves are tried first.
pub fn depth_limited_line_with_table<G>(
    game: &mut G,
    depth: u32,
    window: Window<G::Value>,
    table: &mut TableSearch<'_, G::Move, G::Value>,
) -> LineResult<G::Move, G::Value>
where
    G: Game + Evaluate + PositionKey,
    G::Value: Default,
{
    line_search(game, depth, window, table)
}

fn line_search<G: Game + Evaluate, T: TableAccess<G>>(
    game: &mut G,
    depth: u32,
    window: Window<G::Value>,
    table: &mut T,
) -> LineResult<G::Move, G::Value> {
    let started = Instant::now();
    let mut engine = Engine::new(&SearchOptions::plain(), started);
    let value = engine.search(game, table, depth, 0, false, window);
    let mut stats = engine.stats;
    stats.elapsed = started.elapsed();
    LineResult {
        value,
        bound: window.bound_of(value),
        principal_line: engine.take_line(),
        stats,
    }
}

/// Aspiration search cut off at a depth: [`depth_limited_value`] first in the window
/// (`guess − width`, `guess + width`), then in wider windows until the value is known,
/// exactly as [`crate::aspiration_value`] does it to the end of the game (seed 000: "if
/// `val ≤ a` then we must lower the estimate of the value and try again").
///
/// The value is that of [`depth_limited_value`] in the full window, for a game whose
/// `is_terminal` ignores the window. The game is returned to the position it was in.
///
/// # Example
/// ```
/// use gametree::{SimpleTicTacToe, depth_limited_aspiration};
///
/// let mut game = SimpleTicTacToe::new();
/// // Guessing a win for X fails low once: the value is at most 0, then it is 0.
/// let result = depth_limited_aspiration(&mut game, 9, 1, 1);
/// assert_eq!(result.value, 0);
/// assert!(result.re_searches() >= 1);
/// ```
pub fn depth_limited_aspiration<G>(
    game: &mut G,
    depth: u32,
    guess: G::Value,
    width: G::Value,
) -> AspirationResult<G::Value>
where
    G: Game + Evaluate,
    G::Value: AspirationValue,
{
    aspiration_search(guess, width, |window| {
        depth_limited_value(game, depth, window)
    })
}

/// [`depth_limited_aspiration`] with a transposition table shared by its searches: a
/// search repeated in a wider window finds the bounds and moves of the failed one. With
/// [`Reuse::SameDepth`](super::Reuse::SameDepth) the value is that of
/// [`depth_limited_aspiration`] under the conditions of [`super::table`].
pub fn depth_limited_aspiration_with_table<G>(
    game: &mut G,
    depth: u32,
    guess: G::Value,
    width: G::Value,
    table: &mut TableSearch<'_, G::Move, G::Value>,
) -> AspirationResult<G::Value>
where
    G: Game + Evaluate + PositionKey,
    G::Value: AspirationValue + Default,
{
    aspiration_search(guess, width, |window| {
        value_search(game, depth, window, 0, table)
    })
}

/// Why a budgeted search stopped before finishing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Exhausted {
    Nodes,
    Time,
    Stopped,
}

/// The depth-limited alpha-beta search with its orderings, tables and budget, kept
/// between the iterations of iterative deepening.
pub(super) struct Engine<M> {
    /// Figures over every search this engine made.
    pub(super) stats: SearchStats,
    /// Positions valued by the evaluation function because no plies were left.
    pub(super) horizon_leaves: u64,
    /// Whether to keep lines (the value-only search does not need them).
    pub(super) track_lines: bool,
    /// `lines[ply]`: the line found so far at the position `ply` moves below the root.
    lines: Vec<Vec<M>>,
    /// The previous iteration's principal line, tried first.
    pub(super) previous_line: Vec<M>,
    principal_line_first: bool,
    killers: Option<Killers<M>>,
    /// The history heuristic's counters (`None` when it is off).
    history: Option<HistoryTable>,
    /// Principal variation search ([`SearchOptions::use_pvs`]).
    pvs: bool,
    /// Late move reductions ([`SearchOptions::late_move_reductions`]).
    late_move_reductions: bool,
    buffers: MoveBuffers<M>,
    /// The root's best move in the last search: the first move tried until one raises the
    /// value or causes a cutoff (seed 002's "myBest.move = any legal move").
    pub(super) root_best: Option<M>,
    max_nodes: Option<u64>,
    deadline: Option<Instant>,
    /// Set when the budget ran out; the search then unwinds without valuing anything.
    pub(super) exhausted: Option<Exhausted>,
    /// The plies past the horizon ([`SearchOptions::quiescence_plies`]).
    quiescence: Quiescence,
    /// Raised by another thread to stop the search.
    stop: Option<StopSignal>,
    /// Whether the game knows the root's value ([`Evaluate::known_value`]): then known
    /// positions below it are searched as any other, not ended there.
    root_known: bool,
    /// The root's moves, once ordered, are rotated left by this many places: a helper of
    /// [`super::parallel_deepening`] begins with another move than the calling thread.
    pub(super) root_rotation: usize,
    /// The root's first move in the last search, once its search finished.
    pub(super) root_first: Option<M>,
    /// Recaptures cost no ply ([`SearchOptions::extend_recaptures`]).
    extend_recaptures: bool,
    /// A threatened position at the horizon is searched a ply more
    /// ([`SearchOptions::extend_threats`]).
    extend_threats: bool,
    /// Verified pruning ([`SearchOptions::verified_pruning`]).
    verified_pruning: Option<VerifiedPruning>,
    /// The plies left at the root of the last search: extensions stop where a line would
    /// grow past twice that.
    root_depth: u32,
    /// `not_quiet_at[ply]`: whether the position at that ply of the current line was not
    /// quiet (kept only with `extend_recaptures`).
    not_quiet_at: Vec<bool>,
}

impl<M: Copy + Eq> Engine<M> {
    pub(super) fn new(options: &SearchOptions, started: Instant) -> Self {
        Engine {
            stats: SearchStats::default(),
            horizon_leaves: 0,
            track_lines: true,
            lines: Vec::new(),
            previous_line: Vec::new(),
            principal_line_first: options.principal_line_first,
            killers: options.use_killers.then(Killers::new),
            history: options.use_history.then(HistoryTable::default),
            pvs: options.use_pvs,
            late_move_reductions: options.late_move_reductions,
            buffers: MoveBuffers::new(),
            root_best: None,
            max_nodes: options.max_nodes,
            // A limit too far away to represent is no limit.
            deadline: options
                .time_limit
                .and_then(|limit| started.checked_add(limit)),
            exhausted: None,
            quiescence: Quiescence::new(options.quiescence_plies),
            stop: options.stop.clone(),
            root_known: false,
            root_rotation: 0,
            root_first: None,
            extend_recaptures: options.extend_recaptures,
            extend_threats: options.extend_threats,
            verified_pruning: options.verified_pruning,
            root_depth: 0,
            not_quiet_at: Vec::new(),
        }
    }

    /// The root's line of the last search.
    pub(super) fn take_line(&mut self) -> Vec<M> {
        if self.lines.is_empty() {
            Vec::new()
        } else {
            std::mem::take(&mut self.lines[0])
        }
    }

    /// The root's line of the last search.
    pub(super) fn line(&self) -> &[M] {
        self.lines.first().map_or(&[], Vec::as_slice)
    }

    /// Whether the budget allows one more position; records why not.
    fn within_budget(&mut self) -> bool {
        if self.exhausted.is_some() {
            return false;
        }
        if self.max_nodes.is_some_and(|max| self.stats.nodes >= max) {
            self.exhausted = Some(Exhausted::Nodes);
            return false;
        }
        if self.stats.nodes.is_multiple_of(TIME_CHECK_INTERVAL) {
            if self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
            {
                self.exhausted = Some(Exhausted::Time);
                return false;
            }
            if self.stop.as_ref().is_some_and(StopSignal::is_stopped) {
                self.exhausted = Some(Exhausted::Stopped);
                return false;
            }
        }
        true
    }

    /// Makes `lines[ply]` the move `mv` followed by the line of the position after it.
    fn extend_line(&mut self, ply: usize, mv: M) {
        if !self.track_lines {
            return;
        }
        let (here, below) = self.lines.split_at_mut(ply + 1);
        let line = &mut here[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&below[0]);
    }

    /// The threat extension ([`SearchOptions::extend_threats`]) of a quiet position at the
    /// horizon: at the horizon itself, not past it in the quiescence search, while a ply
    /// more keeps the line within twice the root's depth, and when the game says the player
    /// to move is threatened.
    fn threat_extended<G: Evaluate>(&self, game: &G, ply: usize) -> bool {
        self.extend_threats
            && self.quiescence.at_horizon()
            && u32::try_from(ply).is_ok_and(|ply| ply < self.root_depth.saturating_mul(2))
            && game.is_threatened()
    }

    /// Verified pruning ([`SearchOptions::verified_pruning`]): in a quiet position whose
    /// evaluation lies beyond one of its bounds by the margin (the bound of the player to
    /// move, or with [`VerifiedPruning::fail_high`] the other one too), a search
    /// `reduction` plies shallower in a null window at the bound so shifted; that bound
    /// when the search stays beyond it, `None` otherwise (the full search follows).
    /// Nothing is stored: the shallow search stored its own entry.
    fn verified_cut<G: Game<Move = M> + Evaluate, T: TableAccess<G>>(
        &mut self,
        game: &mut G,
        table: &mut T,
        (depth, ply): (u32, usize),
        window: Window<G::Value>,
        player: Player,
        pruning: VerifiedPruning,
    ) -> Option<G::Value> {
        let Window { alpha, beta } = window;
        if !game.is_quiet() {
            return None;
        }
        let evaluation = game.evaluate();
        // Below α is bad for MAX, above β bad for MIN: each player's own side always, the
        // other's (a position good for the player to move) only when asked.
        let below_alpha = alpha
            .shifted(-pruning.margin)
            .filter(|&bound| (player == Player::Max || pruning.fail_high) && evaluation <= bound);
        let above_beta = beta
            .shifted(pruning.margin)
            .filter(|&bound| (player == Player::Min || pruning.fail_high) && evaluation >= bound);
        // The null window just past the shifted bound, and the position's value beyond it.
        let (shallow, cut) = match (below_alpha, above_beta) {
            (Some(bound), _) => (Window::new(bound.just_below()?, bound), alpha),
            (None, Some(bound)) => (Window::new(bound, bound.just_above()?), beta),
            (None, None) => return None,
        };
        let shallow_depth = depth.saturating_sub(pruning.reduction).max(1);
        let verified = with_stack(|| self.search(game, table, shallow_depth, ply, false, shallow));
        let stays_beyond = if below_alpha.is_some() {
            verified <= shallow.alpha
        } else {
            verified >= shallow.beta
        };
        (stays_beyond && self.exhausted.is_none()).then_some(cut)
    }

    /// `valmax`/`linemax` or `valmin`/`linemin`, by whose turn it is, with `depth` plies
    /// left; the line is left in `lines[ply]`. `on_line` says whether every move from the
    /// root to here followed the previous principal line. When the budget runs out the
    /// result is meaningless and `exhausted` is set.
    pub(super) fn search<G: Game<Move = M> + Evaluate, T: TableAccess<G>>(
        &mut self,
        game: &mut G,
        table: &mut T,
        depth: u32,
        ply: usize,
        on_line: bool,
        window: Window<G::Value>,
    ) -> G::Value {
        let Window {
            mut alpha,
            mut beta,
        } = window;
        if self.track_lines {
            while self.lines.len() < ply + 2 {
                self.lines.push(Vec::new());
            }
            // The seed's `alpha . ALPHA-CUTOFF`: no line yet.
            self.lines[ply].clear();
        }
        if ply == 0 {
            self.root_best = None;
            self.root_depth = depth;
            self.root_first = None;
        }
        if !self.within_budget() {
            return alpha;
        }
        self.stats.nodes += 1;
        // McCarthy's `ter`; with a table, the rules alone (see `Game::stops_early`).
        let over = if T::WINDOW_STOPS {
            crate::game::ter(game, alpha, beta)
        } else {
            game.is_terminal()
        };
        if over {
            self.stats.leaves += 1;
            return game.value();
        }
        // A position whose value the game knows (an endgame database's) ends its branch
        // below a root whose value is not known (see `Evaluate::known_value`).
        if ply == 0 {
            self.root_known = game.known_value().is_some();
        } else if !self.root_known
            && let Some(value) = game.known_value()
        {
            self.stats.leaves += 1;
            return value;
        }
        // At the horizon, a position that is not quiet is searched on, every move, while
        // the quiescence plies last (checkers: while a capture is forced); a quiet one is
        // evaluated, unless it is threatened and the threat extension gives it a ply.
        let mut depth = depth;
        if depth == 0 && (!self.quiescence.may_extend() || game.is_quiet()) {
            if self.threat_extended(game, ply) {
                depth = 1;
            } else {
                self.stats.leaves += 1;
                self.horizon_leaves += 1;
                return game.evaluate();
            }
        }
        let extending = depth == 0;
        // Past the horizon the table is not used: how far the quiescence search may go on
        // depends on the path, not on the position.
        let probe = if extending {
            Probe {
                cutoff: None,
                best_move: None,
                best_place: None,
            }
        } else {
            table.probe(game, depth, ply, window, self.track_lines)
        };
        if ply > 0
            && let Some(value) = probe.cutoff
        {
            return value;
        }
        let player = game.to_move();
        // Verified pruning: not at the root, nor along the previous principal line.
        if !extending
            && ply > 0
            && !on_line
            && let Some(pruning) = self.verified_pruning
            && depth >= pruning.min_depth.max(2)
            && let Some(value) =
                self.verified_cut(game, table, (depth, ply), window, player, pruning)
        {
            return value;
        }
        let mut moves = self.buffers.take();
        game.successors(&mut moves);
        // A table that keeps moves by their places in this list: its move read, and the
        // list kept as generated to find the best move's place in when it is stored.
        let table_move = probe.best_move.or_else(|| {
            probe
                .best_place
                .and_then(|place| moves.get(usize::from(place)).copied())
        });
        let generated = (T::MOVES_BY_PLACE && !extending).then(|| {
            let mut generated = self.buffers.take();
            generated.extend_from_slice(&moves);
            generated
        });
        // The short look-ahead's ordering: the previous principal line first, then the
        // killers of this ply, then the game's own order.
        let line_move = if on_line && self.principal_line_first {
            self.previous_line
                .get(ply)
                .copied()
                .filter(|&mv| move_to_front(&mut moves, mv))
        } else {
            None
        };
        // Then the table's move (McCarthy's programs had no table; its move is the best
        // of an earlier search of this position).
        let mut first = usize::from(line_move.is_some());
        if let Some(mv) = table_move
            && move_to_front(&mut moves[first..], mv)
        {
            first += 1;
        }
        if let Some(killers) = &self.killers {
            first += killers.order(ply, &mut moves[first..]);
        }
        if let Some(history) = &self.history {
            history.order(&mut moves[first..], player, |mv| game.history_slot(mv));
        }
        // A rotated root no longer starts with the previous line's move.
        let mut line_move = line_move;
        if ply == 0 {
            if !moves.is_empty() {
                let rotation = self.root_rotation % moves.len();
                if rotation > 0 {
                    moves.rotate_left(rotation);
                    line_move = None;
                }
            }
            self.root_best = moves.first().copied();
        }
        // Whether the position is quiet, asked once for the extension and the reductions;
        // past the horizon neither acts (and the horizon already asked).
        let quiet = (!extending && (self.extend_recaptures || self.late_move_reductions))
            .then(|| game.is_quiet());
        // A recapture (a position that is not quiet, reached from one that was not) costs
        // no ply, while the line stays within twice the root's depth.
        let extend = self.extend_recaptures && {
            let not_quiet = quiet == Some(false);
            if self.not_quiet_at.len() <= ply {
                self.not_quiet_at.resize(ply + 1, false);
            }
            self.not_quiet_at[ply] = not_quiet;
            not_quiet
                && ply > 0
                && self.not_quiet_at[ply - 1]
                && u32::try_from(ply)
                    .is_ok_and(|ply| ply.saturating_add(depth) < self.root_depth.saturating_mul(2))
        };
        let child_depth = if extend {
            depth
        } else {
            depth.saturating_sub(1)
        };
        let mut result = None;
        let mut best_move = None;
        // Late move reductions: only in a quiet position with plies to spare, and only
        // after the moves placed first by the line, the table and the killers.
        let reduce_from = (self.late_move_reductions
            && !extending
            && ply > 0
            && depth >= REDUCTION_MIN_DEPTH
            && quiet == Some(true))
        .then_some(first.max(MOVES_BEFORE_REDUCTION));
        for (index, &mv) in moves.iter().enumerate() {
            let child_on_line = index == 0 && line_move.is_some();
            // The next move's entry is loaded while this move's subtree is searched.
            if child_depth > 0
                && let Some(&next) = moves.get(index + 1)
            {
                table.prefetch_after(game, next);
            }
            game.update(mv);
            // The child probes the table unless it is past the horizon.
            if child_depth > 0 {
                table.prefetch(game);
            }
            let past = self.quiescence.enter(extending);
            // The null window at the player's bound: a result in it says only that the move
            // is not better for the player to move. In a position searched in a null window
            // already (a scout's subtree, most of the tree with principal variation search)
            // it is the position's own window: a late move is reduced there too.
            let null_window = match player {
                Player::Max => alpha
                    .just_above()
                    .map(|above| Window::new(alpha, if above < beta { above } else { beta })),
                Player::Min => beta
                    .just_below()
                    .map(|below| Window::new(if below > alpha { below } else { alpha }, beta)),
            };
            // A scout before the whole window saves something only where the position's own
            // window is wider than the null window.
            let scout_window = null_window.filter(|&scout| scout != Window::new(alpha, beta));
            let not_better = |s: G::Value| match player {
                Player::Max => s <= alpha,
                Player::Min => s >= beta,
            };
            // A late move that leaves the opponent a quiet position: one ply less, in the
            // null window; kept when it is not better, searched again otherwise.
            let reduced = if reduce_from.is_some_and(|from| index >= from) && game.is_quiet() {
                null_window.and_then(|scout| {
                    let s =
                        with_stack(|| self.search(game, table, depth - 2, ply + 1, false, scout));
                    (not_better(s) || self.exhausted.is_some()).then_some(s)
                })
            } else {
                None
            };
            // Principal variation search: after the first move, a null window at the
            // player's bound first; only a move that beats it is searched again in the
            // whole window.
            let scouted = reduced.map(|s| (s, true)).or_else(|| {
                let scout = (self.pvs && index > 0).then_some(scout_window).flatten()?;
                let s = with_stack(|| self.search(game, table, child_depth, ply + 1, false, scout));
                // Not better for the player to move: the null window's result is the
                // whole window's (at or below α for MAX, at or above β for MIN).
                Some((s, not_better(s)))
            });
            let s = match scouted {
                Some((s, true)) => s,
                _ if self.exhausted.is_some() => alpha,
                _ => with_stack(|| {
                    self.search(
                        game,
                        table,
                        child_depth,
                        ply + 1,
                        child_on_line,
                        Window::new(alpha, beta),
                    )
                }),
            };
            self.quiescence.leave(past);
            game.revert(mv);
            if self.exhausted.is_some() {
                break;
            }
            if ply == 0 && index == 0 {
                self.root_first = Some(mv);
            }
            match player {
                // vmaxlis / lmaxlis
                Player::Max => {
                    if s <= alpha {
                        continue;
                    } else if s < beta {
                        self.extend_line(ply, mv);
                        alpha = s;
                    } else {
                        result = Some(beta);
                    }
                }
                // vminlis / lminlis
                Player::Min => {
                    if s <= alpha {
                        result = Some(alpha);
                    } else if s < beta {
                        self.extend_line(ply, mv);
                        beta = s;
                    } else {
                        continue;
                    }
                }
            }
            best_move = Some(mv);
            if ply == 0 {
                self.root_best = Some(mv);
            }
            if result.is_some() {
                if let Some(killers) = &mut self.killers {
                    killers.record(ply, mv);
                }
                if let (Some(history), Some(slot)) = (&mut self.history, game.history_slot(mv)) {
                    history.record(slot, player, u64::from(depth) * u64::from(depth));
                }
                break;
            }
        }
        self.buffers.give_back(moves);
        let best_place = generated.map(|generated| {
            let place = best_move.and_then(|best| generated.iter().position(|&mv| mv == best));
            self.buffers.give_back(generated);
            place
        });
        if self.exhausted.is_some() {
            // At the root, the best value of the moves finished (for a partly searched
            // iteration); below it, nothing meaningful.
            return match (ply, player) {
                (0, Player::Min) => beta,
                _ => alpha,
            };
        }
        let value = match result {
            Some(cut) => {
                self.stats.cutoffs += 1;
                cut
            }
            None => match player {
                Player::Max => alpha,
                Player::Min => beta,
            },
        };
        if !extending {
            table.store(
                game,
                (depth, ply),
                window,
                value,
                (best_move, best_place.flatten()),
            );
        }
        value
    }
}
