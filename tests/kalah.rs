//! Kalah: the solver's values against plain minimax on small boards under both rule sets,
//! and `gametree kalah` through the real binary.

mod common;

use gametree::games::kalah::{Ending, Kalah, KalahRules, random_position};
use gametree::{Game, SolveOptions, Solver, SplitMix64, Window, alphabeta_value, minimax};

use common::{assert_usage_error_of, gametree, json};

fn every_rule_set() -> [KalahRules; 3] {
    [
        KalahRules::irving(),
        KalahRules::standard(),
        KalahRules {
            ending: Ending::MoverHasNoSeeds,
            ..KalahRules::irving()
        },
    ]
}

#[test]
fn the_solver_agrees_with_minimax_on_every_small_start() {
    for rules in every_rule_set() {
        for houses in 1..=3 {
            // Kalah(3,3)'s whole tree takes plain minimax seconds per rule set.
            for seeds in 1..=(if houses == 3 { 2 } else { 3 }) {
                let mut game = Kalah::new(houses, seeds, rules).expect("a board");
                let exact = minimax(&mut game).value;
                let mut solver = Solver::new(SolveOptions::default());
                let solved = solver.solve(&mut game);
                assert_eq!(solved.value, exact, "Kalah({houses},{seeds}) {rules:?}");
                // Every move's value too, and the best of them is the root's.
                let moves = solver.analyze(&mut game);
                let mut best = None::<i32>;
                for (mv, solution) in moves {
                    game.update(mv);
                    assert_eq!(solution.value, minimax(&mut game).value);
                    game.revert(mv);
                    let better = match (best, game.to_move()) {
                        (None, _) => true,
                        (Some(old), gametree::Player::Max) => solution.value > old,
                        (Some(old), gametree::Player::Min) => solution.value < old,
                    };
                    if better {
                        best = Some(solution.value);
                    }
                }
                assert_eq!(best.unwrap_or(exact), exact);
            }
        }
    }
}

#[test]
fn the_solver_agrees_with_minimax_on_random_positions_of_larger_boards() {
    let mut random = SplitMix64::new(16);
    for rules in every_rule_set() {
        for _ in 0..60 {
            // Kalah(4,2) a few moves in: small enough for plain minimax.
            let plies = 6 + random.index(10);
            let mut game = random_position(4, 2, rules, plies, &mut random);
            let exact = minimax(&mut game).value;
            let mut solver = Solver::new(SolveOptions::default());
            assert_eq!(solver.solve(&mut game).value, exact, "{game}");
            let weak = Solver::new(SolveOptions {
                weak: true,
                ..SolveOptions::default()
            })
            .solve(&mut game);
            assert_eq!(weak.value, exact.signum(), "{game}");
        }
    }
}

#[test]
fn the_best_moves_are_those_whose_successors_keep_the_value() {
    let mut random = SplitMix64::new(61);
    for rules in every_rule_set() {
        for weak in [false, true] {
            for _ in 0..40 {
                let plies = 8 + random.index(8);
                let mut game = random_position(4, 2, rules, plies, &mut random);
                if game.is_over() {
                    continue;
                }
                let mut solver = Solver::new(SolveOptions {
                    weak,
                    ..SolveOptions::default()
                });
                let value = solver.solve(&mut game).value;
                let (best, _) = solver.best_moves(&mut game, value);
                // By minimax, one successor at a time, with the players asked afresh.
                let mut moves = Vec::new();
                game.successors(&mut moves);
                let expected: Vec<u8> = moves
                    .into_iter()
                    .filter(|&mv| {
                        game.update(mv);
                        let after = minimax(&mut game).value;
                        game.revert(mv);
                        if weak {
                            after.signum() == value
                        } else {
                            after == value
                        }
                    })
                    .collect();
                assert_eq!(best, expected, "{game} (weak: {weak})");
            }
        }
    }
}

#[test]
fn an_endgame_table_leaves_every_value_as_it_was() {
    let rules = KalahRules::irving();
    let mut board = Kalah::new(4, 1, rules).expect("a board");
    let table = std::sync::Arc::new(
        gametree::search::retrograde::EndgameTable::build(&mut board, 12, |_| {}).expect("built"),
    );
    let mut random = SplitMix64::new(62);
    for _ in 0..40 {
        let plies = 2 + random.index(12);
        let mut game = random_position(4, 3, rules, plies, &mut random);
        let exact = Solver::new(SolveOptions::default()).solve(&mut game).value;
        let mut probed = game
            .clone()
            .with_endgame(std::sync::Arc::clone(&table))
            .expect("the same rules");
        assert_eq!(
            Solver::new(SolveOptions::default())
                .solve(&mut probed)
                .value,
            exact,
            "{game}"
        );
    }
}

