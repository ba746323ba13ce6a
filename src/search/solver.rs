//! A strong (or weak) solver for integer-valued games: negamax alpha-beta (negating only
//! where the player to move changes, so a player may move twice in a row) with a
//! transposition table, null-window searches narrowing the value, the table's move first,
//! enhanced transposition cutoffs, and pruning the game knows (the moves that lose at
//! once, the wins at once) through the optional [`Solvable::outlook`] and
//! [`Solvable::search_moves`].
//!
//! This is McCarthy's alpha-beta (seed 000) taken to the limit of its window: seed 002's
//! aspiration idea, "search with a window around an estimate", narrowed to windows of
//! width one (null windows), each answering "is the value above `v`?", and repeated, as a
//! binary search on the value interval, until the value is known. Pascal Pons' Connect
//! Four solver is built the same way; here it is game-independent, and
//! [`crate::games::connect_four`] supplies only the rules, the move ordering and the
//! pruning.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::game::{Game, Player};
use crate::search::shared_table::{SharedEntry, SharedTable};
use crate::search::solve_progress::{PUBLISH_NODES, SAMPLE_FILL_NODES, SolveProgress};
use crate::search::transposition::ZobristHash;
use crate::search::{Bound, SearchStats, with_stack};

/// What a game knows of the current position before it is searched: its value, or an
/// interval the value lies in and what it learned of the moves on the way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outlook<C> {
    /// The value to MAX is known without search (the game is over, the player to move
    /// wins at once, every move loses at once, the game is drawn whatever happens).
    Known(i32),
    /// The position must be searched; its value to MAX lies in `lower..=upper`.
    Search {
        /// The value to MAX is at least this.
        lower: i32,
        /// The value to MAX is at most this.
        upper: i32,
        /// What the game found out about the moves while bounding the value (Connect
        /// Four: the cells that do not lose at once), handed back to
        /// [`Solvable::search_moves`] so that it is not computed twice.
        candidates: C,
    },
}

/// A game the [`Solver`] can solve: integer values to MAX, a position key, and optionally
/// knowledge that saves search.
///
/// Values are integers so that the solver can negate them (it searches from the point of
/// view of the player to move, as negamax does) and split the interval they lie in. The
/// solver asks [`Game::to_move`] after every move: the players need not alternate (a
/// player may move twice or more in a row, as after Kalah's extra move).
pub trait Solvable: Game<Value = i32> + ZobristHash {
    /// What [`outlook`](Self::outlook) learns of the moves and hands to
    /// [`search_moves`](Self::search_moves): `()` for a game that learns nothing.
    type Candidates: Copy + Default + Send;

    /// Called at every position the solver visits, before the table is probed: the value
    /// when it is known without search, or an interval it lies in. The solver asks
    /// nothing else of the position first: `outlook` is also what ends the game.
    ///
    /// The default knows only the rules: at the end of the game ([`Game::is_terminal`] over
    /// the widest window) the [`Game::value`], otherwise the interval of every `i32`. A
    /// game overrides it to value a position whose player to move wins at once or whose
    /// every move loses at once, and to bound the value (Connect Four: a win cannot come
    /// before the player's next-but-one stone). It is called at every position searched,
    /// so it should be cheap.
    ///
    /// `after_search_move` says the position was reached by one of the moves
    /// [`search_moves`](Self::search_moves) gave at the previous position (everywhere but
    /// at the root of a search): what `search_moves` guarantees need not be checked again
    /// (Connect Four: neither player has four in a row, and the player to move cannot win
    /// at once, since the previous player did not allow it).
    fn outlook(&self, after_search_move: bool) -> Outlook<Self::Candidates> {
        let _ = after_search_move;
        if self.is_terminal() {
            return Outlook::Known(self.value());
        }
        Outlook::Search {
            lower: i32::MIN,
            upper: i32::MAX,
            candidates: Self::Candidates::default(),
        }
    }

    /// Called at a position whose [`outlook`](Self::outlook) was
    /// [`Outlook::Search`] with these `candidates`, when the table did not settle it:
    /// appends the moves worth searching to `moves`, best first.
    ///
    /// The default appends every successor. A game overrides it to leave out moves that
    /// lose at once, or moves whose values the outlook already counted in its bound: a
    /// move left out must be no better for the player to move than the best move appended
    /// or than the outlook's bound on the position (its `lower` for MAX, its `upper` for
    /// MIN; Kalah leaves out the moves whose successors the endgame table values). No
    /// moves is a loss for the player to move, as in [`Game`].
    fn search_moves(&self, candidates: Self::Candidates, moves: &mut Vec<Self::Move>) {
        let _ = candidates;
        self.successors(moves);
    }

    /// Who is to move after `mv`, the game left as it was: what enhanced transposition
    /// cutoffs need to read a successor's table entry (a score to the player to move
    /// there) before searching it.
    ///
    /// The default plays the move, asks [`Game::to_move`] and takes the move back; a game
    /// that knows without playing overrides it (Connect Four: always the opponent).
    fn to_move_after(&mut self, mv: Self::Move) -> Player {
        self.update(mv);
        let player = self.to_move();
        self.revert(mv);
        player
    }

    /// A likely value to MAX of the current position, from which the solver narrows the
    /// value as MTD(f) does (Plaat et al., 1996): each null-window search tests the bound
    /// the last one returned, so that a good guess takes two searches. `None` (the
    /// default) bisects the interval from [`outlook`](Self::outlook) instead, as Pons'
    /// solver does.
    ///
    /// A game overrides it where bounds near the value are cheaper to prove from one side:
    /// Kalah guesses the store difference, and the searches climb from it, proving lower
    /// bounds (one good line each) until the one upper bound at the value.
    fn first_guess(&self) -> Option<i32> {
        None
    }

    /// The number of positions after which a solve would rather go on with the knowledge
    /// that pays in large searches, if the game has such knowledge not yet in use: the
    /// solver then calls [`escalate`](Self::escalate) and starts the null-window search
    /// that was running again. `None` (the default): the game has nothing more to give.
    ///
    /// Some knowledge saves positions at a cost per position that pays only in a large
    /// search (Connect Four's dead stones and look at every successor): a solve starts
    /// without it and takes it on once it has visited this many positions. The table keeps
    /// the entries stored before the switch, so [`solver_key`](Self::solver_key) must
    /// encode positions alike with the knowledge and without: a key made before the switch
    /// may not be the key of a different position after it. Then the table's entries stay
    /// true either way; only the positions searched before the switch (at most this many)
    /// may be searched again.
    fn escalation(&self) -> Option<u64> {
        None
    }

    /// Takes on the knowledge [`escalation`](Self::escalation) offered; says whether
    /// anything changed. The position stays the same position: the game is left escalated
    /// after the solve.
    fn escalate(&mut self) -> bool {
        false
    }

    /// The part of the value to MAX that nothing played from here on can change (Kalah:
    /// the seeds already in the stores, South's less North's); 0 by default.
    ///
    /// The solver's table holds scores less this part, so that positions that differ only
    /// in it share one entry: a game that overrides it leaves it out of
    /// [`solver_key`](Self::solver_key) (Kalah's covers the houses and the player to move, not
    /// the stores), and overrides [`settled_value_after`](Self::settled_value_after) to
    /// agree with it. Positions with the same key must have values that differ by exactly
    /// the difference of their settled values.
    fn settled_value(&self) -> i32 {
        0
    }

    /// The key of the current position in the solver's table: [`ZobristHash::hash_key`]
    /// by default. A game whose [`settled_value`](Self::settled_value) is not 0 leaves the
    /// settled part out of this key (but not out of `hash_key`, which other searches use
    /// with tables of whole values).
    fn solver_key(&self) -> u64 {
        self.hash_key()
    }

    /// [`solver_key`](Self::solver_key) after `mv`, the game left as it was:
    /// [`ZobristHash::hash_key_after`] by default. A game that overrides `solver_key`
    /// overrides this (or [`peek`](Self::peek)) too.
    fn solver_key_after(&mut self, mv: Self::Move) -> u64 {
        self.hash_key_after(mv)
    }

    /// [`settled_value`](Self::settled_value) after `mv`, the game left as it was: what
    /// enhanced transposition cutoffs need to read a successor's table entry. A game that
    /// overrides one overrides both; the default is 0, as the default `settled_value`.
    fn settled_value_after(&mut self, mv: Self::Move) -> i32 {
        let _ = mv;
        0
    }

    /// The one move worth searching among `candidates`, if there is only one (Connect
    /// Four: the cell that parries the opponent's threat, or the only cell that does not
    /// lose at once). The solver then plays it at once, as Steininger's solver resolves
    /// forced moves in its static search: no table entry is read or written for the
    /// position (it is worth what its successor is worth, or the outlook's lower bound),
    /// so forced positions neither cost a probe nor push better entries out of the table.
    /// On positions four plies from the empty 7×6 board, 37% of the positions searched
    /// have a single candidate. `None` (the default): the position is searched as any
    /// other. A move returned must be the only one [`search_moves`](Self::search_moves)
    /// would give.
    fn forced_move(&self, candidates: Self::Candidates) -> Option<Self::Move> {
        let _ = candidates;
        None
    }

    /// Whether the solver asks the [`outlook`](Self::outlook) of every successor of a
    /// position before searching any of them, with enhanced transposition cutoffs: one
    /// whose outlook is already good enough for the player to move ends the search of the
    /// position, and those already no better than the window's lower end are skipped. The
    /// outlooks are kept for the successors' own searches, so this costs only the
    /// outlooks of successors that are never searched. Worth it where the outlook is
    /// cheap next to a search (Connect Four: on positions four plies from the empty board,
    /// 27% fewer positions); false by default.
    fn outlook_successors(&self) -> bool {
        false
    }

