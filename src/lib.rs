//! # gametree
//!
//! Game-tree and puzzle search after the classic programs: McCarthy's game-independent
//! tree search and alpha-beta (seeds 000, 001, 004), the tic-tac-toe he programmed, and
//! Slagle's m&n procedures (seed 003). The control programs never know the game; the games
//! never know the algorithm.
//!
//! | what | where |
//! |---|---|
//! | the game interface: `successors`, `ter`, `imval`, `update`, `revert` | [`game`] |
//! | depth-first puzzle search: McCarthy's `search` and `allsol` | [`search::puzzle`] |
//! | puzzles: graph paths, Instant Insanity | [`puzzles`] |
//! | checkers (English draughts): rules, PDN, perft, evaluation | [`games::checkers`] |

#![deny(missing_docs)]

pub mod game;
pub mod games;
pub mod puzzles;
pub mod search;

pub use game::{Evaluate, Game, Player, Value};
pub use games::checkers::Checkers;
pub use search::alphabeta::{
    LineResult, Proof, ProofId, ProofResult, ProofStep, ValueResult, alphabeta_line,
    alphabeta_proof, alphabeta_value,
};
pub use search::minimax::{MinimaxResult, minimax, minimax_value};
pub use search::{Bound, SearchStats, Window};
