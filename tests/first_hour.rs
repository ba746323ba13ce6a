//! What a new user meets in the first hour (issue 13), through the real binary: closed pipes
//! and full disks, signals and unwritable save files, size flags beyond the machine, a result
//! directory used twice, bare subcommands, one convention for sides, exit statuses in every
//! `--help`, and what the README promises.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{
    assert_usage_error, assert_usage_error_of, gametree, gametree_in, gametree_with_input, stderr,
    stdout,
};

fn binary() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gametree"));
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

fn scratch(name: &str) -> PathBuf {
    let directory =
        std::env::temp_dir().join(format!("gametree-first-hour-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).expect("a scratch directory");
    directory
}

/// Runs `args` with standard output a pipe whose reading end is closed after `lines` lines
/// have been read; returns the exit status and stderr.
fn with_reader_gone_after(args: &[&str], lines: usize) -> (Option<i32>, String) {
    use std::io::{BufRead, BufReader, Read};
    let mut child = binary()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut reader = BufReader::new(child.stdout.take().expect("piped"));
    let mut line = String::new();
    for _ in 0..lines {
        line.clear();
        reader.read_line(&mut line).expect("a line");
    }
    drop(reader);
    let mut error = String::new();
    child
        .stderr
        .take()
        .expect("piped")
        .read_to_string(&mut error)
        .expect("stderr");
    let status = child.wait().expect("the binary ends");
    (status.code(), error)
}

#[test]
fn a_reader_that_goes_away_ends_the_program_quietly() {
    // Issue 13: `perft 9 --divide | head -1` panicked with "failed printing to stdout".
    // Depth 11 counts for about a second, so the reader is gone before the moves print.
    for (args, lines) in [
        (&["checkers", "perft", "11", "--divide"][..], 1),
        (&["experiment", "report", "results/slagle"][..], 0),
        (&["tree", "minimax", "((1 2) (3 4))"][..], 0),
        (&["insanity", "--all"][..], 0),
        (
            &[
                "experiment",
                "merge",
                "results/slagle",
                "--out",
                "/tmp/gametree-first-hour-merged",
            ][..],
            1,
        ),
        (
            &[
                "experiment",
                "slagle",
                "--quick",
                "--out",
                "/tmp/gametree-first-hour-pipe",
            ][..],
            1,
        ),
    ] {
        let (code, error) = with_reader_gone_after(args, lines);
        assert_eq!(code, Some(0), "{args:?}: {error}");
        assert_eq!(error, "", "{args:?}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_one_line_on_stderr_and_exit_status_2() {
    let path = [
        "path",
        "tests/data/diamond.graph",
        "--from",
        "A",
        "--to",
        "D",
    ];
    let path_all = [
        "path",
        "tests/data/diamond.graph",
        "--from",
        "A",
        "--to",
        "D",
        "--all",
    ];
    let path_json = [
        "path",
        "tests/data/diamond.graph",
        "--from",
        "A",
        "--to",
        "D",
        "--json",
    ];
    for args in [
        &["checkers", "perft", "6"][..],
        &path[..],
        &path_all[..],
        &path_json[..],
    ] {
        let full = std::fs::File::create("/dev/full").expect("/dev/full");
        let output = binary()
            .args(args)
            .stdout(full)
            .output()
            .expect("the binary runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(
            stderr(&output),
            "gametree: cannot write to standard output: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
}

#[test]
fn a_save_file_that_cannot_be_written_is_refused_before_the_game() {
    let output = gametree_with_input(
        &[
            "checkers",
            "play",
            "--depth",
            "2",
            "--save",
            "/nonexistent-directory/game.pdn",
        ],
        "9-14\n",
    );
    assert_usage_error(
        &output,
        "cannot save the game to /nonexistent-directory/game.pdn",
    );
    let directory = scratch("save-dir");
    let output = gametree_in(&directory, &["checkers", "play", "--save", "."], "9-14\n");
    assert_usage_error(&output, "is a directory");
}

#[test]
fn a_line_that_is_not_utf8_is_refused_and_the_game_goes_on() {
    use std::io::Write;
    // Issue 13: such a line ended the game with status 0.
    let directory = scratch("utf8");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gametree"))
        .args(["checkers", "play", "--depth", "2", "--save", "game.pdn"])
        .current_dir(&directory)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(b"\xff\xfe\n9-14\nquit\n")
        .expect("input written");
    let output = child.wait_with_output().expect("the binary ends");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("Refused: "), "{text}");
    assert!(text.contains("gametree plays"), "{text}");
    assert!(text.ends_with("Game saved to game.pdn\n"), "{text}");
    let saved = std::fs::read_to_string(directory.join("game.pdn")).expect("saved");
    assert!(saved.contains("1. 9-14 "), "{saved}");
    // Saved through a temporary file that is renamed: none is left behind.
    let names: Vec<String> = std::fs::read_dir(&directory)
        .expect("listed")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(names, ["game.pdn"]);
}

#[test]
fn size_flags_beyond_the_machine_are_refused_before_anything_is_allocated() {
    // Issue 13: `checkers --table-mib 65536` died with SIGABRT, `experiment --positions
    // 18446744073709551615` panicked, 1e9 and 1e12 aborted, `--jobs 100000` ran 73 s.
    let huge = "1099511627776"; // 2^40 MiB: more than any machine has
    assert_usage_error_of(
        &["checkers", "best", "--table-mib", huge],
        "--table-mib 1099511627776: the transposition table would take",
    );
    assert_usage_error(
        &gametree_with_input(&["connect4", "solve", "--table-mib", huge], "4\n"),
        "--table-mib 1099511627776",
    );
    let directory = scratch("sizes");
    for (flag, value) in [
        ("--positions", "18446744073709551615"),
        ("--positions", "1000000000000"),
        ("--jobs", "100000"),
    ] {
        let out = directory.join(format!("run{value}"));
        let started = Instant::now();
        let output = gametree(&[
            "experiment",
            "slagle",
            flag,
            value,
            "--out",
            out.to_str().expect("UTF-8 path"),
        ]);
        assert_usage_error(&output, &format!("{flag} {value}"));
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{flag} {value}"
        );
        // A failed start leaves nothing that would block the rerun.
        assert!(!out.exists(), "{flag} {value} left {}", out.display());
    }
}

#[test]
fn a_second_run_on_the_same_result_directory_is_refused_naming_the_first() {
    use std::io::Write;
    let directory = scratch("lock");
    let lock_path = directory.join(".gametree.lock");
    let mut lock = std::fs::File::create(&lock_path).expect("lock file");
    lock.try_lock().expect("locked by the test");
    writeln!(lock, "4242").expect("pid written");
    let output = gametree(&[
        "experiment",
        "slagle",
        "--quick",
        "--out",
        directory.to_str().expect("UTF-8 path"),
    ]);
    assert_usage_error(&output, "is in use by another gametree run (process 4242)");
    // Nothing was written beside the lock.
    assert!(!directory.join("config.json").exists());
    drop(lock);
}

#[test]
fn a_command_without_its_subcommand_prints_its_usage() {
    for command in ["ttt", "checkers", "connect4", "experiment"] {
        let output = gametree(&[command]);
        assert_eq!(output.status.code(), Some(2), "{command}");
        let help = stderr(&output);
        assert!(
            help.contains(&format!("Usage: gametree {command} [OPTIONS] <COMMAND>")),
            "{command}: {help}"
        );
        assert!(help.contains("Commands:"), "{command}: {help}");
    }
    let help = stderr(&gametree(&[]));
    assert!(
        help.contains("Commands:") && help.contains("connect4"),
        "{help}"
    );
}

/// Every subcommand's name path, found by reading the `Commands:` sections of the help.
fn every_command(path: &[String]) -> Vec<Vec<String>> {
    let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
    args.push("--help");
    let help = stdout(&gametree(&args));
    let mut found = vec![path.to_vec()];
    let Some(section) = help.split("Commands:\n").nth(1) else {
        return found;
    };
    for line in section.lines().take_while(|line| line.starts_with("  ")) {
        let name = line.split_whitespace().next().expect("a name");
        if name != "help" {
            let mut child = path.to_vec();
            child.push(name.to_string());
            found.extend(every_command(&child));
        }
    }
    found
}

#[test]
fn every_help_states_the_exit_statuses() {
    let commands = every_command(&[]);
    assert!(commands.len() > 15, "{commands:?}");
    for command in commands {
        let mut args: Vec<&str> = command.iter().map(String::as_str).collect();
        args.push("--help");
        let help = stdout(&gametree(&args));
        assert!(help.contains("Exit status"), "{command:?}: {help}");
        assert!(
            help.contains("2  bad input") || help.contains("2 bad input"),
            "{command:?}"
        );
    }
    let help = stdout(&gametree(&["path", "--help"]));
    assert!(help.contains("  1  no path\n"), "{help}");
    let help = stdout(&gametree(&["connect4", "solve", "--help"]));
    assert!(help.contains("  1  a position's score differs"), "{help}");
}

#[test]
fn every_play_subcommand_takes_side_first_or_second_and_the_games_own_names() {
    let cases: [(&[&str], &str, &str); 6] = [
        (&["ttt", "play", "--side", "first"], "5\n", "You are X."),
        (&["ttt", "play", "--side", "o"], "", "You are O."),
        (&["ttt", "play", "--as", "x"], "", "You are X."),
        (
            &[
                "connect4", "play", "--width", "4", "--height", "4", "--side", "second",
            ],
            "",
            "You are O.",
        ),
        (
            &[
                "checkers",
                "play",
                "--depth",
                "1",
                "--side",
                "second",
                "--save",
                "/dev/null",
            ],
            "quit\n",
            "You play White.",
        ),
        (
            &[
                "checkers",
                "play",
                "--depth",
                "1",
                "--side",
                "black",
                "--save",
                "/dev/null",
            ],
            "quit\n",
            "You play Black.",
        ),
    ];
    for (args, input, expected) in cases {
        let output = gametree_with_input(args, input);
        assert!(stdout(&output).contains(expected), "{args:?}: {output:?}");
    }
}

#[test]
fn json_is_one_compact_object_on_every_subcommand_that_prints_a_result() {
    let cases: [(&[&str], &str, &str); 11] = [
        (
            &["ttt", "line", "--moves", "2,1", "--json", "--count"],
            "",
            "value",
        ),
        (&["tree", "minimax", "((3 5) (2 9))", "--json"], "", "value"),
        (&["insanity", "--json"], "", "solution"),
        (&["checkers", "perft", "3", "--json"], "", "nodes"),
        (
            &["checkers", "endgame", "--pieces", "2", "--json"],
            "",
            "positions",
        ),
        (
            &["checkers", "best", "--depth", "3", "--json"],
            "",
            "best_move",
        ),
        (
            &[
                "connect4", "analyze", "--width", "4", "--height", "4", "--json",
            ],
            "",
            "scores",
        ),
        (
            &["connect4", "solve", "--json"],
            "2252576253462244111563365343671351441 -1\n",
            "score",
        ),
        (
            &[
                "path",
                "tests/data/diamond.graph",
                "--from",
                "A",
                "--to",
                "D",
                "--json",
            ],
            "",
            "path",
        ),
        (
            &["kalah", "solve", "--houses", "3", "--seeds", "2", "--json"],
            "",
            "value",
        ),
        (
            &[
                "experiment",
                "slagle",
                "--quick",
                "--out",
                "/tmp/gametree-first-hour-json",
                "--json",
            ],
            "",
            "matches",
        ),
    ];
    for (args, input, key) in cases {
        let output = gametree_with_input(args, input);
        assert_eq!(output.status.code(), Some(0), "{args:?}: {output:?}");
        let text = stdout(&output);
        assert_eq!(text.lines().count(), 1, "{args:?}: {text}");
        assert!(
            !text.contains(": ") && !text.contains(", "),
            "compact: {text}"
        );
        let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert!(value.get(key).is_some(), "{args:?}: {text}");
    }
}

#[test]
fn the_experiments_parameter_file_drives_checkers_best() {
    // Issue 13: the README's `checkers best --params results/slagle/parameters.json` was
    // rejected ("unknown key format").
    let output = gametree(&[
        "checkers",
        "best",
        "--depth",
        "3",
        "--params",
        "results/slagle/parameters.json",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(json["algorithm"], "m-and-n");
    assert_usage_error_of(
        &[
            "checkers",
            "best",
            "--algorithm",
            "alphabeta",
            "--params",
            "results/slagle/parameters.json",
        ],
        "they apply to --algorithm m-and-n",
    );
}

fn file_bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).expect("readable")
}

#[test]
fn the_report_goes_to_standard_output_unless_a_file_is_named() {
    // Issue 13: `experiment report` without --output overwrote the committed report.
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/slagle-experiment.md");
    let before = file_bytes(&committed);
    let output = gametree(&["experiment", "report", "results/slagle"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).starts_with("# Slagle's proposed experiment"));
    assert_eq!(file_bytes(&committed), before);
    let directory = scratch("report");
    let file = directory.join("report.md");
    let output = gametree(&[
        "experiment",
        "report",
        "results/slagle",
        "--output",
        file.to_str().expect("UTF-8 path"),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(file_bytes(&file).starts_with(b"# Slagle's proposed experiment"));
}

#[test]
fn a_malformed_tree_is_reported_before_any_warning_about_the_parameters() {
    let output = gametree(&["tree", "mn-alphabeta", "((1 2)"]);
    assert_usage_error(&output, "the tree: ");
}

#[test]
fn the_empty_connect_four_board_is_a_position_and_a_finished_game_is_not() {
    // An empty line is the empty board (on 4×4, which solves at once: a draw).
    let output = gametree_with_input(
        &["connect4", "solve", "--width", "4", "--height", "4"],
        "\n",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).starts_with(" 0 "), "{}", stdout(&output));
    let output = gametree(&["connect4", "analyze", "--width", "4", "--height", "4"]);
    assert_eq!(stdout(&output), "0 0 0 0\n");
    let output = gametree(&["connect4", "analyze", "", "--width", "4", "--height", "4"]);
    assert_eq!(stdout(&output), "0 0 0 0\n");
    // Issue 13: a finished game was scored.
    assert_usage_error(
        &gametree_with_input(&["connect4", "solve"], "1212121\n"),
        "stdin line 1: \"1212121\": the game is over after move 7 (the first player has four",
    );
    let empty = scratch("bench").join("empty");
    std::fs::write(&empty, "").expect("written");
    assert_usage_error_of(
        &["connect4", "bench", empty.to_str().expect("UTF-8 path")],
        "no positions to solve",
    );
}

#[cfg(unix)]
#[test]
fn saving_to_a_device_writes_it_in_place_instead_of_replacing_it() {
    use std::os::unix::fs::FileTypeExt;
    // The atomic save renames a temporary file over the save file: over /dev/null it
    // replaced the device with a plain file.
    let output = gametree_with_input(
        &["checkers", "play", "--depth", "1", "--save", "/dev/null"],
        "9-14\nquit\n",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let kind = std::fs::metadata("/dev/null")
        .expect("/dev/null")
        .file_type();
    assert!(kind.is_char_device(), "/dev/null is no longer a device");
}

/// What a review of the first hour found (2026-11-26): each mistake a new user makes gets
/// one line that says what was wrong, and what they probably meant.
#[test]
fn mistyped_flags_and_commands_get_a_suggestion() {
    assert_usage_error_of(
        &["checkers", "best", "--dept", "3"],
        "unexpected argument '--dept' found (did you mean --depth?)",
    );
    assert_usage_error_of(
        &["connect4", "analyse", "44"],
        "unrecognized subcommand 'analyse' (did you mean analyze?)",
    );
}

#[test]
fn a_negative_number_reaches_the_command_and_its_own_message() {
    assert_usage_error_of(
        &["checkers", "best", "--time", "-1"],
        "--time -1: expected a number of seconds above 0 and at most 1000000",
    );
    assert_usage_error_of(&["checkers", "perft", "-1"], "invalid value '-1'");
    // A tree of one leaf, negative, needs no `--`.
    let output = gametree(&["tree", "minimax", "-5"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stdout(&output).starts_with("value: -5\n"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn every_game_takes_its_own_names_for_the_sides_in_either_case() {
    let output = gametree_with_input(
        &[
            "kalah", "play", "--houses", "2", "--seeds", "1", "--side", "south",
        ],
        "2\n1\n",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("You are South"),
        "{}",
        stdout(&output)
    );
    let output = gametree_with_input(&["ttt", "play", "--side", "O"], "5\n");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stdout(&output).starts_with("You are O."),
        "{}",
        stdout(&output)
    );
}

#[test]
fn flags_that_do_not_apply_or_cannot_hold_are_refused() {
    // A Kalah position carries its own board: --houses with it is a mistake.
    assert_usage_error_of(
        &[
            "kalah",
            "solve",
            "--position",
            "2,2,0,1,3,2,2,0,N",
            "--houses",
            "4",
        ],
        "cannot be used with",
    );
    assert_usage_error_of(&["kalah", "solve", "--seeds", "100000"], "not in 1..=20");
    // A score no position can have is bad input, as in a book file: on 7×6 a score is
    // at most (42 + 1) / 2 = 21, a win with the first stone.
    let output = gametree_with_input(&["connect4", "solve"], "445566 99\n");
    assert_usage_error(
        &output,
        "stdin line 1: score 99 is not a whole number within ±21",
    );
    // A bad column names the board's own columns.
    assert_usage_error_of(
        &["connect4", "analyze", "0", "--width", "5", "--height", "4"],
        "not a column number 1 to 5",
    );
}

#[test]
fn only_the_commands_that_exit_1_say_what_1_means() {
    let help = |args: &[&str]| stdout(&gametree(args));
    assert!(help(&["connect4", "solve", "--help"]).contains("  1  a position's score differs"));
    let kalah = help(&["kalah", "solve", "--help"]);
    assert!(kalah.contains("Exit status:"), "{kalah}");
    assert!(!kalah.contains("  1  "), "{kalah}");
}

#[test]
fn quit_ends_every_play_with_status_0() {
    for args in [
        &["ttt", "play", "--side", "x"][..],
        &["connect4", "play", "--side", "first"][..],
        &[
            "kalah", "play", "--houses", "2", "--seeds", "1", "--side", "first",
        ][..],
        &[
            "checkers",
            "play",
            "--depth",
            "2",
            "--save",
            "/tmp/gametree-first-hour-quit.pdn",
        ][..],
    ] {
        let output = gametree_with_input(args, "quit\n1\n");
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&output)
        );
        let text = stdout(&output);
        assert!(text.contains("): quit"), "{args:?}: {text}");
        // Nothing after `quit` was read as a move.
        assert!(!text.contains("): 1"), "{args:?}: {text}");
    }
}
