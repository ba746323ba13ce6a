//! Principal variation search (`SearchOptions::use_pvs`) against plain alpha-beta: the
//! null windows change which positions are visited, never a value. Every iteration of
//! iterative deepening must give the same value with and without it, on random checkers
//! positions (with quiescence, and with a table that takes same-depth entries) and on
//! Kalah positions, where a player may move twice in a row.

mod common;

use common::{NO_DRAW_RULES, iteration_values as values, random_checkers_positions};
use gametree::games::checkers::Checkers;
use gametree::games::kalah::{Kalah, KalahRules};
use gametree::{
    Game, Reuse, SearchOptions, SplitMix64, TableSearch, TranspositionTable, iterative_deepening,
    iterative_deepening_with_table,
};

fn with_pvs(options: &SearchOptions) -> SearchOptions {
    SearchOptions {
        use_pvs: true,
        ..options.clone()
    }
}

#[test]
fn pvs_keeps_every_iteration_value_on_three_hundred_checkers_positions() {
    let plain = SearchOptions {
        quiescence_plies: 4,
        ..SearchOptions::default()
    };
    let (mut nodes_plain, mut nodes_pvs) = (0, 0);
    for (index, position) in random_checkers_positions(300, 23).into_iter().enumerate() {
        let mut game = Checkers::from_position(position).with_rules(NO_DRAW_RULES);
        let depth = 2 + (index % 6) as u32;
        let without = iterative_deepening(&mut game, depth, &plain, |_| {});
        let with = iterative_deepening(&mut game, depth, &with_pvs(&plain), |_| {});
        assert_eq!(values(&with), values(&without), "{}", position.to_fen());
        nodes_plain += without.stats.nodes;
        nodes_pvs += with.stats.nodes;
    }
    // Not a timing: the null windows must cut something somewhere.
    assert_ne!(nodes_pvs, nodes_plain);
}

#[test]
fn pvs_with_a_same_depth_table_keeps_the_values_of_the_search_without_either() {
    let mut table = TranspositionTable::with_mib(4);
    for position in random_checkers_positions(100, 29) {
        let mut game = Checkers::from_position(position).with_rules(NO_DRAW_RULES);
        let plain = iterative_deepening(&mut game, 6, &SearchOptions::default(), |_| {});
        let mut search = TableSearch::new(&mut table)
            .with_reuse(Reuse::SameDepth)
            .with_distance(Checkers::distance_adjustment());
        let options = with_pvs(&SearchOptions::default());
        let with = iterative_deepening_with_table(&mut game, 6, &options, &mut search, |_| {});
        assert_eq!(values(&with), values(&plain), "{}", position.to_fen());
    }
}

#[test]
fn pvs_keeps_the_values_of_kalah_positions_with_extra_moves() {
    let mut random = SplitMix64::new(31);
    let mut moves = Vec::new();
    for round in 0..100 {
        let mut game = Kalah::new(6, 4, KalahRules::irving()).expect("a board");
        for _ in 0..random.below(20) {
            if game.is_terminal() {
                break;
            }
            moves.clear();
            game.successors(&mut moves);
            game.update(moves[random.index(moves.len())]);
        }
        let depth = 3 + round % 6;
        let plain = iterative_deepening(&mut game, depth, &SearchOptions::default(), |_| {});
        let options = with_pvs(&SearchOptions::default());
        let with = iterative_deepening(&mut game, depth, &options, |_| {});
        assert_eq!(values(&with), values(&plain), "round {round}");
    }
}
