//! A transposition table for any game with a position hash: bounded memory, four-slot
//! buckets, value bounds, depth and best move per position, cleared in constant time.
//!
//! The seeds search trees; many games are graphs, and a position reached by two orders of
//! the same moves (a transposition) need not be searched twice. This is the table the
//! classic programs after McCarthy's added for that (Greenblatt's, Slate and Atkin's), in
//! game-independent form: the game supplies a 64-bit key ([`ZobristHash`]), the search
//! decides what a value means and from whose point of view it is stored.
//!
//! # Using it from a search
//! At a position, before searching its successors:
//! 1. [`TranspositionTable::probe`] with the position's key; an entry whose
//!    [`TableEntry::depth`] is enough may end the search at once
//!    ([`TableEntry::cutoff`]) or narrow the window, and its [`TableEntry::best_move`] is
//!    the move to try first.
//! 2. After the search, [`TranspositionTable::store`] the value with how it relates to the
//!    true value: [`Bound::Exact`] inside the window, [`Bound::Lower`] on a fail high,
//!    [`Bound::Upper`] on a fail low.
//!
//! Values are stored as given. A search whose values depend on the distance from the root
//! (a win in 3 plies from here) must store them relative to the position, not the root;
//! values that depend on the position alone (such as Connect Four's scores, which are
//! counted from the start of the game) need no adjustment.

use std::fmt;

use crate::game::Game;
use crate::search::{Bound, Window};

/// An optional capability of a game: a 64-bit key of the current position, for a
/// [`TranspositionTable`] and the [`crate::Solver`].
///
/// Any key will do, Zobrist's or another: two positions that are the same for the search (same board, same player to move, same
/// rights) must have the same key; two different positions should have different keys
/// with overwhelming probability, as a Zobrist hash (random numbers xor-ed per piece and
/// square) gives. A game whose key is exact (different positions always have different
/// keys, as Connect Four's) never sees a wrong table entry; keys below 2⁴⁹ are moreover
/// never confused with an entry left from before a [`TranspositionTable::clear`].
pub trait PositionKey: Game {
    /// The key of the current position.
    fn hash_key(&self) -> u64;

    /// The key of the position after `mv`, the game left as it was: what enhanced
    /// transposition cutoffs look up for every move before searching any.
    ///
    /// The default plays the move, reads the key and takes the move back; a game whose
    /// key after a move is cheaper to compute directly overrides it.
    fn hash_key_after(&mut self, mv: Self::Move) -> u64 {
        self.update(mv);
        let key = self.hash_key();
        self.revert(mv);
        key
    }

    /// Whether [`hash_key_after`](Self::hash_key_after) costs much less than making the
    /// move (the game overrides it with arithmetic on its key). The depth-limited search
    /// then loads the next move's table entry into the cache while it searches the
    /// current move (checkers: about a tenth faster); with the default, making every move
    /// twice would cost more than the memory's latency.
    const KEY_AFTER_IS_CHEAP: bool = false;
}

/// The name [`PositionKey`] had before 0.2: the same trait, so an `impl ZobristHash for`
/// still compiles. The new name says what it is — any 64-bit key of a position, a Zobrist
/// hash or not.
pub use PositionKey as ZobristHash;

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableEntry<M, V> {
    /// The value found by the search that stored the entry.
    pub value: V,
    /// How `value` relates to the true value: exact, a lower bound (the search failed
    /// high: the true value is at least `value`) or an upper bound (it failed low).
    pub bound: Bound,
    /// How much search the value stands for: plies searched for a depth-limited search, or
    /// any measure of effort the search chooses (the [`crate::Solver`] stores the base-2
    /// logarithm of the positions it visited below). At most 255; greater depths are
    /// stored as 255. The replacement scheme keeps deeper entries.
    pub depth: u32,
    /// The move that was best, or caused the cutoff; `None` when the search did not single
    /// one out (a fail low).
    pub best_move: Option<M>,
}

