//! Shared by the integration tests: running the real `gametree` binary and checking what it
//! says, and the seed texts several tests compare against.

// Each test file uses only some of these.
#![allow(dead_code)]

use std::fmt::Debug;
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `gametree ARGS` in the package's root (so `tests/data/...` paths work), with
/// nothing on standard input.
pub fn gametree(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gametree"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run the gametree binary")
}

/// Runs `gametree ARGS` in the package's root with `input` on standard input.
pub fn gametree_with_input(args: &[&str], input: &str) -> Output {
    gametree_in(Path::new(env!("CARGO_MANIFEST_DIR")), args, input)
}

/// Runs `gametree ARGS` in `directory` (where the files it writes land) with `input` on
/// standard input.
pub fn gametree_in(directory: &Path, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gametree"))
        .args(args)
        .current_dir(directory)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the gametree binary");
    let written = child
        .stdin
        .take()
        .expect("piped")
        .write_all(input.as_bytes());
    // The binary may reject its options before reading any input.
    if let Err(error) = written {
        assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe, "{error}");
    }
    child.wait_with_output().expect("the binary finishes")
}

/// Runs `gametree tree ARGS` with `input` (the tree) on standard input.
pub fn tree(args: &[&str], input: &str) -> Output {
    let args: Vec<&str> = std::iter::once("tree")
        .chain(args.iter().copied())
        .collect();
    gametree_with_input(&args, input)
}

/// Standard output as text, whatever the exit status.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

/// Standard error as text, whatever the exit status.
pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

/// Standard output of a run that must have succeeded.
pub fn success_stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "failed with {:?}: {}",
        output.status.code(),
        String::from_utf8_lossy(&output.stderr)
    );
    stdout(output)
}

/// The one JSON object a run that must have succeeded prints.
pub fn json(output: &Output) -> serde_json::Value {
    serde_json::from_str(&success_stdout(output)).expect("one JSON object")
}

/// Asserts a usage error: exit status 2, nothing on standard output, and a single line on
/// standard error that starts with `gametree: ` and contains `message`.
pub fn assert_usage_error(output: &Output, message: &str) {
    check_usage_error(output, message, &"");
}

/// Runs `gametree ARGS` and asserts a usage error, as [`assert_usage_error`].
pub fn assert_usage_error_of(args: &[&str], message: &str) {
    check_usage_error(&gametree(args), message, &args);
}

fn check_usage_error(output: &Output, message: &str, context: &dyn Debug) {
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{context:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{context:?}: one line, got {err:?}");
    assert!(err.starts_with("gametree: "), "{context:?}: {err}");
    assert!(
        err.contains(message),
        "{context:?}: {err:?} lacks {message:?}"
    );
    assert!(
        output.stdout.is_empty(),
        "{context:?}: {}",
        String::from_utf8_lossy(&output.stdout)
    );
}

/// The text with all whitespace runs made single spaces and spaces next to parentheses
/// dropped, so a tree printed over several lines compares with one printed on one.
pub fn normalized(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    words.join(" ").replace("( ", "(").replace(" )", ")")
}

/// Seed 000, end of "2-dimensional Tic Tac Toe", Example 1: `tmax[p1, -1000, 1000]`.
pub const EXAMPLE_1_TMAX: &str = "
       (0
        (5 (10 6 (4 7 (3 11 0))))
        ((3 7 (4 11 (5 10 -2)))
         (4 5 (11 7 (3 6 (10 0))))
         (6 5 (11 3 (7 10 (4 0))))
         (7 5 (11 10 (4 6 (3 0)) (3 6 (4 0)) (6 3 (4 0))))
         (11 7 (4 5 (3 6 (10 0))))
         (5 10 (11 4 (7 3 (6 0)))
               (7 3 (11 6 (4 0)) (4 6 (11 0)) (6 4 (11 0)))
               (3 7 (4 11 -2))
               (4 6 (11 3 (7 0)) (7 3 (11 0)) (3 7 (11 0)))
               (6 4 (7 3 (11 0))) )
         (10 5 (11 7 (3 4 -2))) ) )";

/// Seed 000, end of "2-dimensional Tic Tac Toe", Example 2: `tmax[p1, -1000, 1000]`.
pub const EXAMPLE_2_TMAX: &str = "
       (3
        (11 (6 7 (5 10 3)))
        ((2 7 (4 11 (5 0)))
         (4 5 (11 6 (2 0) (10 0) (7 0)))
         (10 11 (5 7 (2 3)))
         (5 7 (4 6 (11 0) (10 0) (2 0)))
         (6 11 (5 7 (4 3)))
         (7 5 (11 6 (10 3)))
         (11 6 (7 5 (10 3))) ) )";
