//! Move ordering for m&n alpha-beta (issue 15, "a fair baseline"): killers and the history
//! heuristic below the root change how much of the tree the search examines, never the
//! move it chooses or its value, for 1&1 and 2&2 alike.

use gametree::{
    BackingUp, Checkers, Exponents, FloatValued, Game, MnOrdering, Slagle, SplitMix64,
    mn_alphabeta_depth_ordered, mn_alphabeta_depth_quiescent, play_random_moves,
};
use proptest::prelude::*;

/// A position from `plies` random moves from the start.
fn random_position(seed: u64, plies: usize) -> Checkers {
    let mut game = Checkers::new();
    play_random_moves(&mut game, plies, &mut SplitMix64::new(seed));
    game
}

/// 1&1 and a monotone 2&2 (y·2^x·ln 2 = 0.35) and one that is not (x = 3, y = 1).
fn backings() -> [Slagle; 3] {
    let monotone = Exponents::new(1.0, 0.25).expect("valid exponents");
    let steep = Exponents::new(3.0, 1.0).expect("valid exponents");
    [
        Slagle::one_and_one(),
        Slagle::new(2, 2, monotone, monotone).expect("2&2"),
        Slagle::new(2, 2, steep, steep).expect("2&2"),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Every ordering chooses the move and value of the game's order.
    #[test]
    fn ordering_changes_neither_the_move_nor_the_value(
        seed in any::<u64>(),
        plies in 0usize..50,
        depth in 1u32..=4,
        cap in 0u32..=4,
        killers in any::<bool>(),
        history in any::<bool>(),
    ) {
        let checkers = random_position(seed, plies);
        prop_assume!(!checkers.is_terminal());
        for backing in backings() {
            let plain =
                mn_alphabeta_depth_quiescent(&mut FloatValued(checkers.clone()), &backing, depth, cap);
            let ordered = mn_alphabeta_depth_ordered(
                &mut FloatValued(checkers.clone()),
                &backing,
                depth,
                cap,
                MnOrdering { killers, history },
            );
            prop_assert_eq!(ordered.value, plain.value);
            prop_assert_eq!(ordered.best_move, plain.best_move);
        }
    }
}

#[test]
fn no_ordering_is_the_game_order_node_for_node() {
    let checkers = random_position(7, 12);
    for backing in backings() {
        let plain =
            mn_alphabeta_depth_quiescent(&mut FloatValued(checkers.clone()), &backing, 5, 4);
        let none = mn_alphabeta_depth_ordered(
            &mut FloatValued(checkers.clone()),
            &backing,
            5,
            4,
            MnOrdering::NONE,
        );
        assert_eq!(none.stats.nodes, plain.stats.nodes);
    }
}

#[test]
fn killers_and_history_examine_fewer_positions_over_many_positions() {
    // Summed over 40 middle-game positions at depth 6: an ordering may lose on one
    // position, but it must pay on the whole, for 1&1 and for 2&2.
    for backing in &backings()[..2] {
        let (mut plain_nodes, mut ordered_nodes) = (0, 0);
        for seed in 0..40 {
            let checkers = random_position(seed, 10 + usize::try_from(seed % 20).expect("small"));
            if checkers.is_terminal() {
                continue;
            }
            plain_nodes +=
                mn_alphabeta_depth_quiescent(&mut FloatValued(checkers.clone()), backing, 6, 8)
                    .stats
                    .nodes;
            ordered_nodes += mn_alphabeta_depth_ordered(
                &mut FloatValued(checkers),
                backing,
                6,
                8,
                MnOrdering::KILLERS_AND_HISTORY,
            )
            .stats
            .nodes;
        }
        assert!(
            ordered_nodes < plain_nodes,
            "ordered {ordered_nodes} against {plain_nodes}"
        );
        eprintln!(
            "{}&{}: {ordered_nodes} positions ordered, {plain_nodes} in the game's order",
            backing.count(gametree::Player::Max),
            backing.count(gametree::Player::Min)
        );
    }
}
