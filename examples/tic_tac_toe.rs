//! McCarthy's tic-tac-toe (seed 000): the seed's two examples, then the whole game from the
//! empty board by minimax, by alpha-beta, and by alpha-beta through the hidden board.
//!
//! Run with `cargo run --release --example tic_tac_toe`.

use std::time::Instant;

use gametree::tic_tac_toe::{TicTacToe, octal};
use gametree::{HiddenBoardGame, Window, alphabeta_line, alphabeta_value, minimax};

fn main() {
    let window = Window::new(-1000, 1000);
    for moves in [[2, 1], [3, 1]] {
        let mut game = TicTacToe::from_moves(&moves).expect("the seed's examples are legal");
        let result = alphabeta_line(&mut game, window);
        let line: Vec<String> = result
            .principal_line
            .iter()
            .map(|&square| octal(square).to_string())
            .collect();
        println!(
            "after {moves:?}: ({} {})  {} updates",
            result.value,
            line.join(" "),
            game.count()
        );
    }

    let started = Instant::now();
    let result = minimax(&mut TicTacToe::new());
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "minimax from the empty board: value {}, {} positions, {:.0} positions/s",
        result.value,
        result.stats.nodes,
        result.stats.nodes as f64 / seconds
    );

    let started = Instant::now();
    let result = alphabeta_value(&mut TicTacToe::new(), window);
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "alpha-beta from the empty board: value {}, {} positions, {:.0} positions/s",
        result.value,
        result.stats.nodes,
        result.stats.nodes as f64 / seconds
    );

    let started = Instant::now();
    let mut hidden = HiddenBoardGame::new(TicTacToe::new());
    let result = minimax(&mut hidden);
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "minimax through the hidden board: value {}, {} positions, {:.0} positions/s",
        result.value,
        result.stats.nodes,
        result.stats.nodes as f64 / seconds
    );
}