#[test]
fn solve_prints_the_value_and_the_best_moves() {
    // Kalah(4,3) under Irving's rules: South wins by 8, as alpha-beta in the full window
    // (equal to minimax, tests/repeated_movers.rs) finds too.
    let result = json(&gametree(&[
        "kalah", "solve", "--houses", "4", "--seeds", "3", "--json",
    ]));
    assert_eq!(result["value"], 8);
    assert_eq!(result["position"], "3,3,3,3,0,3,3,3,3,0,S");
    let mut game = Kalah::new(4, 3, KalahRules::irving()).expect("a board");
    assert_eq!(alphabeta_value(&mut game, Window::full()).value, 8);
    let best: Vec<u64> = result["best_moves"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|mv| mv.as_u64().expect("a house"))
        .collect();
    assert!(!best.is_empty());
    for house in best {
        let mut after = game.clone();
        after
            .play(usize::try_from(house).expect("small"))
            .expect("legal");
        assert_eq!(alphabeta_value(&mut after, Window::full()).value, 8);
    }
}

#[test]
fn positions_and_moves_are_read_and_bad_ones_refused() {
    let from_moves = json(&gametree(&[
        "kalah", "solve", "--houses", "3", "--seeds", "2", "--moves", "3", "--json",
    ]));
    let from_position = json(&gametree(&[
        "kalah",
        "solve",
        "--position",
        "2,2,0,1,3,2,2,0,N",
        "--json",
    ]));
    assert_eq!(from_moves["position"], "2,2,0,1,3,2,2,0,N");
    assert_eq!(from_moves["value"], from_position["value"]);
    assert_usage_error_of(
        &["kalah", "solve", "--moves", "3,x"],
        "--moves: move 2 (\"x\") is not a house number",
    );
    assert_usage_error_of(
        &["kalah", "solve", "--houses", "3", "--moves", "4"],
        "--moves: move 1: there is no house 4",
    );
    assert_usage_error_of(
        &["kalah", "solve", "--position", "1,2,0,1,1,0,X"],
        "field 7 (\"X\") must be S or N",
    );
    assert_usage_error_of(
        &["kalah", "solve", "--position", "1,2,0,1,1,S"],
        "a board has 2·h + 2 pits",
    );
    assert_usage_error_of(
        &["kalah", "solve", "--houses", "7"],
        "houses must be 1 to 6",
    );
    assert_usage_error_of(
        &["kalah", "analyze", "--position", "0,0,5,1,0,3,S"],
        "the game is over",
    );
}

/// Kalah(h, s) under Irving's rules, as Irving's own solver (github.com/girving/kalah,
/// built here with the number of houses changed in its params.h) values them, and an
/// independent memoised brute force where it finished: every size both solve in well
/// under a second. Kalah(6,4) = 10 is the published value of Irving, Donkers and
/// Uiterwijk, "Solving Kalah" (ICGA Journal 23(3), 2000).
#[test]
fn the_solved_table_matches_irvings_solver() {
    let table: [(usize, &[i32]); 6] = [
        (1, &[0, -2, 6, -2, 2, 0]),
        (2, &[2, -2, -2, -12, 6, 8]),
        (3, &[0, 4, 2, 2, 6, -10]),
        (4, &[2, 6, 8]),
        (5, &[0, 0, 8]),
        (6, &[2, 10]),
    ];
    for (houses, values) in table {
        for (index, &expected) in values.iter().enumerate() {
            let seeds = u8::try_from(index + 1).expect("small");
            let mut game = Kalah::new(houses, seeds, KalahRules::irving()).expect("a board");
            let value = Solver::new(SolveOptions::default()).solve(&mut game).value;
            assert_eq!(value, expected, "Kalah({houses},{seeds})");
        }
    }
}

/// Kalah(6,4) = 10 (Irving et al. 2000), on one thread and on two, with a 21-seed endgame
/// table; its one best move (house 3, which gives another move) and the value of every
/// opening move as `gametree kalah analyze` finds them (docs/kalah.md). A few minutes on
/// the project's machine, so run by hand (`cargo test --release -- --ignored`).
#[test]
#[ignore = "minutes of search and a 226 MB endgame table"]
fn kalah_6_4_is_a_first_player_win_by_10() {
    let board = Kalah::new(6, 1, KalahRules::irving()).expect("a board");
    let table = gametree::search::retrograde::EndgameTable::build_parallel(&board, 21, 2, |_| {})
        .expect("built");
    let mut game = Kalah::new(6, 4, KalahRules::irving())
        .expect("a board")
        .with_endgame(std::sync::Arc::new(table))
        .expect("the same rules");
    let options = SolveOptions {
        enhanced_transposition_cutoffs: false,
        ..SolveOptions::default()
    };
    let mut solver = Solver::new(options);
    assert_eq!(solver.solve(&mut game).value, 10);
    assert_eq!(solver.best_moves(&mut game, 10).0, vec![2]);
    assert_eq!(Solver::new(options).solve_parallel(&mut game, 2).value, 10);
    let openings: Vec<(u8, i32)> = solver
        .analyze(&mut game)
        .into_iter()
        .map(|(mv, solution)| (mv, solution.value))
        .collect();
    let mut by_house = openings.clone();
    by_house.sort_unstable();
    assert_eq!(
        by_house,
        vec![(0, -14), (1, -8), (2, 10), (3, -2), (4, -6), (5, 4)]
    );
}