impl<M, V: PartialOrd + Copy> TableEntry<M, V> {
    /// The value a search of `depth` plies in `window` may return at once, without
    /// searching: the stored value when the entry is deep enough and exact, a lower bound
    /// at or above β, or an upper bound at or below α. `None` otherwise.
    ///
    /// A fail-hard search (McCarthy's `valmax`) clamps the result to the window.
    ///
    /// # Example
    /// ```
    /// use gametree::{Bound, TableEntry, Window};
    ///
    /// let entry = TableEntry { value: 7, bound: Bound::Lower, depth: 4, best_move: Some('a') };
    /// assert_eq!(entry.cutoff(4, Window::new(0, 5)), Some(7));
    /// assert_eq!(entry.cutoff(4, Window::new(0, 9)), None); // 7 or more: not enough
    /// assert_eq!(entry.cutoff(5, Window::new(0, 5)), None); // too shallow
    /// ```
    pub fn cutoff(&self, depth: u32, window: Window<V>) -> Option<V> {
        if self.depth < depth.min(u32::from(u8::MAX)) {
            return None;
        }
        match self.bound {
            Bound::Exact => Some(self.value),
            Bound::Lower if self.value >= window.beta => Some(self.value),
            Bound::Upper if self.value <= window.alpha => Some(self.value),
            Bound::Lower | Bound::Upper => None,
        }
    }
}

/// Slots per bucket: four entries of 16 bytes (for one-byte moves and four-byte values)
/// fill one 64-byte cache line, so a probe costs one memory access.
const SLOTS: usize = 4;

/// Generations are numbered 1..=`MAX_GENERATION`; the table is wiped when they run out.
const MAX_GENERATION: u64 = (1 << 15) - 1;

/// Keys are xor-ed with `generation << GENERATION_SHIFT`, so an entry from an earlier
/// generation never matches a key below 2⁴⁹.
const GENERATION_SHIFT: u32 = 49;

/// Bound codes in the low two bits of [`Slot::meta`]; 0 is an empty slot.
const EMPTY: u8 = 0;
const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

#[derive(Clone, Copy)]
struct Slot<M, V> {
    /// The key xor the generation's tag.
    check: u64,
    value: V,
    best_move: Option<M>,
    depth: u8,
    /// The bound code (two bits) and the generation's low six bits.
    meta: u8,
}

#[derive(Clone, Copy)]
#[repr(align(64))]
struct Bucket<M, V> {
    slots: [Slot<M, V>; SLOTS],
}

/// A transposition table of bounded size: a power-of-two number of buckets of four
/// entries, indexed by a multiplicative hash of the key.
///
/// Replacement: an entry for the same key is overwritten (keeping its best move when the
/// new entry has none); otherwise an empty or stale slot is taken, and failing that the
/// slot of least depth. [`clear`](Self::clear) starts a new generation in constant time,
/// so the table can be reset between positions cheaply; the memory is wiped once every
/// 32,767 clears. A table made [`growing`](Self::growing) doubles on demand up to its
/// maximum size.
///
/// Probing and storing allocate nothing.
///
/// # Example
/// ```
/// use gametree::{Bound, TableEntry, TranspositionTable};
///
/// let mut table: TranspositionTable<u8, i32> = TranspositionTable::with_mib(1);
/// table.store(42, TableEntry { value: 3, bound: Bound::Exact, depth: 5, best_move: Some(2) });
/// assert_eq!(table.probe(42).map(|entry| entry.value), Some(3));
/// table.clear();
/// assert_eq!(table.probe(42), None);
/// ```
pub struct TranspositionTable<M, V> {
    /// The buckets in use: a power of two of them.
    buckets: Vec<Bucket<M, V>>,
    /// `buckets.len() - 1`.
    index_mask: usize,
    generation: u64,
    /// How many buckets [`clear`](Self::clear) returns the table to.
    initial_buckets: usize,
    /// How many buckets [`grow`](Self::grow) may reach.
    max_buckets: usize,
    /// Whether [`store`](Self::store) grows the table itself when it is loaded
    /// ([`with_mib`](Self::with_mib)), rather than leaving growth to its owner.
    grows_itself: bool,
    /// Entries stored since the table last grew or was cleared, when it grows itself.
    stores_since_growth: u64,
}

