//! The `gametree checkers` command, run as a user runs it.

use std::process::{Command, Output};

fn gametree(arguments: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gametree"))
        .args(arguments)
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn perft_prints_the_node_count_time_and_speed() {
    let output = gametree(&["checkers", "perft", "7"]);
    assert!(output.status.success());
    let text = stdout(&output);
    // OEIS A133046: perft 7 from the initial position is 179740.
    assert!(text.contains("nodes    179740\n"), "{text}");
    assert!(text.contains("time     "), "{text}");
    assert!(text.contains("nodes/s  "), "{text}");
}

#[test]
fn perft_divide_lists_each_move_with_its_count() {
    let output = gametree(&["checkers", "perft", "3", "--divide"]);
    assert!(output.status.success());
    let text = stdout(&output);
    let divided: Vec<(&str, u64)> = text
        .lines()
        .filter(|line| line.contains('-') && !line.starts_with("position"))
        .map(|line| {
            let mut parts = line.split_whitespace();
            let mv = parts.next().expect("a move");
            let count = parts.next().expect("a count").parse().expect("a number");
            (mv, count)
        })
        .collect();
    // OEIS A133046: 7 moves from the initial position, 302 leaves at depth 3.
    assert_eq!(divided.len(), 7, "{text}");
    assert_eq!(divided.iter().map(|(_, count)| count).sum::<u64>(), 302);
    assert!(text.contains("nodes    302\n"), "{text}");
}

#[test]
fn perft_from_a_fen_counts_that_position() {
    // Black king on 10 inside a ring of four white men: two ways round the ring.
    let output = gametree(&["checkers", "perft", "1", "--fen", "B:W14,15,22,23:BK10"]);
    assert!(output.status.success());
    assert!(
        stdout(&output).contains("nodes    2\n"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn a_malformed_fen_exits_2_with_one_line_naming_the_column() {
    let output = gametree(&["checkers", "perft", "3", "--fen", "B:W18,24,33:B1"]);
    assert_eq!(output.status.code(), Some(2));
    let error = String::from_utf8_lossy(&output.stderr);
    assert_eq!(error.lines().count(), 1, "{error}");
    assert!(error.contains("column 10"), "{error}");
    assert!(error.contains("out of range"), "{error}");
}

#[test]
fn an_absurd_depth_exits_2() {
    let output = gametree(&["checkers", "perft", "1000"]);
    assert_eq!(output.status.code(), Some(2));
    let output = gametree(&["checkers", "perft", "minus-one"]);
    assert_eq!(output.status.code(), Some(2));
}
