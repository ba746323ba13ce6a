//! examples/checkers_match.rs as a person runs it: a short match against `gametree checkers
//! engine` (the one opponent that needs nothing but this repository), its games legal and
//! scored from the right side, a rerun that plays only what is missing, and mistyped flags
//! refused with one line whether or not an engine is set.
//!
//! The example's binary is the one `cargo test` builds beside the test binaries; a test run
//! restricted to this file (`--test checkers_match`) builds no examples, so build it first
//! (`cargo build --release --example checkers_match`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use gametree::games::checkers::Position;

/// target/<profile>/examples/checkers_match, beside target/<profile>/deps/<this test>.
fn example() -> PathBuf {
    let test = std::env::current_exe().expect("the test binary's path");
    let profile = test
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>/deps");
    let binary = profile
        .join("examples")
        .join(format!("checkers_match{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.exists(),
        "{} missing: `cargo test` builds it; alone, run `cargo build --example checkers_match` (with --release for a release test run)",
        binary.display()
    );
    binary
}

/// The example with `arguments`, no engine variable but those in `engine`.
fn run(arguments: &[&str], engine: Option<(&str, &str)>) -> Output {
    run_in(&std::env::temp_dir(), arguments, engine)
}

/// [`run`] in `directory`.
fn run_in(directory: &Path, arguments: &[&str], engine: Option<(&str, &str)>) -> Output {
    let mut command = Command::new(example());
    command.current_dir(directory);
    command
        .args(arguments)
        .env_remove("GAMETREE_CAKE")
        .env_remove("GAMETREE_GUINN")
        .env_remove("GAMETREE_ENGINE");
    if let Some((variable, value)) = engine {
        command.env(variable, value);
    }
    command.output().expect("the example runs")
}

/// What a run that must succeed printed on stdout; its stdout and stderr if it failed.
fn succeeded(output: &Output) -> String {
    let printed = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(
        output.status.success(),
        "{printed}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    printed
}

fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("gametree-match-{name}-{}", std::process::id()))
}

#[test]
fn a_short_match_against_the_engine_writes_legal_scored_games_and_resumes() {
    let out = scratch("games.jsonl");
    let _ = std::fs::remove_file(&out);
    let out_text = out.to_string_lossy().to_string();
    let arguments = [
        "--opponent",
        "gametree",
        "--opponent-depth",
        "2",
        "--depth",
        "3",
        "--ballots",
        "2",
        "--jobs",
        "2",
        "--out",
        &out_text,
    ];
    let engine = Some(("GAMETREE_ENGINE", env!("CARGO_BIN_EXE_gametree")));
    let printed = succeeded(&run(&arguments, engine));
    assert!(printed.contains("4 games, 0 already played"), "{printed}");
    assert!(printed.contains("all: 4 games"), "{printed}");

    let text = std::fs::read_to_string(&out).expect("the games written");
    let mut indices = Vec::new();
    for line in text.lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let index = record["index"].as_u64().expect("an index") as usize;
        indices.push(index);
        // Game i plays ballot i / 2 + 1, gametree Black in the even games.
        assert_eq!(record["ballot"].as_u64(), Some(index as u64 / 2 + 1));
        let colour = if index.is_multiple_of(2) {
            "black"
        } else {
            "white"
        };
        assert_eq!(record["gametree"].as_str(), Some(colour));
        // Every move legal from the start (the ballot's three included), one ply each.
        let moves = record["moves"].as_array().expect("the moves");
        assert_eq!(record["plies"].as_u64(), Some(moves.len() as u64));
        let mut position = Position::initial();
        for (ply, text) in moves.iter().enumerate() {
            let text = text.as_str().expect("a move");
            let mv = position
                .parse_move(text)
                .unwrap_or_else(|error| panic!("game {index} ply {ply}: {text}: {error}"));
            position = position.play(mv);
        }
        // The points are gametree's, read from the result, which is Black's.
        let black_points = match record["result"].as_str().expect("a result") {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            other => panic!("game {index}: result {other}"),
        };
        let points = record["points"].as_f64().expect("points");
        let expected = if colour == "black" {
            black_points
        } else {
            1.0 - black_points
        };
        assert_eq!(points, expected, "game {index}");
        // A game won at the board ends where the loser has no move.
        if record["reason"].as_str() == Some("no move left") {
            assert!(
                !position.has_legal_move(),
                "game {index}: the loser could move"
            );
            assert_ne!(black_points, 0.5);
        }
    }
    indices.sort_unstable();
    assert_eq!(indices, [0, 1, 2, 3]);

    // A rerun finds every game played and appends nothing.
    let printed = succeeded(&run(&arguments, engine));
    assert!(printed.contains("4 games, 4 already played"), "{printed}");
    assert!(printed.contains("played 0 games"), "{printed}");
    assert_eq!(std::fs::read_to_string(&out).expect("still there"), text);
    let _ = std::fs::remove_file(&out);
}