/// A table that grows itself doubles when the entries stored since it last grew reach
/// this many times its capacity: most positions stored are never probed again, so a table
/// is not full until many more entries than it holds have been offered to it.
pub const GROWTH_LOAD: u64 = 8;

/// The size a table that grows itself starts at: small enough to stay in the processor's
/// second-level cache (measured: `cargo bench --bench search_defaults`).
pub const INITIAL_MIB: usize = 1;

impl<M: Copy, V: Copy + Default> TranspositionTable<M, V> {
    /// A table of at most `mib` mebibytes (at least one bucket): it starts at
    /// [`INITIAL_MIB`] (or `mib`, if smaller) and doubles, keeping its entries, whenever
    /// the entries stored since it last grew reach [`GROWTH_LOAD`] times its capacity, up
    /// to the greatest power of two of buckets that fits in `mib`.
    ///
    /// A short search so pays neither for allocating a large table nor for the cache and
    /// address-translation misses of probing one: on Kalah(6,4) to depth 14, a 64 MiB table
    /// allocated whole made the search four times slower than a 1 MiB one, for the same
    /// nodes. A long search gets the whole table.
    #[must_use]
    pub fn with_mib(mib: usize) -> Self {
        let max = Self::buckets_in(mib.saturating_mul(1 << 20));
        let initial = Self::buckets_in(INITIAL_MIB << 20).min(max);
        let mut table = Self::growing_buckets(initial, max);
        table.grows_itself = true;
        table
    }

    /// A table of `buckets` buckets of four entries each, rounded up to a power of two,
    /// allocated whole and never grown.
    #[must_use]
    pub fn with_buckets(buckets: usize) -> Self {
        let count = buckets.max(1).next_power_of_two();
        Self::growing_buckets(count, count)
    }

    /// A table that starts at `initial_bytes` and may [`grow`](Self::grow) to `max_bytes`
    /// (each rounded down to a power of two of buckets, at least one);
    /// [`clear`](Self::clear) returns it to its initial size.
    ///
    /// A small table is faster while it is large enough: it stays in the processor's
    /// caches and address translation buffers. A search that starts small and grows the
    /// table as it stores more entries gets the speed of the small table on small problems
    /// and the room of the large one on large problems.
    #[must_use]
    pub fn growing(initial_bytes: usize, max_bytes: usize) -> Self {
        let max = Self::buckets_in(max_bytes);
        Self::growing_buckets(Self::buckets_in(initial_bytes).min(max), max)
    }

    fn growing_buckets(initial: usize, max: usize) -> Self {
        TranspositionTable {
            buckets: vec![Self::empty_bucket(); initial],
            index_mask: initial - 1,
            generation: 1,
            initial_buckets: initial,
            max_buckets: max,
            grows_itself: false,
            stores_since_growth: 0,
        }
    }

    /// The greatest power of two of buckets that fits in `bytes`, at least 1.
    fn buckets_in(bytes: usize) -> usize {
        let fitting = (bytes / std::mem::size_of::<Bucket<M, V>>()).max(1);
        1usize << (usize::BITS - 1 - fitting.leading_zeros())
    }

