//! The CPU time of the current thread or process and the peak memory of the process, for
//! the benchmark figures of `perft` and `bench`.

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

/// The CPU time every thread of this process has used (POSIX's
/// `CLOCK_PROCESS_CPUTIME_ID`): a parallel search's helpers included.
#[cfg(unix)]
pub fn process_cpu_time() -> Option<Duration> {
    use nix::time::{ClockId, clock_gettime};
    clock_gettime(ClockId::CLOCK_PROCESS_CPUTIME_ID)
        .ok()
        .map(Duration::from)
}

/// No process CPU clock here: the CPU figures stay empty.
#[cfg(not(unix))]
pub fn process_cpu_time() -> Option<Duration> {
    None
}

/// The most memory this process has held in RAM at once so far (its peak resident set),
/// in bytes, where the system reports it.
#[cfg(unix)]
pub fn peak_memory_bytes() -> Option<u64> {
    use nix::sys::resource::{UsageWho, getrusage};
    let usage = getrusage(UsageWho::RUSAGE_SELF).ok()?;
    let max_rss = u64::try_from(usage.max_rss()).ok()?;
    // Linux and the BSDs count kibibytes, macOS bytes.
    Some(if cfg!(target_os = "macos") {
        max_rss
    } else {
        max_rss * 1024
    })
}

/// No resource usage here: the memory figure stays empty.
#[cfg(not(unix))]
pub fn peak_memory_bytes() -> Option<u64> {
    None
}
