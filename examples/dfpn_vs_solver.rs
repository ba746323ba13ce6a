//! df-pn against the null-window solver on weak solving (win, draw or loss): the first
//! positions of Pascal Pons' benchmark files, each solved from a cleared table by both,
//! with the values checked against each other and the positions and time each took.
//! Then the deep forced wins: positions of the middle-game and beginning files whose
//! player to move wins, but only with one of their last two stones (score 1 or 2), so
//! that every proof of the win runs to the last rows of the board.
//!
//! ```text
//! cargo run --release --example dfpn_vs_solver [POSITIONS_PER_FILE]
//! ```

use std::time::{Duration, Instant};

use gametree::search::proof_number::{DfPn, DfPnOptions};
use gametree::{ConnectFour, Game, Player, SolveOptions, Solver};

const FILES: [&str; 4] = [
    "data/connect4/Test_L3_R1",
    "data/connect4/Test_L2_R1",
    "data/connect4/Test_L2_R2",
    "data/connect4/Test_L1_R1",
];

/// The files the deep forced wins are drawn from, the beginning first (Test_L1_R1 has
/// none), each giving at most the room left divided by its divisor: a third of the set
/// from the beginning, the rest from the middle game.
const DEEP_WIN_FILES: [(&str, usize); 2] = [
    ("data/connect4/Test_L1_R2", 3),
    ("data/connect4/Test_L2_R2", 1),
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
    let mut sets: Vec<(String, Vec<String>)> = FILES
        .iter()
        .map(|file| {
            let text = std::fs::read_to_string(file).expect("the benchmark files are in data/");
            let lines = text.lines().take(per_file).map(str::to_string).collect();
            (file.rsplit('/').next().unwrap_or(file).to_string(), lines)
        })
        .collect();
    let mut deep_wins = Vec::new();
    for (file, divisor) in DEEP_WIN_FILES {
        let text = std::fs::read_to_string(file).expect("the benchmark files are in data/");
        let room = per_file - deep_wins.len();
        deep_wins.extend(
            text.lines()
                .filter(|line| matches!(line.split_whitespace().nth(1), Some("1" | "2")))
                .take(room.div_ceil(divisor))
                .map(str::to_string),
        );
    }
    sets.push(("deep wins".to_string(), deep_wins));
    for (name, lines) in &sets {
        let (mut solver_nodes, mut dfpn_nodes) = (0u64, 0u64);
        let (mut solver_time, mut dfpn_time) = (Duration::ZERO, Duration::ZERO);
        let (mut count, mut agree) = (0usize, 0usize);
        for line in lines {
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
            name,
            count,
            per(solver_nodes as f64),
            per(solver_time.as_secs_f64() * 1000.0),
            per(dfpn_nodes as f64),
            per(dfpn_time.as_secs_f64() * 1000.0),
        );
    }
}