    /// Doubles the table, keeping every entry, unless it has reached its maximum size;
    /// says whether it grew. Costs time in proportion to the size: call it rarely (when
    /// the entries stored since the last growth are many times the capacity, say).
    pub fn grow(&mut self) -> bool {
        let old = self.buckets.len();
        if old >= self.max_buckets {
            return false;
        }
        self.buckets.resize(2 * old, Self::empty_bucket());
        self.index_mask = 2 * old - 1;
        let tag = self.tag();
        let generation_bits = self.generation_bits();
        // One more index bit: each entry stays in bucket `index` or moves to
        // `index + old`, whose bucket is empty.
        for index in 0..old {
            let mut moved = 0;
            for position in 0..SLOTS {
                let slot = self.buckets[index].slots[position];
                let current = slot.meta & 3 != EMPTY && slot.meta & !3 == generation_bits;
                if current && self.bucket_index(slot.check ^ tag) != index {
                    self.buckets[index + old].slots[moved] = slot;
                    self.buckets[index].slots[position].meta = EMPTY;
                    moved += 1;
                }
            }
        }
        true
    }

    fn empty_bucket() -> Bucket<M, V> {
        Bucket {
            slots: [Slot {
                check: 0,
                value: V::default(),
                best_move: None,
                depth: 0,
                meta: EMPTY,
            }; SLOTS],
        }
    }

    /// How many entries the table holds at most.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.buckets.len() * SLOTS
    }

    /// The memory the entries in use take, in bytes.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of_val(&*self.buckets)
    }

    /// The memory the table may grow to, in bytes.
    #[must_use]
    pub fn max_memory_bytes(&self) -> usize {
        self.max_buckets * std::mem::size_of::<Bucket<M, V>>()
    }

    /// Forgets every entry, in constant time: entries of earlier generations are never
    /// returned and are overwritten first. A [`growing`](Self::growing) table returns to
    /// its initial size (keeping its memory for the next growth).
    pub fn clear(&mut self) {
        self.stores_since_growth = 0;
        if self.buckets.len() > self.initial_buckets {
            self.buckets.truncate(self.initial_buckets);
            self.index_mask = self.initial_buckets - 1;
        }
        self.generation += 1;
        if self.generation > MAX_GENERATION {
            self.buckets.fill(Self::empty_bucket());
            self.generation = 1;
        }
    }

    /// Entries in use per thousand slots, estimated on the first thousand slots (the
    /// "hashfull" figure chess engines report).
    #[must_use]
    pub fn occupancy_permille(&self) -> usize {
        let sampled = self
            .buckets
            .iter()
            .flat_map(|bucket| &bucket.slots)
            .take(1000);
        let (mut used, mut total) = (0, 0);
        for slot in sampled {
            total += 1;
            if self.is_current(slot) {
                used += 1;
            }
        }
        used * 1000 / total
    }

    #[inline]
    fn tag(&self) -> u64 {
        self.generation << GENERATION_SHIFT
    }

    #[inline]
    fn generation_bits(&self) -> u8 {
        // Six bits: the rest of the byte holds the bound code.
        ((self.generation & 0x3f) as u8) << 2
    }

    #[inline]
    fn is_current(&self, slot: &Slot<M, V>) -> bool {
        slot.meta & 3 != EMPTY && slot.meta & !3 == self.generation_bits()
    }

    #[inline]
    fn bucket_index(&self, key: u64) -> usize {
        // Fibonacci hashing: the high bits of the product depend on every bit of the key,
        // so structured keys (bitboards) spread over the buckets.
        let mixed = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (mixed >> 32) as usize & self.index_mask
    }

    /// Asks the processor to bring `key`'s bucket into the cache, so that a
    /// [`probe`](Self::probe) of it a little later does not wait on memory. Only a hint:
    /// it changes nothing.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        crate::search::prefetch::prefetch(&self.buckets[self.bucket_index(key)]);
    }

    /// The entry stored for `key` in the current generation, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TableEntry<M, V>> {
        let check = key ^ self.tag();
        let bucket = &self.buckets[self.bucket_index(key)];
        for slot in &bucket.slots {
            if slot.check == check && self.is_current(slot) {
                return Some(TableEntry {
                    value: slot.value,
                    bound: match slot.meta & 3 {
                        EXACT => Bound::Exact,
                        LOWER => Bound::Lower,
                        _ => Bound::Upper,
                    },
                    depth: u32::from(slot.depth),
                    best_move: slot.best_move,
                });
            }
        }
        None
    }

    /// Stores `entry` for `key`, replacing the entry for the same key, else an empty or
    /// stale slot, else the slot of least depth in the key's bucket.
    #[inline]
    pub fn store(&mut self, key: u64, entry: TableEntry<M, V>) {
        let check = key ^ self.tag();
        let generation_bits = self.generation_bits();
        let index = self.bucket_index(key);
        let mut victim = 0;
        let mut victim_depth = u16::MAX;
        let mut keep_move = None;
        for (position, slot) in self.buckets[index].slots.iter().enumerate() {
            let current = slot.meta & 3 != EMPTY && slot.meta & !3 == generation_bits;
            if current && slot.check == check {
                victim = position;
                keep_move = slot.best_move;
                break;
            }
            // Stale and empty slots count as shallower than any current entry.
            let depth = if current {
                u16::from(slot.depth) + 1
            } else {
                0
            };
            if depth < victim_depth {
                victim = position;
                victim_depth = depth;
            }
        }
        let code = match entry.bound {
            Bound::Exact => EXACT,
            Bound::Lower => LOWER,
            Bound::Upper => UPPER,
        };
        self.buckets[index].slots[victim] = Slot {
            check,
            value: entry.value,
            best_move: entry.best_move.or(keep_move),
            depth: u8::try_from(entry.depth).unwrap_or(u8::MAX),
            meta: generation_bits | code,
        };
        if self.grows_itself {
            self.stores_since_growth += 1;
            if self.stores_since_growth >= GROWTH_LOAD * self.capacity() as u64 {
                self.stores_since_growth = 0;
                self.grow();
            }
        }
    }
}

