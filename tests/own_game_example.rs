//! examples/own_game.rs runs, and its game is right: the extra-turn rule of Dots and Boxes
//! gives the same value to every search as to plain minimax.

#[path = "../examples/own_game.rs"]
mod own_game;

use gametree::prelude::*;
use own_game::DotsAndBoxes;

#[test]
fn the_example_runs() {
    own_game::main().expect("the example runs");
}

#[test]
fn every_search_agrees_with_minimax_on_small_grids() {
    // Plain minimax takes minutes on 2 × 2 (12 edges: 12! lines); alpha-beta is checked
    // against it on the smaller grids, and the other searches against alpha-beta on 2 × 2.
    for (rows, cols) in [(1, 1), (1, 2), (2, 1), (1, 3), (2, 2)] {
        let mut game = DotsAndBoxes::new(rows, cols);
        let exact = if rows * cols <= 3 {
            gametree::minimax(&mut game).value
        } else {
            gametree::alphabeta_value(&mut game, Window::full()).value
        };
        assert_eq!(Search::new(&mut game).run_to_end().value, Some(exact));
        assert_eq!(Search::new(&mut game).solve().value, Some(exact));
        let mut table = TranspositionTable::with_mib(1);
        assert_eq!(
            Search::new(&mut game).table(&mut table).run().value,
            Some(exact)
        );
    }
}
