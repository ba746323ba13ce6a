//! Seed 002's tic-tac-toe (COMPUTER_WIN = 1, DRAW = 0, HUMAN_WIN = −1) and McCarthy's
//! (seed 000: 10 − level for an X win, level − 10 for an O win) on the same generic engine:
//! both say who wins every position, so their values must agree in sign.

use gametree::games::simple_tic_tac_toe::SimpleTicTacToe;
use gametree::tic_tac_toe::TicTacToe;
use gametree::{ValueRange, Window, alphabeta_value, choose_move, choose_move_alphabeta};

/// Every sequence of moves that reaches a position where the game is not over.
fn open_positions() -> Vec<Vec<u8>> {
    let mut found = Vec::new();
    let mut pending = vec![Vec::new()];
    while let Some(moves) = pending.pop() {
        let grid = SimpleTicTacToe::from_moves(&moves).expect("generated moves are legal");
        if grid.is_over() {
            continue;
        }
        for square in 1..=9u8 {
            if grid.at(square).is_none() {
                let mut next = moves.clone();
                next.push(square);
                pending.push(next);
            }
        }
        found.push(moves);
    }
    found
}

#[test]
fn seed_002_choose_move_agrees_with_mccarthys_valmax_on_every_open_position() {
    let positions = open_positions();
    // The full tic-tac-toe game tree has 549,946 nodes, 255,168 of them finished games
    // (the figures the depth-limited tests assert): 294,778 lines of play are still open.
    assert_eq!(positions.len(), 549_946 - 255_168);
    for moves in positions {
        let mut mccarthy = TicTacToe::from_moves(&moves).expect("legal moves");
        let mccarthy_value = alphabeta_value(&mut mccarthy, Window::new(-1000, 1000)).value;

        let mut grid = SimpleTicTacToe::from_moves(&moves).expect("legal moves");
        let pruned = choose_move(&mut grid, ValueRange::new(-1, 1));
        let with_alphabeta = choose_move_alphabeta(&mut grid, Window::new(-1, 1));

        assert_eq!(
            pruned.score,
            mccarthy_value.signum(),
            "simple pruning after {moves:?}"
        );
        assert_eq!(
            with_alphabeta.score,
            mccarthy_value.signum(),
            "alpha-beta chooseMove after {moves:?}"
        );
        assert!(pruned.best_move.is_some() && with_alphabeta.best_move.is_some());
    }
}
