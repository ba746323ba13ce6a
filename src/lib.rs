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
//! | explicit game trees from S-expressions, for teaching and testing | [`tree`] |
//! | checking McCarthy's proofs: the four cases, `verify` | [`verify`] |
//! | aspiration search: alpha-beta in an estimated window | [`aspiration_value`] |
//! | Slagle's m&n minimaxing and m&n alpha-beta, backing-up functions | [`search::m_and_n`] |

#![deny(missing_docs)]

pub mod game;
pub mod puzzles;
pub mod search;
pub mod tree;

pub use game::{Evaluate, Game, Player, Value};
pub use search::alphabeta::{
    LineResult, Proof, ProofId, ProofResult, ProofStep, ValueResult, alphabeta_line,
    alphabeta_proof, alphabeta_value,
};
pub use search::m_and_n::{
    BackingUp, BackingUpError, Exponents, MnResult, Slagle, mn_alphabeta, mn_alphabeta_depth,
    mn_alphabeta_value, mn_alphabeta_value_depth, mn_minimax, mn_minimax_depth,
    slagle_is_increasing,
};
pub use search::minimax::{MinimaxResult, minimax, minimax_value};
pub use search::{Bound, SearchStats, Window};

pub use search::alphabeta::{
    AspirationResult, AspirationValue, Claim, VerifyError, VerifyFailure, aspiration_value, verify,
    verify_result,
};
pub use tree::{ExplicitTree, ParseTreeError, ParseTreeErrorKind, RandomTreeConfig};
