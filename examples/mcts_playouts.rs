//! Monte Carlo playouts per second on Connect Four from the empty board, one thread: each
//! playout selects by UCB1, expands, plays one full uniformly random game and backs up.
//!
//! ```text
//! cargo run --release --example mcts_playouts [PLAYOUTS]
//! ```

use gametree::ConnectFour;
use gametree::games::connect_four::RandomColumns;
use gametree::search::mcts::{Budget, Mcts, MctsOptions};

fn main() {
    let playouts = std::env::args()
        .nth(1)
        .and_then(|text| text.parse().ok())
        .unwrap_or(2_000_000);
    for (name, solver) in [("UCT", false), ("UCT + MCTS-Solver", true)] {
        let mut game = ConnectFour::new();
        let options = MctsOptions {
            seed: 1,
            solver,
            ..MctsOptions::default()
        };
        let mut mcts = Mcts::with_policy(options, RandomColumns);
        let result = mcts.search(&mut game, Budget::Playouts(playouts));
        println!(
            "{name}: {} playouts in {:.3} s: {:.2} M playouts/s, {:.1} M positions/s, {} tree nodes, best column {}",
            result.playouts,
            result.stats.elapsed.as_secs_f64(),
            result.playouts_per_second() / 1e6,
            result.stats.nodes as f64 / result.stats.elapsed.as_secs_f64() / 1e6,
            result.tree_nodes,
            result.best_move.map_or(0, |column| column + 1),
        );
    }
}
