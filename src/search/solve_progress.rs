//! How far a long [`Solver`](crate::Solver) search has got, readable by another thread
//! while it runs: what a progress line shows during a 30-second solve.
//!
//! The searching threads publish into a few atomics now and then (every
//! [`PUBLISH_NODES`] positions each, so the cost is one add in 65,536 positions); a
//! display thread reads a [`ProgressSnapshot`] whenever it likes, without locks.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The instant the times in a [`SolveProgress`] count from (the first time one is read),
/// so that a start time fits an atomic.
fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// Nanoseconds since [`epoch`].
fn now_nanos() -> u64 {
    u64::try_from(epoch().elapsed().as_nanos()).unwrap_or(u64::MAX)
}

/// Each thread adds to the published count every this many positions it visits.
pub const PUBLISH_NODES: u64 = 1 << 16;

/// Every this many positions, a thread samples how full the table is.
pub const SAMPLE_FILL_NODES: u64 = 1 << 20;

/// The shared figures of one solver's current search (see the module documentation).
/// Get it from [`Solver::progress`](crate::Solver::progress).
#[derive(Debug, Default)]
pub struct SolveProgress {
    solves: AtomicU64,
    /// When the solve began, in nanoseconds since [`epoch`].
    started_nanos: AtomicU64,
    nodes: AtomicU64,
    testing: AtomicBool,
    tested: AtomicI32,
    at_least: AtomicI32,
    at_most: AtomicI32,
    table_bytes: AtomicU64,
    /// The share of the table's slots in use, in millionths.
    table_fill_ppm: AtomicU32,
}

/// What [`SolveProgress::snapshot`] read: figures of the search now running (or the last
/// one).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProgressSnapshot {
    /// How many solves this solver has begun (a display restarts its clock when it
    /// changes).
    pub solves: u64,
    /// Time since the solve began.
    pub elapsed: Duration,
    /// Positions visited since the solve began, by every thread (published in steps of
    /// [`PUBLISH_NODES`] a thread, so it lags by less than that).
    pub nodes: u64,
    /// The score the null-window search now running tests (whether the score to the
    /// player to move at the root is above it), if one runs.
    pub tested: Option<i32>,
    /// The score to the player to move at the root is at least this (proved so far).
    pub at_least: i32,
    /// The score to the player to move at the root is at most this.
    pub at_most: i32,
    /// The memory the table takes now.
    pub table_bytes: u64,
    /// The share of the table's entries in use (sampled), 0 to 1.
    pub table_fill: f64,
}

impl SolveProgress {
    /// The figures now.
    #[must_use]
    pub fn snapshot(&self) -> ProgressSnapshot {
        ProgressSnapshot {
            solves: self.solves.load(Ordering::Relaxed),
            elapsed: Duration::from_nanos(
                now_nanos().saturating_sub(self.started_nanos.load(Ordering::Relaxed)),
            ),
            nodes: self.nodes.load(Ordering::Relaxed),
            tested: self
                .testing
                .load(Ordering::Relaxed)
                .then(|| self.tested.load(Ordering::Relaxed)),
            at_least: self.at_least.load(Ordering::Relaxed),
            at_most: self.at_most.load(Ordering::Relaxed),
            table_bytes: self.table_bytes.load(Ordering::Relaxed),
            table_fill: f64::from(self.table_fill_ppm.load(Ordering::Relaxed)) / 1e6,
        }
    }

    /// A new solve begins.
    pub(crate) fn begin(&self, table_bytes: usize) {
        self.nodes.store(0, Ordering::Relaxed);
        self.started_nanos.store(now_nanos(), Ordering::Relaxed);
        self.solves.fetch_add(1, Ordering::Relaxed);
        self.testing.store(false, Ordering::Relaxed);
        self.table_bytes
            .store(table_bytes as u64, Ordering::Relaxed);
    }

    /// A null-window search at `tested` begins, the score known to lie in `at_least ..=
    /// at_most`, with the table at `table_bytes`.
    pub(crate) fn testing(&self, tested: i32, at_least: i32, at_most: i32, table_bytes: usize) {
        self.tested.store(tested, Ordering::Relaxed);
        self.at_least.store(at_least, Ordering::Relaxed);
        self.at_most.store(at_most, Ordering::Relaxed);
        self.table_bytes
            .store(table_bytes as u64, Ordering::Relaxed);
        self.testing.store(true, Ordering::Relaxed);
    }

    /// The solve ended with the score in `at_least ..= at_most`.
    pub(crate) fn ended(&self, at_least: i32, at_most: i32) {
        self.at_least.store(at_least, Ordering::Relaxed);
        self.at_most.store(at_most, Ordering::Relaxed);
        self.testing.store(false, Ordering::Relaxed);
    }

    /// A thread visited another [`PUBLISH_NODES`] positions.
    #[inline]
    pub(crate) fn add_nodes(&self) {
        self.nodes.fetch_add(PUBLISH_NODES, Ordering::Relaxed);
    }

    /// The table's sampled share of slots in use.
    pub(crate) fn set_table_fill(&self, fill: f64) {
        let ppm = (fill.clamp(0.0, 1.0) * 1e6).round() as u32;
        self.table_fill_ppm.store(ppm, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_reads_what_the_search_published() {
        let progress = SolveProgress::default();
        progress.begin(1 << 20);
        progress.add_nodes();
        progress.add_nodes();
        progress.testing(3, -5, 7, 2 << 20);
        progress.set_table_fill(0.25);
        let snapshot = progress.snapshot();
        assert_eq!(snapshot.solves, 1);
        assert!(snapshot.elapsed < Duration::from_secs(60));
        assert_eq!(snapshot.nodes, 2 * PUBLISH_NODES);
        assert_eq!(snapshot.tested, Some(3));
        assert_eq!((snapshot.at_least, snapshot.at_most), (-5, 7));
        assert_eq!(snapshot.table_bytes, 2 << 20);
        assert!((snapshot.table_fill - 0.25).abs() < 1e-6);
        progress.ended(4, 4);
        let ended = progress.snapshot();
        assert_eq!(ended.tested, None);
        assert_eq!((ended.at_least, ended.at_most), (4, 4));
        progress.begin(1 << 20);
        assert_eq!(progress.snapshot().nodes, 0);
        assert_eq!(progress.snapshot().solves, 2);
    }
}
