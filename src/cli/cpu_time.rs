//! The CPU time of the current thread, for the benchmark figures of `perft` and `bench`.

use std::time::Duration;

/// The CPU time the current thread has used, where the system keeps a clock of it (POSIX's
/// `CLOCK_THREAD_CPUTIME_ID`, to the nanosecond, including the time since the thread was
/// last scheduled): on a shared machine it leaves out the time spent waiting for a core.
#[cfg(unix)]
pub fn thread_cpu_time() -> Option<Duration> {
    use nix::time::{ClockId, clock_gettime};
    clock_gettime(ClockId::CLOCK_THREAD_CPUTIME_ID)
        .ok()
        .map(Duration::from)
}

/// No thread CPU clock here: the CPU figures stay empty.
#[cfg(not(unix))]
pub fn thread_cpu_time() -> Option<Duration> {
    None
}
