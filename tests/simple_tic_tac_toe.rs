//! Seed 002's tic-tac-toe on the generic engine: the size of its game tree, and
//! `chooseMove` (simple pruning and alpha-beta) against plain minimax on every reachable
//! position.

use std::collections::HashSet;

use gametree::games::simple_tic_tac_toe::{COMPUTER_WIN, DRAW, HUMAN_WIN};
use gametree::{
    Game, Player, SimpleTicTacToe, ValueRange, Window, alphabeta_value, choose_move,
    choose_move_alphabeta, minimax,
};

/// Every position reachable from the empty grid, finished ones included.
fn reachable_positions() -> Vec<SimpleTicTacToe> {
    fn visit(
        grid: &mut SimpleTicTacToe,
        seen: &mut HashSet<SimpleTicTacToe>,
        out: &mut Vec<SimpleTicTacToe>,
    ) {
        if !seen.insert(*grid) {
            return;
        }
        out.push(*grid);
        if grid.is_over() {
            return;
        }
        let mut moves = Vec::new();
        grid.successors(&mut moves);
        for square in moves {
            grid.update(square);
            visit(grid, seen, out);
            grid.revert(square);
        }
    }
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    visit(&mut SimpleTicTacToe::new(), &mut seen, &mut out);
    out
}

fn legal_moves(grid: &SimpleTicTacToe) -> Vec<u8> {
    let mut moves = Vec::new();
    grid.successors(&mut moves);
    moves
}

const RANGE: ValueRange<i32> = ValueRange {
    lowest: HUMAN_WIN,
    highest: COMPUTER_WIN,
};

#[test]
fn full_minimax_from_the_empty_grid_visits_549946_nodes_and_draws() {
    let result = minimax(&mut SimpleTicTacToe::new());
    // The full tic-tac-toe game tree has 549,946 nodes counting the root (issue 3,
    // section 6; the well-known count of the game tree).
    assert_eq!(result.stats.nodes, 549_946);
    // Its leaves are the 255,168 possible games (the well-known count of complete
    // tic-tac-toe games).
    assert_eq!(result.stats.leaves, 255_168);
    // Seed 002: perfect players draw.
    assert_eq!(result.value, DRAW);
}

#[test]
fn the_grid_has_5478_reachable_positions() {
    // The well-known count of legal tic-tac-toe positions, the empty grid included.
    assert_eq!(reachable_positions().len(), 5478);
}

#[test]
fn choose_move_in_both_forms_and_alphabeta_agree_with_minimax_on_every_reachable_position() {
    for grid in reachable_positions() {
        let mut game = grid;
        let expected = minimax(&mut game);
        let simple = choose_move(&mut game, RANGE);
        let pruned = choose_move_alphabeta(&mut game, Window::new(HUMAN_WIN, COMPUTER_WIN));
        let alphabeta = alphabeta_value(&mut game, Window::full());
        assert_eq!(game, grid, "the searches restore the grid");
        assert_eq!(simple.score, expected.value, "simple pruning at\n{grid}");
        assert_eq!(
            pruned.score, expected.value,
            "alpha-beta chooseMove at\n{grid}"
        );
        assert_eq!(
            alphabeta.value, expected.value,
            "alphabeta_value at\n{grid}"
        );
        // chooseMove's move attains the value it reports.
        if let Some(square) = simple.best_move {
            game.update(square);
            assert_eq!(
                minimax(&mut game).value,
                expected.value,
                "move {square} at\n{grid}"
            );
            game.revert(square);
        }
        assert_eq!(simple.best_move.is_none(), grid.is_over());
        assert_eq!(pruned.best_move.is_none(), grid.is_over());
    }
}

#[test]
fn alphabeta_choose_move_in_a_narrow_window_bounds_the_minimax_value_as_the_seed_says() {
    let windows = [(HUMAN_WIN, DRAW), (DRAW, COMPUTER_WIN), (DRAW, DRAW)];
    for grid in reachable_positions()
        .into_iter()
        .filter(|grid| !grid.is_over())
    {
        let mut game = grid;
        let value = minimax(&mut game).value;
        for (alpha, beta) in windows {
            let score = choose_move_alphabeta(&mut game, Window::new(alpha, beta)).score;
            if value <= alpha {
                assert!(score <= alpha, "[{alpha}, {beta}] at\n{grid}");
            } else if value >= beta {
                assert!(score >= beta, "[{alpha}, {beta}] at\n{grid}");
            } else {
                assert_eq!(score, value, "[{alpha}, {beta}] at\n{grid}");
            }
        }
    }
}

#[test]
fn choose_move_returns_a_legal_move_even_when_every_move_loses() {
    let mut lost_positions = 0;
    for grid in reachable_positions()
        .into_iter()
        .filter(|grid| !grid.is_over())
    {
        let mut game = grid;
        let value = minimax(&mut game).value;
        let loss = match grid.to_move() {
            Player::Max => HUMAN_WIN,
            Player::Min => COMPUTER_WIN,
        };
        if value != loss {
            continue;
        }
        lost_positions += 1;
        let legal = legal_moves(&grid);
        let simple = choose_move(&mut game, RANGE);
        let pruned = choose_move_alphabeta(&mut game, Window::new(HUMAN_WIN, COMPUTER_WIN));
        assert_eq!(simple.score, loss);
        for chosen in [simple.best_move, pruned.best_move] {
            let square = chosen.expect("seed 002: some move is returned nevertheless");
            assert!(legal.contains(&square), "{square} is not legal at\n{grid}");
        }
    }
    assert!(lost_positions > 0, "tic-tac-toe has lost positions to test");
}

#[test]
fn pruning_visits_fewer_positions_than_minimax_from_the_empty_grid() {
    let mut game = SimpleTicTacToe::new();
    let full = minimax(&mut game).stats.nodes;
    let simple = choose_move(&mut game, RANGE).stats;
    let pruned = choose_move_alphabeta(&mut game, Window::new(HUMAN_WIN, COMPUTER_WIN)).stats;
    assert!(simple.nodes < full);
    assert!(simple.cutoffs > 0);
    // Seed 002: alpha-beta pruning "subsumes simple pruning".
    assert!(
        pruned.nodes <= simple.nodes,
        "{} > {}",
        pruned.nodes,
        simple.nodes
    );
}
