//! Depth-limited alpha-beta with an evaluation function at the horizon (seed 002,
//! "Combinatorially huge game trees"), and iterative deepening whose shallower searches
//! order the deeper ones (seed 000, "Game trees": "the way to make the ordering is with a
//! short look-ahead to a much smaller depth than the main search"), with the killer
//! heuristic (seed 004) and a node or time budget.
//!
//! [`depth_limited_value`] and [`depth_limited_line`] are McCarthy's `valmax` and
//! `linemax` cut off at a depth: they try moves in the order of
//! [`crate::Game::successors`] and are the reference the orderings are tested against.
//! [`iterative_deepening`] searches depth 1, 2, … and reorders the moves, in its own
//! buffers, by what the previous iterations found; [`depth_limited_aspiration`] searches
//! in an estimated window first.
//!
//! Each has a sibling `..._with_table` that uses a
//! [`TranspositionTable`](crate::TranspositionTable) for a game with a position key
//! ([`crate::PositionKey`]): stored bounds end searches, stored moves are tried first.
//! [`table`] says what is stored and when the results equal those without a table.

mod depth_limited;
mod iterative;
pub mod parallel;
pub mod table;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pub use depth_limited::{
    depth_limited_aspiration, depth_limited_aspiration_with_table, depth_limited_line,
    depth_limited_line_with_table, depth_limited_value, depth_limited_value_quiescent,
    depth_limited_value_with_table,
};
pub use iterative::{
    DeepeningResult, Iteration, StopReason, iterative_deepening, iterative_deepening_with_table,
};
pub use parallel::{SharedTableSearch, parallel_deepening};
pub use table::{DistanceAdjustment, Reuse, TableSearch, TableStats};