impl<M, V> fmt::Debug for TranspositionTable<M, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TranspositionTable")
            .field("buckets", &self.buckets.len())
            .field("generation", &self.generation)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(value: i32, bound: Bound, depth: u32) -> TableEntry<u8, i32> {
        TableEntry {
            value,
            bound,
            depth,
            best_move: None,
        }
    }

    #[test]
    fn an_entry_for_one_bucket_and_four_slots_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Slot<u8, i32>>(), 16);
        assert_eq!(std::mem::size_of::<Bucket<u8, i32>>(), 64);
        let table: TranspositionTable<u8, i32> = TranspositionTable::with_mib(1);
        assert_eq!(table.memory_bytes(), 1 << 20);
        let large: TranspositionTable<u8, i32> = TranspositionTable::with_mib(64);
        assert_eq!(large.memory_bytes(), INITIAL_MIB << 20);
        assert_eq!(large.max_memory_bytes(), 64 << 20);
        assert_eq!(table.capacity(), (1 << 20) / 16);
        let odd: TranspositionTable<u8, i32> = TranspositionTable::with_buckets(5);
        assert_eq!(odd.capacity(), 8 * SLOTS);
    }

    #[test]
    fn a_table_of_several_mebibytes_grows_itself_as_it_is_loaded_and_keeps_its_entries() {
        let mut table: TranspositionTable<u8, i32> = TranspositionTable::with_mib(4);
        let capacity = table.capacity() as u64;
        for key in 0..GROWTH_LOAD * capacity - 1 {
            table.store(key, entry(1, Bound::Exact, 3));
        }
        assert_eq!(table.capacity() as u64, capacity);
        table.store(u64::MAX / 3, entry(7, Bound::Lower, 9));
        assert_eq!(table.capacity() as u64, 2 * capacity);
        assert_eq!(table.probe(u64::MAX / 3).map(|found| found.value), Some(7));
        table.clear();
        assert_eq!(table.capacity() as u64, capacity);
    }

    #[test]
    fn a_stored_entry_is_found_and_a_missing_key_is_not() {
        let mut table = TranspositionTable::with_buckets(16);
        table.store(7, entry(-3, Bound::Upper, 2));
        assert_eq!(table.probe(7), Some(entry(-3, Bound::Upper, 2)));
        assert_eq!(table.probe(8), None);
        // The empty board's key is 0 in Connect Four: a key of 0 is a key like any other.
        assert_eq!(table.probe(0), None);
        table.store(0, entry(1, Bound::Exact, 1));
        assert_eq!(table.probe(0), Some(entry(1, Bound::Exact, 1)));
    }

    #[test]
    fn clearing_forgets_every_entry_even_after_the_generations_wrap() {
        let mut table = TranspositionTable::with_buckets(1);
        table.store(1, entry(5, Bound::Lower, 3));
        table.clear();
        assert_eq!(table.probe(1), None);
        for _ in 0..MAX_GENERATION + 3 {
            table.store(1, entry(5, Bound::Lower, 3));
            table.clear();
            assert_eq!(table.probe(1), None);
        }
    }

    #[test]
    fn a_full_bucket_gives_up_its_shallowest_entry_and_keeps_the_deep_ones() {
        let mut table = TranspositionTable::with_buckets(1);
        for (key, depth) in [(1, 9), (2, 1), (3, 7), (4, 8)] {
            table.store(key, entry(0, Bound::Exact, depth));
        }
        table.store(5, entry(0, Bound::Exact, 2));
        assert_eq!(table.probe(2), None);
        for key in [1, 3, 4, 5] {
            assert!(table.probe(key).is_some(), "key {key}");
        }
    }

    #[test]
    fn stale_entries_are_replaced_before_current_ones() {
        let mut table = TranspositionTable::with_buckets(1);
        for key in 1..=3 {
            table.store(key, entry(0, Bound::Exact, 200));
        }
        table.clear();
        table.store(10, entry(0, Bound::Exact, 1));
        for key in 11..=13 {
            table.store(key, entry(0, Bound::Exact, 1));
        }
        for key in 10..=13 {
            assert!(table.probe(key).is_some(), "key {key}");
        }
    }

    #[test]
    fn a_new_entry_without_a_move_keeps_the_old_best_move() {
        let mut table = TranspositionTable::with_buckets(4);
        table.store(
            9,
            TableEntry {
                best_move: Some(3),
                ..entry(4, Bound::Lower, 2)
            },
        );
        table.store(9, entry(1, Bound::Upper, 5));
        let found = table.probe(9).expect("stored");
        assert_eq!(
            (found.value, found.bound, found.best_move),
            (1, Bound::Upper, Some(3))
        );
    }

    #[test]
    fn growing_keeps_every_entry_and_clearing_returns_to_the_initial_size() {
        let mut table = TranspositionTable::growing_buckets(2, 64);
        let keys: Vec<u64> = (0..8).map(|key| key * 0x1234_5678_9abc).collect();
        for &key in &keys {
            table.store(key, entry(key as i32 & 0xff, Bound::Exact, 3));
        }
        let before: Vec<_> = keys.iter().map(|&key| table.probe(key)).collect();
        let mut sizes = vec![table.capacity()];
        while table.grow() {
            sizes.push(table.capacity());
            let after: Vec<_> = keys.iter().map(|&key| table.probe(key)).collect();
            assert_eq!(after, before);
        }
        assert_eq!(sizes, vec![8, 16, 32, 64, 128, 256]);
        table.clear();
        assert_eq!(table.capacity(), 8);
        assert!(keys.iter().all(|&key| table.probe(key).is_none()));
        for _ in 0..5 {
            assert!(table.grow());
        }
        assert!(keys.iter().all(|&key| table.probe(key).is_none()));
        assert!(!table.grow());
    }

    #[test]
    fn depths_beyond_a_byte_are_stored_as_255() {
        let mut table = TranspositionTable::with_buckets(1);
        table.store(1, entry(0, Bound::Exact, 1000));
        assert_eq!(table.probe(1).map(|found| found.depth), Some(255));
        let found = table.probe(1).expect("stored");
        // A search deeper than can be recorded still trusts the saturated entry.
        assert_eq!(found.cutoff(1000, Window::new(-1, 1)), Some(0));
    }
}
