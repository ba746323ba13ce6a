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

/// A `gametree serve --port 0` running for one test, stopped when dropped.
pub struct Server {
    child: std::process::Child,
    /// `http://127.0.0.1:PORT/`.
    pub url: String,
    /// `127.0.0.1:PORT`.
    pub address: String,
}

impl Server {
    /// Starts the server on a free port and reads the address it prints.
    pub fn start() -> Server {
        use std::io::BufRead as _;
        let mut child = Command::new(env!("CARGO_BIN_EXE_gametree"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start gametree serve");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut line = String::new();
        std::io::BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the server's first line");
        let url = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        let address = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        Server {
            child,
            url,
            address,
        }
    }

    /// Sends one request (`body` as JSON for POST) and answers the status, the headers (lower
    /// case names) and the body. HTTP/1.1 with `Connection: close`, by hand: what a client
    /// sends, nothing more.
    pub fn request(&self, method: &str, path: &str, body: &str) -> (u16, String, String) {
        use std::io::Read as _;
        let mut stream =
            std::net::TcpStream::connect(&self.address).expect("connect to the server");
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.address,
            body.len()
        );
        stream
            .write_all(request.as_bytes())
            .expect("send the request");
        let mut response = Vec::new();
        stream
            .read_to_end(&mut response)
            .expect("read the response");
        let response = String::from_utf8(response).expect("a UTF-8 response");
        let (head, body) = response.split_once("\r\n\r\n").expect("a head and a body");
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|code| code.parse().ok())
            .expect("a status code");
        let headers = head.to_ascii_lowercase();
        let body = if headers.contains("transfer-encoding: chunked") {
            dechunk(body)
        } else {
            body.to_string()
        };
        (status, headers, body)
    }

    /// `POST path` with a JSON body: the status and the JSON answer.
    pub fn post(&self, path: &str, body: &str) -> (u16, serde_json::Value) {
        let (status, _, body) = self.request("POST", path, body);
        let json = serde_json::from_str(&body)
            .unwrap_or_else(|error| panic!("{path}: not JSON ({error}): {body}"));
        (status, json)
    }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).expect("a chunk size");
        if size == 0 {
            break;
        }
        out.push_str(&rest[..size]);
        body = &rest[size + 2..];
    }
    out
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Checkers without the draw rules: a position's value is then its own, whatever the
/// game before it (what a table's key needs).
pub const NO_DRAW_RULES: gametree::games::checkers::DrawRules =
    gametree::games::checkers::DrawRules {
        quiet_move_limit: 0,
        repetitions: 0,
    };

/// `count` positions reached by random play from the start, 0 to 59 plies in, none over.
pub fn random_checkers_positions(
    count: usize,
    seed: u64,
) -> Vec<gametree::games::checkers::Position> {
    let mut rng = gametree::SplitMix64::new(seed);
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    while positions.len() < count {
        let mut position = gametree::games::checkers::Position::initial();
        let plies = rng.below(60);
        for _ in 0..plies {
            moves.clear();
            position.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            position = position.play(moves[rng.index(moves.len())]);
        }
        if position.has_legal_move() {
            positions.push(position);
        }
    }
    positions
}

/// The value of each completed iteration of a deepening, shallowest first: what two
/// searches that must agree are compared by.
pub fn iteration_values<M, V: Copy>(result: &gametree::DeepeningResult<M, V>) -> Vec<V> {
    result
        .iterations
        .iter()
        .map(|iteration| iteration.value)
        .collect()
}

/// The shot of tests/quiescence.rs: Black to move, 17-21 wins a man and crowns. An option
/// that cuts the tree below the root (late move reductions, verified pruning) must still
/// play it at every depth of `depths`.
pub fn assert_the_quiescence_shot_is_played(
    options: &gametree::SearchOptions,
    depths: std::ops::RangeInclusive<u32>,
) {
    use gametree::games::checkers::{Checkers, Position};
    let fen = "B:W19,22,23,25,26,27:B5,7,8,11,12,13,17";
    let position = Position::from_fen(fen).expect("valid FEN");
    let shot = position.parse_move("17-21").expect("legal");
    let mut game = Checkers::from_position(position).with_rules(NO_DRAW_RULES);
    for depth in depths {
        let result = gametree::iterative_deepening(&mut game, depth, options, |_| {});
        assert_eq!(result.best_move, Some(shot), "depth {depth}");
    }
}

/// Minimax's step, written out plainly for reference searches: the best, for the player to
/// move, of `value_after` each move (the game's value where there is no move).
pub fn best_after_each_move<G: gametree::Game>(
    game: &mut G,
    mut value_after: impl FnMut(&mut G) -> G::Value,
) -> G::Value {
    let mut moves = Vec::new();
    game.successors(&mut moves);
    let player = game.to_move();
    let values = moves.into_iter().map(|mv| {
        game.update(mv);
        let value = value_after(game);
        game.revert(mv);
        value
    });
    let best = match player {
        gametree::Player::Max => values.reduce(|a, b| if b > a { b } else { a }),
        gametree::Player::Min => values.reduce(|a, b| if b < a { b } else { a }),
    };
    best.unwrap_or_else(|| game.value())
}
