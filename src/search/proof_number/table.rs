//! The transposition table of df-pn: proof and disproof numbers by position key, in a fixed
//! number of two-entry buckets, so memory is bounded by its size in mebibytes.

/// Proof and disproof numbers stored for a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Entry {
    /// The position key.
    pub(super) key: u64,
    /// Proof number.
    pub(super) proof: u64,
    /// Disproof number.
    pub(super) disproof: u64,
    /// Positions searched below the position when it was stored: a bigger search is
    /// dearer to redo, so it is kept when a bucket is full (Nagai 2002 keeps the larger
    /// subtree). At least 1 in a stored entry.
    pub(super) work: u32,
    /// The table's generation when stored: an entry of an older generation is empty, so
    /// clearing the table is one increment.
    pub(super) generation: u32,
}

/// Entries per bucket.
const WAYS: usize = 2;

/// A table of `2^k` buckets of [`WAYS`] entries.
#[derive(Clone, Debug)]
pub(super) struct Table {
    entries: Vec<Entry>,
    /// `64 − k`: the bucket is the top `k` bits of the key times a mixing constant.
    shift: u32,
    /// The current generation, at least 1 (a fresh entry has generation 0).
    generation: u32,
}

impl Table {
    /// A table of at most `mib` mebibytes (at least one bucket).
    pub(super) fn with_mib(mib: usize) -> Self {
        let bytes = mib.max(1).saturating_mul(1 << 20);
        let buckets = (bytes / (WAYS * std::mem::size_of::<Entry>())).max(1);
        // The largest power of two not above `buckets`.
        let bits = usize::BITS - 1 - buckets.leading_zeros();
        Table {
            entries: vec![Entry::default(); WAYS << bits],
            shift: 64 - bits,
            generation: 1,
        }
    }

    /// Bytes the entries take.
    pub(super) fn memory_bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    /// Empties the table: a new generation, and a real wipe once in 2³² − 1 clears.
    pub(super) fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.entries.fill(Entry::default());
            self.generation = 1;
        }
    }

    fn is_live(&self, entry: &Entry) -> bool {
        entry.generation == self.generation
    }

    fn bucket(&self, key: u64) -> usize {
        if self.shift >= 64 {
            return 0;
        }
        let mixed = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        usize::try_from(mixed >> self.shift).expect("invariant: fewer buckets than usize::MAX")
            * WAYS
    }

    /// The numbers stored for `key`, if any.
    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        let start = self.bucket(key);
        self.entries[start..start + WAYS]
            .iter()
            .find(|entry| self.is_live(entry) && entry.key == key)
            .copied()
    }

    /// Stores `entry` in the current generation: over the entry of the same key, else over
    /// an empty slot, else over the entry with the least work.
    pub(super) fn store(&mut self, mut entry: Entry) {
        entry.generation = self.generation;
        let generation = self.generation;
        let start = self.bucket(entry.key);
        let bucket = &mut self.entries[start..start + WAYS];
        let slot = bucket
            .iter()
            .position(|old| old.generation == generation && old.key == entry.key)
            .or_else(|| bucket.iter().position(|old| old.generation != generation))
            .unwrap_or_else(|| {
                let mut least = 0;
                for (index, old) in bucket.iter().enumerate() {
                    if old.work < bucket[least].work {
                        least = index;
                    }
                }
                least
            });
        bucket[slot] = entry;
    }
}
