//! The [`Solver`](crate::Solver)'s transposition table: one table that several threads
//! probe and store into at once, without locks.
//!
//! Each entry is two 64-bit words, its data and its key xor-ed with its data (Hyatt and
//! Mann, "A lock-less transposition table implementation for parallel search chess
//! engines", ICGA Journal 25(1), 2002). Threads read and write the words separately; an
//! entry torn by two writers racing no longer matches its key and is simply not found.
//! So a probe returns an entry some thread stored whole, or nothing: the bounds the
//! solver stores are facts about positions, and a lost entry costs only search.
//!
//! Unlike [`TranspositionTable`](crate::TranspositionTable), whose entries hold any move
//! type, an entry here holds a move by its place in the list
//! [`Solvable::search_moves`](crate::search::solver::Solvable::search_moves) gives (the
//! first 255 moves; a later one is not kept), so that it fits a word with the value, the
//! bound, the effort and the generation.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::search::Bound;

/// Slots per bucket: four entries of 16 bytes fill one 64-byte cache line.
const SLOTS: usize = 4;

/// How many buckets [`SharedTable::fill`] looks at.
pub const FILL_SAMPLE_BUCKETS: usize = 1024;

/// Generations are numbered 1..=`MAX_GENERATION` (14 bits); the table is wiped when they
/// run out.
const MAX_GENERATION: u64 = (1 << 14) - 1;

/// Bound codes; 0 is an empty slot.
const EXACT: u64 = 1;
const LOWER: u64 = 2;
const UPPER: u64 = 3;

/// The data word: the value's 32 bits, then the effort (8 bits), the move's place plus
/// one (8 bits, 0 for none), the bound code (2 bits) and the generation (14 bits).
const EFFORT_SHIFT: u32 = 32;
const MOVE_SHIFT: u32 = 40;
const BOUND_SHIFT: u32 = 48;
const GENERATION_SHIFT: u32 = 50;

/// What the table holds for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SharedEntry {
    /// The score stored (to the player to move, less the settled part).
    pub value: i32,
    /// How `value` bounds the true score.
    pub bound: Bound,
    /// The effort the entry stands for (the replacement scheme keeps greater ones).
    pub effort: u8,
    /// The place of the best move in the position's move list, if one was singled out.
    pub move_place: Option<u8>,
}

/// Two words a slot: the key xor the data, and the data.
#[repr(align(64))]
struct Bucket {
    words: [AtomicU64; 2 * SLOTS],
}

impl Bucket {
    fn empty() -> Bucket {
        Bucket {
            words: std::array::from_fn(|_| AtomicU64::new(0)),
        }
    }
}

/// A transposition table of four-entry buckets that threads share (see the module
/// documentation). It starts small and doubles when its owner calls [`grow`](Self::grow),
/// which needs the table alone; probing and storing need only a shared reference and
/// allocate nothing.
pub struct SharedTable {
    buckets: Buckets,
    index_mask: usize,
    generation: u64,
    initial_buckets: usize,
    max_buckets: usize,
}

impl SharedTable {
    /// A table that starts at `initial_bytes` and may grow to `max_bytes` (each rounded
    /// down to a power of two of buckets, at least one).
    #[must_use]
    pub fn growing(initial_bytes: usize, max_bytes: usize) -> Self {
        let max = buckets_in(max_bytes);
        let initial = buckets_in(initial_bytes).min(max);
        SharedTable {
            buckets: Buckets::new(initial, max),
            index_mask: initial - 1,
            generation: 1,
            initial_buckets: initial,
            max_buckets: max,
        }
    }

