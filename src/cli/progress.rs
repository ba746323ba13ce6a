//! Progress on stderr for every long job: an `indicatif` bar or spinner when stderr is a
//! terminal and `--quiet` was not given, nothing otherwise (so pipes, files and tests see
//! only the results).

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

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
