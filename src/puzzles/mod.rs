//! Puzzles searched by McCarthy's game-independent `search` (seeds 000 and 001).
