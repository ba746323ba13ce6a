//! Two-player games written against [`crate::Game`]: the rules of each game, and nothing of
//! the algorithms that search them.

pub mod checkers;
