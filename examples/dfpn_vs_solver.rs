//! df-pn against the null-window solver on weak solving (win, draw or loss): the first
//! positions of Pascal Pons' benchmark files, each solved from a cleared table by both,
//! with the values checked against each other and the positions and time each took.
//!
//! ```text
//! cargo run --release --example dfpn_vs_solver [POSITIONS_PER_FILE]
//! ```

use std::time::{Duration, Instant};

use gametree::search::proof_number::{DfPn, DfPnOptions};
use gametree::{ConnectFour, Game, Player, SolveOptions, Solver};

const FILES: [&str; 3] = [
    "data/connect4/Test_L3_R1",
    "data/connect4/Test_L2_R1",
    "data/connect4/Test_L2_R2",
];

fn main() {
    let per_file: usize = std::env::args()
        .nth(1)
        .and_then(|text| text.parse().ok())
        .unwrap_or(100);
    let mut solver = Solver::new(SolveOptions {
        weak: true,
        table_mib: 16,
        ..SolveOptions::default()
    });
    let mut dfpn = DfPn::new(DfPnOptions {
        table_mib: 16,
        ..DfPnOptions::default()
    });
    println!(
        "file         positions  solver: mean nodes  mean ms   df-pn: mean nodes  mean ms  same values"
    );
    for file in FILES {
        let text = std::fs::read_to_string(file).expect("the benchmark files are in data/");
        let (mut solver_nodes, mut dfpn_nodes) = (0u64, 0u64);
        let (mut solver_time, mut dfpn_time) = (Duration::ZERO, Duration::ZERO);
        let (mut count, mut agree) = (0usize, 0usize);
        for line in text.lines().take(per_file) {
            let moves = line.split_whitespace().next().unwrap_or_default();
            let mut game = ConnectFour::from_moves(moves).expect("legal benchmark moves");
            let started = Instant::now();
            solver.clear();
            let solution = solver.solve(&mut game);
            solver_time += started.elapsed();
            solver_nodes += solution.stats.nodes;
            let started = Instant::now();
            let weak = dfpn.weak_value(&mut game);
            dfpn_time += started.elapsed();
            dfpn_nodes += weak.stats.nodes;
            let to_move = weak.value.map(|value| match game.to_move() {
                Player::Max => value,
                Player::Min => -value,
            });
            count += 1;
            agree += usize::from(to_move == Some(solution.score));
        }
        let per = |total: f64| total / count.max(1) as f64;
        println!(
            "{:<12} {:>9}  {:>18.0}  {:>7.2}   {:>17.0}  {:>7.2}  {agree}/{count}",
            file.rsplit('/').next().unwrap_or(file),
            count,
            per(solver_nodes as f64),
            per(solver_time.as_secs_f64() * 1000.0),
            per(dfpn_nodes as f64),
            per(dfpn_time.as_secs_f64() * 1000.0),
        );
    }
}
