//! `gametree checkers best` and `gametree checkers play`, run as a user runs them.

mod common;

use std::path::PathBuf;

use common::{assert_usage_error_of, gametree, gametree_in, stderr, stdout};

use gametree::games::checkers::read_pdn;

/// A fresh empty directory for one test.
fn scratch_directory(name: &str) -> PathBuf {
    let directory =
        std::env::temp_dir().join(format!("gametree-checkers-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).expect("a scratch directory");
    directory
}

#[test]
fn best_as_json_reports_every_iteration_with_a_legal_line() {
    let output = gametree(&["checkers", "best", "--depth", "6", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("one JSON object");
    assert_eq!(json["depth"], 6);
    assert_eq!(json["algorithm"], "alphabeta");
    assert_eq!(json["stop"], "depth reached");
    let iterations = json["iterations"].as_array().expect("iterations");
    assert_eq!(iterations.len(), 6);
    let mut total = 0;
    for (depth, iteration) in (1..).zip(iterations) {
        assert_eq!(iteration["depth"], depth);
        assert!(
            iteration["value"].is_i64(),
            "alpha-beta values are integers"
        );
        let line = iteration["principal_line"].as_array().expect("a line");
        // No capture ends a line early here; quiescence may carry it on past the depth,
        // through captures only.
        assert!(line.len() >= depth as usize, "{line:?}");
        assert!(
            line[depth as usize..]
                .iter()
                .all(|mv| mv.as_str().is_some_and(|text| text.contains('x'))),
            "{line:?}"
        );
        assert_eq!(iteration["best_move"], line[0]);
        total += iteration["nodes"].as_u64().expect("nodes");
    }
    assert_eq!(json["nodes"].as_u64(), Some(total));
    assert_eq!(json["principal_line"], iterations[5]["principal_line"]);
    // The line is legal: replay it.
    let mut position = gametree::games::checkers::Position::initial();
    for mv in json["principal_line"].as_array().expect("a line") {
        let mv = position
            .parse_move(mv.as_str().expect("move text"))
            .expect("a legal move");
        position = position.play(mv);
    }
    let ebf = json["effective_branching_factor"]
        .as_f64()
        .expect("a number");
    let expected = (total as f64).powf(1.0 / 6.0);
    assert!((ebf - expected).abs() < 1e-9);
}

#[test]
fn best_prints_a_table_and_the_move() {
    let output = gametree(&["checkers", "best", "--depth", "4"]);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("depth"), "{text}");
    assert!(text.contains("best move "), "{text}");
    assert!(text.contains("nodes/s"), "{text}");
    assert!(text.contains("ebf "), "{text}");
}

#[test]
fn best_finds_the_win_in_a_won_ending_and_says_so() {
    // Black's man on 9 takes White's last piece on 14.
    let output = gametree(&["checkers", "best", "--fen", "B:W14:B9,10", "--json"]);
    assert!(output.status.success());
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(json["best_move"], "9x18");
    // A win one ply away: WIN_VALUE − 1.
    assert_eq!(json["value"], 999_999);
    assert_eq!(json["stop"], "tree exhausted");
}

#[test]
fn best_by_m_and_n_reports_each_depth() {
    let output = gametree(&[
        "checkers",
        "best",
        "--depth",
        "4",
        "--algorithm",
        "m-and-n",
        "--m",
        "2",
        "--n",
        "2",
        "--json",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(json["algorithm"], "m-and-n");
    assert_eq!(json["iterations"].as_array().map(Vec::len), Some(4));
    assert!(json["best_move"].is_string());
}

#[test]
fn best_reads_settings_from_a_params_file() {
    let directory = scratch_directory("params");
    let path = directory.join("params.json");
    std::fs::write(
        &path,
        r#"{"m": 2, "n": 3, "x": 2, "y": 0.1, "r": 2, "s": 0.1,
            "max_at": [{"depth_below": 0, "x": 1, "y": 0.2}],
            "weights": {"king": 160}}"#,
    )
    .expect("written");
    let path = path.to_string_lossy().into_owned();
    let output = gametree(&[
        "checkers",
        "best",
        "--depth",
        "3",
        "--algorithm",
        "m-and-n",
        "--params",
        &path,
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("best move "));
}

#[test]
fn best_on_two_threads_reaches_the_depth_and_finds_a_win_in_one() {
    let output = gametree(&[
        "checkers",
        "best",
        "--depth",
        "10",
        "--threads",
        "2",
        "--json",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(json["depth"], 10);
    assert_eq!(json["stop"], "depth reached");
    assert_eq!(json["iterations"].as_array().map(Vec::len), Some(10));
    let won = gametree(&[
        "checkers",
        "best",
        "--fen",
        "B:W14:B9,10",
        "--threads",
        "2",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&won)).expect("JSON");
    // Either man takes White's last piece: which one is reported depends on which thread
    // stored the root's move first.
    assert!(
        json["best_move"] == "9x18" || json["best_move"] == "10x17",
        "{json}"
    );
    assert_eq!(json["value"], 999_999);
}

#[test]
fn bad_input_to_best_exits_2_with_one_line() {
    let directory = scratch_directory("bad");
    let bad_params = directory.join("bad.json");
    std::fs::write(&bad_params, r#"{"m": 2, "z": 1}"#).expect("written");
    let bad_params = bad_params.to_string_lossy().into_owned();
    let cases: [(&[&str], &str); 20] = [
        (&["checkers", "best", "--fen", "B:W18:Q12"], "column"),
        (
            &[
                "checkers",
                "best",
                "--params",
                &bad_params,
                "--algorithm",
                "m-and-n",
            ],
            "unknown key \"z\"",
        ),
        (
            &["checkers", "best", "--params", "/nonexistent/params.json"],
            "cannot read",
        ),
        (&["checkers", "best", "--m", "2"], "m-and-n"),
        (&["checkers", "best", "--depth", "0"], "--depth"),
        (&["checkers", "best", "--threads", "0"], "--threads"),
        (
            &["checkers", "best", "--pvs", "--algorithm", "m-and-n"],
            "--pvs applies",
        ),
        (
            &["checkers", "best", "--lmr", "--algorithm", "m-and-n"],
            "--lmr applies",
        ),
        (
            &["checkers", "best", "--lmr", "--engine", "mcts"],
            "do not apply to --engine mcts",
        ),
        (
            &[
                "checkers",
                "best",
                "--extend-recaptures",
                "--algorithm",
                "m-and-n",
            ],
            "--extend-recaptures applies",
        ),
        (
            &[
                "checkers",
                "best",
                "--extend-recaptures",
                "--engine",
                "mcts",
            ],
            "do not apply to --engine mcts",
        ),
        (
            &[
                "checkers",
                "best",
                "--verified-pruning",
                "--algorithm",
                "m-and-n",
            ],
            "--verified-pruning applies",
        ),
        (
            &["checkers", "play", "--verified-pruning", "--engine", "mcts"],
            "do not apply to --engine mcts",
        ),
        (&["checkers", "best", "--max-nodes", "0"], "--max-nodes 0"),
        (
            &["checkers", "best", "--max-nodes", "100", "--time", "1"],
            "cannot be used with",
        ),
        (
            &[
                "checkers",
                "best",
                "--max-nodes",
                "100",
                "--algorithm",
                "m-and-n",
            ],
            "--max-nodes applies",
        ),
        (
            &["checkers", "play", "--max-nodes", "100", "--engine", "mcts"],
            "do not apply to --engine mcts",
        ),
        (&["checkers", "best", "--threads", "100000"], "--threads"),
        (
            &["checkers", "best", "--threads", "2", "--table-mib", "0"],
            "--table-mib",
        ),
        (
            &[
                "checkers",
                "best",
                "--threads",
                "2",
                "--algorithm",
                "m-and-n",
            ],
            "alphabeta",
        ),
    ];
    for (arguments, expected) in cases {
        let output = gametree(arguments);
        assert_eq!(output.status.code(), Some(2), "{arguments:?}");
        let message = stderr(&output);
        assert_eq!(message.lines().count(), 1, "{message}");
        assert!(message.contains(expected), "{arguments:?}: {message}");
    }
}

#[test]
fn a_budget_of_positions_stops_the_search_there_and_gives_the_same_answer_every_run() {
    let run = || {
        let output = gametree(&[
            "checkers",
            "best",
            "--max-nodes",
            "30000",
            "--eval",
            "learned",
            "--history",
            "--lmr",
            "--json",
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        serde_json::from_str::<serde_json::Value>(&stdout(&output)).expect("one JSON object")
    };
    let first = run();
    assert_eq!(first["stop"], "node budget");
    assert_eq!(first["nodes"].as_u64(), Some(30_000));
    // The last depth was cut short: the completed ones hold fewer positions.
    let completed: u64 = first["iterations"]
        .as_array()
        .expect("iterations")
        .iter()
        .map(|iteration| iteration["nodes"].as_u64().expect("nodes"))
        .sum();
    assert!(completed < 30_000, "{completed}");
    // A time limit's move depends on the machine and its load; a budget's does not.
    let second = run();
    for field in ["best_move", "value", "depth", "principal_line", "nodes"] {
        assert_eq!(first[field], second[field], "{field}");
    }
}

#[test]
fn the_engine_protocol_searches_to_a_budget_of_positions() {
    let output = gametree_in(
        &std::env::temp_dir(),
        &["checkers", "engine"],
        "position startpos moves 11-15\ngo nodes 20000\ngo nodes 0\nquit\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[2].starts_with("bestmove ") && lines[2].contains(" nodes 20000 "),
        "{text}"
    );
    assert_eq!(lines[3], "error nodes \"0\" is not a count above 0");
}

#[test]
fn a_piped_game_refuses_an_illegal_move_plays_a_legal_one_and_saves_pdn_at_end_of_input() {
    let directory = scratch_directory("play");
    let output = gametree_in(
        &directory,
        &["checkers", "play", "--depth", "4", "--save", "game.pdn"],
        "11-14\n11-15\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("game.pdn"),
        "the file is named at the start: {text}"
    );
    assert!(
        text.contains(
            "Refused: illegal move \"11-14\": the piece on 11 cannot go that way; legal moves: "
        ),
        "{text}"
    );
    assert!(text.contains("gametree plays "), "{text}");
    assert!(text.contains("Game saved to game.pdn"), "{text}");
    // The board is drawn with the numbers of the empty squares.
    assert!(text.contains("13  . 14  . 15  . 16"), "{text}");
    let saved = std::fs::read_to_string(directory.join("game.pdn")).expect("the game file");
    let games = read_pdn(&saved).expect("valid PDN");
    assert_eq!(games.len(), 1);
    let moves: Vec<String> = games[0].moves.iter().map(ToString::to_string).collect();
    assert_eq!(moves.len(), 2, "{saved}");
    assert_eq!(moves[0], "11-15");
    assert_eq!(games[0].tag("Black"), Some("You"));
    assert_eq!(games[0].tag("Result"), Some("*"));
}

#[test]
fn playing_white_lets_the_computer_open_and_saves_under_a_default_name() {
    let directory = scratch_directory("white");
    let output = gametree_in(
        &directory,
        &["checkers", "play", "--side", "white", "--depth", "2"],
        "quit\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let files: Vec<PathBuf> = std::fs::read_dir(&directory)
        .expect("readable")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let name = files[0]
        .file_name()
        .expect("a name")
        .to_string_lossy()
        .into_owned();
    assert!(
        name.starts_with("checkers-") && name.ends_with(".pdn"),
        "{name}"
    );
    assert!(stdout(&output).contains(&format!("Game saved to {name}")));
    let games = read_pdn(&std::fs::read_to_string(&files[0]).expect("readable")).expect("PDN");
    assert_eq!(games[0].moves.len(), 1, "the computer, Black, moved once");
    assert_eq!(games[0].tag("White"), Some("You"));
}

#[test]
fn the_computer_plays_to_a_game_clock_and_shows_what_is_left() {
    // Three seconds for the game: each computer move gets its share and the clock shows
    // what is left; the person's moves take none of it.
    let directory = scratch_directory("clock");
    let output = gametree_in(
        &directory,
        &[
            "checkers", "play", "--side", "white", "--clock", "0.05", "--save", "g.pdn",
        ],
        "22-18\nquit\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let clocks: Vec<&str> = text
        .lines()
        .filter_map(|line| line.split("; clock ").nth(1))
        .filter_map(|rest| rest.split(';').next())
        .collect();
    // Two computer moves (before and after 22-18), each with what is left of 3 s shown.
    assert_eq!(clocks.len(), 2, "{text}");
    assert!(
        clocks.iter().all(|clock| clock.starts_with("0:0")),
        "{clocks:?}"
    );
    for (args, message) in [
        (
            &["checkers", "play", "--clock", "5", "--depth", "3"][..],
            "not both",
        ),
        (&["checkers", "play", "--clock", "5+x"], "--clock \"5+x\""),
        (&["checkers", "play", "--clock", "0"], "more than 0"),
        (
            &["checkers", "play", "--clock", "5", "--engine", "mcts"],
            "--engine mcts",
        ),
    ] {
        assert_usage_error_of(args, message);
    }
}

#[test]
fn a_finished_game_is_saved_with_its_result() {
    let directory = scratch_directory("finished");
    // Black to move takes White's last piece.
    let output = gametree_in(
        &directory,
        &[
            "checkers",
            "play",
            "--fen",
            "B:W14:B9,10",
            "--save",
            "won.pdn",
        ],
        "9x18\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("Game over: White has no move and loses (1-0)"));
    let games =
        read_pdn(&std::fs::read_to_string(directory.join("won.pdn")).expect("saved")).expect("PDN");
    assert_eq!(games[0].result.token(), "1-0");
    assert_eq!(games[0].tag("FEN"), Some("B:W14:B9,10"));
}

/// Starts `checkers play` at depth 2 saving to `name` in `directory`, plays 9-14, waits for
/// the computer's answer, sends `signal`, and returns what the process printed and the
/// moves in the saved file.
#[cfg(unix)]
fn signal_during_a_game(signal: &str, name: &str) -> (std::process::Output, Vec<String>) {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let directory = scratch_directory(&format!("signal-{signal}"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_gametree"))
        .args(["checkers", "play", "--depth", "2", "--save", name])
        .current_dir(&directory)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().expect("piped stdin");
    input.write_all(b"9-14\n").expect("input written");
    input.flush().expect("input flushed");
    // The handler is in place once the second line (where the game goes) is printed.
    let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
    let mut line = String::new();
    for _ in 0..2 {
        line.clear();
        stdout.read_line(&mut line).expect("a line");
    }
    assert!(line.contains(name), "{line}");
    // Wait until the computer has answered 9-14, so the game has two moves.
    let mut seen = String::new();
    while !seen.contains("gametree plays") {
        line.clear();
        if stdout.read_line(&mut line).expect("readable") == 0 {
            break;
        }
        seen.push_str(&line);
    }
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let output = child.wait_with_output().expect("the binary ends");
    drop(input);
    let saved = std::fs::read_to_string(directory.join(name)).expect("saved");
    let games = read_pdn(&saved).expect("valid PDN");
    let moves = games[0].moves.iter().map(ToString::to_string).collect();
    (output, moves)
}

#[cfg(unix)]
#[test]
fn ctrl_c_sigterm_and_sighup_during_a_game_keep_it_saved() {
    // Issue 13: only Ctrl-C saved the game; SIGTERM and SIGHUP lost it.
    for signal in ["INT", "TERM", "HUP"] {
        let (output, moves) = signal_during_a_game(signal, "interrupted.pdn");
        assert_eq!(output.status.code(), Some(130), "{signal}");
        assert!(
            stderr(&output).contains("the game is saved in interrupted.pdn"),
            "{signal}: {}",
            stderr(&output)
        );
        assert_eq!(moves.len(), 2, "{signal}: {moves:?}");
        assert_eq!(moves[0], "9-14");
    }
}

#[test]
fn best_with_a_time_limit_stops_in_time_with_a_move() {
    let started = std::time::Instant::now();
    let output = gametree(&["checkers", "best", "--time", "0.3", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(started.elapsed().as_secs_f64() < 5.0);
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(json["stop"], "time limit");
    assert!(json["depth"].as_u64().is_some_and(|depth| depth >= 8));
    assert!(json["best_move"].is_string());
}

/// Two Black kings against one White king, Black to move; the kings step back and forth
/// so that, after these seven moves, White's 28-32 brings the start position round a
/// third time.
const SHUFFLE_START: &str = "B:WK32:BK1,K2";
const SHUFFLE_MOVES: &str = "1-6 32-28 6-1 28-32 1-6 32-28 6-1";

#[test]
fn best_knows_the_game_so_far_and_claims_a_draw_by_repetition() {
    // From the position alone White, a king down, is lost on the evaluation.
    let alone = gametree(&[
        "checkers",
        "best",
        "--fen",
        "W:WK28:BK1,K2",
        "--depth",
        "6",
        "--json",
    ]);
    let alone: serde_json::Value = serde_json::from_str(&stdout(&alone)).expect("JSON");
    assert!(alone["value"].as_i64().expect("a value") > 0, "{alone}");
    // With the game so far, the same position has been seen twice: White repeats it.
    let with_history = gametree(&[
        "checkers",
        "best",
        "--fen",
        SHUFFLE_START,
        "--moves",
        SHUFFLE_MOVES,
        "--depth",
        "6",
        "--json",
    ]);
    assert!(with_history.status.success(), "{}", stderr(&with_history));
    let json: serde_json::Value = serde_json::from_str(&stdout(&with_history)).expect("JSON");
    assert_eq!(json["position"], "W:WK28:BK1,K2");
    assert_eq!(json["best_move"], "28-32");
    assert_eq!(json["value"], 0);
    // The same game read from a PDN file.
    let directory = scratch_directory("repetition");
    let path = directory.join("game.pdn");
    std::fs::write(
        &path,
        format!(
            "[Event \"shuffle\"]\n[SetUp \"1\"]\n[FEN \"{SHUFFLE_START}\"]\n\n1. 1-6 32-28 2. 6-1 28-32 3. 1-6 32-28 4. 6-1 *\n"
        ),
    )
    .expect("writable");
    let path_text = path.display().to_string();
    let from_file = gametree(&[
        "checkers", "best", "--pdn", &path_text, "--depth", "6", "--json",
    ]);
    assert!(from_file.status.success(), "{}", stderr(&from_file));
    let from_file: serde_json::Value = serde_json::from_str(&stdout(&from_file)).expect("JSON");
    assert_eq!(
        (&from_file["best_move"], &from_file["value"]),
        (&json["best_move"], &json["value"])
    );
}

#[test]
fn the_game_so_far_is_checked_and_play_goes_on_from_it() {
    let output = gametree(&[
        "checkers",
        "best",
        "--moves",
        "11-15 24-19 15x24 28x19 11-15",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("--moves: move 5 (11-15)"),
        "{}",
        stderr(&output)
    );
    let output = gametree(&["checkers", "best", "--pdn", "/nonexistent/game.pdn"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("cannot read /nonexistent/game.pdn"));
    let output = gametree(&["checkers", "best", "--fen", SHUFFLE_START, "--pdn", "x.pdn"]);
    assert_eq!(output.status.code(), Some(2));
    // play: the person (White) answers Black's 11-15, the record holds both moves.
    let directory = scratch_directory("play-on");
    let output = gametree_in(
        &directory,
        &[
            "checkers", "play", "--moves", "11-15", "--side", "second", "--depth", "2", "--save",
            "game.pdn",
        ],
        "23-19\nquit\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(directory.join("game.pdn")).expect("saved");
    let games = read_pdn(&text).expect("valid PDN");
    let moves: Vec<String> = games[0].moves.iter().map(ToString::to_string).collect();
    assert_eq!(moves[..2], ["11-15", "23-19"]);
}
