//! A checkers match between two settings of gametree's own search, to measure one
//! technique alone (issue 20: "each measured alone in matches and kept only if it pays"):
//! every one of the 156 ACF three-move ballots played twice, colours reversed, each side
//! deepening to a fixed depth with a transposition table kept over its game (as `gametree
//! checkers play` searches), the draw rules on, 300 plies at most after the ballot.
//!
//! ```text
//! cargo run --release --example checkers_selfplay [DEPTH] [QUIESCENCE_A] [QUIESCENCE_B]
//! ```
//!
//! Side A searches with quiescence for at most `QUIESCENCE_A` plies past the horizon
//! (16 by default), side B with `QUIESCENCE_B` (0, none, by default), both to `DEPTH`
//! plies (6 by default). Prints A's wins, draws and losses, its score with the Elo
//! difference and its 95% interval, and what each side's searches cost.

use std::time::Instant;

use gametree::experiment::MatchScore;
use gametree::games::checkers::{GameResult, three_move_ballots};
use gametree::{
    Checkers, Game, SearchOptions, TableSearch, TranspositionTable, iterative_deepening_with_table,
};
use rayon::prelude::*;

/// Plies after the ballot at which a game still going is scored a draw.
const MAX_PLIES: usize = 300;

/// One side's settings and what its searches cost over a game.
#[derive(Clone, Copy, Default)]
struct Cost {
    moves: u64,
    nodes: u64,
    seconds: f64,
}

/// Plays one ballot, A as Black when `a_black`; returns A's points and both sides' costs.
fn play(ballot: usize, a_black: bool, depth: u32, quiescence: [u32; 2]) -> (f64, [Cost; 2]) {
    let ballots = three_move_ballots();
    let mut game = Checkers::from_position(ballots[ballot].position());
    let mut tables = [
        TranspositionTable::with_mib(16),
        TranspositionTable::with_mib(16),
    ];
    let mut costs = [Cost::default(); 2];
    let mut result = GameResult::Draw;
    for _ in 0..MAX_PLIES {
        if let Some(over) = game.result() {
            result = over;
            break;
        }
        // The ballot leaves White to move: White moves on even plies after it.
        let black_to_move =
            game.position().side_to_move() == gametree::games::checkers::Color::Black;
        let side = usize::from(black_to_move != a_black);
        game.mark_root();
        let options = SearchOptions {
            quiescence_plies: quiescence[side],
            ..SearchOptions::default()
        };
        let started = Instant::now();
        let mut search =
            TableSearch::new(&mut tables[side]).with_distance(Checkers::distance_adjustment());
        let found = iterative_deepening_with_table(&mut game, depth, &options, &mut search, |_| {});
        costs[side].moves += 1;
        costs[side].nodes += found.stats.nodes;
        costs[side].seconds += started.elapsed().as_secs_f64();
        let mv = found.best_move.expect("a game that is not over has a move");
        game.update(mv);
    }
    let points = match (result, a_black) {
        (GameResult::BlackWins, true) | (GameResult::WhiteWins, false) => 1.0,
        (GameResult::BlackWins, false) | (GameResult::WhiteWins, true) => 0.0,
        _ => 0.5,
    };
    (points, costs)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: checkers_selfplay [DEPTH [QUIESCENCE_A [QUIESCENCE_B]]] (default 6 16 0)";
    if args.iter().any(|arg| arg == "--help" || arg == "-h") {
        println!("checkers_selfplay: {usage}");
        return;
    }
    if args.len() > 3 || args.iter().any(|arg| arg.starts_with('-')) {
        eprintln!("checkers_selfplay: {usage}");
        std::process::exit(2);
    }
    let number = |position: usize, default: u32| match args.get(position) {
        None => default,
        Some(text) => text.parse().unwrap_or_else(|_| {
            eprintln!("checkers_selfplay: {text:?} is not a whole number");
            std::process::exit(2);
        }),
    };
    let depth = number(0, 6);
    let quiescence_a = number(1, 16);
    let quiescence_b = number(2, 0);
    let ballots = three_move_ballots().len();
    let started = Instant::now();
    let games: Vec<(f64, [Cost; 2])> = (0..2 * ballots)
        .into_par_iter()
        .map(|index| {
            play(
                index / 2,
                index % 2 == 0,
                depth,
                [quiescence_a, quiescence_b],
            )
        })
        .collect();
    let mut score = MatchScore {
        wins: 0,
        draws: 0,
        losses: 0,
    };
    let mut totals = [Cost::default(); 2];
    for (points, costs) in &games {
        score.record(*points);
        for side in 0..2 {
            totals[side].moves += costs[side].moves;
            totals[side].nodes += costs[side].nodes;
            totals[side].seconds += costs[side].seconds;
        }
    }
    let elo = score.elo().expect("games were played");
    println!(
        "depth {depth}: A (quiescence {quiescence_a}) against B (quiescence {quiescence_b}), {} games",
        score.games()
    );
    println!(
        "A: {} wins, {} draws, {} losses; score {:.3}; Elo {:+.0} (95%: {:+.0} to {:+.0})",
        score.wins,
        score.draws,
        score.losses,
        score.score().unwrap_or(0.5),
        elo.elo,
        elo.low,
        elo.high
    );
    for (name, cost) in ["A", "B"].iter().zip(totals) {
        println!(
            "{name}: {:.0} positions a move, {:.2} ms a move",
            cost.nodes as f64 / cost.moves.max(1) as f64,
            cost.seconds * 1000.0 / cost.moves.max(1) as f64
        );
    }
    println!("{:.1} s", started.elapsed().as_secs_f64());
}
