//! The depth-parity effect of issue 15, with and without quiescence: on the typical
//! checkers positions of Slagle's experiment (`results/slagle/positions.fen`), the mean
//! 1&1 value from the side to move at depths 1 to `MAX_DEPTH`, and the mean change from
//! one depth to the next. Without quiescence a search that ends on the mover's ply values
//! an exchange half made, so the mean swings up and down with the parity of the depth; with
//! quiescence (captures searched to the end) the swing should mostly vanish.
//!
//! ```text
//! cargo run --release --example checkers_parity [POSITIONS] [MAX_DEPTH]
//! ```
//! (2 000 positions and depth 8 by default; every position searched on all cores.)

use gametree::experiment::positions_from_fen_lines;
use gametree::games::checkers::Position;
use gametree::{Checkers, Game, Player, SearchOptions, iterative_deepening};
use rayon::prelude::*;

/// The value of `position` at every depth 1..=`max_depth` from the side to move.
fn values(position: &Position, max_depth: u32, quiescence_plies: u32) -> Vec<f64> {
    let mut game = Checkers::from_position(*position);
    let side = game.to_move();
    let options = SearchOptions {
        quiescence_plies,
        ..SearchOptions::default()
    };
    let mut values = Vec::new();
    iterative_deepening(&mut game, max_depth, &options, |iteration| {
        let value = f64::from(iteration.value);
        values.push(match side {
            Player::Max => value,
            Player::Min => -value,
        });
    });
    values
}

fn main() {
    let mut args = std::env::args().skip(1);
    let count: usize = args.next().and_then(|t| t.parse().ok()).unwrap_or(2_000);
    let max_depth: u32 = args.next().and_then(|t| t.parse().ok()).unwrap_or(8);
    let text = std::fs::read_to_string("results/slagle/positions.fen")
        .expect("the experiment's typical positions are in results/slagle");
    let positions = positions_from_fen_lines(&text).expect("valid positions");
    // Decided positions (a win seen within the search) would outweigh the rest.
    let decided = |values: &[f64]| values.iter().any(|value| value.abs() > 100_000.0);
    println!(
        "{} typical positions; mean value from the side to move, hundredths of a man",
        count.min(positions.len())
    );
    println!("quiescence  depth  positions  mean value  change from depth - 1");
    for quiescence_plies in [0, 16] {
        let all: Vec<Vec<f64>> = positions
            .par_iter()
            .take(count)
            .map(|position| values(position, max_depth, quiescence_plies))
            .filter(|values| values.len() == max_depth as usize && !decided(values))
            .collect();
        let n = all.len() as f64;
        let mut previous = None;
        for depth in 0..max_depth as usize {
            let mean = all.iter().map(|values| values[depth]).sum::<f64>() / n;
            let change = previous.map_or(String::new(), |before: f64| {
                format!("{:+.1}", mean - before)
            });
            println!(
                "{:>10}  {:>5}  {:>9}  {:>10.1}  {change}",
                quiescence_plies,
                depth + 1,
                all.len(),
                mean
            );
            previous = Some(mean);
        }
    }
}
