//! McCarthy's Instant Insanity in a few lines: the seed's three functions handed to the
//! game-independent `search`, which knows nothing of cubes.
//!
//! Run with `cargo run --release --example instant_insanity`.

use gametree::puzzle_search_with_stats as search_with_stats;
use gametree::puzzles::instant_insanity::Puzzle;

fn main() {
    // The seed's puzz1: four cubes, each top, four sides clockwise, bottom.
    let puzzle = Puzzle::classic();
    // search[p0] with the seed's bit-word successors, ter and lose.
    let outcome = search_with_stats(
        puzzle.bits_start(),
        |tower| puzzle.bits_successors(tower),
        |tower| puzzle.bits_is_terminal(tower),
        |tower| puzzle.bits_loses(tower),
    );
    match outcome.solution {
        Some(tower) => println!("{}", puzzle.bits_tower(&tower)),
        None => println!("no solution"),
    }
    println!("{}", outcome.stats);
}
