//! The iteration a budget cuts short (`DeepeningResult::partial`, issue 20): when it had
//! finished the previous best move and then found a better one, that move is played. It
//! must be better at the deeper depth than the move it replaces, its value must be that
//! move's exact value at that depth, and without such a find the last completed iteration
//! must decide as before.

use gametree::games::checkers::Move;
use gametree::{
    Checkers, Game, Player, SearchOptions, SplitMix64, Window, depth_limited_value,
    iterative_deepening, play_random_moves,
};

/// The value at `depth` of the position after `mv`, seen from the root: the move's own
/// value in a search of the root to `depth + 1`.
fn value_after(game: &mut Checkers, mv: Move, depth: u32) -> i32 {
    game.update(mv);
    let value = depth_limited_value(game, depth, Window::full()).value;
    game.revert(mv);
    value
}

#[test]
fn a_cut_short_iteration_plays_a_move_better_at_its_depth_than_the_one_it_replaces() {
    let mut rng = SplitMix64::new(20);
    let (mut partials, mut searches) = (0, 0);
    for position in 0..40 {
        let mut game = Checkers::new();
        play_random_moves(&mut game, 6 + position % 20, &mut rng);
        if game.is_terminal() {
            continue;
        }
        // Budgets that stop the search at many places in its deeper iterations.
        for max_nodes in [300, 700, 1500, 3000, 6000, 12_000] {
            let options = SearchOptions {
                max_nodes: Some(max_nodes),
                ..SearchOptions::default()
            };
            let result = iterative_deepening(&mut game, 30, &options, |_| {});
            searches += 1;
            let Some(last) = result.iterations.last() else {
                assert!(result.partial.is_none());
                continue;
            };
            let Some(partial) = &result.partial else {
                assert_eq!(
                    result.best_move, last.best_move,
                    "no find: the last depth decides"
                );
                continue;
            };
            partials += 1;
            let better = partial.best_move.expect("a partial iteration has its move");
            let replaced = last.best_move.expect("the last iteration had a move");
            assert_eq!(result.best_move, Some(better));
            assert_ne!(better, replaced);
            assert_eq!(partial.depth, last.depth + 1);
            assert_eq!(partial.principal_line.first(), Some(&better));
            // Its value is the move's own at that depth, and the move it replaces is worse
            // for the side to move at the same depth.
            let depth = partial.depth - 1;
            assert_eq!(value_after(&mut game, better, depth), partial.value);
            let replaced_value = value_after(&mut game, replaced, depth);
            match game.to_move() {
                Player::Max => assert!(replaced_value < partial.value),
                Player::Min => assert!(replaced_value > partial.value),
            }
            // The root's value at that depth is at least as good as the move's.
            let root = depth_limited_value(&mut game, partial.depth, Window::full()).value;
            match game.to_move() {
                Player::Max => assert!(root >= partial.value),
                Player::Min => assert!(root <= partial.value),
            }
        }
    }
    // The case must occur for the test to say anything: 18 of these 240 searches end so.
    assert!(
        partials >= 10,
        "{partials} partial iterations in {searches} searches"
    );
}

#[test]
fn a_budget_that_ends_in_the_first_move_keeps_the_last_completed_choice() {
    // A budget too small for even depth 2's first move: depth 1 takes 8 positions (the
    // start and its 7 moves), depth 2's first move 9 more (it and the 7 replies), so 12
    // stops inside it, the case where the cut-short depth has finished nothing.
    let mut game = Checkers::new();
    let options = SearchOptions {
        max_nodes: Some(12),
        ..SearchOptions::default()
    };
    let result = iterative_deepening(&mut game, 30, &options, |_| {});
    assert!(result.partial.is_none());
    assert_eq!(
        result.best_move,
        result
            .iterations
            .last()
            .and_then(|iteration| iteration.best_move)
    );
}

#[test]
fn the_plain_options_never_play_a_cut_short_iteration() {
    // `SearchOptions::plain`, which the experiments' budgeted players use, keeps every
    // iteration exactly `depth_limited_line`: the last completed one decides.
    let mut rng = SplitMix64::new(21);
    for position in 0..20 {
        let mut game = Checkers::new();
        play_random_moves(&mut game, 6 + position % 20, &mut rng);
        if game.is_terminal() {
            continue;
        }
        for max_nodes in [700, 3000, 12_000] {
            let options = SearchOptions {
                max_nodes: Some(max_nodes),
                ..SearchOptions::plain()
            };
            let result = iterative_deepening(&mut game, 30, &options, |_| {});
            assert!(result.partial.is_none());
            if let Some(last) = result.iterations.last() {
                assert_eq!(result.best_move, last.best_move);
            }
        }
    }
}