/// How [`iterative_deepening`] orders its moves and when it stops.
///
/// Every ordering only reorders the moves the game generated, deterministically; none
/// changes the value of an iteration, only how many positions it visits (and, among moves
/// of equal value, which line it reports).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Try the previous iteration's principal line first: at each position along it, its
    /// move is moved to the front of the game's move list (the seed's "short look-ahead"
    /// ordering).
    pub principal_line_first: bool,
    /// Try the killer moves of the ply next, when the move list holds them (seed 004's
    /// killer heuristic; see [`crate::search::killer`]).
    pub use_killers: bool,
    /// The history heuristic: after the previous line's, the table's and the killers'
    /// moves, try first the moves that have cut off the search most (weighted by the
    /// square of the depth left), anywhere in the tree, for the player to move. Needs the
    /// game's [`Evaluate::history_slot`](crate::Evaluate::history_slot); a game without it
    /// keeps its order.
    pub use_history: bool,
    /// Principal variation search: every move after a position's first is searched first
    /// in a null window at the bound the player to move already has ((α, α⁺) for MAX,
    /// (β⁻, β) for MIN), which only asks whether it is better, and searched again in the
    /// whole window only when it is. The values are those of plain alpha-beta; where the
    /// first move is usually the best, the null windows cut more (Marsland and Campbell,
    /// 1982). Needs values with a neighbour ([`crate::Value::just_above`]); off by default.
    pub use_pvs: bool,
    /// Late move reductions: in a quiet position ([`Evaluate::is_quiet`]) with at least
    /// [`REDUCTION_MIN_DEPTH`] plies left, a move tried after the first
    /// [`MOVES_BEFORE_REDUCTION`] (and after the previous line's, the table's and
    /// the killers' moves) that leaves the opponent a quiet position is searched one ply
    /// shallower in a null window first, and again at full depth only when it is better
    /// for the player to move. Good move ordering puts the best moves first, so the late
    /// ones are rarely better and the search sees further in the same time; unlike every
    /// other option here but [`Self::extend_recaptures`] it may **change the value** (a
    /// late move whose merit shows only at full depth is missed), so it is off by default
    /// and measured in games, not in values (docs/checkers.md). Needs values with a neighbour
    /// ([`crate::Value::just_above`]).
    ///
    /// [`Evaluate::is_quiet`]: crate::Evaluate::is_quiet
    pub late_move_reductions: bool,
    /// Recapture extension: a position that is not quiet ([`Evaluate::is_quiet`]), reached
    /// by a move from a position that was not quiet either, is searched to the same depth
    /// as its parent: in checkers, a capture answering a capture costs no ply, so that an
    /// exchange is seen to its end inside the depth, not only at the horizon (where
    /// quiescence searches on). Extensions stop where a line would grow past twice the
    /// root's depth. Like late move reductions it changes the tree and so may **change the
    /// value**; off by default, measured in games (docs/checkers.md).
    ///
    /// [`Evaluate::is_quiet`]: crate::Evaluate::is_quiet
    pub extend_recaptures: bool,
    /// Threat extension: a position at the horizon that is quiet but threatened
    /// ([`Evaluate::is_threatened`]: in checkers, the player who just moved could capture)
    /// is searched one ply more instead of evaluated, so that a shot one move beyond the
    /// horizon is seen (the player to move answers the threat, and the quiescence search
    /// plays out the capture); GuiNN 2.06 extends its leaves so. Only at the horizon, not
    /// within the quiescence search, and only while the line stays within twice the
    /// root's depth. It changes the tree and so may **change the value**; off by default,
    /// measured in games (docs/checkers.md).
    ///
    /// [`Evaluate::is_threatened`]: crate::Evaluate::is_threatened
    pub extend_threats: bool,
    /// Verified pruning, Buro's ProbCut (1995) in its simplest form, as GuiNN 2.06 uses
    /// it: below the root and off the previous principal line, in a quiet position
    /// ([`Evaluate::is_quiet`]) with at least [`VerifiedPruning::min_depth`] plies left
    /// whose evaluation is worse for the player to move than its bound by the margin or
    /// more (MAX at or below α − margin, MIN at or above β + margin), a search `reduction`
    /// plies shallower (one ply at least), in a null window at the bound so shifted, asks
    /// whether the position stays that far beyond it; if it does, the position fails low
    /// without its full search ([`VerifiedPruning::fail_high`]: positions good for the
    /// player to move are cut the same way, failing high). A move that loses a man for
    /// nothing costs a shallow search instead of a full one, and the search sees further
    /// in the same time. The shallow search is a search of the same position, so it may be
    /// cut so too, 2 × margin beyond the bound, by one shallower still. With an evaluation
    /// never further than the margin from the true value, a search to the end of the game
    /// keeps its value (tests/verified_pruning.rs); elsewhere the value may change, as with
    /// late move reductions (a sacrifice whose return shows only at full depth is missed),
    /// so it is off by default and measured in games (docs/checkers.md). Needs values that
    /// can be shifted ([`crate::Value::shifted`]) and have neighbours
    /// ([`crate::Value::just_above`]); without them it does nothing.
    ///
    /// [`Evaluate::is_quiet`]: crate::Evaluate::is_quiet
    pub verified_pruning: Option<VerifiedPruning>,
    /// When the budget cuts an iteration short after it finished the previous best move
    /// and then found a better one, play that move ([`DeepeningResult::partial`]); on by
    /// default, off in [`SearchOptions::plain`], whose iterations are exactly
    /// [`depth_limited_line`] (and which the experiments' budgeted players use, so that
    /// their recorded games replay).
    pub play_partial_iteration: bool,
    /// Stop once this many positions have been visited (over all iterations).
    pub max_nodes: Option<u64>,
    /// Stop once this much time has passed since the search began. The clock is read
    /// every [`TIME_CHECK_INTERVAL`] positions, so the search may overrun by that many.
    pub time_limit: Option<Duration>,
    /// Begin no new depth once this much time has passed since the search began (a soft
    /// limit under [`Self::time_limit`]): a depth rarely takes less time than the one
    /// before it, so one begun late is abandoned and its time lost. A game clock sets it to
    /// half the move's time ([`crate::GameClock`]).
    pub new_depth_limit: Option<Duration>,
    /// Quiescence: at the horizon, a position that is not quiet ([`Evaluate::is_quiet`]:
    /// in checkers, a capture is forced) is not evaluated but searched on, every move,
    /// for at most this many plies past the horizon on any path; 0 turns it off. There is
    /// no "standing pat" (the player to move may not decline the sequence), so this is
    /// for forced sequences such as checkers' compulsory captures, and the value is the
    /// minimax value of the tree so extended.
    ///
    /// [`Evaluate::is_quiet`]: crate::Evaluate::is_quiet
    pub quiescence_plies: u32,
    /// Stop when another thread raises this signal (a program's stop button, a server
    /// whose client has gone): read with the clock, every [`TIME_CHECK_INTERVAL`]
    /// positions; the iteration under way is abandoned, as at a time limit.
    pub stop: Option<StopSignal>,
}

