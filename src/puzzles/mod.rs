//! Puzzles searched by McCarthy's game-independent `search` (seeds 000 and 001).

pub mod graph_path;
pub mod instant_insanity;