    /// [`outlook`](Self::outlook)`(true)`, at a position reached by one of the moves
    /// [`search_moves`](Self::search_moves) gave, with how promising that move was for
    /// the player who made it: where the solver looks at every successor first
    /// ([`outlook_successors`](Self::outlook_successors)), it searches them in decreasing
    /// promise (the table's move first, the order of `search_moves` among equals). The
    /// default promises nothing (0): the order of `search_moves` stands. A game whose
    /// outlook computes what its move ordering needs overrides it, so that the work is
    /// done once, and orders its moves cheaply in `search_moves`.
    fn outlook_with_promise(&self) -> (Outlook<Self::Candidates>, i32) {
        (self.outlook(true), 0)
    }

    /// What enhanced transposition cutoffs read of the position after `mv`, the game left
    /// as it was: its key, its player to move and its settled value. The default asks
    /// [`hash_key_after`](ZobristHash::hash_key_after), [`to_move_after`](Self::to_move_after)
    /// and [`settled_value_after`](Self::settled_value_after); a game whose three answers
    /// each need the move played overrides it to play the move once.
    fn peek(&mut self, mv: Self::Move) -> Peek {
        Peek {
            key: self.solver_key_after(mv),
            to_move: self.to_move_after(mv),
            settled_value: self.settled_value_after(mv),
        }
    }
}

/// The position after a move as the solver's table sees it: see [`Solvable::peek`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Peek {
    /// Its [`solver_key`](Solvable::solver_key).
    pub key: u64,
    /// Its player to move.
    pub to_move: Player,
    /// Its [`settled_value`](Solvable::settled_value).
    pub settled_value: i32,
}

/// How the [`Solver`] searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Weak solving: only whether the player to move wins, draws or loses. The value is
    /// then -1, 0 or 1 times the sign of the true value (0 is taken to be a draw).
    pub weak: bool,
    /// Enhanced transposition cutoffs: before searching the moves of a position, look each
    /// successor up in the table and stop at once if one is already known to be good
    /// enough.
    pub enhanced_transposition_cutoffs: bool,
    /// The greatest size of the transposition table, in mebibytes. The table starts at
    /// [`INITIAL_TABLE_MIB`] (or this, if smaller) and doubles whenever the entries stored
    /// since it last grew or was cleared reach [`TABLE_GROWTH_LOAD`] times its capacity.
    pub table_mib: usize,
    /// A parallel solve ([`Solver::solve_parallel`]) searches this many positions on one
    /// thread before it calls in the others: most positions a program asks about are
    /// small, and starting threads for each null-window search of one would cost more
    /// than the search (0: every thread from the start).
    pub parallel_after_nodes: u64,
}

impl Default for SolveOptions {
    /// Strong solving, enhanced transposition cutoffs on, a table of up to 64 MiB, a
    /// parallel solve on one thread for its first 65,536 positions.
    fn default() -> Self {
        SolveOptions {
            weak: false,
            enhanced_transposition_cutoffs: true,
            table_mib: 64,
            parallel_after_nodes: 1 << 16,
        }
    }
}

/// The value of a position found by the [`Solver`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The value to MAX with perfect play (with [`SolveOptions::weak`]: its sign).
    pub value: i32,
    /// The same value from the point of view of the player to move (the benchmark
    /// convention of Connect Four solvers).
    pub score: i32,
    /// Positions visited by every null-window search together, the root counted once per
    /// search; elapsed time.
    pub stats: SearchStats,
}

/// The size a [`Solver`]'s table starts at, in mebibytes: small enough to stay in a
/// processor's second-level cache and address translation buffers, which on Pons'
/// benchmark positions is faster than a table a hundred times larger.
pub const INITIAL_TABLE_MIB: usize = 1;

/// A [`Solver`]'s table doubles when the entries stored since it last grew reach this many
/// times its capacity.
pub const TABLE_GROWTH_LOAD: u64 = 8;

/// What [`Solver::solve_within`] proved before its budget ran out: bounds on the score to
/// the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unsolved {
    /// The score to the player to move is at least this.
    pub at_least: i32,
    /// The score to the player to move is at most this.
    pub at_most: i32,
    /// What the search did.
    pub stats: SearchStats,
}

/// What one null-window search of [`Solver::solve_reporting`] left: the interval the score
/// to the player to move at the root lies in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Narrowed {
    /// The score is at least this.
    pub at_least: i32,
    /// The score is at most this.
    pub at_most: i32,
    /// The score the search tested: whether the score is above it.
    pub tested: i32,
    /// Positions visited since the solve began.
    pub nodes: u64,
    /// Time since the solve began.
    pub elapsed: std::time::Duration,
}

/// ±∞ from the point of view of the player to move: `i32::MAX` and its negation, so that
/// negating never overflows.
const INFINITY: i32 = i32::MAX;
/// Every this many positions a thread of a parallel search looks whether another has
/// finished.
const STOP_CHECK_NODES: u64 = 256;

/// Every this many plies the search makes sure the stack has room for the next ones.
const STACK_CHECK_PLIES: usize = 16;

/// A solver: the transposition table and move buffers, kept between the positions it
/// solves (clear the table with [`Solver::clear`] for independent measurements).
///
/// # Example
/// ```
/// use gametree::{ConnectFour, SolveOptions, Solver};
///
/// let mut solver = Solver::new(SolveOptions { table_mib: 1, ..SolveOptions::default() });
/// // The first player has four in a row: the game is over, lost for the player to move.
/// let mut game = ConnectFour::from_moves("4455667").expect("legal moves");
/// assert_eq!(solver.solve(&mut game).score, -18);
/// let mut game = ConnectFour::from_moves("445566").expect("legal moves");
/// // The first player wins with their next (4th) stone: 22 - 4 = 18.
/// assert_eq!(solver.solve(&mut game).score, 18);
/// ```
pub struct Solver<G: Solvable> {
    table: SharedTable,
    options: SolveOptions,
    /// The search state of the calling thread.
    main: Worker<G>,
    /// The search states of the helper threads of [`solve_parallel`](Self::solve_parallel),
    /// kept for their buffers.
    helpers: Vec<Worker<G>>,
    /// Entries stored since the table last grew or was cleared.
    stores_since_growth: u64,
    /// The positions the threads of a parallel search are searching near the root.
    busy: BusyTable,
    /// What the search now running has done, for a display on another thread.
    progress: Arc<SolveProgress>,
}

/// One thread's search: its move buffers, figures and budget. The table is the solver's.
struct Worker<G: Solvable> {
    /// `move_stack[ply]`: the move buffer of the position `ply` moves below the root.
    move_stack: Vec<Vec<G::Move>>,
    /// `successor_stack[ply]`: what enhanced transposition cutoffs read of the successors
    /// of the position `ply` moves below the root.
    successor_stack: Vec<Vec<Successor<G::Candidates>>>,
    /// `order_stack[ply]`: the order the moves of that position are searched in.
    order_stack: Vec<Vec<usize>>,
    stats: SearchStats,
    /// The node budget of the current solve.
    budget: u64,
    /// Where the search stops: the budget, or the end of a round of a parallel search.
    node_limit: u64,
    /// Set when the budget ran out or another thread finished first: the search unwinds,
    /// storing nothing.
    aborted: bool,
    /// 0 for the calling thread; a helper's number: the root move it searches first.
    helper: u64,
    /// The solver's options for the current solve.
    options: SolveOptions,
}

impl<G: Solvable> Worker<G> {
    fn new(helper: u64) -> Self {
        Worker {
            move_stack: Vec::new(),
            successor_stack: Vec::new(),
            order_stack: Vec::new(),
            stats: SearchStats::default(),
            budget: u64::MAX,
            node_limit: u64::MAX,
            aborted: false,
            helper,
            options: SolveOptions::default(),
        }
    }

    fn start(&mut self, node_limit: u64, options: SolveOptions) {
        self.options = options;
        self.budget = node_limit;
        self.stats = SearchStats::default();
        self.node_limit = node_limit;
        self.aborted = false;
    }
}

/// How a worker reaches the table: alone, it may grow the table as it fills; shared with
/// other threads, it may not.
trait TableAccess {
    fn table(&self) -> &SharedTable;
    /// Called after each store.
    fn stored(&mut self);
}

/// The table, held by one thread, which grows it.
struct Alone<'a> {
    table: &'a mut SharedTable,
    stores_since_growth: &'a mut u64,
}

impl TableAccess for Alone<'_> {
    #[inline]
    fn table(&self) -> &SharedTable {
        self.table
    }

    #[inline]
    fn stored(&mut self) {
        *self.stores_since_growth += 1;
        if *self.stores_since_growth >= TABLE_GROWTH_LOAD * self.table.capacity() as u64
            && self.table.grow()
        {
            *self.stores_since_growth = 0;
        }
    }
}

/// The table, shared by the threads of one search.
struct Shared<'a>(&'a SharedTable);

impl TableAccess for Shared<'_> {
    #[inline]
    fn table(&self) -> &SharedTable {
        self.0
    }

    #[inline]
    fn stored(&mut self) {}
}

/// What a search reaches besides the position: the table and the flag that tells the
/// threads of a parallel search to stop.
struct Reach<'a, T> {
    access: T,
    stop: &'a AtomicBool,
    /// The successors the threads of a parallel search are searching near the root.
    busy: Option<&'a BusyTable>,
    /// Where the threads publish how far they have got.
    progress: &'a SolveProgress,
}

