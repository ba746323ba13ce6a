//! Iterative deepening on several threads sharing one lock-free table
//! (`parallel_deepening`, Lazy SMP) against the same deepening on one thread: with
//! `Reuse::SameDepth` every iteration's value must be the serial one, whatever the
//! threads' timing, on hundreds of random checkers positions (draw rules off, as the
//! table's conditions ask) and from the start; and the moves the table keeps by their
//! places must give back the serial search's node counts on one thread.

mod common;

use common::{NO_DRAW_RULES, iteration_values as values, random_checkers_positions};
use gametree::games::checkers::Checkers;
use gametree::search::shared_table::SharedTable;
use gametree::{
    Reuse, SearchOptions, SharedTableSearch, StopReason, StopSignal, TableSearch,
    TranspositionTable, iterative_deepening, iterative_deepening_with_table, parallel_deepening,
};

#[test]
fn two_and_three_threads_give_every_iteration_the_serial_value_on_two_hundred_checkers_positions() {
    // One table for all positions, as a program keeps it from move to move: entries are
    // stored relative to their position.
    let table = SharedTable::growing(8 << 20, 8 << 20);
    let options = SearchOptions {
        quiescence_plies: 4,
        ..SearchOptions::default()
    };
    let mut helpers_nodes = 0;
    for (index, position) in random_checkers_positions(200, 17).into_iter().enumerate() {
        let mut game = Checkers::from_position(position).with_rules(NO_DRAW_RULES);
        let depth = 3 + (index % 4) as u32;
        let serial = iterative_deepening(&mut game, depth, &options, |_| {});
        let threads = 2 + index % 2;
        let mut search = SharedTableSearch::new(&table)
            .with_reuse(Reuse::SameDepth)
            .with_distance(Checkers::distance_adjustment());
        let parallel = parallel_deepening(&mut game, depth, &options, threads, &mut search, |_| {});
        assert_eq!(
            values(&parallel),
            values(&serial),
            "{} to depth {depth} on {threads} threads",
            position.to_fen()
        );
        assert_eq!(parallel.stop, serial.stop, "{}", position.to_fen());
        assert_eq!(game.position(), &position, "the game is given back");
        let calling: u64 = parallel.iterations.iter().map(|it| it.stats.nodes).sum();
        helpers_nodes += parallel.stats.nodes - calling;
    }
    assert!(helpers_nodes > 0, "the helpers searched");
}

#[test]
fn the_shared_table_on_one_thread_searches_as_the_serial_table_of_the_same_size() {
    // Moves kept by their places in the successor list are the moves a table of moves
    // keeps: the same search, position for position, when both tables hold every entry.
    let options = SearchOptions::default();
    for position in random_checkers_positions(20, 3) {
        let mut game = Checkers::from_position(position).with_rules(NO_DRAW_RULES);
        let mut table = TranspositionTable::with_buckets(1 << 14);
        let mut serial_search = TableSearch::new(&mut table)
            .with_reuse(Reuse::SameDepth)
            .with_distance(Checkers::distance_adjustment());
        let serial =
            iterative_deepening_with_table(&mut game, 6, &options, &mut serial_search, |_| {});
        let shared = SharedTable::growing(1 << 20, 1 << 20);
        let mut search = SharedTableSearch::new(&shared)
            .with_reuse(Reuse::SameDepth)
            .with_distance(Checkers::distance_adjustment());
        let parallel = parallel_deepening(&mut game, 6, &options, 1, &mut search, |_| {});
        assert_eq!(values(&parallel), values(&serial), "{}", position.to_fen());
        assert_eq!(
            parallel.stats.nodes,
            serial.stats.nodes,
            "{}",
            position.to_fen()
        );
        assert_eq!(
            parallel.best_move,
            serial.best_move,
            "{}",
            position.to_fen()
        );
    }
}

#[test]
fn four_threads_give_the_serial_values_from_the_start_of_the_game_to_depth_eight() {
    let mut game = Checkers::new().with_rules(NO_DRAW_RULES);
    let options = SearchOptions::default();
    let serial = iterative_deepening(&mut game, 8, &options, |_| {});
    let table = SharedTable::growing(4 << 20, 4 << 20);
    let mut search = SharedTableSearch::new(&table)
        .with_reuse(Reuse::SameDepth)
        .with_distance(Checkers::distance_adjustment());
    let parallel = parallel_deepening(&mut game, 8, &options, 4, &mut search, |_| {});
    assert_eq!(values(&parallel), values(&serial));
    assert_eq!(parallel.depth, 8);
}

#[test]
fn a_stop_signal_stops_the_calling_thread_and_its_helpers() {
    let mut game = Checkers::new();
    let stop = StopSignal::new();
    stop.stop();
    let options = SearchOptions {
        stop: Some(stop),
        ..SearchOptions::default()
    };
    let table = SharedTable::growing(1 << 20, 1 << 20);
    let mut search = SharedTableSearch::new(&table);
    // Raised before the search: it ends at once, with the fallback move, and the scope's
    // join returns (the helpers stopped too).
    let result = parallel_deepening(&mut game, 60, &options, 2, &mut search, |_| {});
    assert_eq!(result.stop, StopReason::Stopped);
    assert!(result.best_move.is_some());
}
