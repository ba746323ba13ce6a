//! Two-player games written against [`crate::Game`]: the rules of each game, and nothing of
//! the algorithms that search them. McCarthy's tic-tac-toe (seed 000), seed 002's,
//! checkers, Connect Four and Kalah.

pub mod checkers;
pub mod connect_four;
pub mod connect_four_book;
pub mod kalah;
pub mod simple_tic_tac_toe;
pub mod tic_tac_toe;
