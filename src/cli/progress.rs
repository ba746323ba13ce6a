//! Progress on stderr for every long job: an `indicatif` bar or spinner when stderr is a
//! terminal and `--quiet` was not given, nothing otherwise (so pipes, files and tests see
//! only the results).

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use gametree::search::solve_progress::{ProgressSnapshot, SolveProgress};

/// Set from `--quiet` before any subcommand runs.
static QUIET: AtomicBool = AtomicBool::new(false);

/// Turns progress off for the rest of the run (`--quiet`).
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether progress is shown: stderr is a terminal and `--quiet` was not given.
pub fn shown() -> bool {
    !QUIET.load(Ordering::Relaxed) && std::io::stderr().is_terminal()
}

fn styled(bar: ProgressBar, template: &str, prefix: &str) -> ProgressBar {
    if !shown() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
        return bar;
    }
    bar.set_style(ProgressStyle::with_template(template).expect("invariant: a valid template"));
    bar.set_prefix(prefix.to_string());
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// A bar for `length` steps of a known count (positions k of n, games, root moves).
pub fn bar(length: u64, prefix: &str) -> ProgressBar {
    styled(
        ProgressBar::new(length),
        "{prefix:>18} [{elapsed_precise}] {wide_bar} {pos}/{len} {per_sec} eta {eta} {msg}",
        prefix,
    )
}

/// A spinner for a search of unknown length; its message says how far it has got (depth,
/// nodes, nodes per second).
pub fn spinner(prefix: &str) -> ProgressBar {
    styled(
        ProgressBar::new_spinner(),
        "{spinner} {prefix} [{elapsed_precise}] {msg}",
        prefix,
    )
}

/// A count with an SI suffix: 1234567 as `1.23 M`.
pub fn si(count: f64) -> String {
    match count {
        count if count >= 1e9 => format!("{:.2} G", count / 1e9),
        count if count >= 1e6 => format!("{:.2} M", count / 1e6),
        count if count >= 1e3 => format!("{:.1} k", count / 1e3),
        count => format!("{count:.0}"),
    }
}

/// How often a [`SolveWatch`] redraws.
const WATCH_INTERVAL: Duration = Duration::from_millis(250);

/// Shows in a spinner's message how far a solver has got, redrawn four times a second
/// from another thread while the solver searches; stops when dropped. Nothing runs when
/// progress is not [`shown`].
pub struct SolveWatch {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

/// Starts a [`SolveWatch`] of `progress` (from [`gametree::Solver::progress`]) in
/// `spinner`.
pub fn watch_solve(spinner: &ProgressBar, progress: Arc<SolveProgress>) -> SolveWatch {
    let stop = Arc::new(AtomicBool::new(false));
    let thread = shown().then(|| {
        let (spinner, stop) = (spinner.clone(), Arc::clone(&stop));
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                spinner.set_message(solve_figures(&progress.snapshot()));
                std::thread::park_timeout(WATCH_INTERVAL);
            }
        })
    });
    SolveWatch { stop, thread }
}

impl Drop for SolveWatch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            // A watcher that panicked has nothing more to show.
            let _ = thread.join();
        }
    }
}

/// One progress line of a solve: the interval proved, the score being tested, positions,
/// positions per second, the table, and the time.
pub fn solve_figures(snapshot: &ProgressSnapshot) -> String {
    let seconds = snapshot.elapsed.as_secs_f64();
    let rate = if seconds > 0.0 {
        snapshot.nodes as f64 / seconds
    } else {
        0.0
    };
    let window = match snapshot.tested {
        Some(tested) => format!(
            "score {}..{}, testing > {tested}",
            snapshot.at_least, snapshot.at_most
        ),
        None => "starting".to_string(),
    };
    format!(
        "{window} · {} positions, {}/s · table {} MiB, {:.0}% full · {seconds:.1} s",
        si(snapshot.nodes as f64),
        si(rate),
        snapshot.table_bytes >> 20,
        snapshot.table_fill * 100.0
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_solve_line_names_the_window_the_positions_and_the_table() {
        let snapshot = ProgressSnapshot {
            solves: 1,
            elapsed: Duration::from_secs(4),
            nodes: 12_300_000,
            tested: Some(0),
            at_least: -3,
            at_most: 5,
            table_bytes: 128 << 20,
            table_fill: 0.734,
        };
        assert_eq!(
            solve_figures(&snapshot),
            "score -3..5, testing > 0 · 12.30 M positions, 3.08 M/s · table 128 MiB, 73% full · 4.0 s"
        );
    }
}