    /// How many entries the table holds at most now.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.buckets.len() * SLOTS
    }

    /// The memory the entries in use take, in bytes.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// The share of the entries in use now (of this generation), 0 to 1, estimated from
    /// up to [`FILL_SAMPLE_BUCKETS`] buckets spread over the table: cheap enough to call
    /// while a search runs.
    #[must_use]
    pub fn fill(&self) -> f64 {
        let buckets = self.buckets.len();
        let sampled = buckets.min(FILL_SAMPLE_BUCKETS);
        let stride = buckets / sampled;
        let used: usize = (0..sampled)
            .map(|sample| {
                let bucket = &self.buckets[sample * stride];
                (0..SLOTS)
                    .filter(|&slot| {
                        self.is_current(bucket.words[2 * slot + 1].load(Ordering::Relaxed))
                    })
                    .count()
            })
            .sum();
        used as f64 / (sampled * SLOTS) as f64
    }

    /// Whether the table has reached the greatest size it may [`grow`](Self::grow) to.
    #[must_use]
    pub fn is_full_size(&self) -> bool {
        self.buckets.len() >= self.max_buckets
    }

    /// Forgets every entry in constant time (a new generation) and returns the table to
    /// its initial size; the memory is wiped once every 16,383 clears.
    pub fn clear(&mut self) {
        self.buckets.len = self.initial_buckets;
        self.index_mask = self.initial_buckets - 1;
        self.generation += 1;
        if self.generation > MAX_GENERATION {
            // Every bucket the table ever used, not only those in use now: the others
            // may be used again.
            for bucket in self.buckets.reserved_mut() {
                *bucket = Bucket::empty();
            }
            self.generation = 1;
        }
    }

    /// Doubles the table, keeping its current entries, unless it has reached its greatest
    /// size; says whether it grew. Costs time in proportion to the size.
    pub fn grow(&mut self) -> bool {
        let old = self.buckets.len();
        if old >= self.max_buckets {
            return false;
        }
        // The new half holds nothing of this generation: the table has not been this large
        // since it was last cleared (stale entries there are ignored, and overwritten).
        self.buckets.len = 2 * old;
        self.index_mask = 2 * old - 1;
        // One more index bit: each entry stays in bucket `index` or moves to bucket
        // `index + old`.
        for index in 0..old {
            let mut moved = 0;
            for slot in 0..SLOTS {
                let data = *self.buckets[index].words[2 * slot + 1].get_mut();
                let key = *self.buckets[index].words[2 * slot].get_mut() ^ data;
                if self.is_current(data) && self.bucket_index(key) != index {
                    let target = &mut self.buckets[index + old].words;
                    *target[2 * moved].get_mut() = key ^ data;
                    *target[2 * moved + 1].get_mut() = data;
                    moved += 1;
                    *self.buckets[index].words[2 * slot + 1].get_mut() = 0;
                    *self.buckets[index].words[2 * slot].get_mut() = 0;
                }
            }
        }
        true
    }

    #[inline]
    fn is_current(&self, data: u64) -> bool {
        (data >> BOUND_SHIFT) & 3 != 0 && data >> GENERATION_SHIFT == self.generation
    }

    #[inline]
    fn bucket_index(&self, key: u64) -> usize {
        // Fibonacci hashing, as the other table: the high bits of the product depend on
        // every bit of the key.
        let mixed = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (mixed >> 32) as usize & self.index_mask
    }

    /// Asks the processor to bring `key`'s bucket into the cache, so that a
    /// [`probe`](Self::probe) or [`store`](Self::store) of it a little later does not wait
    /// on memory: a big table's reads are mostly cache misses. Only a hint: it changes
    /// nothing and costs nothing where the processor has no such instruction.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        crate::search::prefetch::prefetch(&self.buckets[self.bucket_index(key)]);
    }

    /// The entry stored for `key` in the current generation, if any.
    #[inline(always)]
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<SharedEntry> {
        let bucket = &self.buckets[self.bucket_index(key)];
        for slot in 0..SLOTS {
            let data = bucket.words[2 * slot + 1].load(Ordering::Relaxed);
            let check = bucket.words[2 * slot].load(Ordering::Relaxed);
            if check ^ data == key && self.is_current(data) {
                return Some(decode(data));
            }
        }
        None
    }

    /// Stores `entry` for `key`, replacing the entry for the same key (keeping its move
    /// when the new entry has none), else an empty or stale slot, else the slot of least
    /// effort in the key's bucket.
    #[inline]
    pub fn store(&self, key: u64, entry: SharedEntry) {
        let bucket = &self.buckets[self.bucket_index(key)];
        let mut victim = 0;
        let mut victim_effort = u16::MAX;
        let mut kept_move = None;
        for slot in 0..SLOTS {
            let data = bucket.words[2 * slot + 1].load(Ordering::Relaxed);
            let current = self.is_current(data);
            if current && bucket.words[2 * slot].load(Ordering::Relaxed) ^ data == key {
                victim = slot;
                kept_move = decode(data).move_place;
                break;
            }
            // Stale and empty slots count as less effort than any current entry.
            let effort = if current {
                ((data >> EFFORT_SHIFT) & 0xff) as u16 + 1
            } else {
                0
            };
            if effort < victim_effort {
                victim = slot;
                victim_effort = effort;
            }
        }
        let code = match entry.bound {
            Bound::Exact => EXACT,
            Bound::Lower => LOWER,
            Bound::Upper => UPPER,
        };
        // Places 0 to 254 fit the byte as place + 1; a later move is not kept.
        let move_code = entry
            .move_place
            .or(kept_move)
            .filter(|&place| place < u8::MAX)
            .map_or(0, |place| u64::from(place) + 1);
        let data = u64::from(entry.value as u32)
            | u64::from(entry.effort) << EFFORT_SHIFT
            | move_code << MOVE_SHIFT
            | code << BOUND_SHIFT
            | self.generation << GENERATION_SHIFT;
        bucket.words[2 * victim].store(key ^ data, Ordering::Relaxed);
        bucket.words[2 * victim + 1].store(data, Ordering::Relaxed);
    }
}