#[test]
fn budgets_of_positions_on_both_sides_replay_the_same_games() {
    let games = |name: &str| {
        let out = scratch(name);
        let _ = std::fs::remove_file(&out);
        let out_text = out.to_string_lossy().to_string();
        let arguments = [
            "--opponent",
            "gametree",
            "--opponent-nodes",
            "4000",
            "--nodes",
            "4000",
            "--verified-pruning",
            "--prune-margin",
            "20",
            "--prune-reduction",
            "2",
            "--ballots",
            "1",
            "--max-plies",
            "80",
            "--out",
            &out_text,
        ];
        let engine = Some(("GAMETREE_ENGINE", env!("CARGO_BIN_EXE_gametree")));
        let printed = succeeded(&run(&arguments, engine));
        assert!(printed.contains("4000 positions a move"), "{printed}");
        let text = std::fs::read_to_string(&out).expect("the games written");
        let _ = std::fs::remove_file(&out);
        let mut records: Vec<serde_json::Value> = text
            .lines()
            .map(|line| serde_json::from_str(line).expect("a JSON line"))
            .collect();
        records.sort_by_key(|record| record["index"].as_u64());
        records
            .iter()
            .map(|record| record["moves"].clone())
            .collect::<Vec<_>>()
    };
    let first = games("nodes-1.jsonl");
    assert_eq!(first.len(), 2);
    assert_eq!(first, games("nodes-2.jsonl"));
}

#[test]
fn mistyped_flags_stop_the_run_with_one_line_with_or_without_an_engine() {
    let bad: [&[&str]; 20] = [
        &["--nodes", "0"],
        &["--depth", "3", "--time", "1"],
        &["--depth", "three"],
        &["--opponent", "chinook"],
        &["--deepth", "3"],
        // Databases of 9 pieces do not exist (2 to MOST_ENDGAME_PIECES), and the check
        // comes before minutes of building.
        &["--endgame-pieces", "9"],
        &["--time-depths", "13,15"],
        &["--time-depths", "13,x", "--record", "games.jsonl"],
        // They shape --time-depths alone: a match of 3 games is --ballots, not --games.
        &["--games", "3"],
        &["--record", "games.jsonl"],
        // A margin without the pruning would be ignored; a negative one prunes nonsense.
        &["--prune-margin", "20"],
        &["--verified-pruning", "--prune-margin", "-3"],
        &["--prune-reduction", "2"],
        &["--verified-pruning", "--prune-reduction", "0"],
        &["--prune-min-depth", "3"],
        &["--prune-one-way"],
        &["--verified-pruning", "--prune-min-depth", "1"],
        // The reference engines' drivers take a depth: a budget for them would be ignored.
        &["--opponent-nodes", "1000"],
        &["--opponent", "gametree", "--opponent-nodes", "0"],
        &[
            "--opponent",
            "gametree",
            "--opponent-time",
            "0.1",
            "--opponent-nodes",
            "1000",
        ],
    ];
    for arguments in bad {
        for engine in [None, Some(("GAMETREE_CAKE", "/nonexistent/cake_cli"))] {
            let output = run(arguments, engine);
            let message = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{arguments:?}: {message}");
            assert_eq!(
                message.trim_end().lines().count(),
                1,
                "{arguments:?}: {message}"
            );
            assert!(message.starts_with("checkers_match: "), "{message}");
        }
    }
}

#[test]
fn without_the_engine_the_match_says_it_is_skipped() {
    let output = run(&["--opponent", "guinn", "--depth", "4"], None);
    assert!(output.status.success());
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(printed.contains("skipped: set GAMETREE_GUINN"), "{printed}");
}

#[test]
fn an_engine_that_cannot_start_stops_the_match_before_any_game() {
    let out = scratch("never.jsonl");
    let out_text = out.to_string_lossy().to_string();
    let engine = env!("CARGO_BIN_EXE_gametree");
    // Each case with what its stderr must name: gametree's engine refuses a flag it does
    // not know and says so itself; a driver that is not there is named by its path.
    for (arguments, variable, named) in [
        (
            vec!["--opponent", "gametree", "--opponent-args", "--deepth 3"],
            ("GAMETREE_ENGINE", engine),
            "--deepth",
        ),
        (
            vec!["--opponent", "cake"],
            ("GAMETREE_CAKE", "/nonexistent/cake_cli"),
            "/nonexistent/cake_cli",
        ),
    ] {
        let mut arguments = arguments;
        arguments.extend(["--depth", "2", "--out", &out_text]);
        let output = run(&arguments, Some(variable));
        let message = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{arguments:?}: {message}");
        let last = message.trim_end().lines().last().unwrap_or_default();
        assert!(last.starts_with("checkers_match: the engine "), "{message}");
        assert!(message.contains(named), "{arguments:?}: {message}");
        assert!(!out.exists(), "{arguments:?}: the games file was made");
    }
}

#[test]
fn paths_in_the_opponents_arguments_are_read_where_the_match_runs() {
    let directory = scratch("relative");
    std::fs::create_dir_all(&directory).expect("a scratch directory");
    let weights = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/checkers/learned-weights.txt"
    );
    std::fs::copy(weights, directory.join("weights.txt")).expect("the weights copied");
    let output = run_in(
        &directory,
        &[
            "--opponent",
            "gametree",
            "--opponent-args",
            "--eval weights.txt",
            "--opponent-depth",
            "2",
            "--depth",
            "2",
            "--ballots",
            "1",
            "--out",
            "games.jsonl",
        ],
        Some(("GAMETREE_ENGINE", env!("CARGO_BIN_EXE_gametree"))),
    );
    let printed = succeeded(&output);
    assert!(printed.contains("all: 2 games"), "{printed}");
    let _ = std::fs::remove_dir_all(&directory);
}
