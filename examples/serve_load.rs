//! A load test of `gametree serve`: many clients at once, each in a loop of what the page
//! asks — tree searches to step through, random trees, tic-tac-toe, Connect Four and
//! checkers moves — for a while, against a server on localhost. Prints requests/s, latency
//! percentiles, the server's memory and every request that did not answer 200.
//!
//! ```sh
//! cargo build --release && cargo run --release --example serve_load -- --clients 200 --seconds 30
//! ```
//!
//! It starts `target/release/gametree serve --port 0` itself (or `$GAMETREE_BIN`), so the
//! binary must be built first. Each client keeps one HTTP/1.1 connection open, as a
//! browser does. Not a test: its figures depend on the machine.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common {
    pub mod flags;
}
use common::flags::Flags;

/// One of the page's requests: path and body.
const REQUESTS: [(&str, &str); 10] = [
    (
        "/api/tree/search",
        r#"{"tree": "(((3 17) (2 12)) ((15 25) (0 2)) ((2 5) (3 20)))", "algorithm": "alphabeta"}"#,
    ),
    (
        "/api/tree/search",
        r#"{"tree": "(((3 17) (2 12)) ((15 25) (0 2)) ((2 5) (3 20)))", "algorithm": "minimax"}"#,
    ),
    (
        "/api/tree/search",
        r#"{"tree": "(((3 17) (2 12)) ((15 25) (0 2)) ((2 5) (3 20)))", "algorithm": "mn-alphabeta"}"#,
    ),
    (
        "/api/tree/random",
        r#"{"branching": [2, 4], "depth": [3, 5], "seed": 7}"#,
    ),
    ("/api/ttt/move", r#"{"moves": [5]}"#),
    ("/api/ttt/move", r#"{"moves": [1, 5, 9]}"#),
    ("/api/connect4/move", r#"{"moves": "44", "scores": true}"#),
    ("/api/connect4/move", r#"{"moves": "4453", "scores": true}"#),
    ("/api/checkers/state", r#"{"moves": ["11-15", "23-19"]}"#),
    (
        "/api/checkers/best",
        r#"{"moves": ["11-15", "23-19"], "depth": 4}"#,
    ),
];

struct Client {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Client {
    fn connect(address: &str) -> std::io::Result<Client> {
        let stream = TcpStream::connect(address)?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(Duration::from_secs(60)))?;
        Ok(Client {
            reader: BufReader::new(stream.try_clone()?),
            writer: stream,
        })
    }

    /// Sends one request on the open connection and reads its answer: the status.
    fn post(&mut self, address: &str, path: &str, body: &str) -> std::io::Result<u16> {
        write!(
            self.writer,
            "POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )?;
        let mut status_line = String::new();
        self.reader.read_line(&mut status_line)?;
        let status = status_line
            .split(' ')
            .nth(1)
            .and_then(|code| code.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("bad status line {status_line:?}")))?;
        let mut length = 0;
        loop {
            let mut line = String::new();
            self.reader.read_line(&mut line)?;
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().map_err(std::io::Error::other)?;
            }
        }
        let mut body = vec![0; length];
        self.reader.read_exact(&mut body)?;
        Ok(status)
    }
}

/// `VmHWM` (peak) and `VmRSS` of a process, in MiB, from /proc (Linux).
fn memory_mib(pid: u32) -> Option<(f64, f64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| -> Option<f64> {
        let line = status.lines().find(|line| line.starts_with(name))?;
        let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib / 1024.0)
    };
    Some((field("VmHWM:")?, field("VmRSS:")?))
}

fn percentile(sorted: &[Duration], fraction: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * fraction).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

/// What `--help` prints.
const USAGE: &str = "\
serve_load: a load test of `gametree serve` on localhost ($GAMETREE_BIN or target/release/gametree)

Usage: serve_load [--clients N] [--seconds S]

  --clients N   clients at once, each with one connection (default 200, at most 2000)
  --seconds S   how long the load runs (default 30, at most 3600)";

fn main() {
    let flags = Flags::parse("serve_load", USAGE, &["--clients", "--seconds"], &[]);
    let clients = flags.number::<u64>("--clients", 200).clamp(1, 2_000) as usize;
    let seconds = flags.number::<u64>("--seconds", 30).clamp(1, 3_600);
    let binary = std::env::var("GAMETREE_BIN")
        .unwrap_or_else(|_| format!("{}/target/release/gametree", env!("CARGO_MANIFEST_DIR")));
    let mut server = Command::new(&binary)
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| {
            eprintln!("serve_load: cannot start {binary}: {error} (cargo build --release first)");
            std::process::exit(2);
        });
    let mut first_line = String::new();
    BufReader::new(server.stdout.take().expect("piped"))
        .read_line(&mut first_line)
        .expect("the server's first line");
    let address = first_line
        .trim()
        .trim_start_matches("listening on http://")
        .trim_end_matches('/')
        .to_string();
    println!(
        "server {address} (pid {}), {clients} clients, {seconds} s",
        server.id()
    );
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let workers: Vec<_> = (0..clients)
        .map(|index| {
            let address = address.clone();
            std::thread::spawn(move || {
                let mut latencies = Vec::new();
                let mut failures = Vec::new();
                let mut client = match Client::connect(&address) {
                    Ok(client) => client,
                    Err(error) => return (latencies, vec![format!("connect: {error}")]),
                };
                let mut turn = index;
                while Instant::now() < deadline {
                    let (path, body) = REQUESTS[turn % REQUESTS.len()];
                    turn += 1;
                    let sent = Instant::now();
                    match client.post(&address, path, body) {
                        Ok(200) => latencies.push(sent.elapsed()),
                        Ok(status) => {
                            latencies.push(sent.elapsed());
                            failures.push(format!("{path}: HTTP {status}"));
                        }
                        Err(error) => {
                            failures.push(format!("{path}: {error}"));
                            match Client::connect(&address) {
                                Ok(fresh) => client = fresh,
                                Err(_) => break,
                            }
                        }
                    }
                }
                (latencies, failures)
            })
        })
        .collect();
    let mut latencies = Vec::new();
    let mut failures = Vec::new();
    for worker in workers {
        let (mut times, mut failed) = worker.join().expect("a client thread");
        latencies.append(&mut times);
        failures.append(&mut failed);
    }
    let elapsed = started.elapsed();
    let memory = memory_mib(server.id());
    let _ = server.kill();
    let _ = server.wait();
    latencies.sort();
    let count = latencies.len();
    println!(
        "requests {count} in {:.1} s: {:.0} requests/s",
        elapsed.as_secs_f64(),
        count as f64 / elapsed.as_secs_f64()
    );
    if count > 0 {
        let ms = |duration: Duration| duration.as_secs_f64() * 1000.0;
        println!(
            "latency ms: p50 {:.1}  p90 {:.1}  p99 {:.1}  max {:.1}",
            ms(percentile(&latencies, 0.5)),
            ms(percentile(&latencies, 0.9)),
            ms(percentile(&latencies, 0.99)),
            ms(latencies[count - 1])
        );
    }
    match memory {
        Some((peak, now)) => println!("server memory: peak {peak:.1} MiB, at the end {now:.1} MiB"),
        None => println!("server memory: not known (no /proc)"),
    }
    println!("failed {}", failures.len());
    for failure in failures.iter().take(20) {
        println!("  {failure}");
    }
    if !failures.is_empty() {
        std::process::exit(1);
    }
}
