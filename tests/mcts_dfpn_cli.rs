//! `--engine mcts`, `connect4 prove` and `tree prove` through the real binary: the move and
//! what the engine searched in JSON, the same move for the same seed, df-pn's values against
//! the solver's, and bad input refused with exit status 2.

#![cfg(feature = "cli")]

mod common;

use common::{assert_usage_error_of, gametree, json, stderr, stdout, tree};
use serde_json::json as value;

#[test]
fn ttt_best_by_mcts_prints_the_move_and_the_search_and_repeats_for_a_seed() {
    let args = [
        "ttt",
        "best",
        "--moves",
        "5",
        "--engine",
        "mcts",
        "--playouts",
        "3000",
        "--seed",
        "4",
        "--json",
    ];
    let first = json(&gametree(&args));
    assert_eq!(first["engine"], value!("mcts"));
    assert_eq!(first["search"]["playouts"], value!(3000));
    let square = first["move"].as_u64().expect("a square");
    assert!((1..=9).contains(&square) && square != 5);
    let visits: u64 = first["search"]["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|statistics| statistics["visits"].as_u64().expect("visits"))
        .sum();
    assert_eq!(visits, 3000);
    let again = json(&gametree(&args));
    assert_eq!(first["search"]["moves"], again["search"]["moves"]);
}

#[test]
fn ttt_best_by_alpha_beta_keeps_the_draw() {
    let result = json(&gametree(&["ttt", "best", "--moves", "5,1", "--json"]));
    assert_eq!(result["engine"], value!("alphabeta"));
    assert_eq!(result["value"], value!(0));
    assert!(result["move"].is_u64());
}

#[test]
fn connect4_best_by_mcts_takes_the_win_in_one() {
    let result = json(&gametree(&[
        "connect4",
        "best",
        "112233",
        "--engine",
        "mcts",
        "--playouts",
        "5000",
        "--json",
    ]));
    assert_eq!(result["move"], value!(4));
    assert_eq!(result["moves"], value!("112233"));
}

#[test]
fn connect4_best_takes_a_win_at_once_without_solving_the_other_columns() {
    // The first player wins on column 4 with their fourth stone: (42 + 1 - 6) / 2 = 18,
    // exact even when the other columns could not be solved within the budget.
    let result = json(&gametree(&[
        "connect4",
        "best",
        "112233",
        "--max-nodes",
        "1",
        "--json",
    ]));
    assert_eq!(result["move"], value!(4));
    assert_eq!(result["score"], value!(18));
}

#[test]
fn a_time_over_before_the_first_playout_still_gives_a_move() {
    for args in [
        &["ttt", "best", "--engine", "mcts", "--time", "1e-9"][..],
        &[
            "connect4", "best", "4455", "--engine", "mcts", "--time", "1e-9",
        ][..],
        &[
            "kalah", "best", "--houses", "3", "--seeds", "3", "--engine", "mcts", "--time", "1e-9",
        ][..],
        &["checkers", "best", "--engine", "mcts", "--time", "1e-9"][..],
    ] {
        let output = gametree(args);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&output)
        );
        let text = stdout(&output);
        assert!(!text.contains("none"), "{args:?}: {text}");
    }
}

#[test]
fn checkers_best_refuses_a_game_that_is_over() {
    // Black to move with no piece left, and then with pieces but no move.
    assert_usage_error_of(
        &["checkers", "best", "--fen", "B:W18"],
        "the game is over (won by White: Black has no move): there is no move to choose",
    );
    assert_usage_error_of(
        &["checkers", "best", "--engine", "mcts", "--fen", "W:B14"],
        "the game is over (won by Black: White has no move)",
    );
}

#[test]
fn connect4_prove_agrees_with_weak_solving() {
    for moves in [
        "5554224333234511764415115",
        "52753311433677442422121",
        "2252576253462244111563365343671351441",
        "44444333312",
    ] {
        let proved = json(&gametree(&["connect4", "prove", moves, "--json"]));
        let solved = json(&common::gametree_with_input(
            &["connect4", "solve", "--weak", "--json"],
            &format!("{moves}\n"),
        ));
        assert_eq!(proved["value"], solved["score"], "{moves}");
        assert!(proved["nodes"].as_u64().expect("nodes") > 0);
    }
}

#[test]
fn connect4_prove_out_of_budget_exits_1_with_a_null_value() {
    let output = gametree(&["connect4", "prove", "--max-nodes", "100", "--json"]);
    assert_eq!(output.status.code(), Some(1));
    let result: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(result["value"], serde_json::Value::Null);
}

