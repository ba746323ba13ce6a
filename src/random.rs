//! A small seeded random number generator (SplitMix64: Steele, Lea and Flood 2014, in
//! Vigna's formulation), so that what is made at random (test trees, the experiment's
//! typical positions, test games and puzzles) is a function of a seed on every platform and
//! version. Not for cryptography; no dependency for what a dozen lines do.

/// SplitMix64: one 64-bit state, advanced by a constant and scrambled.
///
/// # Example
/// ```
/// use gametree::SplitMix64;
///
/// let mut random = SplitMix64::new(2024);
/// let roll = random.below(6) + 1;
/// assert!((1..=6).contains(&roll));
/// // The same seed, the same sequence.
/// assert_eq!(SplitMix64::new(7).next_u64(), SplitMix64::new(7).next_u64());
/// ```
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The generator whose state is `seed` (Vigna's `splitmix64.c` with `x = seed`).
    #[must_use]
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// A generator for `stream` under `seed`: distinct streams give unrelated sequences (so
    /// each self-play game has its own, whichever thread plays it).
    #[must_use]
    pub fn with_stream(seed: u64, stream: u64) -> Self {
        let mut mixer = SplitMix64 {
            state: seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03),
        };
        // Decorrelate neighbouring seeds before the first draw.
        mixer.next_u64();
        mixer
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound > 0`), by Lemire's multiply-shift: the bias is below
    /// 2⁻³² for bounds below 2³².
    ///
    /// # Panics
    /// If `bound` is 0.
    pub fn below(&mut self, bound: u64) -> u64 {
        assert!(bound > 0, "SplitMix64::below(0): no number is below 0");
        let product = u128::from(self.next_u64()) * u128::from(bound);
        u64::try_from(product >> 64).expect("invariant: the high half of a u128 fits a u64")
    }

    /// A random index into a slice of `len` elements (`len > 0`): [`below`](Self::below).
    ///
    /// # Panics
    /// If `len` is 0.
    pub fn index(&mut self, len: usize) -> usize {
        let index = self.below(len as u64);
        usize::try_from(index).expect("invariant: below a usize")
    }

    /// Puts `items` in a random order, each order equally likely (Fisher and Yates,
    /// Durstenfeld's form).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for last in (1..items.len()).rev() {
            items.swap(last, self.index(last + 1));
        }
    }
}

/// Plays up to `plies` moves on `game`, each drawn uniformly among its successors (fewer if
/// the game ends first), and returns them: the random positions and openings of tests and
/// experiments, for any game.
///
/// # Example
/// ```
/// use gametree::{Game, SimpleTicTacToe, SplitMix64, play_random_moves};
///
/// let mut game = SimpleTicTacToe::new();
/// let line = play_random_moves(&mut game, 4, &mut SplitMix64::new(1));
/// assert_eq!(line.len(), 4);
/// ```
pub fn play_random_moves<G: crate::Game>(
    game: &mut G,
    plies: usize,
    random: &mut SplitMix64,
) -> Vec<G::Move> {
    let mut moves = Vec::new();
    let mut line = Vec::with_capacity(plies);
    for _ in 0..plies {
        if game.is_terminal() {
            break;
        }
        moves.clear();
        game.successors(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[random.index(moves.len())];
        game.update(mv);
        line.push(mv);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_reference_sequence() {
        // Reference values of SplitMix64 from state 0 (the first outputs of Vigna's
        // splitmix64.c with x = 0).
        let mut generator = SplitMix64::new(0);
        assert_eq!(generator.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(generator.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn draws_stay_below_the_bound_and_streams_differ() {
        let mut first = SplitMix64::with_stream(7, 0);
        let mut second = SplitMix64::with_stream(7, 1);
        assert!((0..1000).all(|_| first.below(5) < 5 && first.index(3) < 3));
        let a: Vec<u64> = (0..4).map(|_| first.next_u64()).collect();
        let b: Vec<u64> = (0..4).map(|_| second.next_u64()).collect();
        assert_ne!(a, b);
    }

    #[test]
    fn a_shuffle_is_a_permutation() {
        let mut random = SplitMix64::new(3);
        let mut items: Vec<u32> = (0..50).collect();
        random.shuffle(&mut items);
        assert_ne!(items, (0..50).collect::<Vec<_>>());
        items.sort_unstable();
        assert_eq!(items, (0..50).collect::<Vec<_>>());
    }
}
