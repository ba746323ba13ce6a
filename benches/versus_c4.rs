//! gametree against Christophe Steininger's `c4`, the fastest open Connect Four solver,
//! one after the other on the same machine: the empty 7×6 board (strongly, to its score
//! +1) on one thread and on two, and the first lines of Pascal Pons' benchmark sets.
//! Prints per problem both times, their ratio (gametree's over c4's: below 1 is faster),
//! the positions each searched and each one's peak memory.
//!
//! ```sh
//! C4_BIN=/tmp/anchors/bin/steininger-c4-t1 C4_BIN_2=/tmp/anchors/bin/steininger-c4-t2 \
//!     cargo bench --bench versus_c4
//! ```
//!
//! c4 is AGPL: the project neither ships nor builds it. Build it beside the project from
//! its public source (github.com/ChristopheSteininger/c4) with a driver that reads
//! `MOVES` lines (1-based columns, an empty line for the empty board) and prints
//! `score nodes wall_us cpu_us` per line, one binary per thread count (c4 fixes it when
//! built). Settings, from the environment:
//! - `C4_BIN`: c4's driver on one thread; without it the comparison is skipped, and says
//!   so;
//! - `C4_BIN_2`: c4's driver on two threads (without it, two threads are not compared);
//! - `VS_C4_LINES`: the lines of each benchmark set (default 100; 0 leaves the sets out);
//! - `VS_C4_EMPTY`: 0 leaves the empty board out.
//!
//! Both programs are run as child processes, given the same positions on standard input;
//! the time is what each reports for its solving (not its start nor its table's
//! allocation), the memory the child's peak resident set (`VmHWM`, read from `/proc` while
//! it runs: Linux only).

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Pons' sets, from the end game to the opening; the files are the project's copies.
const SETS: [&str; 5] = [
    "Test_L3_R1",
    "Test_L2_R1",
    "Test_L2_R2",
    "Test_L1_R1",
    "Test_L1_R2",
];

/// What one program did on one problem.
struct Run {
    /// Seconds of solving, summed over the positions, as the program reports them.
    seconds: f64,
    positions: u64,
    /// The peak resident set of the process, in bytes (0 where `/proc` has none).
    peak_bytes: u64,
    /// The score of each position, in order.
    scores: Vec<i32>,
}

fn main() {
    let Some(c4) = std::env::var_os("C4_BIN") else {
        println!(
            "versus_c4: skipped: C4_BIN is not set (the path of c4's driver; see this \
             benchmark's documentation, benches/versus_c4.rs)"
        );
        return;
    };
    let c4_two = std::env::var_os("C4_BIN_2");
    let lines: usize = setting("VS_C4_LINES", 100);
    let empty = setting("VS_C4_EMPTY", 1) != 0;
    let gametree = env!("CARGO_BIN_EXE_gametree");
    let mut problems: Vec<(String, String, usize)> = Vec::new();
    if empty {
        problems.push(("empty 7×6 board".into(), "\n".into(), 1));
        problems.push(("empty 7×6 board".into(), "\n".into(), 2));
    }
    if lines > 0 {
        for set in SETS {
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("data/connect4")
                .join(set);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|error| fail(&format!("{}: {error}", path.display())));
            let input: String = text
                .lines()
                .take(lines)
                .map(|line| {
                    let moves = line.split_whitespace().next().unwrap_or_default();
                    format!("{moves}\n")
                })
                .collect();
            problems.push((format!("{set} ({lines} lines)"), input, 1));
        }
    }
    println!(
        "{:<24} {:>7} {:>10} {:>10} {:>6} {:>13} {:>13} {:>9} {:>9}",
        "problem",
        "threads",
        "c4 s",
        "gametree s",
        "ratio",
        "c4 positions",
        "gt positions",
        "c4 MiB",
        "gt MiB"
    );
    for (name, input, threads) in problems {
        let c4_binary = match threads {
            1 => c4.clone(),
            _ => match &c4_two {
                Some(binary) => binary.clone(),
                None => {
                    println!("{name:<24} {threads:>7}  skipped: C4_BIN_2 is not set");
                    continue;
                }
            },
        };
        let theirs = run(Command::new(&c4_binary), &input, parse_c4);
        let mut ours_command = Command::new(gametree);
        ours_command.args([
            "connect4",
            "solve",
            "--quiet",
            "--threads",
            &threads.to_string(),
        ]);
        let ours = run(ours_command, &input, parse_gametree);
        if theirs.scores != ours.scores {
            fail(&format!(
                "{name}: the scores differ: c4 {:?}, gametree {:?}",
                theirs.scores, ours.scores
            ));
        }
        println!(
            "{name:<24} {threads:>7} {:>10.3} {:>10.3} {:>6.2} {:>13} {:>13} {:>9} {:>9}",
            theirs.seconds,
            ours.seconds,
            ours.seconds / theirs.seconds,
            theirs.positions,
            ours.positions,
            mebibytes(theirs.peak_bytes),
            mebibytes(ours.peak_bytes)
        );
    }
}

