//! `gametree ttt` through the real binary: the seed's two examples printed exactly, the
//! options, the errors (one line on stderr, exit 2), and a game piped into `play`.

mod common;

use common::{
    EXAMPLE_1_TMAX, EXAMPLE_2_TMAX, assert_usage_error_of, gametree, gametree_with_input,
    normalized, success_stdout,
};

fn stdout_of(args: &[&str]) -> String {
    success_stdout(&gametree(args))
}

#[test]
fn line_of_example_1_is_printed_as_the_seed_prints_it() {
    // Seed 000, Example 1: lmax[p1, -1000, 1000] = (0 5 10 6 4 7 3 11).
    assert_eq!(
        stdout_of(&["ttt", "line", "--moves", "2,1"]),
        "(0 5 10 6 4 7 3 11)\n"
    );
}

#[test]
fn line_of_example_2_is_printed_as_the_seed_prints_it() {
    // Seed 000, Example 2: lmax[p1, -1000, 1000] = (3 11 6 7 5 10).
    assert_eq!(
        stdout_of(&["ttt", "line", "--moves", "3,1"]),
        "(3 11 6 7 5 10)\n"
    );
}

#[test]
fn proof_of_example_1_is_the_seeds_tmax_tree() {
    // Seed 000, Example 1: tmax[p1, -1000, 1000], as printed.
    let printed = stdout_of(&["ttt", "proof", "--moves", "2,1"]);
    assert_eq!(normalized(&printed), normalized(EXAMPLE_1_TMAX));
}

#[test]
fn proof_of_example_2_is_the_seeds_tmax_tree() {
    // Seed 000, Example 2: tmax[p1, -1000, 1000], as printed.
    let printed = stdout_of(&["ttt", "proof", "--moves", "3,1"]);
    assert_eq!(normalized(&printed), normalized(EXAMPLE_2_TMAX));
}

#[test]
fn count_adds_the_seeds_update_counts() {
    // Issue 3: the searches of Examples 1 and 2 make 114 and 39 updates.
    assert_eq!(
        stdout_of(&["ttt", "value", "--moves", "2,1", "--count"]),
        "0\ncount 114\n"
    );
    assert_eq!(
        stdout_of(&["ttt", "line", "--moves", "3,1", "--count"]),
        "(3 11 6 7 5 10)\ncount 39\n"
    );
}

#[test]
fn decimal_prints_squares_8_and_9_as_such() {
    assert_eq!(
        stdout_of(&["ttt", "line", "--moves", "2,1", "--decimal"]),
        "(0 5 8 6 4 7 3 9)\n"
    );
}

#[test]
fn json_gives_value_line_proof_and_count() {
    let line: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "ttt", "line", "--moves", "2,1", "--json", "--count",
    ]))
    .expect("json");
    assert_eq!(
        line,
        serde_json::json!({"value": 0, "line": [5, 8, 6, 4, 7, 3, 9], "count": 114})
    );
    let proof: serde_json::Value =
        serde_json::from_str(&stdout_of(&["ttt", "proof", "--moves", "3,1", "--json"]))
            .expect("json");
    assert_eq!(proof["value"], 3);
    // Seed 000, Example 2: pfmax (11 (6 7 (5 10 3))), squares in decimal.
    assert_eq!(
        proof["proof"]["pfmax"],
        serde_json::json!([9, [6, 7, [5, 8, 3]]])
    );
    assert_eq!(proof["proof"]["pfmin"].as_array().map(Vec::len), Some(7));
    let value: serde_json::Value =
        serde_json::from_str(&stdout_of(&["ttt", "value", "--json"])).expect("json");
    assert_eq!(value, serde_json::json!({"value": 0}));
}

#[test]
fn o_to_move_is_searched_with_the_min_programs() {
    // After X takes a corner O must take the centre; its main line ends in a draw.
    let printed = stdout_of(&["ttt", "line", "--moves", "1", "--decimal"]);
    assert!(printed.starts_with("(0 5 "), "{printed}");
    // After X on 1 and 2, O must answer on 3.
    assert!(stdout_of(&["ttt", "line", "--moves", "1,5,2"]).starts_with("(0 3 "));
}

