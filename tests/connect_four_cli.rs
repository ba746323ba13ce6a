//! `gametree connect4` through the real binary: solving benchmark lines, mismatches (exit
//! 1), bad move strings (one line on stderr naming the move, exit 2), analysis, a game piped
//! into `play`, and `bench` on the excerpts in `tests/data/connect4/`.

mod common;

use common::{assert_usage_error, gametree_with_input as gametree};

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("utf-8")
}

fn excerpt(name: &str) -> String {
    format!("{}/tests/data/connect4/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn solve_prints_moves_score_nodes_and_microseconds_per_line() {
    // The first two lines of Pons' Test_L3_R1, with their scores, and a line without one.
    let input = "2252576253462244111563365343671351441 -1\n\
                 7422341735647741166133573473242566 1\n\
                 445566\n";
    let output = gametree(&["connect4", "solve"], input);
    assert!(output.status.success(), "{output:?}");
    let stdout = text(&output.stdout);
    let lines: Vec<Vec<&str>> = stdout
        .lines()
        .map(|line| line.split(' ').collect())
        .collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    let expected = [
        ("2252576253462244111563365343671351441", "-1"),
        ("7422341735647741166133573473242566", "1"),
        ("445566", "18"),
    ];
    for (fields, (moves, score)) in lines.iter().zip(expected) {
        assert_eq!(fields.len(), 4, "{fields:?}");
        assert_eq!((fields[0], fields[1]), (moves, score));
        let nodes: u64 = fields[2].parse().expect("a node count");
        assert!(nodes >= 1);
        fields[3].parse::<u64>().expect("microseconds");
    }
    assert!(output.stderr.is_empty());
}

#[test]
fn solve_reads_a_file_and_weak_solving_gives_the_sign() {
    let output = gametree(
        &[
            "connect4",
            "solve",
            "--weak",
            &excerpt("Test_L2_R1.first100"),
        ],
        "",
    );
    assert!(output.status.success(), "{output:?}");
    let stdout = text(&output.stdout);
    assert_eq!(stdout.lines().count(), 100);
    for line in stdout.lines() {
        let score: i32 = line
            .split(' ')
            .nth(1)
            .expect("a score")
            .parse()
            .expect("int");
        assert!((-1..=1).contains(&score), "{line}");
    }
}

#[test]
fn a_wrong_expected_score_is_reported_and_the_exit_status_is_1() {
    let output = gametree(
        &["connect4", "solve", "-"],
        "2252576253462244111563365343671351441 5\n445566 18\n",
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(text(&output.stdout).lines().count(), 2, "both lines solved");
    assert_eq!(
        text(&output.stderr),
        "gametree: stdin line 1: 2252576253462244111563365343671351441 scores -1, not 5\n"
    );
}

#[test]
fn illegal_move_strings_are_one_line_errors_naming_the_move() {
    for (input, message) in [
        (
            "448\n",
            "gametree: stdin line 1: \"448\": move 3 ('8'): there is no column 8: the columns \
             are 1 to 7\n",
        ),
        (
            "4455\n1111111\n",
            "gametree: stdin line 2: \"1111111\": move 7 ('1'): column 1 is full\n",
        ),
        (
            "12121214 3\n",
            "gametree: stdin line 1: \"12121214\": move 8 ('4'): the game is already over\n",
        ),
        (
            "44 x\n",
            "gametree: stdin line 1: score \"x\" is not an integer\n",
        ),
    ] {
        let output = gametree(&["connect4", "solve"], input);
        assert_eq!(output.status.code(), Some(2), "{input:?}");
        assert_eq!(text(&output.stderr), message);
    }
    let output = gametree(&["connect4", "analyze", "40"], "");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        text(&output.stderr),
        "gametree: \"40\": move 2 ('0'): not a column number 1 to 7\n"
    );
    let output = gametree(&["connect4", "solve", "/nonexistent/positions"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).starts_with("gametree: cannot read /nonexistent/positions"));
    let output = gametree(
        &["connect4", "analyze", "1", "--width", "9", "--height", "7"],
        "",
    );
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(text(&output.stderr).lines().count(), 1);
}

#[test]
fn analyze_scores_every_column_and_marks_full_ones() {
    // The first line of Pons' Test_L2_R1, scored 4: only column 6 keeps the win; column 5
    // is full.
    let output = gametree(&["connect4", "analyze", "5554224333234511764415115"], "");
    assert!(output.status.success(), "{output:?}");
    assert_eq!(text(&output.stdout), "-8 -8 -8 -8 - 4 -8\n");
    let output = gametree(
        &[
            "connect4", "analyze", "--width", "4", "--height", "4", "2222",
        ],
        "",
    );
    assert!(output.status.success(), "{output:?}");
    let stdout = text(&output.stdout);
    let fields: Vec<&str> = stdout.split_whitespace().collect();
    assert_eq!(fields.len(), 4);
    assert_eq!(fields[1], "-");
    let over = gametree(&["connect4", "analyze", "4455667"], "");
    assert_eq!(over.status.code(), Some(2));
    assert_eq!(
        text(&over.stderr),
        "gametree: \"4455667\": the game is over after move 7 (the first player has four in \
         a row): there is nothing to solve\n"
    );
}

#[test]
fn play_answers_bad_input_and_the_computer_wins_a_careless_game() {
    let output = gametree(
        &[
            "connect4", "play", "--width", "4", "--height", "4", "--as", "first",
        ],
        "x\n9\n1\n1\n1\n1\n2\n4\n",
    );
    assert!(output.status.success(), "{output:?}");
    let stdout = text(&output.stdout);
    assert!(stdout.contains("\"x\" is not a column number 1 to 4; try again."));
    assert!(stdout.contains("there is no column 9: the columns are 1 to 4; try again."));
    assert!(stdout.contains("column 1 is full; try again."), "{stdout}");
    assert!(stdout.contains("The computer (O) plays 3"));
    assert!(stdout.ends_with("The computer wins.\n"), "{stdout}");
}

#[test]
fn play_goes_on_from_the_moves_given() {
    let output = gametree(
        &[
            "connect4", "play", "--width", "5", "--height", "4", "--side", "second", "--moves", "3",
        ],
        "4\n",
    );
    assert!(output.status.success(), "{output:?}");
    let stdout = text(&output.stdout);
    // The first board holds the first player's disc in column 3, and it is the person's
    // (O's) move at once.
    let after_prompt = stdout
        .split("You are O. Type a column number, 1 to 5.")
        .nth(1)
        .expect("a side");
    assert!(
        after_prompt
            .trim_start()
            .starts_with(". . . . .\n. . . . .\n. . . . .\n. . X . ."),
        "{stdout}"
    );
    assert!(stdout.contains("Your move (O): 4"), "{stdout}");
    assert!(stdout.contains(". . X O ."), "{stdout}");
    // A finished game or a wrong move is refused before the game starts.
    for (moves, message) in [
        (
            "1212121",
            "--moves \"1212121\": the game is over after move 7",
        ),
        ("6", "--moves \"6\": move 1 ('6'): there is no column 6"),
    ] {
        let output = gametree(
            &[
                "connect4", "play", "--width", "5", "--height", "4", "--side", "first", "--moves",
                moves,
            ],
            "",
        );
        assert_usage_error(&output, &format!("gametree: {message}"));
    }
}

#[test]
fn play_asks_for_a_side_and_stops_quietly_at_the_end_of_input() {
    let output = gametree(
        &["connect4", "play", "--width", "5", "--height", "4"],
        "3\n2\n",
    );
    assert!(output.status.success(), "{output:?}");
    let stdout = text(&output.stdout);
    assert!(stdout.contains("\"3\" is neither 1 nor 2; try again."));
    assert!(stdout.contains("You are O."));
    assert!(stdout.contains("The computer (X) plays"));
    assert!(!stdout.contains("wins") || stdout.contains("it wins"));
}

#[test]
fn bench_reports_each_file_and_checks_every_score() {
    let output = gametree(
        &[
            "connect4",
            "bench",
            &excerpt("Test_L3_R1.first100"),
            &excerpt("Test_L2_R1.first100"),
        ],
        "",
    );
    assert!(output.status.success(), "{output:?}");
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(lines[0].starts_with("file"));
    for (line, name) in lines[1..]
        .iter()
        .zip(["Test_L3_R1.first100", "Test_L2_R1.first100"])
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields[0], name);
        assert_eq!(fields[1], "100");
        // Mean time and mean CPU time per position, in milliseconds (a CPU clock on Unix).
        assert!(
            fields[2].parse::<f64>().is_ok() && fields[3] == "ms",
            "{line}"
        );
        if cfg!(unix) {
            assert!(
                fields[4].parse::<f64>().is_ok() && fields[5] == "ms",
                "{line}"
            );
        }
        assert!(line.ends_with("all correct"), "{line}");
    }
    let output = gametree(&["connect4", "bench", "--lines", "3", "-"], "445566 17\n");
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("445566 scores 18, not 17"));
    let output = gametree(&["connect4", "bench", "-"], "445566\n");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn the_docs_show_what_analyze_and_weak_solve_print() {
    // The README's connect4 section moved to docs/connect4.md (issue 13).
    let section = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/connect4.md"))
        .expect("read docs/connect4.md");
    for args in [
        &["connect4", "analyze", "5554224333234511764415115"][..],
        &[
            "connect4", "analyze", "4455", "--width", "5", "--height", "4",
        ][..],
    ] {
        let output = gametree(args, "");
        assert!(output.status.success(), "{output:?}");
        let printed = text(&output.stdout);
        assert!(
            section.contains(&printed),
            "docs/connect4.md lacks {printed:?} for {args:?}"
        );
    }
    // The scores (not the node counts or times) of the docs' solve examples.
    let output = gametree(
        &[
            "connect4",
            "solve",
            "--weak",
            &excerpt("Test_L2_R1.first100"),
        ],
        "",
    );
    for line in text(&output.stdout).lines().take(3) {
        let moves_and_score: Vec<&str> = line.split(' ').take(2).collect();
        let prefix = format!("{} ", moves_and_score.join(" "));
        assert!(
            section.contains(&prefix),
            "docs/connect4.md lacks {prefix:?}"
        );
    }
}

