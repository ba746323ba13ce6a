//! Quiescence (issues 15 and 20): at the horizon, a position that is not quiet (checkers: a
//! capture is forced) is searched on instead of evaluated. It must find the shots that a
//! plain search of the same depth walks past, alpha-beta with it must still be minimax
//! over the tree so extended, and m&n alpha-beta with it m&n minimaxing with it.

use gametree::games::checkers::{Move, Position};
use gametree::{
    Checkers, Evaluate, Exponents, FloatValued, Game, Player, Search, SearchOptions,
    SimpleTicTacToe, Slagle, SplitMix64, Window, depth_limited_value, iterative_deepening,
    mn_alphabeta_depth, mn_alphabeta_depth_quiescent, mn_minimax_depth_quiescent,
    play_random_moves,
};
use proptest::prelude::*;

/// The best move and value of iterative deepening to `depth` with `quiescence_plies`.
fn deepen(game: &mut Checkers, depth: u32, quiescence_plies: u32) -> (Move, i32) {
    let options = SearchOptions {
        quiescence_plies,
        ..SearchOptions::default()
    };
    let result = iterative_deepening(game, depth, &options, |_| {});
    (
        result.best_move.expect("the position has moves"),
        result.value.expect("the search completes"),
    )
}

/// Minimax with quiescence, written out plainly: the reference for alpha-beta.
fn quiescent_minimax<G: Evaluate<Value = i32>>(
    game: &mut G,
    depth: u32,
    used: u32,
    cap: u32,
) -> i32 {
    if game.is_terminal() {
        return game.value();
    }
    if depth == 0 && (used >= cap || game.is_quiet()) {
        return game.evaluate();
    }
    let mut moves = Vec::new();
    game.successors(&mut moves);
    let extending = u32::from(depth == 0);
    let values = moves.into_iter().map(|mv| {
        game.update(mv);
        let value = quiescent_minimax(game, depth.saturating_sub(1), used + extending, cap);
        game.revert(mv);
        value
    });
    let values: Vec<i32> = values.collect();
    match game.to_move() {
        Player::Max => values.into_iter().max(),
        Player::Min => values.into_iter().min(),
    }
    .unwrap_or_else(|| game.value())
}

/// A position from `plies` random moves from the start.
fn random_position(seed: u64, plies: usize) -> Checkers {
    let mut game = Checkers::new();
    play_random_moves(&mut game, plies, &mut SplitMix64::new(seed));
    game
}

#[test]
fn quiescence_finds_a_shot_that_plain_search_misses_at_the_same_depth() {
    // Black to move. 17-21 attacks White's men on 25 and 26, which cannot both be saved:
    // whatever White replies, Black then captures into White's back rank and crowns
    // (21x30). Two plies deep the plain search stops before that capture, values the
    // position where it stands and plays 7-10; with quiescence the capture that Black is
    // then forced to make is searched, and 17-21 is found.
    let fen = "B:W19,22,23,25,26,27:B5,7,8,11,12,13,17";
    let mut game = Checkers::from_position(Position::from_fen(fen).expect("valid FEN"));
    let shot = game.position().parse_move("17-21").expect("legal");
    let (plain, _) = deepen(&mut game, 2, 0);
    let (quiet, _) = deepen(&mut game, 2, 16);
    assert_ne!(plain, shot, "the plain search does not see the shot");
    assert_eq!(quiet, shot, "quiescence finds it");
    // And it is the better move: searched 8 plies deeper (with quiescence) after each,
    // the shot is worth more to Black (MAX) than the plain search's move.
    let deep_value = |game: &mut Checkers, mv: Move| {
        game.update(mv);
        let (_, value) = deepen(game, 8, 16);
        game.revert(mv);
        value
    };
    assert!(deep_value(&mut game, shot) > deep_value(&mut game, plain));
}

#[test]
fn quiescence_keeps_a_search_from_walking_into_a_shot() {
    // White to move. Plain search at two plies plays 28-24, after which Black wins by
    // force; with quiescence White sees the captures that follow and keeps the game.
    let fen = "W:W15,22,28:B1,2,4,6,14,K30";
    let mut game = Checkers::from_position(Position::from_fen(fen).expect("valid FEN"));
    let losing = game.position().parse_move("28-24").expect("legal");
    let (plain, _) = deepen(&mut game, 2, 0);
    let (quiet, _) = deepen(&mut game, 2, 16);
    assert_eq!(plain, losing);
    assert_ne!(quiet, losing);
}

