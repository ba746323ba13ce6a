//! Games for the game-tree searches of [`crate::search`], each an implementation of
//! [`crate::Game`]: McCarthy's tic-tac-toe (seed 000) and seed 002's.

pub mod connect_four;
pub mod simple_tic_tac_toe;
pub mod tic_tac_toe;
