//! Every command the documentation shows, run as a user would run it, so that the README,
//! docs/ and `--help` cannot drift from what the binary does (issue 13).
//!
//! - In README.md and docs/*.md, each ```` ```console ```` block is a transcript: a line
//!   `$ COMMAND` is run by `sh` in the package's root with the `gametree` under test first on
//!   the `PATH`, and the lines after it, up to the next `$ ` line, are what it prints
//!   (standard output and standard error together).
//! - Each ```` ```sh ```` block holds commands shown but not transcribed, often long runs: each
//!   line that runs `gametree` (or `cargo run --release -- ARGS`, run as `gametree ARGS`) is
//!   started in a scratch directory (with `data/`, `tests/` and
//!   `results/checkers-learning/` at hand) and must either still
//!   be running after two seconds or have exited with status 0.
//! - Each `Examples:` section of each `--help` is a transcript as above, its lines indented
//!   by two spaces.
//!
//! In an expected line `[..]` matches any text; a line `...` matches any number of lines;
//! blank lines at the end are not compared. A transcript's command that runs for more than
//! two minutes is stopped and fails.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `PATH` with the directory of the binary under test first.
fn path_with_binary() -> String {
    let binary = Path::new(env!("CARGO_BIN_EXE_gametree"));
    let directory = binary.parent().expect("the binary is in a directory");
    format!(
        "{}:{}",
        directory.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// One command of a transcript and what it prints.
#[derive(Debug)]
struct Example {
    /// Where it is shown: file and line.
    place: String,
    command: String,
    expected: Vec<String>,
}

/// The transcripts of ```` ```console ```` blocks, and the lines of ```` ```sh ```` blocks.
fn examples_in_markdown(path: &Path) -> (Vec<Example>, Vec<Example>) {
    let text = std::fs::read_to_string(path).expect("readable documentation");
    let name = path
        .strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string();
    let mut transcripts = Vec::new();
    let mut commands = Vec::new();
    let mut block: Option<&str> = None;
    // The transcripts found before the current block: its output lines belong to its own.
    let mut block_start = 0;
    for (index, line) in text.lines().enumerate() {
        let place = format!("{name}:{}", index + 1);
        match block {
            None => {
                if let Some(info) = line.trim_start().strip_prefix("```") {
                    block = Some(if info.starts_with("console") {
                        "console"
                    } else if info == "sh" || info == "bash" {
                        "sh"
                    } else {
                        "other"
                    });
                    block_start = transcripts.len();
                }
            }
            Some(kind) => {
                if line.trim_start().starts_with("```") {
                    block = None;
                } else if kind == "console" {
                    if let Some(command) = line.strip_prefix("$ ") {
                        transcripts.push(Example {
                            place,
                            command: command.to_string(),
                            expected: Vec::new(),
                        });
                    } else if transcripts.len() > block_start {
                        let example = transcripts.last_mut().expect("one of this block");
                        example.expected.push(line.to_string());
                    } else if !line.trim().is_empty() {
                        panic!("{place}: output before any `$ ` line of its block: {line:?}");
                    }
                } else if kind == "sh" {
                    // `cargo run --release -- ARGS` is `gametree ARGS`: the binary under test.
                    let command = match line.trim().strip_prefix("cargo run --release -- ") {
                        Some(arguments) => format!("gametree {arguments}"),
                        None => line.trim().to_string(),
                    };
                    let runs_gametree =
                        command.starts_with("gametree ") || command.contains("| gametree ");
                    if runs_gametree && !command.starts_with('#') {
                        commands.push(Example {
                            place,
                            command,
                            expected: Vec::new(),
                        });
                    }
                }
            }
        }
    }
    (transcripts, commands)
}

/// Whether `actual` matches `pattern`, where `[..]` matches any text.
fn line_matches(pattern: &str, actual: &str) -> bool {
    let mut parts = pattern.split("[..]");
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = actual.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (index, part) in parts.iter().enumerate() {
        if index + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Whether the lines of `actual` match the expected lines, where a line `...` matches any
/// number of lines (found by backtracking).
fn lines_match(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual.split_first().is_some_and(|(line, others)| {
            line_matches(first.trim_end(), line.trim_end()) && lines_match(rest, others)
        }),
    }
}

fn shell(command: &str, directory: &Path) -> Command {
    let mut shell = Command::new("sh");
    shell
        .arg("-c")
        .arg(format!("exec 2>&1; {command}"))
        .current_dir(directory)
        .env("PATH", path_with_binary())
        .env_remove("GAMETREE_LOG")
        .stdin(Stdio::null());
    shell
}

/// The longest one transcript's command may run: a command that waits for ever fails the
/// test instead of hanging it.
const TRANSCRIPT_LIMIT: Duration = Duration::from_secs(120);

/// Sends `signal` to the process group `group`. (`kill -TERM -GROUP` would not do: procps'
/// kill reads `-GROUP` as options, signals nothing and still exits 0.)
fn signal_group(signal: &str, group: u32) {
    let _ = Command::new("kill")
        .args(["-s", signal, "--", &format!("-{group}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// Stops a command started in a process group of its own, and its pipeline: SIGTERM, and
/// SIGKILL if that has not ended it within five seconds.
fn stop(child: &mut Child) {
    signal_group("TERM", child.id());
    let asked = Instant::now();
    while child.try_wait().expect("waitable").is_none() {
        if asked.elapsed() > Duration::from_secs(5) {
            signal_group("KILL", child.id());
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.wait();
}

/// Runs `command` in the package's root and returns what it printed and its exit status,
/// `None` when it ran past [`TRANSCRIPT_LIMIT`] and was stopped.
fn run_with_limit(command: &str) -> (String, Option<i32>) {
    let mut child = shell(command, root())
        .stdout(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("sh runs");
    let mut stdout = child.stdout.take().expect("piped");
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stdout.read_to_end(&mut bytes);
        let _ = sender.send(bytes);
    });
    let (bytes, status) = match receiver.recv_timeout(TRANSCRIPT_LIMIT) {
        Ok(bytes) => (bytes, child.wait().expect("waitable").code()),
        Err(_) => {
            stop(&mut child);
            (receiver.recv().unwrap_or_default(), None)
        }
    };
    (String::from_utf8_lossy(&bytes).into_owned(), status)
}

/// Runs each transcript and returns a description of every mismatch. Blank lines at the
/// end of what is shown and of what is printed are left out of the comparison.
fn run_transcripts(examples: &[Example]) -> Vec<String> {
    let mut failures = Vec::new();
    for example in examples {
        let (text, status) = run_with_limit(&example.command);
        let mut expected = example.expected.clone();
        while expected.last().is_some_and(|line| line.trim().is_empty()) {
            expected.pop();
        }
        let mut actual: Vec<&str> = text.lines().collect();
        while actual.last().is_some_and(|line| line.trim().is_empty()) {
            actual.pop();
        }
        if !lines_match(&expected, &actual) {
            let status = status.map_or(
                format!("stopped after {} s", TRANSCRIPT_LIMIT.as_secs()),
                |code| format!("status {code}"),
            );
            failures.push(format!(
                "{}: $ {}\n--- expected\n{}\n--- printed ({status})\n{}",
                example.place,
                example.command,
                expected.join("\n"),
                text
            ));
        }
    }
    failures
}

fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

#[test]
fn every_transcript_in_the_readme_and_docs_prints_what_it_shows() {
    let mut examples = Vec::new();
    for file in markdown_files() {
        examples.extend(examples_in_markdown(&file).0);
    }
    assert!(
        examples.len() >= 40,
        "only {} transcripts found",
        examples.len()
    );
    let failures = run_transcripts(&examples);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_command_shown_without_a_transcript_starts_and_is_accepted() {
    let scratch = std::env::temp_dir().join(format!("gametree-docs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("a scratch directory");
    // results/checkers-learning and results/checkers-match hold the weights and game files
    // that commands read (no `gametree` command shown writes there); the rest of results/
    // stays out of reach, since commands shown write there (--out results/...).
    std::fs::create_dir_all(scratch.join("results")).expect("a scratch results/");
    for name in [
        "data",
        "tests",
        "results/checkers-learning",
        "results/checkers-match",
    ] {
        std::os::unix::fs::symlink(root().join(name), scratch.join(name)).expect("a link");
    }
    let mut failures = Vec::new();
    let mut count = 0;
    for file in markdown_files() {
        for example in examples_in_markdown(&file).1 {
            count += 1;
            let mut child = shell(&example.command, &scratch)
                .stdout(Stdio::piped())
                .process_group(0)
                .spawn()
                .expect("sh runs");
            let started = Instant::now();
            let status = loop {
                if let Some(status) = child.try_wait().expect("waitable") {
                    break Some(status);
                }
                if started.elapsed() > Duration::from_secs(2) {
                    break None;
                }
                std::thread::sleep(Duration::from_millis(20));
            };
            match status {
                // Still at work: its options were accepted. Stop it and its pipeline.
                None => stop(&mut child),
                Some(status) if status.success() => {}
                Some(status) => {
                    let output = child.wait_with_output().expect("output");
                    failures.push(format!(
                        "{}: $ {}\nexit status {:?}:\n{}",
                        example.place,
                        example.command,
                        status.code(),
                        String::from_utf8_lossy(&output.stdout)
                    ));
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(count >= 5, "only {count} commands found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Every subcommand's words, found by reading the `Commands:` sections of the help.
fn every_command(path: &[String]) -> Vec<Vec<String>> {
    let output = Command::new(env!("CARGO_BIN_EXE_gametree"))
        .args(path)
        .arg("--help")
        .output()
        .expect("the binary runs");
    let help = String::from_utf8_lossy(&output.stdout).into_owned();
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
fn every_example_in_every_help_prints_what_it_shows() {
    let mut examples = Vec::new();
    for command in every_command(&[]) {
        let output = Command::new(env!("CARGO_BIN_EXE_gametree"))
            .args(&command)
            .arg("--help")
            .output()
            .expect("the binary runs");
        let help = String::from_utf8_lossy(&output.stdout).into_owned();
        let Some(section) = help
            .split("\nExamples:\n")
            .nth(1)
            .or_else(|| help.split("\nExample:\n").nth(1))
        else {
            continue;
        };
        let place = format!("gametree {} --help", command.join(" "));
        let first = examples.len();
        for line in section.lines() {
            let Some(line) = line.strip_prefix("  ") else {
                break;
            };
            if let Some(shown) = line.strip_prefix("$ ") {
                examples.push(Example {
                    place: place.clone(),
                    command: shown.to_string(),
                    expected: Vec::new(),
                });
            } else if examples.len() > first {
                examples
                    .last_mut()
                    .expect("one of this help")
                    .expected
                    .push(line.to_string());
            } else {
                panic!("{place}: an example line before any `$ ` line: {line:?}");
            }
        }
    }
    assert!(
        examples.len() >= 15,
        "only {} help examples found",
        examples.len()
    );
    let failures = run_transcripts(&examples);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_matcher_takes_wildcards_within_and_across_lines() {
    assert!(line_matches("nodes [..] in [..] s", "nodes 12 in 0.5 s"));
    assert!(!line_matches("nodes [..] in", "nodes 12 out"));
    assert!(line_matches("exact", "exact"));
    let expected: Vec<String> = ["a", "...", "d"].iter().map(ToString::to_string).collect();
    assert!(lines_match(&expected, &["a", "b", "c", "d"]));
    assert!(lines_match(&expected, &["a", "d"]));
    assert!(!lines_match(&expected, &["a", "b"]));
}

#[test]
fn a_command_that_is_stopped_ends_with_its_whole_pipeline_at_once() {
    let mut child = shell("sleep 60 | sleep 60", root())
        .process_group(0)
        .spawn()
        .expect("sh runs");
    std::thread::sleep(Duration::from_millis(200));
    let asked = Instant::now();
    stop(&mut child);
    assert!(
        asked.elapsed() < Duration::from_secs(3),
        "SIGTERM to the process group did not end it"
    );
}
