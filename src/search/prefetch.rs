//! Cache prefetch hints for the transposition tables.
//!
//! A big table's probes are mostly cache misses: the bucket a key hashes to is anywhere in
//! many megabytes. A search that knows the next key a little before it probes (right after
//! making a move, before the child's terminal test and move generation) asks the processor
//! to start the load then, so that the probe finds the line in the cache. A hint only: it
//! changes no result and costs nothing where the processor has no such instruction.

/// The size of a cache line on the processors we run on.
const CACHE_LINE: usize = 64;

/// Prefetches the cache line at `line` into every level of the cache.
#[inline(always)]
fn prefetch_line(line: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing that the program sees and cannot fault, whatever
    // the address; SSE, which it needs, is part of every x86-64 processor.
    #[allow(unsafe_code)]
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(line.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = line;
}

/// Prefetches every cache line of `value` (a table's bucket, one or two lines).
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    let start: *const u8 = (value as *const T).cast();
    let mut offset = 0;
    while offset < std::mem::size_of::<T>() {
        prefetch_line(start.wrapping_add(offset));
        offset += CACHE_LINE;
    }
}
