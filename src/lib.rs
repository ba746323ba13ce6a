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

#![deny(missing_docs)]

pub mod game;
pub mod puzzles;
pub mod search;

pub use game::{Evaluate, Game, Player, Value};
pub use puzzles::graph_path::{Graph, GraphError, NodeId, PathPosition, all_paths, first_path};
pub use puzzles::instant_insanity::{Puzzle, PuzzleError, Repr, Tower};
pub use search::puzzle::{
    AllSolutions, SearchOutcome, SearchStats, all_solutions, count_solutions, search,
    search_with_stats,
};
