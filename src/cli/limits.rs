//! Size flags checked against what the machine has before anything is allocated: a table
//! larger than the free memory, or a thread count far above the cores, is refused with a
//! message that says what the machine has, instead of aborting or thrashing minutes later.

use super::CliError;

/// Bytes in a mebibyte.
pub const MIB: u64 = 1 << 20;

/// The memory the system says it can give a new process without swapping (Linux's
/// `MemAvailable` in `/proc/meminfo`), in bytes; `None` where it does not say.
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text
        .lines()
        .find(|line| line.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The share of the available memory one flag may claim: the rest is for the program, the
/// other flags and whatever else runs.
const MEMORY_SHARE: f64 = 0.75;

/// Checks that `bytes` (what `flag` asks for, with `what` saying for what) fits in the
/// memory the machine has available, or — where the system does not say — in `fallback`
/// bytes.
pub fn check_memory(flag: &str, what: &str, bytes: u64, fallback: u64) -> Result<(), CliError> {
    let (limit, source) = match available_memory() {
        Some(available) => (
            (available as f64 * MEMORY_SHARE) as u64,
            format!(
                "three quarters of the {} MiB this machine has available",
                available / MIB
            ),
        ),
        None => (
            fallback,
            "the limit where the free memory is unknown".to_string(),
        ),
    };
    if bytes > limit {
        return Err(CliError::Usage(format!(
            "{flag}: {what} would take {} MiB, more than {} MiB ({source})",
            bytes.div_ceil(MIB),
            limit / MIB
        )));
    }
    Ok(())
}

/// Checks a `--table-mib` flag: at least 1 and within the available memory.
pub fn check_table_mib(mib: usize) -> Result<(), CliError> {
    if mib == 0 {
        return Err(CliError::Usage(
            "--table-mib 0: the table needs at least 1 MiB".into(),
        ));
    }
    check_memory(
        &format!("--table-mib {mib}"),
        "the transposition table",
        (mib as u64).saturating_mul(MIB),
        4096 * MIB,
    )
}

/// The cores this process may use.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// How many threads per core `--jobs` may ask for: more only adds switching.
const THREADS_PER_CORE: usize = 4;

/// Checks a `--jobs` flag: at least one thread and at most four per core.
pub fn check_jobs(jobs: usize) -> Result<usize, CliError> {
    check_thread_count("--jobs", jobs)
}

/// Checks a `--threads` flag, as [`check_jobs`] does `--jobs`.
pub fn check_threads(threads: usize) -> Result<usize, CliError> {
    check_thread_count("--threads", threads)
}

fn check_thread_count(flag: &str, threads: usize) -> Result<usize, CliError> {
    let most = cores() * THREADS_PER_CORE;
    if threads == 0 {
        return Err(CliError::Usage(format!(
            "{flag} 0: at least one worker thread is needed"
        )));
    }
    if threads > most {
        return Err(CliError::Usage(format!(
            "{flag} {threads}: at most {most} ({THREADS_PER_CORE} per core; this machine has {})",
            cores()
        )));
    }
    Ok(threads)
}