#[test]
fn a_narrow_window_fails_high_with_beta() {
    // Example 2 is worth 3 to X; in the window (-1, 1) the search fails high with β = 1.
    assert_eq!(
        stdout_of(&["ttt", "value", "--moves", "3,1", "--window", "-1,1"]),
        "1\n"
    );
    assert_eq!(
        stdout_of(&["ttt", "value", "--moves", "3,1", "--window=-1,1"]),
        "1\n"
    );
}

#[test]
fn a_finished_game_is_its_own_value() {
    // X has three on the top row after 5 moves: imval = 10 − 5.
    assert_eq!(stdout_of(&["ttt", "line", "--moves", "1,4,2,5,3"]), "(5)\n");
}

#[test]
fn bad_moves_and_windows_are_one_line_errors_with_exit_status_2() {
    let cases: [(&[&str], &str); 9] = [
        (&["--moves", "1,10"], "move 2: square 10 is out of range"),
        (
            &["--moves", "5,5"],
            "move 2: square 5 is already taken by X",
        ),
        (
            &["--moves", "1,4,2,5,3,6"],
            "move 6: the game is over (X has won)",
        ),
        (&["--moves", "1,x"], "move 2 (\"x\") is not a square number"),
        (&["--moves", "-1"], "move 1 (\"-1\") is not a square number"),
        (&["--window", "1"], "--window \"1\": expected two integers"),
        (
            &["--window", "a,b"],
            "--window \"a,b\": expected two integers",
        ),
        (
            &["--window", "3,-3"],
            "alpha (3) must be less than beta (-3)",
        ),
        (&["--window", "5,5"], "alpha (5) must be less than beta (5)"),
    ];
    for (extra, message) in cases {
        let mut args = vec!["ttt", "line"];
        args.extend_from_slice(extra);
        assert_usage_error_of(&args, message);
    }
}

fn play(args: &[&str], input: &str) -> String {
    success_stdout(&gametree_with_input(args, input))
}

#[test]
fn play_against_the_computer_from_piped_input() {
    // The person plays X and blunders; the computer (O) wins.
    let transcript = play(&["ttt", "play", "--as", "x"], "5\n1\n3\n7\n");
    assert!(
        transcript.contains("The computer (O) plays"),
        "{transcript}"
    );
    assert!(
        transcript.trim_end().ends_with("The computer wins."),
        "{transcript}"
    );
}

#[test]
fn play_asks_for_a_mark_reprompts_on_bad_input_and_ends_at_end_of_input() {
    let transcript = play(&["ttt", "play"], "y\no\n9\n9\n42\n");
    assert!(
        transcript.contains("\"y\" is neither X (first) nor O (second); try again."),
        "{transcript}"
    );
    assert!(
        transcript.contains("The computer (X) plays"),
        "{transcript}"
    );
    assert!(
        transcript.contains("square 9 is already taken"),
        "{transcript}"
    );
    assert!(
        transcript.contains("square 42 is out of range"),
        "{transcript}"
    );
    assert!(!transcript.contains("wins"), "{transcript}");
}

#[test]
fn play_goes_on_from_the_moves_given() {
    // X took the centre before the game starts: the person is X, so the computer (O)
    // answers first, on a board that shows the centre taken.
    let transcript = play(&["ttt", "play", "--side", "x", "--moves", "5"], "");
    let first_board = transcript.find("4 X 6").expect("the centre is X's");
    let answer = transcript
        .find("The computer (O) plays")
        .expect("the computer moves first");
    assert!(first_board < answer, "{transcript}");
    assert!(!transcript.contains("Your move (X): 5"), "{transcript}");
    // A finished game or a wrong move is refused before the game starts.
    assert_usage_error_of(
        &["ttt", "play", "--side", "x", "--moves", "1,4,2,5,3"],
        "the game is over (X has won)",
    );
    assert_usage_error_of(
        &["ttt", "play", "--moves", "1,1"],
        "square 1 is already taken by X",
    );
}

#[test]
fn an_empty_window_is_refused_as_no_value_lies_inside_it() {
    // Issue 13: α = β used to print "(0 NIL NIL)"; like `gametree tree`, the window must
    // hold a value.
    assert_usage_error_of(
        &["ttt", "proof", "--moves", "2,1", "--window", "0,0"],
        "no value lies strictly between them",
    );
}
