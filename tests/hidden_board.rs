//! The hidden board trick (seed 000 "The hidden board trick", seed 004 RECTIFY) over
//! McCarthy's tic-tac-toe: searching through positions given as move lists gives the same
//! value, main line, proof and `update` count as searching the board directly.

use gametree::tic_tac_toe::{Square, TicTacToe};
use gametree::{
    Game, HiddenBoardGame, Window, alphabeta_line, alphabeta_proof, alphabeta_value, minimax,
};

/// Every position reachable from the empty board in game order, the game not over. Each
/// order of play is its own path here, so the hidden board's `commontail` is exercised
/// on every shape; capped to keep the suite fast.
fn open_positions(limit: usize) -> Vec<Vec<Square>> {
    let mut out = Vec::new();
    let mut pending = vec![Vec::new()];
    while let Some(moves) = pending.pop() {
        if out.len() == limit {
            break;
        }
        let game = TicTacToe::from_moves(&moves).expect("reachable");
        if game.ending().is_some() {
            continue;
        }
        for square in (1..=9).rev() {
            if game.mark(square).is_none() {
                let mut longer = moves.clone();
                longer.push(square);
                pending.push(longer);
            }
        }
        out.push(moves);
    }
    out
}

/// Runs every search directly and through the hidden board and compares what they find
/// and how many updates each made on its board.
fn assert_same_search(moves: &[Square], window: Window<i32>) {
    let fresh = || TicTacToe::from_moves(moves).expect("reachable");
    let hidden = || HiddenBoardGame::new(fresh());

    let (mut direct, mut through) = (fresh(), hidden());
    let a = alphabeta_value(&mut direct, window);
    let b = alphabeta_value(&mut through, window);
    assert_eq!(a.value, b.value, "value after {moves:?}");
    assert_eq!(a.stats.nodes, b.stats.nodes, "nodes after {moves:?}");
    assert_eq!(
        direct.count(),
        through.hidden_board().game().count(),
        "count after {moves:?}"
    );

    let (mut direct, mut through) = (fresh(), hidden());
    let a = alphabeta_line(&mut direct, window);
    let b = alphabeta_line(&mut through, window);
    assert_eq!(
        (a.value, &a.principal_line),
        (b.value, &b.principal_line),
        "line after {moves:?}"
    );
    assert_eq!(
        direct.count(),
        through.hidden_board().game().count(),
        "line count after {moves:?}"
    );

    let (mut direct, mut through) = (fresh(), hidden());
    let a = alphabeta_proof(&mut direct, window);
    let b = alphabeta_proof(&mut through, window);
    assert_eq!(a.value, b.value, "proof value after {moves:?}");
    assert_eq!(a.at_least, b.at_least, "pfmax after {moves:?}");
    assert_eq!(a.at_most, b.at_most, "pfmin after {moves:?}");
    assert_eq!(
        direct.count(),
        through.hidden_board().game().count(),
        "proof count after {moves:?}"
    );
    // The hidden board, brought back to the search's root, is the direct board.
    assert_eq!(through.into_game().moves(), direct.moves());
}

#[test]
fn the_seed_examples_search_the_same_through_the_hidden_board() {
    // Seed 000, Examples 1 and 2: 114 and 39 updates (issue 3), also through `rectify`.
    for (moves, count) in [([2, 1], 114), ([3, 1], 39)] {
        assert_same_search(&moves, Window::new(-1000, 1000));
        let mut through = HiddenBoardGame::new(TicTacToe::from_moves(&moves).expect("legal"));
        alphabeta_proof(&mut through, Window::new(-1000, 1000));
        assert_eq!(through.hidden_board().game().count(), count);
    }
}

#[test]
fn every_order_of_play_searches_the_same_through_the_hidden_board() {
    let positions = open_positions(6000);
    assert_eq!(positions.len(), 6000);
    for moves in &positions {
        assert_same_search(moves, Window::new(-1000, 1000));
    }
    for moves in positions.iter().step_by(7) {
        assert_same_search(moves, Window::new(-2, 3));
    }
}

#[test]
fn minimax_through_the_hidden_board_visits_the_whole_tree() {
    let mut direct = TicTacToe::new();
    let mut through = HiddenBoardGame::new(TicTacToe::new());
    let a = minimax(&mut direct);
    let b = minimax(&mut through);
    assert_eq!(
        (a.value, a.best_move, a.stats.nodes),
        (b.value, b.best_move, b.stats.nodes)
    );
    assert_eq!(direct.count(), through.hidden_board().game().count());
    assert!(through.position().is_empty());
    assert_eq!(through.to_move(), gametree::Player::Max);
}