/// A signal one thread raises to stop a search running on another.
///
/// Clones share the signal: keep one, give the search another (in
/// [`SearchOptions::stop`]), and call [`StopSignal::stop`] to end the search at its next
/// check. Two signals are equal when they are clones of one another.
#[derive(Clone, Debug, Default)]
pub struct StopSignal(Arc<AtomicBool>);

impl StopSignal {
    /// A signal not yet raised.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Raises the signal: every search given a clone of it stops at its next check.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the signal has been raised.
    #[must_use]
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

impl PartialEq for StopSignal {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for StopSignal {}

/// [`SearchOptions::late_move_reductions`]: the moves of a position searched at full depth
/// before any is reduced.
pub const MOVES_BEFORE_REDUCTION: usize = 3;

/// [`SearchOptions::late_move_reductions`]: the least depth left at which a move is reduced
/// (a reduced move keeps at least one ply before the horizon).
pub const REDUCTION_MIN_DEPTH: u32 = 3;

/// The settings of [`SearchOptions::verified_pruning`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifiedPruning {
    /// How far, in the evaluation's units, the position's evaluation must be beyond the
    /// bound of the player to move before a shallow search is asked.
    pub margin: i32,
    /// How many plies shallower that search is (at least one ply is left to it).
    pub reduction: u32,
    /// The fewest plies left at which a position may be cut (at least 2: the shallow
    /// search is shallower). With `min_depth` at most `reduction`, a position with
    /// `reduction` plies left or fewer is verified by a search of one ply.
    pub min_depth: u32,
    /// Whether a position whose evaluation is better for the player to move than its other
    /// bound by the margin is cut too (fails high) when the shallow search agrees, as
    /// Buro's ProbCut does; GuiNN cuts only positions bad for the player to move, where a
    /// full search would try every move.
    pub fail_high: bool,
}

impl Default for VerifiedPruning {
    /// A margin of 28 and a reduction of 4 plies, GuiNN 2.06's settings (its men are worth
    /// about 100, as checkers' are here), cutting from 3 plies left as GuiNN does and both
    /// ways as ProbCut does: in checkers self-play that scored +34 Elo [+12, +55] at
    /// 150,000 positions a move and +40 [+19, +62] at 300,000 against cutting one way from
    /// 5 plies left, the default before (docs/checkers.md, "Tuning it").
    fn default() -> Self {
        VerifiedPruning {
            margin: 28,
            reduction: 4,
            min_depth: 3,
            fail_high: true,
        }
    }
}

/// How often, in positions visited, a search with a time limit reads the clock.
pub const TIME_CHECK_INTERVAL: u64 = 1024;

impl SearchOptions {
    /// No reordering and no budget: each iteration is exactly [`depth_limited_line`].
    #[must_use]
    pub fn plain() -> Self {
        SearchOptions {
            principal_line_first: false,
            use_killers: false,
            use_history: false,
            use_pvs: false,
            late_move_reductions: false,
            extend_recaptures: false,
            extend_threats: false,
            verified_pruning: None,
            play_partial_iteration: false,
            max_nodes: None,
            time_limit: None,
            new_depth_limit: None,
            quiescence_plies: 0,
            stop: None,
        }
    }
}

impl Default for SearchOptions {
    /// Principal line first, killers off, no budget, a cut-short iteration's better move
    /// played ([`Self::play_partial_iteration`]). Killers are off because they cost
    /// nodes on both games measured (`cargo bench --bench search_defaults`): checkers to
    /// depth 12, 213,739 nodes without them against 493,987 with; Kalah(6,4) to depth 14,
    /// 138,302 against 1,176,719 (a Kalah move is a house of whoever is to move, so after an
    /// extra move the killers of a ply are the other player's). Tic-tac-toe is the
    /// counter-example: 38,315 nodes without killers against 15,413 with, to depth 9; turn
    /// them on ([`crate::Search::killers`]) where they pay.
    fn default() -> Self {
        SearchOptions {
            principal_line_first: true,
            use_killers: false,
            use_history: false,
            use_pvs: false,
            late_move_reductions: false,
            extend_recaptures: false,
            extend_threats: false,
            verified_pruning: None,
            play_partial_iteration: true,
            max_nodes: None,
            time_limit: None,
            new_depth_limit: None,
            quiescence_plies: 0,
            stop: None,
        }
    }
}
