//! # gametree
//!
//! Game-tree and puzzle search after the classic programs: McCarthy's game-independent
//! tree search and alpha-beta (seeds 000, 001, 004), the tic-tac-toe he programmed, and
//! Slagle's m&n procedures (seed 003). The control programs never know the game; the games
//! never know the algorithm.
//!
//! | what | where |
//! |---|---|
//! | writing your own game, step by step | [`guide`] |
//! | the one entry point to the searches: `Search::new(&mut game).depth(8).run()` | [`search::builder`], [`prelude`] |
//! | the game interface: `successors`, `ter`, `imval`, `update`, `revert` | [`game`] |
//! | games whose moves return an undo token, or copy-make | [`undoable`] |
//! | depth-first puzzle search: McCarthy's `search` and `allsol` | [`search::puzzle`](mod@search::puzzle) |
//! | puzzles: graph paths, Instant Insanity | [`puzzles`] |
//! | McCarthy's tic-tac-toe, exactly as printed | [`games::tic_tac_toe`] |
//! | the hidden board trick: `rectify`, positions as move lists | [`search::hidden_board`] |
//! | seed 002's `chooseMove`, with simple pruning and with alpha-beta | [`search::choose_move`] |
//! | depth-limited alpha-beta, iterative deepening, a node or time budget | [`search::deepening`] |
//! | the killer heuristic in game-independent form (seed 004) | [`search::killer`] |
//! | seed 002's tic-tac-toe (`COMPUTER_WIN`, `DRAW`, `HUMAN_WIN`) | [`games::simple_tic_tac_toe`] |
//! | explicit game trees from S-expressions, for teaching and testing | [`tree`] |
//! | checking McCarthy's proofs: the four cases, `verify` | [`verify`] |
//! | aspiration search: alpha-beta in an estimated window | [`aspiration_value`] |
//! | Slagle's m&n minimaxing and m&n alpha-beta, backing-up functions | [`search::m_and_n`] |
//! | checkers (English draughts): rules, PDN, perft, evaluation | [`games::checkers`] |
//! | transposition tables for any game with a position key | [`search::transposition`] |
//! | solving games: null-window narrowing, table, pruning hooks | [`search::solver`] |
//! | Connect Four on bitboards | [`games::connect_four`] |
//! | Slagle's proposed experiment: learning 2&2 backing-up functions at checkers | [`experiment`] |
//! | a small seeded generator for reproducible random trees, games and positions | [`random`] |
//! | quoting user input in error messages: a short excerpt | [`text`] |
//! | Monte Carlo tree search: UCT, MCTS-Solver, playout policies, tree reuse | [`search::mcts`] |
//! | depth-first proof-number search (df-pn) with verified proofs | [`search::proof_number`] |

#![deny(missing_docs)]

pub mod game;
pub mod games;
pub mod guide;
pub mod learning;
pub mod prelude;
pub mod puzzles;
pub mod random;
pub mod search;
pub mod text;
pub mod tree;
pub mod undoable;

// The crate root holds the engine — the game interface, every search and its results —
// and the games' types; what belongs to one game (its errors, its notation) or one puzzle
// stays in its module. `prelude` has the few items most programs need.

pub use game::{Evaluate, Game, Player, Value};
pub use search::builder::{Search, SearchResult};
pub use search::{Bound, SearchStats, Window};

pub use search::alphabeta::{
    AspirationResult, AspirationValue, Claim, LineResult, Proof, ProofId, ProofResult, ProofStep,
    ValueResult, VerifyError, VerifyFailure, alphabeta_line, alphabeta_proof, alphabeta_value,
    alphabeta_value_observed, aspiration_value, verify, verify_result,
};
pub use search::choose_move::{ChosenMove, ValueRange, choose_move, choose_move_alphabeta};
pub use search::clock::GameClock;
pub use search::deepening::{
    DeepeningResult, DistanceAdjustment, Iteration, MOVES_BEFORE_REDUCTION, REDUCTION_MIN_DEPTH,
    Reuse, SearchOptions, SharedTableSearch, StopReason, StopSignal, TableSearch, TableStats,
    VerifiedPruning, depth_limited_aspiration, depth_limited_aspiration_with_table,
    depth_limited_line, depth_limited_line_with_table, depth_limited_value,
    depth_limited_value_quiescent, depth_limited_value_with_table, iterative_deepening,
    iterative_deepening_with_table, parallel_deepening,
};
pub use search::float_valued::FloatValued;
pub use search::hidden_board::{self, HiddenBoard, HiddenBoardGame, MoveList};
pub use search::killer::Killers;
pub use search::m_and_n::{
    BackingUp, BackingUpError, Exponents, MnOrdering, MnResult, MonotoneClaim, Slagle,
    mn_alphabeta, mn_alphabeta_depth, mn_alphabeta_depth_ordered, mn_alphabeta_depth_quiescent,
    mn_alphabeta_observed, mn_alphabeta_value, mn_alphabeta_value_depth,
    mn_alphabeta_value_depth_quiescent, mn_minimax, mn_minimax_depth, mn_minimax_depth_quiescent,
    mn_minimax_observed, slagle_is_increasing,
};
pub use search::mcts::{
    Budget, EvaluationCutoff, Mcts, MctsOptions, MctsResult, MoveStatistics, PlayoutPolicy, Proven,
    UniformPlayouts, mcts_best_move,
};
pub use search::minimax::{MinimaxResult, minimax, minimax_observed, minimax_value};
pub use search::proof_number::{DfPn, DfPnOptions, DfPnOutcome, DfPnResult, WeakValue};
pub use search::puzzle::{
    AllSolutions, PuzzleStats, SearchOutcome, all_solutions, count_solutions,
    search as puzzle_search, search_with_stats as puzzle_search_with_stats,
};
pub use search::solver::{
    Narrowed, Outlook, Peek, Solution, Solvable, SolveOptions, Solver, solve,
};
#[doc(inline)]
pub use search::transposition::ZobristHash;
pub use search::transposition::{PositionKey, TableEntry, TranspositionTable};
pub use tree::{ExplicitTree, ParseTreeError, RandomTreeConfig};
pub use undoable::{UndoableEvaluate, UndoableGame, UndoableKey, Undoing};

pub use games::checkers::Checkers;
pub use games::connect_four::ConnectFour;
pub use games::kalah::Kalah;
pub use games::simple_tic_tac_toe::SimpleTicTacToe;
pub use games::tic_tac_toe::{self, TicTacToe};
pub use random::{SplitMix64, play_random_moves};
pub mod experiment;

/// The README's Rust examples, compiled and run by `cargo test` as doctests, so the front
/// page cannot show code that no longer builds.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
