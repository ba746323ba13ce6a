//! The search builder's defaults, measured on more than one game: iterative deepening with
//! and without killers, and with no table or tables of several sizes, on Kalah(6,4) and
//! checkers from their starts. Prints nodes,
//! the best of three times and nodes per second for each setting.
//!
//! ```sh
//! cargo bench --bench search_defaults
//! ```

use std::time::{Duration, Instant};

use gametree::games::kalah::KalahRules;
use gametree::prelude::*;
use gametree::{Checkers, Kalah};

/// How the table is set up for one measurement.
#[derive(Clone, Copy)]
enum TablePlan {
    None,
    Fixed(usize),
}

impl TablePlan {
    fn name(self) -> String {
        match self {
            TablePlan::None => "no table".into(),
            TablePlan::Fixed(mib) => format!("{mib} MiB"),
        }
    }
}

/// Nodes and the best time of three runs of one setting.
fn measure<G>(game: &G, depth: u32, killers: bool, plan: TablePlan) -> (u64, Duration)
where
    G: Game + Evaluate + PositionKey + Clone,
    G::Value: Default,
{
    let mut best = Duration::MAX;
    let mut nodes = 0;
    for _ in 0..3 {
        let mut game = game.clone();
        let started = Instant::now();
        let mut table = match plan {
            TablePlan::None => None,
            TablePlan::Fixed(mib) => Some(TranspositionTable::with_mib(mib)),
        };
        let search = Search::new(&mut game).depth(depth).killers(killers);
        let result = match table.as_mut() {
            Some(table) => search.table(table).run(),
            None => search.run(),
        };
        best = best.min(started.elapsed());
        nodes = result.stats.nodes;
    }
    (nodes, best)
}

fn report<G>(name: &str, game: &G, depth: u32)
where
    G: Game + Evaluate + PositionKey + Clone,
    G::Value: Default,
{
    println!("\n{name}, iterative deepening to depth {depth}");
    println!(
        "{:<10} {:<12} {:>12} {:>10} {:>12}",
        "killers", "table", "nodes", "ms", "nodes/s"
    );
    for killers in [false, true] {
        for plan in [
            TablePlan::None,
            TablePlan::Fixed(1),
            TablePlan::Fixed(16),
            TablePlan::Fixed(64),
        ] {
            let (nodes, time) = measure(game, depth, killers, plan);
            let seconds = time.as_secs_f64();
            println!(
                "{:<10} {:<12} {:>12} {:>10.1} {:>10.2} M",
                if killers { "on" } else { "off" },
                plan.name(),
                nodes,
                seconds * 1000.0,
                nodes as f64 / seconds / 1e6
            );
        }
    }
}

fn main() {
    let kalah = Kalah::new(6, 4, KalahRules::irving()).expect("a board");
    report("Kalah(6,4)", &kalah, 14);
    report("Checkers", &Checkers::new(), 12);
}
