//! A small seeded random number generator (SplitMix64, Steele, Lea and Flood 2014), so the
//! typical positions are reproducible from a seed on every platform and version.

/// SplitMix64: one 64-bit state, advanced by a constant and scrambled.
#[derive(Clone, Debug)]
pub(crate) struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator for `stream` under `seed`: distinct streams give unrelated sequences, so
    /// each self-play game has its own, whichever thread plays it.
    pub(crate) fn new(seed: u64, stream: u64) -> Self {
        let mut mixer = SplitMix64 {
            state: seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03),
        };
        // Decorrelate neighbouring seeds before the first draw.
        mixer.next_u64();
        mixer
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound > 0`), by Lemire's multiply-shift: the bias is below
    /// 2⁻³² for the small bounds used here.
    pub(crate) fn below(&mut self, bound: usize) -> usize {
        let bound = bound as u64;
        ((u128::from(self.next_u64()) * u128::from(bound)) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_reference_sequence() {
        // Reference values of SplitMix64 from state 0 (the first outputs of Vigna's
        // splitmix64.c with x = 0).
        let mut generator = SplitMix64 { state: 0 };
        assert_eq!(generator.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(generator.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn draws_stay_below_the_bound_and_streams_differ() {
        let mut first = SplitMix64::new(7, 0);
        let mut second = SplitMix64::new(7, 1);
        assert!((0..1000).all(|_| first.below(5) < 5));
        let a: Vec<u64> = (0..4).map(|_| first.next_u64()).collect();
        let b: Vec<u64> = (0..4).map(|_| second.next_u64()).collect();
        assert_ne!(a, b);
    }
}
