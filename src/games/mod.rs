//! Games for the game-tree searches of [`crate::search`], each an implementation of
//! [`crate::Game`].

pub mod simple_tic_tac_toe;