#[test]
fn tree_prove_prints_a_proof_or_a_refutation() {
    let proven = json(&tree(
        &["prove", "--at-least", "3", "--json"],
        "((3 5) (2 9))",
    ));
    assert_eq!(proven["outcome"], value!("proven"));
    assert_eq!(proven["proof"], value!([1, [2, 5], [1, 3]]));
    assert_eq!(proven["refutation"], serde_json::Value::Null);
    let disproven = json(&tree(
        &["prove", "--at-least", "4", "--json"],
        "((3 5) (2 9))",
    ));
    assert_eq!(disproven["outcome"], value!("disproven"));
    assert_eq!(disproven["refutation"], value!({"at_most": 3}));
    let text = stdout(&tree(&["prove"], "((1 -1) (-1 1))"));
    assert!(
        text.contains("outcome: disproven\nrefutation: value ≤ -1\n"),
        "{text}"
    );
}

#[test]
fn bad_engine_flags_are_refused() {
    assert_usage_error_of(
        &["ttt", "best", "--seed", "3"],
        "--playouts, --time and --seed apply to --engine mcts",
    );
    assert_usage_error_of(
        &["connect4", "best", "--engine", "mcts", "--playouts", "0"],
        "--playouts 0: the search needs at least one playout",
    );
    assert_usage_error_of(
        &["ttt", "play", "--engine", "mcts", "--time=-1"],
        "--time -1: expected a number of seconds above 0",
    );
    assert_usage_error_of(&["ttt", "best", "--moves", "1,4,2,5,3"], "the game is over");
    assert_usage_error_of(
        &["tree", "minimax", "--at-most", "1", "(1 2)"],
        "apply to prove",
    );
}

#[test]
fn checkers_best_by_mcts_reports_its_playouts_and_repeats_for_a_seed() {
    let args = [
        "checkers",
        "best",
        "--engine",
        "mcts",
        "--playouts",
        "2000",
        "--seed",
        "9",
        "--json",
    ];
    let first = json(&gametree(&args));
    assert_eq!(first["algorithm"], value!("mcts"));
    assert_eq!(first["playouts"], value!(2000));
    assert!(first["best_move"].is_string());
    let again = json(&gametree(&args));
    assert_eq!(first["best_move"], again["best_move"]);
    assert_eq!(first["nodes"], again["nodes"]);
    assert_usage_error_of(
        &["checkers", "best", "--engine", "mcts", "--depth", "4"],
        "do not apply to --engine mcts",
    );
    assert_usage_error_of(
        &["checkers", "best", "--playouts", "10"],
        "--playouts and --seed apply to --engine mcts",
    );
}

#[test]
fn play_by_mcts_answers_every_move_to_the_end_of_input() {
    let output = common::gametree_with_input(
        &[
            "ttt",
            "play",
            "--side",
            "x",
            "--engine",
            "mcts",
            "--playouts",
            "2000",
        ],
        "5\n1\n3\n",
    );
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert!(text.contains("The computer (O) plays"), "{text}");
    let output = common::gametree_with_input(
        &[
            "connect4",
            "play",
            "--side",
            "first",
            "--width",
            "5",
            "--height",
            "4",
            "--engine",
            "mcts",
            "--playouts",
            "2000",
        ],
        "3\n3\n",
    );
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert!(text.contains("The computer (O) plays"), "{text}");
    assert!(text.contains("of 2000 playouts"), "{text}");
}

#[test]
fn kalah_best_by_alpha_beta_is_one_of_the_solvers_best_moves() {
    let args = ["--houses", "3", "--seeds", "3"];
    let solved = json(&gametree(
        &[&["kalah", "solve"][..], &args, &["--json"]].concat(),
    ));
    let best = json(&gametree(
        &[&["kalah", "best"][..], &args, &["--json"]].concat(),
    ));
    assert_eq!(best["engine"], value!("alphabeta"));
    assert_eq!(best["at_least"], solved["value"]);
    assert_eq!(best["at_most"], solved["value"]);
    let moves = solved["best_moves"].as_array().expect("best moves");
    assert!(moves.contains(&best["move"]), "{best} not among {moves:?}");
}

#[test]
fn kalah_best_by_mcts_prints_the_search_and_repeats_for_a_seed() {
    let args = [
        "kalah",
        "best",
        "--houses",
        "4",
        "--seeds",
        "3",
        "--engine",
        "mcts",
        "--playouts",
        "2000",
        "--seed",
        "7",
        "--json",
    ];
    let first = json(&gametree(&args));
    assert_eq!(first["engine"], value!("mcts"));
    let house = first["move"].as_u64().expect("a house");
    assert!((1..=4).contains(&house));
    let playouts = first["search"]["playouts"].as_u64().expect("playouts");
    assert!((1..=2000).contains(&playouts));
    let again = json(&gametree(&args));
    assert_eq!(again["move"], first["move"]);
    assert_eq!(again["search"]["moves"], first["search"]["moves"]);
}

#[test]
fn kalah_best_refuses_a_finished_game_and_mcts_flags_without_mcts() {
    assert_usage_error_of(
        &["kalah", "best", "--position", "0,0,5,0,0,3,N"],
        "the game is over",
    );
    assert_usage_error_of(
        &["kalah", "best", "--houses", "2", "--playouts", "10"],
        "apply to --engine mcts",
    );
}