/// A peak memory in MiB, `-` when the process ended before it was read.
fn mebibytes(bytes: u64) -> String {
    if bytes == 0 {
        "-".to_string()
    } else {
        (bytes >> 20).to_string()
    }
}

/// An unsigned setting from the environment, or `default`.
fn setting(name: &str, default: usize) -> usize {
    match std::env::var(name) {
        Err(_) => default,
        Ok(text) => text
            .trim()
            .parse()
            .unwrap_or_else(|_| fail(&format!("{name}={text}: expected a whole number"))),
    }
}

fn fail(message: &str) -> ! {
    eprintln!("versus_c4: {message}");
    std::process::exit(2);
}

/// Runs `command` with `input` on its standard input, watching its peak memory, and reads
/// its output with `parse` (a line's score, positions and microseconds).
fn run(mut command: Command, input: &str, parse: fn(&str) -> Option<(i32, u64, u64)>) -> Run {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|error| fail(&format!("cannot start {command:?}: {error}")));
    let status_path = format!("/proc/{}/status", child.id());
    let mut stdin = child.stdin.take().expect("a piped stdin");
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let mut stdout = child.stdout.take().expect("a piped stdout");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).map(|_| text)
    });
    let mut peak_bytes = 0;
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child
            .try_wait()
            .unwrap_or_else(|error| fail(&format!("{command:?}: {error}")))
        {
            break status;
        }
        peak_bytes = peak_bytes.max(peak_resident_bytes(&status_path).unwrap_or(0));
        // Often at first, when the tables are allocated, then every 50 ms.
        let pause = if started.elapsed() < Duration::from_secs(1) {
            5
        } else {
            50
        };
        std::thread::sleep(Duration::from_millis(pause));
    };
    if !status.success() {
        fail(&format!("{command:?} failed: {status}"));
    }
    let _ = writer.join();
    let text = reader
        .join()
        .ok()
        .and_then(Result::ok)
        .unwrap_or_else(|| fail(&format!("cannot read the output of {command:?}")));
    let mut result = Run {
        seconds: 0.0,
        positions: 0,
        peak_bytes,
        scores: Vec::new(),
    };
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        let (score, positions, microseconds) =
            parse(line).unwrap_or_else(|| fail(&format!("{command:?} printed {line:?}")));
        result.scores.push(score);
        result.positions += positions;
        result.seconds += microseconds as f64 / 1e6;
    }
    result
}

/// c4's driver: `score nodes wall_us cpu_us`.
fn parse_c4(line: &str) -> Option<(i32, u64, u64)> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    match fields[..] {
        [score, nodes, wall, _cpu] => {
            Some((score.parse().ok()?, nodes.parse().ok()?, wall.parse().ok()?))
        }
        _ => None,
    }
}

/// `gametree connect4 solve`: `MOVES SCORE NODES MICROSECONDS` (no MOVES for the empty
/// board).
fn parse_gametree(line: &str) -> Option<(i32, u64, u64)> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let [score, nodes, microseconds] = fields[fields.len().checked_sub(3)?..] else {
        return None;
    };
    Some((
        score.parse().ok()?,
        nodes.parse().ok()?,
        microseconds.parse().ok()?,
    ))
}

/// The peak resident set (`VmHWM`) in a `/proc/PID/status` file, in bytes.
fn peak_resident_bytes(status_path: &str) -> Option<u64> {
    let status = std::fs::read_to_string(status_path).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