#[test]
fn play_on_the_standard_board_goes_by_proved_bounds_within_its_budget() {
    let output = gametree(
        &[
            "connect4",
            "play",
            "--as",
            "first",
            "--max-nodes",
            "1000",
            "--no-book",
        ],
        "4\n",
    );
    assert!(output.status.success(), "{output:?}");
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("not solved within 1000 positions"),
        "{stdout}"
    );
    let output = gametree(&["connect4", "play", "--max-nodes", "0"], "");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        text(&output.stderr),
        "gametree: --max-nodes 0: the computer needs to search at least one position\n"
    );
}

/// A fresh path under the system's temporary directory for one test's book.
fn book_path(name: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("gametree-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn a_book_goes_on_where_it_stopped_and_its_scores_check_out() {
    let path = book_path("resume");
    let file = path.to_str().expect("a UTF-8 path");
    let board = ["--width", "5", "--height", "4"];
    let run = |plies: &str| {
        let mut args = vec!["connect4", "book", file, "--plies", plies, "--json"];
        args.extend(board);
        let output = gametree(&args, "");
        assert!(output.status.success(), "{output:?}");
        text(&output.stdout)
    };
    // 5×4, mirror images once: 1 empty board, 3 of one stone (columns 1–3), 13 of two
    // ((25 − 1)/2 + 1: (3, 3) is its own mirror image) = 17; up to three stones, 66 (17
    // and the 49 of three stones that `positions_up_to` enumerates).
    assert!(run("2").contains(r#""positions":17,"solved":17,"kept":0"#));
    // A run stopped while writing a line leaves it cut short: it is solved again.
    let mut partial = std::fs::read_to_string(&path).expect("the book");
    partial.push_str("12");
    std::fs::write(&path, &partial).expect("written");
    assert!(run("3").contains(r#""positions":66,"solved":49,"kept":17"#));
    assert!(run("3").contains(r#""solved":0,"kept":66"#));
    // Every line is a position and its score, as a benchmark file: `solve` checks them all.
    let mut args = vec!["connect4", "solve", file];
    args.extend(board);
    let output = gametree(&args, "");
    assert!(output.status.success(), "{output:?}");
    assert_eq!(text(&output.stdout).lines().count(), 66);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn analyze_reads_the_book_it_is_given_and_no_book_solves() {
    // A book that lies about one successor shows the lie: it is read, not solved again.
    let path = book_path("lie");
    std::fs::write(&path, "3 5\n").expect("written");
    let file = path.to_str().expect("a UTF-8 path");
    let board = ["--width", "5", "--height", "4"];
    let analyze = |extra: &[&str]| {
        let mut args = vec!["connect4", "analyze", "--book", file];
        args.extend(board);
        args.extend(extra);
        let output = gametree(&args, "");
        assert!(output.status.success(), "{output:?}");
        text(&output.stdout)
    };
    assert_eq!(analyze(&[]), "-1 0 -5 0 -1\n");
    // The mirror image of 1 is 5: one entry for both.
    std::fs::write(&path, "1 7\n").expect("written");
    assert_eq!(analyze(&["--threads", "1"]), "-7 0 0 0 -7\n");
    // Without a book, the empty 5×4 board's true scores.
    let mut args = vec!["connect4", "analyze", "--no-book"];
    args.extend(board);
    assert_eq!(text(&gametree(&args, "").stdout), "-1 0 0 0 -1\n");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_malformed_book_is_named_with_its_line() {
    let path = book_path("bad");
    std::fs::write(&path, "4 1\n48 2\n").expect("written");
    let file = path.to_str().expect("a UTF-8 path");
    for args in [
        vec!["connect4", "analyze", "44", "--book", file],
        vec!["connect4", "book", file, "--plies", "1"],
    ] {
        let output = gametree(&args, "");
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        let stderr = text(&output.stderr);
        assert!(
            stderr.contains("line 2") && stderr.contains("column 8"),
            "{stderr}"
        );
    }
    let output = gametree(&["connect4", "book", file, "--plies", "11"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("--plies 11: at most 10"));
    let _ = std::fs::remove_file(&path);
}