/// The table's buckets: memory reserved for the most the table may grow to, one
/// [`huge_page_map`](crate::search::huge_page_map), of which the first `len` buckets are
/// in use. The system gives the memory page by page as it is first written, so a table
/// that never grows takes only what it uses.
struct Buckets {
    map: memmap2::MmapMut,
    reserved: usize,
    len: usize,
}

impl Buckets {
    /// `len` buckets in use, room for `reserved`; all empty.
    fn new(len: usize, reserved: usize) -> Buckets {
        let bytes = reserved * std::mem::size_of::<Bucket>();
        let map = crate::search::huge_page_map(bytes)
            .expect("the system maps the transposition table's memory");
        Buckets { map, reserved, len }
    }

    /// Every bucket reserved.
    fn reserved_mut(&mut self) -> &mut [Bucket] {
        // SAFETY: the map is `reserved` buckets long, page-aligned (so aligned for a
        // bucket), zeroed by the system when mapped, and every bit pattern is a valid
        // bucket (its words are atomic integers); the map lives as long as `self`, and the
        // exclusive borrow of `self` makes the slice the only way to it.
        #[allow(unsafe_code)]
        unsafe {
            std::slice::from_raw_parts_mut(self.map.as_mut_ptr().cast::<Bucket>(), self.reserved)
        }
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];

    fn deref(&self) -> &[Bucket] {
        // SAFETY: as in `reserved_mut`, for the first `len` ≤ `reserved` buckets; the
        // buckets are only written through their atomic words while shared.
        #[allow(unsafe_code)]
        unsafe {
            std::slice::from_raw_parts(self.map.as_ptr().cast::<Bucket>(), self.len)
        }
    }
}

impl std::ops::DerefMut for Buckets {
    fn deref_mut(&mut self) -> &mut [Bucket] {
        let len = self.len;
        &mut self.reserved_mut()[..len]
    }
}

/// The entry a current data word holds.
#[inline(always)]
fn decode(data: u64) -> SharedEntry {
    let move_code = ((data >> MOVE_SHIFT) & 0xff) as u8;
    SharedEntry {
        value: data as u32 as i32,
        bound: match (data >> BOUND_SHIFT) & 3 {
            EXACT => Bound::Exact,
            LOWER => Bound::Lower,
            _ => Bound::Upper,
        },
        effort: ((data >> EFFORT_SHIFT) & 0xff) as u8,
        move_place: move_code.checked_sub(1),
    }
}

/// The greatest power of two of buckets that fits in `bytes`, at least 1.
fn buckets_in(bytes: usize) -> usize {
    let fitting = (bytes / std::mem::size_of::<Bucket>()).max(1);
    1usize << (usize::BITS - 1 - fitting.leading_zeros())
}