impl<T: TableAccess> Reach<'_, T> {
    /// Called every [`STOP_CHECK_NODES`] positions a thread visits, `nodes` in all:
    /// publishes its progress now and then, and says whether the thread must stop.
    #[inline]
    fn checkpoint(&self, nodes: u64) -> bool {
        if nodes.is_multiple_of(PUBLISH_NODES) {
            self.progress.add_nodes();
            if nodes.is_multiple_of(SAMPLE_FILL_NODES) {
                self.progress.set_table_fill(self.access.table().fill());
            }
        }
        self.stop.load(Ordering::Relaxed)
    }
}

/// The positions the threads of a parallel search are searching now, near the root: a
/// small open-addressed set of keys, one slot a key, shared without locks. A key that
/// finds its slot taken by another is simply not recorded (a thread then searches it
/// without telling the others), so the set is only ever a hint.
struct BusyTable {
    slots: Vec<AtomicU64>,
}

impl BusyTable {
    fn new() -> BusyTable {
        BusyTable {
            slots: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        let index = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize % BUSY_SLOTS;
        &self.slots[index]
    }

    /// Whether another thread is searching the position of `key`.
    fn is_busy(&self, key: u64) -> bool {
        key != 0 && self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Records that this thread searches the position of `key`: whether it could.
    fn enter(&self, key: u64) -> bool {
        key != 0
            && self
                .slot(key)
                .compare_exchange(0, key, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
    }

    /// Forgets the record [`enter`](Self::enter) made.
    fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// Slots of the [`BusyTable`].
const BUSY_SLOTS: usize = 1 << 12;

/// A parallel search defers the moves other threads are searching at this many plies
/// below the root.
const EXCLUSIVE_PLIES: usize = 6;

impl<G: Solvable> Solver<G> {
    /// A solver with a fresh table of `options.table_mib` mebibytes.
    #[must_use]
    pub fn new(options: SolveOptions) -> Self {
        Solver {
            table: SharedTable::growing(
                INITIAL_TABLE_MIB << 20,
                options.table_mib.saturating_mul(1 << 20),
            ),
            options,
            main: Worker::new(0),
            helpers: Vec::new(),
            stores_since_growth: 0,
            busy: BusyTable::new(),
            progress: Arc::default(),
        }
    }

    /// A solver whose table starts at `initial_bytes`: tables that grow many times in
    /// one solve, for the tests.
    #[cfg(test)]
    fn with_initial_table(options: SolveOptions, initial_bytes: usize) -> Self {
        let mut solver = Self::new(options);
        solver.table = SharedTable::growing(initial_bytes, options.table_mib << 20);
        solver
    }

    /// The options the solver was made with.
    #[must_use]
    pub fn options(&self) -> SolveOptions {
        self.options
    }

    /// What the search now running (or the last one) has done: a handle another thread
    /// can read while this solver searches, for a progress display.
    ///
    /// # Example
    /// ```
    /// use gametree::{ConnectFour, SolveOptions, Solver};
    ///
    /// let mut solver = Solver::new(SolveOptions::default());
    /// let progress = solver.progress();
    /// let mut game = ConnectFour::from_moves("5554224333234511764415115").expect("legal moves");
    /// let watcher = std::thread::spawn(move || progress.snapshot());
    /// solver.solve(&mut game);
    /// let _seen_meanwhile = watcher.join().expect("the watcher ends");
    /// assert_eq!(solver.progress().snapshot().tested, None);
    /// ```
    #[must_use]
    pub fn progress(&self) -> Arc<SolveProgress> {
        Arc::clone(&self.progress)
    }

    /// The memory the transposition table takes now, in bytes (it grows up to
    /// [`SolveOptions::table_mib`]).
    #[must_use]
    pub fn table_memory_bytes(&self) -> usize {
        self.table.memory_bytes()
    }

    /// Switches between strong and weak solving; the table stays valid (its entries are
    /// bounds on true values either way).
    pub fn set_weak(&mut self, weak: bool) {
        self.options.weak = weak;
    }

    /// Forgets every table entry (in constant time), and returns the table to its initial
    /// size.
    pub fn clear(&mut self) {
        self.table.clear();
        self.stores_since_growth = 0;
    }

    /// The value of the current position with perfect play.
    ///
    /// Null-window searches narrow the interval the value lies in (from the game's
    /// [`Outlook`] at the root), each testing a value halfway, pulled towards 0: a search
    /// in the window (v, v + 1) says whether the value is above v. Each search is negamax
    /// alpha-beta with the table (an entry's bound may end the search or narrow the
    /// window, and its best move is tried first), enhanced transposition cutoffs when
    /// enabled, and the moves and bounds of [`Solvable::outlook`].
    ///
    /// The table is kept from earlier calls: its entries are facts about positions. The
    /// game is returned to the position it was in.
    pub fn solve(&mut self, game: &mut G) -> Solution {
        self.solve_within(game, u64::MAX)
            .expect("invariant: a search without a node limit finishes")
    }

    /// [`solve`](Self::solve) with a budget: gives up once `max_nodes` positions have
    /// been visited, with the bounds on the score proved so far.
    ///
    /// The table keeps only what was proved before the search gave up: a later search of
    /// the same position resumes from there.
    ///
    /// # Errors
    /// [`Unsolved`] when the budget ran out.
    pub fn solve_within(&mut self, game: &mut G, max_nodes: u64) -> Result<Solution, Unsolved> {
        self.solve_reporting(game, max_nodes, |_| {})
    }

    /// [`solve_within`](Self::solve_within), calling `report` after every null-window
    /// search with the interval the score has been narrowed to: progress for a long solve.
    ///
    /// # Errors
    /// [`Unsolved`] when the budget ran out.
    ///
    /// # Example
    /// ```
    /// use gametree::{ConnectFour, SolveOptions, Solver};
    ///
    /// let mut game = ConnectFour::from_moves("2252576253462244111563365343671351441").expect("legal");
    /// let mut solver = Solver::new(SolveOptions { table_mib: 1, ..SolveOptions::default() });
    /// let mut searches = 0;
    /// let solution = solver.solve_reporting(&mut game, u64::MAX, |narrowed| {
    ///     assert!(narrowed.at_least <= -1 && -1 <= narrowed.at_most);
    ///     searches += 1;
    /// });
    /// assert_eq!(solution.map(|solution| solution.score), Ok(-1));
    /// assert!(searches >= 1);
    /// ```
    pub fn solve_reporting(
        &mut self,
        game: &mut G,
        max_nodes: u64,
        report: impl FnMut(Narrowed),
    ) -> Result<Solution, Unsolved> {
        self.progress.begin(self.table.memory_bytes());
        self.solve_with(game, max_nodes, report, Self::serial_test)
    }

    /// The solve of every `solve_*` method: the iterative narrowing, each null-window
    /// search run by `test` (at `middle`: is the score above it?). The caller begins the
    /// progress: a parallel solve that goes on from its first thread's counts on.
    fn solve_with(
        &mut self,
        game: &mut G,
        max_nodes: u64,
        report: impl FnMut(Narrowed),
        test: impl FnMut(&mut Self, &mut G, i32) -> i32,
    ) -> Result<Solution, Unsolved> {
        let started = Instant::now();
        self.main.start(max_nodes, self.options);
        for helper in &mut self.helpers {
            helper.start(max_nodes, self.options);
        }
        let mover = game.to_move();
        let result = self.narrow(game, started, report, test);
        let mut stats = self.stats();
        stats.elapsed = started.elapsed();
        match result {
            Ok(score) => Ok(Solution {
                value: to_max(score, mover),
                score,
                stats,
            }),
            Err((at_least, at_most)) => Err(Unsolved {
                at_least,
                at_most,
                stats,
            }),
        }
    }

    /// What every thread did since the solve began.
    fn stats(&self) -> SearchStats {
        let mut stats = self.main.stats;
        for helper in &self.helpers {
            stats.add_counts(&helper.stats);
        }
        stats
    }

    /// One null-window search by the calling thread alone.
    fn serial_test(&mut self, game: &mut G, middle: i32) -> i32 {
        let stop = AtomicBool::new(false);
        let mut reach = Reach {
            access: Alone {
                table: &mut self.table,
                stores_since_growth: &mut self.stores_since_growth,
            },
            stop: &stop,
            busy: None,
            progress: &self.progress,
        };
        self.main.search(game, middle, middle + 1, 0, &mut reach)
    }

    /// The value of every move from the current position, in the order of
    /// [`Game::successors`]: each successor solved in turn with the same table.
    /// Empty when the position is terminal.
    ///
    /// The score of each move in the returned [`Solution`] is from the point of view of
    /// the player to move here (the successor's score, negated when the other player is
    /// to move there).
    pub fn analyze(&mut self, game: &mut G) -> Vec<(G::Move, Solution)> {
        if game.is_terminal() {
            return Vec::new();
        }
        let mover = game.to_move();
        let mut moves = Vec::new();
        game.successors(&mut moves);
        moves
            .into_iter()
            .map(|mv| {
                game.update(mv);
                let mut solution = self.solve(game);
                game.revert(mv);
                solution.score = from_max(solution.value, mover);
                (mv, solution)
            })
            .collect()
    }

    /// The best moves of the current position, whose value to MAX is `value` (found by
    /// [`solve`](Self::solve)): the moves whose successor keeps that value, in the order
    /// of [`Game::successors`], and the positions visited to find them.
    ///
    /// Each move costs one null-window search (does its successor reach `value`?) rather
    /// than a solve, as [`analyze`](Self::analyze) does: much cheaper when only the best
    /// moves are wanted. With [`SolveOptions::weak`], `value` is a sign and the best moves
    /// are those that keep it (every move, in a lost position).
    ///
    /// # Example
    /// ```
    /// use gametree::{ConnectFour, SolveOptions, Solver};
    ///
    /// let mut game = ConnectFour::from_moves("4455").expect("legal");
    /// let mut solver = Solver::new(SolveOptions::default());
    /// let value = solver.solve(&mut game).value;
    /// let (best, _) = solver.best_moves(&mut game, value);
    /// let analysed = solver.analyze(&mut game);
    /// let expected: Vec<_> = analysed.iter().filter(|(_, s)| s.value == value).map(|(mv, _)| *mv).collect();
    /// assert_eq!(best, expected);
    /// ```
    pub fn best_moves(&mut self, game: &mut G, value: i32) -> (Vec<G::Move>, SearchStats) {
        let started = Instant::now();
        self.main.start(u64::MAX, self.options);
        let mut best = Vec::new();
        if game.is_terminal() {
            return (best, self.main.stats);
        }
        let mover = game.to_move();
        let mut moves = Vec::new();
        game.successors(&mut moves);
        if self.options.weak && from_max(value, mover) < 0 {
            // Solving weakly, a lost position's moves all lose: none is worse.
            return (moves, self.main.stats);
        }
        let stop = AtomicBool::new(false);
        let mut reach = Reach {
            access: Alone {
                table: &mut self.table,
                stores_since_growth: &mut self.stores_since_growth,
            },
            stop: &stop,
            busy: None,
            progress: &self.progress,
        };
        for mv in moves {
            if self.main.reaches(game, mv, value, &mut reach) {
                best.push(mv);
            }
        }
        let mut stats = self.main.stats;
        stats.elapsed = started.elapsed();
        (best, stats)
    }

    /// The iterative narrowing: the score of the root, to the player to move, or the
    /// interval it was narrowed to when the node budget ran out.
    fn narrow(
        &mut self,
        game: &mut G,
        started: Instant,
        mut report: impl FnMut(Narrowed),
        mut test: impl FnMut(&mut Self, &mut G, i32) -> i32,
    ) -> Result<i32, (i32, i32)> {
        let mover = game.to_move();
        let (mut min, mut max, candidates) = match game.outlook(false) {
            Outlook::Known(value) => {
                self.main.stats.nodes += 1;
                self.main.stats.leaves += 1;
                return Ok(self.weakened(from_max(value, mover)));
            }
            Outlook::Search {
                lower,
                upper,
                candidates,
            } => {
                let (min, max) = mover_interval(lower, upper, mover);
                (min, max, candidates)
            }
        };
        let mut moves = Vec::new();
        game.search_moves(candidates, &mut moves);
        if moves.is_empty() {
            self.main.stats.nodes += 1;
            return Ok(self.weakened(-INFINITY));
        }
        if self.options.weak {
            min = min.max(-1);
            max = max.min(1);
        }
        let mut guess = game.first_guess().map(|guess| from_max(guess, mover));
        let budget = self.main.budget;
        // The search stops at the game's escalation point (if sooner than the budget), the
        // game takes on its knowledge for large searches, and the test starts again.
        let mut escalation = game.escalation().filter(|&nodes| nodes < budget);
        while min < max {
            let middle = match guess {
                Some(guess) => guess.clamp(min, max - 1),
                None => test_point(min, max),
            };
            self.set_budget(escalation.unwrap_or(budget));
            self.progress.testing(
                self.weakened(middle),
                self.weakened(min),
                self.weakened(max),
                self.table.memory_bytes(),
            );
            let found = test(self, game, middle);
            if self.main.aborted {
                if escalation.take().is_some() && self.stats().nodes <= budget {
                    self.set_budget(budget);
                    if game.escalate() {
                        guess = game.first_guess().map(|guess| from_max(guess, mover));
                    }
                    continue;
                }
                self.progress.ended(self.weakened(min), self.weakened(max));
                return Err((self.weakened(min), self.weakened(max)));
            }
            if found <= middle {
                max = found;
            } else {
                min = found;
            }
            // MTD(f): the next test is whether the score reaches the bound just found.
            if guess.is_some() {
                guess = Some(if found <= middle { found - 1 } else { found });
            }
            report(Narrowed {
                at_least: self.weakened(min),
                at_most: self.weakened(max),
                tested: middle,
                nodes: self.stats().nodes,
                elapsed: started.elapsed(),
            });
        }
        self.progress.ended(self.weakened(min), self.weakened(min));
        Ok(self.weakened(min))
    }

    /// Sets every thread's node budget (positions visited since the solve began), and
    /// clears the flag of a search stopped by the last one.
    fn set_budget(&mut self, budget: u64) {
        for worker in std::iter::once(&mut self.main).chain(&mut self.helpers) {
            worker.budget = budget;
            worker.node_limit = budget;
            worker.aborted = false;
        }
    }

    /// `score`, or its sign when solving weakly.
    fn weakened(&self, score: i32) -> i32 {
        if self.options.weak {
            score.clamp(-1, 1)
        } else {
            score
        }
    }
}

impl<G: Solvable + Clone + Send> Solver<G>
where
    G::Move: Send + Sync,
{
    /// [`solve`](Self::solve) on `threads` threads: each null-window search is run by
    /// every thread at once on the shared table, and the first to finish answers ("lazy
    /// SMP", as chess programs share one table). What one thread proves, the others find
    /// in the table; the value is the same as [`solve`](Self::solve)'s. So that they do
    /// not all search the same moves, each helper starts from a different move at the
    /// root, and near the root a thread puts off the moves another is searching now
    /// (ABDADA: Weill, "The ABDADA distributed minimax search algorithm", 1996). A solve
    /// runs on one thread for its first
    /// [`SolveOptions::parallel_after_nodes`] positions: a smaller one never starts the
    /// others.
    ///
    /// # Example
    /// ```
    /// use gametree::{ConnectFour, SolveOptions, Solver};
    ///
    /// let mut game = ConnectFour::from_moves("2252576253462244111563365343671351441").expect("legal");
    /// let mut solver = Solver::new(SolveOptions::default());
    /// assert_eq!(solver.solve_parallel(&mut game, 2).score, -1);
    /// ```
    pub fn solve_parallel(&mut self, game: &mut G, threads: usize) -> Solution {
        self.solve_parallel_reporting(game, threads, u64::MAX, |_| {})
            .expect("invariant: a search without a node limit finishes")
    }

    /// [`solve_reporting`](Self::solve_reporting) on `threads` threads (see
    /// [`solve_parallel`](Self::solve_parallel)); `max_nodes` is each thread's budget.
    /// One thread is [`solve_reporting`](Self::solve_reporting) itself.
    ///
    /// # Errors
    /// [`Unsolved`] when the budget ran out.
    pub fn solve_parallel_reporting(
        &mut self,
        game: &mut G,
        threads: usize,
        max_nodes: u64,
        report: impl FnMut(Narrowed),
    ) -> Result<Solution, Unsolved> {
        if threads <= 1 {
            return self.solve_reporting(game, max_nodes, report);
        }
        // One thread tries first (see SolveOptions::parallel_after_nodes); what it proved
        // stays in the table for all of them.
        let started = Instant::now();
        let mut report = report;
        let first_nodes = max_nodes.min(self.options.parallel_after_nodes);
        let first = if first_nodes == 0 {
            self.progress.begin(self.table.memory_bytes());
            SearchStats::default()
        } else {
            match self.solve_reporting(game, first_nodes, &mut report) {
                Err(unsolved) if first_nodes < max_nodes => unsolved.stats,
                done => return done,
            }
        };
        self.ensure_helpers(threads);
        let solved = self.solve_with(game, max_nodes, report, Self::parallel_test);
        let add_first = |mut stats: SearchStats| {
            stats.add_counts(&first);
            stats.elapsed = started.elapsed();
            stats
        };
        match solved {
            Ok(solution) => Ok(Solution {
                stats: add_first(solution.stats),
                ..solution
            }),
            Err(unsolved) => Err(Unsolved {
                stats: add_first(unsolved.stats),
                ..unsolved
            }),
        }
    }

    /// [`best_moves`](Self::best_moves) on `threads` threads sharing the table: each
    /// thread takes the next move not yet tested. The same moves, in the same order.
    pub fn best_moves_parallel(
        &mut self,
        game: &mut G,
        value: i32,
        threads: usize,
    ) -> (Vec<G::Move>, SearchStats) {
        let mover = game.to_move();
        let mut moves = Vec::new();
        if !game.is_terminal() {
            game.successors(&mut moves);
        }
        let lost_weakly = self.options.weak && from_max(value, mover) < 0;
        if threads <= 1 || moves.len() <= 1 || lost_weakly {
            return self.best_moves(game, value);
        }
        let started = Instant::now();
        self.ensure_helpers(threads);
        self.main.start(u64::MAX, self.options);
        for helper in &mut self.helpers {
            helper.start(u64::MAX, self.options);
        }
        let next = AtomicUsize::new(0);
        let kept: Vec<AtomicBool> = moves.iter().map(|_| AtomicBool::new(false)).collect();
        let stop = AtomicBool::new(false);
        let (table, busy, progress) = (&self.table, &self.busy, &*self.progress);
        let (next, kept, stop, moves) = (&next, &kept, &stop, &moves);
        let test_moves = |worker: &mut Worker<G>, game: &mut G| {
            let mut reach = Reach {
                access: Shared(table),
                stop,
                busy: Some(busy),
                progress,
            };
            loop {
                let place = next.fetch_add(1, Ordering::Relaxed);
                let Some(&mv) = moves.get(place) else {
                    break;
                };
                if worker.reaches(game, mv, value, &mut reach) {
                    kept[place].store(true, Ordering::Relaxed);
                }
            }
        };
        std::thread::scope(|scope| {
            for helper in &mut self.helpers {
                let mut game = game.clone();
                scope.spawn(move || test_moves(helper, &mut game));
            }
            test_moves(&mut self.main, game);
        });
        let best = moves
            .iter()
            .zip(kept)
            .filter(|(_, kept)| kept.load(Ordering::Relaxed))
            .map(|(&mv, _)| mv)
            .collect();
        let mut stats = self.stats();
        stats.elapsed = started.elapsed();
        (best, stats)
    }

    /// `threads - 1` helpers, numbered from 1.
    fn ensure_helpers(&mut self, threads: usize) {
        while self.helpers.len() < threads - 1 {
            let number = self.helpers.len() as u64 + 1;
            self.helpers.push(Worker::new(number));
        }
        self.helpers.truncate(threads - 1);
    }

    /// One null-window search by every thread at once; the first to finish answers and
    /// stops the others.
    ///
    /// Threads sharing the table cannot grow it as they go, so the search runs in rounds:
    /// each thread may visit as many positions as the table could take before it should
    /// grow; when none has finished by then, they all stop, the table grows, and the
    /// search starts again from the root, finding in the table what the last round
    /// proved.
    fn parallel_test(&mut self, game: &mut G, middle: i32) -> i32 {
        loop {
            let round = if self.table.is_full_size() {
                u64::MAX
            } else {
                TABLE_GROWTH_LOAD * self.table.capacity() as u64
            };
            for worker in std::iter::once(&mut self.main).chain(&mut self.helpers) {
                worker.node_limit = worker.budget.min(worker.stats.nodes.saturating_add(round));
                worker.aborted = false;
            }
            if let Some(found) = self.parallel_round(game, middle) {
                return found;
            }
            let out_of_budget = std::iter::once(&self.main)
                .chain(&self.helpers)
                .any(|worker| worker.stats.nodes > worker.budget);
            if out_of_budget {
                self.main.aborted = true;
                return 0;
            }
            self.table.grow();
        }
    }

    /// One round of [`parallel_test`](Self::parallel_test): the answer of the first
    /// thread to finish, if one finished.
    fn parallel_round(&mut self, game: &mut G, middle: i32) -> Option<i32> {
        let stop = AtomicBool::new(false);
        let answer = Mutex::new(None);
        let (table, busy, progress) = (&self.table, &self.busy, &*self.progress);
        let (stop, answer) = (&stop, &answer);
        std::thread::scope(|scope| {
            for helper in &mut self.helpers {
                let mut game = game.clone();
                scope.spawn(move || {
                    let mut reach = Reach {
                        access: Shared(table),
                        stop,
                        busy: Some(busy),
                        progress,
                    };
                    let found = helper.search(&mut game, middle, middle + 1, 0, &mut reach);
                    finish(helper, found, stop, answer);
                });
            }
            let mut reach = Reach {
                access: Shared(table),
                stop,
                busy: Some(busy),
                progress,
            };
            let found = self.main.search(game, middle, middle + 1, 0, &mut reach);
            finish(&mut self.main, found, stop, answer);
        });
        let answer = answer.lock().map_or(None, |answer| *answer);
        // A thread stopped because another finished has not run out of budget.
        if answer.is_some() {
            self.main.aborted = false;
            for helper in &mut self.helpers {
                helper.aborted = false;
            }
        }
        answer
    }
}

/// A thread's end of a parallel null-window search: the first to finish unaborted gives
/// the answer and stops the others.
fn finish<G: Solvable>(
    worker: &mut Worker<G>,
    found: i32,
    stop: &AtomicBool,
    answer: &Mutex<Option<i32>>,
) {
    if worker.aborted {
        return;
    }
    if let Ok(mut answer) = answer.lock()
        && answer.is_none()
    {
        *answer = Some(found);
    }
    stop.store(true, Ordering::Relaxed);
}

impl<G: Solvable> Worker<G> {
    /// Whether `mv` keeps the value to MAX `value` of the current position: one
    /// null-window search of its successor.
    fn reaches<T: TableAccess>(
        &mut self,
        game: &mut G,
        mv: G::Move,
        value: i32,
        reach: &mut Reach<'_, T>,
    ) -> bool {
        let mover = game.to_move();
        game.update(mv);
        // The successor reaches `value` when its value to MAX is at least `value` (MAX to
        // move here) or at most `value` (MIN to move here). As a score to the successor's
        // player to move: at least `target` when that is the player to move here, at most
        // `target` when it is the opponent.
        let target = from_max(value, game.to_move());
        let reaches = if game.to_move() == mover {
            self.search(game, target - 1, target, 1, reach) >= target
        } else {
            self.search(game, target, target + 1, 1, reach) <= target
        };
        game.revert(mv);
        reaches
    }

    /// The buffer for `ply`, taken out of the stack (returned by the caller).
    fn take_buffer(&mut self, ply: usize) -> Vec<G::Move> {
        while self.move_stack.len() <= ply {
            self.move_stack.push(Vec::new());
        }
        let mut moves = std::mem::take(&mut self.move_stack[ply]);
        moves.clear();
        moves
    }

    /// Negamax alpha-beta, fail-soft, from the point of view of the player to move: a
    /// result at or below `alpha` is an upper bound of the true score, at or above `beta`
    /// a lower bound, and exact in between.
    ///
    /// The player to move is asked at every position: a successor where the same player
    /// is to move again is searched in the same window and its score kept; only where the
    /// other player is to move are the window and the score negated. A table entry holds
    /// the score to the player to move at its position.
    fn search<T: TableAccess>(
        &mut self,
        game: &mut G,
        alpha: i32,
        beta: i32,
        ply: usize,
        reach: &mut Reach<'_, T>,
    ) -> i32 {
        self.search_known(game, alpha, beta, ply, None, reach)
    }

    /// [`search`](Self::search) of a position the parent may have looked at already (its
    /// key, and its outlook where the game asks for successors' outlooks first), for
    /// enhanced transposition cutoffs: `known` is then its place among the parent's
    /// successors (`successor_stack[ply - 1]`).
    fn search_known<T: TableAccess>(
        &mut self,
        game: &mut G,
        alpha: i32,
        beta: i32,
        ply: usize,
        known: Option<usize>,
        reach: &mut Reach<'_, T>,
    ) -> i32 {
        if ply % STACK_CHECK_PLIES == STACK_CHECK_PLIES - 1 {
            with_stack(|| self.position(game, alpha, beta, ply, known, reach))
        } else {
            self.position(game, alpha, beta, ply, known, reach)
        }
    }

    fn position<T: TableAccess>(
        &mut self,
        game: &mut G,
        alpha: i32,
        beta: i32,
        ply: usize,
        known: Option<usize>,
        reach: &mut Reach<'_, T>,
    ) -> i32 {
        self.stats.nodes += 1;
        if self.stats.nodes > self.node_limit
            || (self.stats.nodes.is_multiple_of(STOP_CHECK_NODES)
                && reach.checkpoint(self.stats.nodes))
        {
            // Out of budget, or another thread has finished: unwind without storing
            // anything.
            self.aborted = true;
            return 0;
        }
        let mover = game.to_move();
        let known = known.map(|place| self.successor_stack[ply - 1][place]);
        let outlook = match known.and_then(|known| known.outlook) {
            Some(outlook) => outlook,
            None => game.outlook(ply > 0),
        };
        let (lower, upper, candidates) = match outlook {
            Outlook::Known(value) => {
                self.stats.leaves += 1;
                return from_max(value, mover);
            }
            Outlook::Search {
                lower,
                upper,
                candidates,
            } => {
                let (lower, upper) = mover_interval(lower, upper, mover);
                (lower, upper, candidates)
            }
        };
        // No need to search for a score the position cannot have.
        let (mut alpha, mut beta) = (alpha, beta);
        if alpha < lower {
            alpha = lower;
            if alpha >= beta {
                return alpha;
            }
        }
        if beta > upper {
            beta = upper;
            if alpha >= beta {
                return beta;
            }
        }
        if let Some(mv) = game.forced_move(candidates) {
            return self.forced(game, mv, (alpha, beta), lower, ply, reach);
        }
        let mut moves = self.take_buffer(ply);
        let key = match known.and_then(|known| known.key) {
            Some(key) => key,
            None => game.solver_key(),
        };
        let score = self.expand(
            game,
            &mut moves,
            (alpha, beta),
            lower,
            candidates,
            (ply, key),
            reach,
        );
        self.move_stack[ply] = moves;
        score
    }

    /// The score of a position whose one move worth searching is `mv`
    /// ([`Solvable::forced_move`]): its successor's, or `floor` (the outlook's lower
    /// bound) if greater; nothing is read from or written to the table. The successor's
    /// outlook is read here, so that one known without search is not a position visited.
    fn forced<T: TableAccess>(
        &mut self,
        game: &mut G,
        mv: G::Move,
        (alpha, beta): (i32, i32),
        floor: i32,
        ply: usize,
        reach: &mut Reach<'_, T>,
    ) -> i32 {
        let player = game.to_move();
        game.update(mv);
        let outlook = game.outlook(true);
        let score = if let Outlook::Known(value) = outlook {
            from_max(value, player)
        } else {
            while self.successor_stack.len() <= ply {
                self.successor_stack.push(Vec::new());
            }
            let successors = &mut self.successor_stack[ply];
            successors.clear();
            successors.push(Successor {
                key: None,
                to_move: game.to_move(),
                settled_value: game.settled_value(),
                outlook: Some(outlook),
                promise: 0,
            });
            if game.to_move() == player {
                self.search_known(game, alpha, beta, ply + 1, Some(0), reach)
            } else {
                -self.search_known(game, -beta, -alpha, ply + 1, Some(0), reach)
            }
        };
        game.revert(mv);
        if self.aborted {
            return 0;
        }
        score.max(floor)
    }

    /// Searches the moves of a position whose score lies in the window's bounds: the table
    /// first, then the game's moves from its `candidates` (generated only when the table
    /// did not settle the position) with enhanced transposition cutoffs.
    #[allow(clippy::too_many_arguments)]
    fn expand<T: TableAccess>(
        &mut self,
        game: &mut G,
        moves: &mut Vec<G::Move>,
        (mut alpha, mut beta): (i32, i32),
        floor: i32,
        candidates: G::Candidates,
        (ply, key): (usize, u64),
        reach: &mut Reach<'_, T>,
    ) -> i32 {
        // Entries hold scores less the settled part (0 for most games).
        let settled = seen_by(game.settled_value(), game.to_move());
        let mut table_place = None;
        if let Some(entry) = reach.access.table().probe(key) {
            let value = from_table(entry.value, settled);
            match entry.bound {
                Bound::Exact => return value,
                Bound::Lower => {
                    if value >= beta {
                        return value;
                    }
                    alpha = alpha.max(value);
                }
                Bound::Upper => {
                    if value <= alpha {
                        return value;
                    }
                    beta = beta.min(value);
                }
            }
            table_place = entry.move_place.map(usize::from);
        }
        game.search_moves(candidates, moves);
        let count = moves.len();
        if count == 0 {
            // No successors: a loss for the player to move.
            return -INFINITY;
        }
        // The move tried first: the table's; at the root of a helper thread's search, the
        // helper's own, so that the threads part ways at once. Where every move must be
        // searched (the test fails low), each thread then proves a different move first
        // and finds the others' in the table: on Kalah(6,4), the calling thread of two
        // visits 1.39 M positions instead of 2.49 M alone. (Parting ways deeper, as well,
        // measured worse: 1.43 M at two plies, 1.94 M at four.)
        let mut first = table_place.filter(|&place| place < count);
        if self.helper > 0 && ply == 0 && count > 1 {
            first = Some(usize::try_from(self.helper).unwrap_or(0) % count);
        }
        // Moves the table already refutes (their successor is known to be worth at most
        // alpha to this position's mover) are skipped, their bound kept in `best`. It
        // starts at the outlook's lower bound: the moves `search_moves` left out as valued
        // by the outlook are worth no more than that.
        let mut best = floor;
        let mut refuted = 0_u64;
        let probe = self.options.enhanced_transposition_cutoffs;
        let with_outlooks = game.outlook_successors();
        let looked_ahead = count <= 64 && ((count > 1 && probe) || with_outlooks);
        if looked_ahead {
            match self.look_ahead(
                game,
                moves,
                (alpha, beta),
                ply,
                (probe, with_outlooks),
                reach,
            ) {
                LookAhead::Cutoff {
                    score,
                    place,
                    effort,
                } => {
                    self.stats.cutoffs += 1;
                    reach.access.table().store(
                        key,
                        SharedEntry {
                            value: to_table(score, settled),
                            bound: Bound::Lower,
                            effort,
                            move_place: u8::try_from(place).ok(),
                        },
                    );
                    reach.access.stored();
                    return score;
                }
                LookAhead::Refuted {
                    best: refuted_best,
                    places,
                } => {
                    best = best.max(refuted_best);
                    refuted = places;
                }
            }
        }
        // The order the moves are searched in, by their places in `moves`: the first move,
        // then the game's order, or where the successors were looked at, the order of the
        // promise their outlooks gave (the most first, the game's order among equals).
        while self.order_stack.len() <= ply {
            self.order_stack.push(Vec::new());
        }
        let order = &mut self.order_stack[ply];
        order.clear();
        order.extend(0..count);
        if looked_ahead {
            let successors = &self.successor_stack[ply];
            let promise = |place: usize| successors[place].promise;
            if (1..count).any(|place| promise(place) != promise(0)) {
                order.sort_by_key(|&place| std::cmp::Reverse(promise(place)));
            }
        }
        if let Some(first) = first {
            let at = order.iter().position(|&place| place == first);
            if let Some(at) = at {
                order[..=at].rotate_right(1);
            }
        }
        let nodes_before = self.stats.nodes;
        let window_alpha = alpha;
        let mut best_place = None;
        // Near the root of a parallel search, a move whose successor another thread is
        // searching is put off until the others are searched (ABDADA, Weill 1996): by then
        // the other thread has most likely stored its value.
        let exclusive = reach.busy.filter(|_| ply < EXCLUSIVE_PLIES && count > 1);
        let mut deferred = 0_u64;
        'passes: for pass in 0..2 {
            for step in 0..count {
                let place = self.order_stack[ply][step];
                if place < 64 && refuted & (1 << place) != 0 {
                    continue;
                }
                if pass == 1 && (place >= 64 || deferred & (1 << place) == 0) {
                    continue;
                }
                let mv = moves[place];
                let mut entered = None;
                if let Some(busy) = exclusive.filter(|_| pass == 0 && place < 64) {
                    let child_key = looked_ahead
                        .then(|| self.successor_stack[ply][place].key)
                        .flatten()
                        .unwrap_or_else(|| game.solver_key_after(mv));
                    if step > 0 && busy.is_busy(child_key) {
                        deferred |= 1 << place;
                        continue;
                    }
                    entered = busy.enter(child_key).then_some(child_key);
                }
                let known = looked_ahead.then_some(place);
                // The same player moving again (Kalah's extra move) keeps the window and
                // the score; only a change of player negates them. The player is read
                // afresh, not remembered from the top of the function: where `update`
                // plainly passes the move to the other player (Connect Four), the compiler
                // then sees that the two differ and drops the test.
                let player = game.to_move();
                game.update(mv);
                let score = if game.to_move() == player {
                    self.search_known(game, alpha, beta, ply + 1, known, reach)
                } else {
                    -self.search_known(game, -beta, -alpha, ply + 1, known, reach)
                };
                game.revert(mv);
                if let (Some(busy), Some(child_key)) = (exclusive, entered) {
                    busy.leave(child_key);
                }
                if self.aborted {
                    return 0;
                }
                if score > best {
                    best = score;
                    best_place = Some(place);
                    if score > alpha {
                        alpha = score;
                        if alpha >= beta {
                            self.stats.cutoffs += 1;
                            break 'passes;
                        }
                    }
                }
            }
            if deferred == 0 {
                break;
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best <= window_alpha {
            Bound::Upper
        } else {
            Bound::Exact
        };
        // Effort: the bit length of the number of positions visited below.
        let effort = u64::BITS - (self.stats.nodes - nodes_before).leading_zeros();
        reach.access.table().store(
            key,
            SharedEntry {
                value: to_table(best, settled),
                bound,
                effort: u8::try_from(effort).unwrap_or(u8::MAX),
                move_place: if bound == Bound::Upper {
                    None
                } else {
                    best_place.and_then(|place| u8::try_from(place).ok())
                },
            },
        );
        reach.access.stored();
        best
    }

    /// Enhanced transposition cutoffs: looks at every successor before searching any (its
    /// key, and its outlook where the game asks for it), keeping what it read for the
    /// search of the successor, then reads the successors' table entries. A successor
    /// known to be good enough (at least `beta` to this position's mover) ends the search
    /// of the position at once; those known to be no better than `alpha` are refuted: the
    /// search skips them.
    fn look_ahead<T: TableAccess>(
        &mut self,
        game: &mut G,
        moves: &[G::Move],
        (alpha, beta): (i32, i32),
        ply: usize,
        (probe, with_outlooks): (bool, bool),
        reach: &Reach<'_, T>,
    ) -> LookAhead {
        while self.successor_stack.len() <= ply {
            self.successor_stack.push(Vec::new());
        }
        let mover = game.to_move();
        let table = reach.access.table();
        let successors = &mut self.successor_stack[ply];
        successors.clear();
        let mut best = -INFINITY;
        let mut refuted = 0_u64;
        // The successors' keys first, each one's table line fetched at once, then the
        // reads: the reads do not wait on one another.
        for (place, &mv) in moves.iter().enumerate() {
            let successor = if with_outlooks {
                game.update(mv);
                let (outlook, promise) = game.outlook_with_promise();
                // A successor its outlook values at once needs no key: it is never searched;
                // nor does one with a forced move: it is never stored.
                let keyed = match outlook {
                    Outlook::Known(_) => false,
                    Outlook::Search { candidates, .. } => game.forced_move(candidates).is_none(),
                };
                let successor = Successor {
                    key: (probe && keyed).then(|| game.solver_key()),
                    to_move: game.to_move(),
                    settled_value: game.settled_value(),
                    outlook: Some(outlook),
                    promise,
                };
                game.revert(mv);
                successor
            } else {
                let peek = game.peek(mv);
                Successor {
                    key: Some(peek.key),
                    to_move: peek.to_move,
                    settled_value: peek.settled_value,
                    outlook: None,
                    promise: 0,
                }
            };
            if let Some(key) = successor.key {
                table.prefetch(key);
            }
            successors.push(successor);
            // The successor's outlook bounds its value to MAX: as seen by this mover.
            let (at_least, at_most) = match successor.outlook {
                Some(Outlook::Known(value)) => {
                    let score = from_max(value, mover);
                    (score, score)
                }
                Some(Outlook::Search { lower, upper, .. }) => mover_interval(lower, upper, mover),
                None => continue,
            };
            if at_least >= beta {
                // Known without a search: stored with the least effort.
                return LookAhead::Cutoff {
                    score: at_least,
                    place,
                    effort: 0,
                };
            }
            if at_most <= alpha {
                best = best.max(at_most);
                refuted |= 1 << place;
            }
        }
        for (place, successor) in self.successor_stack[ply].iter().enumerate() {
            if refuted & (1 << place) != 0 {
                continue;
            }
            let Some(child) = successor.key.and_then(|key| table.probe(key)) else {
                continue;
            };
            // The entry bounds the successor's score to its own player to move. When that
            // is the player to move here again (an extra move), this position's score
            // through the move is that score, with the same bound; otherwise it is its
            // negation, with the opposite bound.
            let lower = matches!(child.bound, Bound::Lower | Bound::Exact);
            let upper = matches!(child.bound, Bound::Upper | Bound::Exact);
            let child_mover = successor.to_move;
            let child_score =
                from_table(child.value, seen_by(successor.settled_value, child_mover));
            let (through, at_least, at_most) = if child_mover == mover {
                (child_score, lower, upper)
            } else {
                (-child_score, upper, lower)
            };
            if at_least && through >= beta {
                return LookAhead::Cutoff {
                    score: through,
                    place,
                    effort: child.effort.saturating_add(1),
                };
            }
            if at_most && through <= alpha {
                best = best.max(through);
                refuted |= 1 << place;
            }
        }
        LookAhead::Refuted {
            best,
            places: refuted,
        }
    }
}

/// What the parent read of a successor before searching it, handed to the search of the
/// successor so that it is not read twice.
#[derive(Clone, Copy, Debug)]
struct Successor<C> {
    /// Its [`Solvable::solver_key`], unless not read.
    key: Option<u64>,
    /// Its player to move.
    to_move: Player,
    /// Its [`Solvable::settled_value`].
    settled_value: i32,
    /// Its [`Solvable::outlook`], where the game asks for successors' outlooks first
    /// ([`Solvable::outlook_successors`]).
    outlook: Option<Outlook<C>>,
    /// How promising the move into it is (see [`Solvable::outlook_with_promise`]).
    promise: i32,
}

/// What [`Worker::look_ahead`] found.
enum LookAhead {
    /// The successor at `place` is worth at least `score`, at least beta: the position
    /// needs no search. `effort`: what the position's table entry stands for (one more
    /// than the successor's entry; 0 where the successor's outlook knew its score).
    Cutoff {
        score: i32,
        place: usize,
        effort: u8,
    },
    /// The successors at `places` (bits) are worth no more than alpha, the best of them
    /// `best`.
    Refuted { best: i32, places: u64 },
}

impl<G: Solvable> std::fmt::Debug for Solver<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("options", &self.options)
            .field("table", &self.table)
            .finish_non_exhaustive()
    }
}

/// A value to MAX seen by `mover`, with MAX's −∞ and ∞ (`i32::MIN`, `i32::MAX`) as the
/// mover's ∓[`INFINITY`].
fn from_max(value: i32, mover: Player) -> i32 {
    let value = value.max(-INFINITY);
    match mover {
        Player::Max => value,
        Player::Min => -value,
    }
}

/// A finite value to MAX (a settled value) as a score to `mover`. Always inlined, so that a
/// game whose settled value is 0 compiles to the code it had before settled values.
#[inline(always)]
fn seen_by(value: i32, mover: Player) -> i32 {
    match mover {
        Player::Max => value,
        Player::Min => -value,
    }
}

/// A table entry's value as a score: the entry less the `settled` score of its position,
/// ±[`INFINITY`] kept as they are.
#[inline(always)]
fn from_table(value: i32, settled: i32) -> i32 {
    if value == INFINITY || value == -INFINITY {
        value
    } else {
        value + settled
    }
}

/// A score as a table entry's value: [`from_table`] undone.
#[inline(always)]
fn to_table(score: i32, settled: i32) -> i32 {
    if score == INFINITY || score == -INFINITY {
        score
    } else {
        score - settled
    }
}

/// A score to `mover` as a value to MAX; the mover's −∞ is MAX's `i32::MIN` when MAX is
/// to move (a position without successors, as [`crate::minimax`] values it).
fn to_max(score: i32, mover: Player) -> i32 {
    let value = match mover {
        Player::Max => score,
        Player::Min => -score,
    };
    if value == -INFINITY { i32::MIN } else { value }
}

/// The score the next null-window search tests when the score is known to lie in
/// `min..=max` (`min < max`): Pons' choice, the middle of the interval, or when that is on
/// one side of 0, halfway from 0 to that side's end, since a test far from 0 ("does the
/// player avoid a quick loss?", "can they force a quick win?") is cheap and often
/// decisive. The halving is done on the interval widened by one score each way, as Pons
/// computes it on the range of every score the position could have, before his solver
/// rules out a win or a loss at once; the widening measurably saves positions on his
/// benchmark files. The result lies in `min..max`.
fn test_point(min: i32, max: i32) -> i32 {
    let (low, high) = (i64::from(min) - 1, i64::from(max) + 1);
    let middle = low + (high - low) / 2;
    let point = if middle <= 0 && low / 2 < middle {
        low / 2
    } else if middle >= 0 && high / 2 > middle {
        high / 2
    } else {
        middle
    };
    let point = point.clamp(i64::from(min), i64::from(max) - 1);
    i32::try_from(point).expect("invariant: between two i32 values")
}

/// The interval `lower..=upper` of values to MAX as an interval of scores to `mover`.
fn mover_interval(lower: i32, upper: i32, mover: Player) -> (i32, i32) {
    let (a, b) = (from_max(lower, mover), from_max(upper, mover));
    (a.min(b), a.max(b))
}

/// Solves the current position with a fresh solver: [`Solver::solve`].
///
/// # Example
/// ```
/// use gametree::{ConnectFour, SolveOptions, solve};
///
/// // Pons' first Test_L3_R1 position, with its benchmark score.
/// let mut game = ConnectFour::from_moves("2252576253462244111563365343671351441").expect("legal");
/// let options = SolveOptions { table_mib: 1, ..SolveOptions::default() };
/// assert_eq!(solve(&mut game, options).score, -1);
/// ```
pub fn solve<G: Solvable>(game: &mut G, options: SolveOptions) -> Solution {
    Solver::new(options).solve(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::SplitMix64;
    use crate::search::test_tree::{Node, TreeGame};

    impl ZobristHash for TreeGame {
        fn hash_key(&self) -> u64 {
            // The path is the position: a tree has no transpositions.
            self.path
                .iter()
                .fold(0xcbf2_9ce4_8422_2325, |hash, &index| {
                    (hash ^ index as u64).wrapping_mul(0x0100_0000_01b3)
                })
        }
    }
    impl Solvable for TreeGame {
        type Candidates = ();
    }

    /// A uniform tree: three moves everywhere, leaves `depth` plies down worth −10 to 10.
    fn tree(depth: u32, random: &mut SplitMix64) -> Node {
        if depth == 0 {
            let value = i32::try_from(random.below(21)).expect("below 21") - 10;
            return Node::Leaf(value);
        }
        Node::Inner((0..3).map(|_| tree(depth - 1, random)).collect())
    }

    /// A random tree of `depth` levels and its minimax value.
    fn random_game(depth: u32, random: &mut SplitMix64) -> (TreeGame, i32) {
        let mut game = TreeGame {
            root: tree(depth, random),
            path: Vec::new(),
        };
        let value = crate::minimax_value(&mut game);
        (game, value)
    }

    #[test]
    fn the_solver_finds_the_minimax_value_of_random_trees() {
        let mut random = SplitMix64::new(7);
        for _ in 0..50 {
            let (mut game, expected) = random_game(5, &mut random);
            for enhanced_transposition_cutoffs in [false, true] {
                let options = SolveOptions {
                    weak: false,
                    enhanced_transposition_cutoffs,
                    table_mib: 1,
                    parallel_after_nodes: 0,
                };
                assert_eq!(solve(&mut game, options).value, expected);
                let weak = solve(
                    &mut game,
                    SolveOptions {
                        weak: true,
                        ..options
                    },
                );
                assert_eq!(weak.value, expected.signum());
                for threads in [2, 3] {
                    let mut solver = Solver::new(options);
                    assert_eq!(solver.solve_parallel(&mut game, threads).value, expected);
                    solver.set_weak(true);
                    let weak = solver.solve_parallel(&mut game, threads).value;
                    assert_eq!(weak, expected.signum());
                }
            }
        }
    }

    #[test]
    fn a_parallel_search_that_grows_its_table_in_rounds_finds_the_minimax_value() {
        let mut random = SplitMix64::new(11);
        for _ in 0..10 {
            let (mut game, expected) = random_game(7, &mut random);
            let options = SolveOptions {
                weak: false,
                enhanced_transposition_cutoffs: true,
                table_mib: 1,
                parallel_after_nodes: 0,
            };
            // One bucket at first: a round of 32 positions before each growth.
            let mut solver = Solver::with_initial_table(options, 64);
            let solution = solver.solve_parallel(&mut game, 2);
            assert_eq!(solution.value, expected);
            assert!(solver.table_memory_bytes() > 64);
            let mut budgeted = Solver::with_initial_table(options, 64);
            let score = from_max(expected, Player::Max);
            match budgeted.solve_parallel_reporting(&mut game, 2, 200, |_| {}) {
                Ok(solution) => assert_eq!(solution.value, expected),
                Err(unsolved) => {
                    assert!(unsolved.at_least <= score && score <= unsolved.at_most);
                }
            }
        }
    }

    #[test]
    fn a_budget_gives_bounds_and_a_later_search_still_finds_the_value() {
        let mut random = SplitMix64::new(11);
        let mut game = TreeGame {
            root: tree(7, &mut random),
            path: Vec::new(),
        };
        let expected = crate::minimax_value(&mut game);
        let mut solver = Solver::new(SolveOptions::default());
        let unsolved = solver
            .solve_within(&mut game, 50)
            .expect_err("too small a budget");
        assert!(unsolved.at_least <= expected && expected <= unsolved.at_most);
        assert!(unsolved.stats.nodes <= 51);
        // The table kept only what was proved: solving on from it gives the value.
        assert_eq!(solver.solve(&mut game).value, expected);
    }

    /// A position of a hand-made tree that names its own player to move, so that a
    /// player may move twice in a row (Kalah's extra move).
    enum Hand {
        Leaf(i32),
        Inner(Player, Vec<Hand>),
    }

    /// Walks a [`Hand`] tree; moves are 1-based child indices.
    struct HandGame {
        root: Hand,
        path: Vec<usize>,
    }

    impl HandGame {
        fn current(&self) -> &Hand {
            self.path
                .iter()
                .fold(&self.root, |node, &index| match node {
                    Hand::Inner(_, children) => &children[index - 1],
                    Hand::Leaf(_) => unreachable!("a leaf has no children"),
                })
        }
    }

    impl Game for HandGame {
        type Move = usize;
        type Value = i32;
        fn to_move(&self) -> Player {
            match self.current() {
                Hand::Inner(player, _) => *player,
                Hand::Leaf(_) => Player::Max,
            }
        }
        fn successors(&self, moves: &mut Vec<usize>) {
            if let Hand::Inner(_, children) = self.current() {
                moves.extend(1..=children.len());
            }
        }
        fn is_terminal(&self) -> bool {
            matches!(self.current(), Hand::Leaf(_))
        }
        fn value(&self) -> i32 {
            match self.current() {
                Hand::Leaf(value) => *value,
                Hand::Inner(..) => unreachable!("only leaves are valued"),
            }
        }
        fn update(&mut self, mv: usize) {
            self.path.push(mv);
        }
        fn revert(&mut self, _mv: usize) {
            self.path.pop();
        }
    }

    impl ZobristHash for HandGame {
        fn hash_key(&self) -> u64 {
            self.path
                .iter()
                .fold(0xcbf2_9ce4_8422_2325, |hash, &index| {
                    (hash ^ index as u64).wrapping_mul(0x0100_0000_01b3)
                })
        }
    }
    impl Solvable for HandGame {
        type Candidates = ();
    }

    #[test]
    fn a_player_who_moves_twice_in_a_row_is_valued_as_the_same_player() {
        use Hand::{Inner, Leaf};
        use Player::{Max, Min};
        // MAX chooses between moving again (3, or a position where MIN moves twice: the
        // least of 7, 9 and 10, so 7) and letting MIN choose between 6 and 12 (6): 7.
        let max_moves_again = Inner(
            Max,
            vec![
                Inner(
                    Max,
                    vec![
                        Leaf(3),
                        Inner(Min, vec![Inner(Min, vec![Leaf(7), Leaf(9)]), Leaf(10)]),
                    ],
                ),
                Inner(Min, vec![Leaf(6), Leaf(12)]),
            ],
        );
        // MIN chooses between moving again (the least of −2 and 4) and letting MAX choose
        // between −5 and 1: −2, a score of 2 to MIN.
        let min_moves_again = Inner(
            Min,
            vec![
                Inner(Min, vec![Leaf(-2), Leaf(4)]),
                Inner(Max, vec![Leaf(-5), Leaf(1)]),
            ],
        );
        for (root, value, score, moves) in [
            (max_moves_again, 7, 7, [(7, 7), (6, 6)]),
            (min_moves_again, -2, 2, [(-2, 2), (1, -1)]),
        ] {
            let mut game = HandGame {
                root,
                path: Vec::new(),
            };
            assert_eq!(crate::minimax_value(&mut game), value);
            for enhanced_transposition_cutoffs in [false, true] {
                let options = SolveOptions {
                    weak: false,
                    enhanced_transposition_cutoffs,
                    table_mib: 1,
                    parallel_after_nodes: 0,
                };
                let mut solver = Solver::new(options);
                let solution = solver.solve(&mut game);
                assert_eq!((solution.value, solution.score), (value, score));
                let analysis: Vec<_> = solver
                    .analyze(&mut game)
                    .into_iter()
                    .map(|(_, solution)| (solution.value, solution.score))
                    .collect();
                assert_eq!(analysis, moves);
                solver.set_weak(true);
                let weak = solver.solve(&mut game);
                assert_eq!((weak.value, weak.score), (value.signum(), score.signum()));
                assert!(game.path.is_empty());
            }
        }
    }

    #[test]
    fn a_position_without_successors_is_a_loss_for_the_player_to_move() {
        let mut game = TreeGame {
            root: Node::Inner(vec![Node::Inner(vec![])]),
            path: Vec::new(),
        };
        let solution = solve(&mut game, SolveOptions::default());
        assert_eq!(solution.value, crate::minimax_value(&mut game));
        assert_eq!(solution.value, i32::MAX);
    }

    /// A random tree searched with every optional hook of the look at successors: their
    /// outlooks first (the leaves known at once, bounds elsewhere), an arbitrary promise
    /// to order them by, and an escalation after `escalate_after` positions that turns the
    /// look on and starts the narrowing from a first guess of 0.
    #[derive(Clone)]
    struct Looking {
        tree: TreeGame,
        escalate_after: u64,
        escalated: bool,
    }

    impl Game for Looking {
        type Move = usize;
        type Value = i32;
        fn to_move(&self) -> Player {
            self.tree.to_move()
        }
        fn successors(&self, moves: &mut Vec<usize>) {
            self.tree.successors(moves);
        }
        fn is_terminal(&self) -> bool {
            self.tree.is_terminal()
        }
        fn value(&self) -> i32 {
            self.tree.value()
        }
        fn update(&mut self, mv: usize) {
            self.tree.update(mv);
        }
        fn revert(&mut self, mv: usize) {
            self.tree.revert(mv);
        }
    }

    impl ZobristHash for Looking {
        fn hash_key(&self) -> u64 {
            self.tree.hash_key()
        }
    }

    impl Solvable for Looking {
        type Candidates = ();

        /// The leaves' values lie in −10..=10.
        fn outlook(&self, _after_search_move: bool) -> Outlook<()> {
            if self.is_terminal() {
                return Outlook::Known(self.value());
            }
            Outlook::Search {
                lower: -10,
                upper: 10,
                candidates: (),
            }
        }

        fn outlook_successors(&self) -> bool {
            self.escalated
        }

        /// Any promise will do: the last move's index, scrambled by the path.
        fn outlook_with_promise(&self) -> (Outlook<()>, i32) {
            let promise = (self.hash_key() % 7) as i32;
            (self.outlook(true), promise)
        }

        fn first_guess(&self) -> Option<i32> {
            self.escalated.then_some(0)
        }

        fn escalation(&self) -> Option<u64> {
            (!self.escalated).then_some(self.escalate_after)
        }

        fn escalate(&mut self) -> bool {
            let changed = !self.escalated;
            self.escalated = true;
            changed
        }
    }

    #[test]
    fn looking_at_successors_first_and_escalating_keep_the_minimax_value() {
        let mut random = SplitMix64::new(19);
        let mut escalations = 0;
        for round in 0..60 {
            let (tree, expected) = random_game(6, &mut random);
            let escalate_after = [1, 20, 150, 5_000][round % 4];
            let mut game = Looking {
                tree,
                escalate_after,
                escalated: false,
            };
            for weak in [false, true] {
                for enhanced_transposition_cutoffs in [false, true] {
                    game.escalated = false;
                    let options = SolveOptions {
                        weak,
                        enhanced_transposition_cutoffs,
                        table_mib: 1,
                        parallel_after_nodes: 0,
                    };
                    let mut solver = Solver::new(options);
                    let solution = solver.solve(&mut game);
                    let expected = if weak { expected.signum() } else { expected };
                    assert_eq!(solution.value, expected, "round {round}");
                    escalations += usize::from(game.escalated);
                    // Escalated or not, with and without a budget and on two threads.
                    game.escalated = false;
                    let within = solver.solve_within(&mut game, 100_000).map(|s| s.value);
                    assert_eq!(within, Ok(expected));
                    game.escalated = false;
                    solver.clear();
                    assert_eq!(solver.solve_parallel(&mut game, 2).value, expected);
                    assert!(game.tree.path.is_empty());
                }
            }
        }
        // Most solves, but not all, went past their escalation point.
        assert!(
            (100..240).contains(&escalations),
            "{escalations} escalations"
        );
    }

    #[test]
    fn a_budget_below_the_escalation_point_is_kept() {
        let mut random = SplitMix64::new(23);
        let (tree, _) = random_game(6, &mut random);
        let mut game = Looking {
            tree,
            escalate_after: 1_000,
            escalated: false,
        };
        let mut solver = Solver::new(SolveOptions::default());
        let unsolved = solver
            .solve_within(&mut game, 50)
            .expect_err("too small a budget");
        assert!(unsolved.stats.nodes <= 60);
        assert!(!game.escalated);
    }
}