#[test]
fn without_quiescence_nothing_changes_and_quiet_games_ignore_it() {
    for seed in 0..20 {
        let mut game = random_position(seed, 12);
        let plain = depth_limited_value(&mut game, 3, Window::full()).value;
        let options = SearchOptions::plain();
        let deepened = iterative_deepening(&mut game, 3, &options, |_| {});
        assert_eq!(deepened.value, Some(plain));
    }
    // Tic-tac-toe says nothing of quiet positions: the cap changes nothing.
    let mut game = SimpleTicTacToe::new();
    for depth in 1..=4 {
        let off = Search::new(&mut game).depth(depth).run();
        let on = Search::new(&mut game).depth(depth).quiescence(8).run();
        assert_eq!((off.value, off.stats.nodes), (on.value, on.stats.nodes));
    }
}

#[test]
fn the_extension_is_capped() {
    // After the shot 17-21 and White's 23-18, Black must capture (21x30): not quiet. A cap
    // of 0 evaluates the position where it stands; a cap of 16 follows the capture, and
    // the value changes.
    let fen = "B:W19,22,23,25,26,27:B5,7,8,11,12,13,17";
    let mut game = Checkers::from_position(Position::from_fen(fen).expect("valid FEN"));
    let plain = depth_limited_value(&mut game, 1, Window::full()).value;
    let options = SearchOptions {
        quiescence_plies: 0,
        ..SearchOptions::default()
    };
    assert_eq!(
        iterative_deepening(&mut game, 1, &options, |_| {}).value,
        Some(plain)
    );
    for text in ["17-21", "23-18"] {
        let mv = game.position().parse_move(text).expect("legal");
        game.update(mv);
    }
    assert!(!game.is_quiet());
    assert_eq!(quiescent_minimax(&mut game, 0, 0, 0), game.evaluate());
    assert_ne!(quiescent_minimax(&mut game, 0, 0, 16), game.evaluate());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Alpha-beta with quiescence (iterative deepening, its move orderings, with and
    /// without killers) is minimax over the tree that quiescence extends.
    #[test]
    fn alpha_beta_with_quiescence_is_quiescent_minimax(
        seed in any::<u64>(),
        plies in 0usize..40,
        depth in 1u32..=3,
        cap in 0u32..=6,
        killers in any::<bool>(),
    ) {
        let mut game = random_position(seed, plies);
        prop_assume!(!game.is_terminal());
        let expected = quiescent_minimax(&mut game, depth, 0, cap);
        let options = SearchOptions {
            quiescence_plies: cap,
            use_killers: killers,
            ..SearchOptions::default()
        };
        let result = iterative_deepening(&mut game, depth, &options, |_| {});
        prop_assert_eq!(result.value, Some(expected));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// m&n alpha-beta with quiescence chooses the move of m&n minimaxing with it, with the
    /// same value (1&1 and 2&2, monotone or not), and 1&1 with quiescence is alpha-beta's
    /// quiescent minimax.
    #[test]
    fn m_and_n_alpha_beta_with_quiescence_is_m_and_n_minimaxing_with_it(
        seed in any::<u64>(),
        plies in 0usize..40,
        depth in 1u32..=3,
        cap in 0u32..=4,
        shift in -2.0f64..4.0,
        slope in 0.01f64..0.5,
    ) {
        let checkers = random_position(seed, plies);
        prop_assume!(!checkers.is_terminal());
        let exponents = Exponents::new(shift, slope).expect("valid exponents");
        for backing in [
            Slagle::new(1, 1, exponents, exponents).expect("1&1"),
            Slagle::new(2, 2, exponents, exponents).expect("2&2"),
        ] {
            let full = mn_minimax_depth_quiescent(&mut FloatValued(checkers.clone()), &backing, depth, cap);
            let pruned =
                mn_alphabeta_depth_quiescent(&mut FloatValued(checkers.clone()), &backing, depth, cap);
            prop_assert_eq!(pruned.value, full.value);
            prop_assert_eq!(pruned.best_move, full.best_move);
        }
        let one_and_one = Slagle::one_and_one();
        let found = mn_alphabeta_depth_quiescent(&mut FloatValued(checkers.clone()), &one_and_one, depth, cap);
        let mut game = checkers;
        // The root's value is its chosen successor's: the quiescent minimax value.
        prop_assert_eq!(found.value, f64::from(quiescent_minimax(&mut game, depth, 0, cap)));
    }
}

#[test]
fn m_and_n_with_quiescence_finds_the_shot_too() {
    let fen = "B:W19,22,23,25,26,27:B5,7,8,11,12,13,17";
    let game = Checkers::from_position(Position::from_fen(fen).expect("valid FEN"));
    let shot = game.position().parse_move("17-21").expect("legal");
    let one_and_one = Slagle::one_and_one();
    let plain = mn_alphabeta_depth(&mut FloatValued(game.clone()), &one_and_one, 2);
    let quiet = mn_alphabeta_depth_quiescent(&mut FloatValued(game), &one_and_one, 2, 16);
    assert_ne!(plain.best_move, Some(shot));
    assert_eq!(quiet.best_move, Some(shot));
}
