//! The control programs: game-independent searches over closures and over [`crate::Game`].

pub mod puzzle;