impl std::fmt::Debug for SharedTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedTable")
            .field("buckets", &self.buckets.len())
            .field("generation", &self.generation)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(value: i32, bound: Bound, effort: u8, move_place: Option<u8>) -> SharedEntry {
        SharedEntry {
            value,
            bound,
            effort,
            move_place,
        }
    }

    #[test]
    fn a_bucket_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
    }

    #[test]
    fn entries_round_trip_with_negative_values_and_every_bound() {
        let table = SharedTable::growing(1 << 10, 1 << 10);
        for (key, stored) in [
            (1, entry(-7, Bound::Lower, 3, Some(0))),
            (2, entry(i32::MAX, Bound::Upper, 255, None)),
            (3, entry(-i32::MAX, Bound::Exact, 0, Some(253))),
        ] {
            table.store(key, stored);
            assert_eq!(table.probe(key), Some(stored));
        }
        assert_eq!(table.probe(4), None);
    }

    #[test]
    fn a_move_past_the_255th_is_not_kept_and_spoils_nothing() {
        let table = SharedTable::growing(1 << 10, 1 << 10);
        table.store(7, entry(-3, Bound::Lower, 9, Some(255)));
        assert_eq!(table.probe(7), Some(entry(-3, Bound::Lower, 9, None)));
        table.store(8, entry(5, Bound::Upper, 1, Some(254)));
        assert_eq!(table.probe(8), Some(entry(5, Bound::Upper, 1, Some(254))));
    }

    #[test]
    fn a_new_entry_for_a_key_keeps_the_old_move_when_it_has_none() {
        let table = SharedTable::growing(1 << 10, 1 << 10);
        table.store(9, entry(1, Bound::Lower, 2, Some(4)));
        table.store(9, entry(0, Bound::Upper, 2, None));
        assert_eq!(table.probe(9), Some(entry(0, Bound::Upper, 2, Some(4))));
    }

    #[test]
    fn fill_counts_the_entries_of_this_generation() {
        let mut table = SharedTable::growing(64 * 16, 64 * 16);
        assert_eq!(table.fill(), 0.0);
        // 16 buckets of 4 slots: 32 different keys fill at most half of them.
        for key in 1..=32u64 {
            table.store(key, entry(1, Bound::Exact, 1, None));
        }
        let half_or_less = table.fill();
        assert!(half_or_less > 0.0 && half_or_less <= 0.5, "{half_or_less}");
        for key in 33..=10_000u64 {
            table.store(key, entry(1, Bound::Exact, 1, None));
        }
        assert_eq!(table.fill(), 1.0);
        table.clear();
        assert_eq!(table.fill(), 0.0);
    }

    #[test]
    fn clearing_forgets_and_growing_keeps() {
        let mut table = SharedTable::growing(64, 1 << 12);
        assert_eq!(table.capacity(), SLOTS);
        for key in 0..4 {
            table.store(
                key * 0x1_0000_0001,
                entry(key as i32, Bound::Exact, 1, None),
            );
        }
        assert!(table.grow());
        assert!(table.grow());
        for key in 0..4 {
            assert_eq!(
                table.probe(key * 0x1_0000_0001).map(|found| found.value),
                Some(key as i32)
            );
        }
        table.clear();
        assert_eq!(table.capacity(), SLOTS);
        assert_eq!(table.probe(0), None);
    }

    #[test]
    fn the_least_effort_is_replaced_when_a_bucket_is_full() {
        let table = SharedTable::growing(64, 64);
        for key in 1..=4 {
            table.store(key, entry(0, Bound::Exact, key as u8 * 10, None));
        }
        table.store(5, entry(0, Bound::Exact, 1, None));
        assert_eq!(table.probe(1), None);
        assert!((2..=5).all(|key| table.probe(key).is_some()));
    }

    #[test]
    fn threads_storing_at_once_leave_only_whole_entries() {
        let table = SharedTable::growing(1 << 12, 1 << 12);
        std::thread::scope(|scope| {
            for thread in 0..4_u64 {
                let table = &table;
                scope.spawn(move || {
                    for round in 0..20_000_u64 {
                        let key = round % 97;
                        // Every entry for a key says which key it is for.
                        let value = i32::try_from(key * 1000 + thread).expect("small");
                        table.store(key, entry(value, Bound::Exact, 1, None));
                    }
                });
            }
        });
        for key in 0..97_u64 {
            if let Some(found) = table.probe(key) {
                assert_eq!(u64::try_from(found.value).expect("positive") / 1000, key);
            }
        }
    }
}
