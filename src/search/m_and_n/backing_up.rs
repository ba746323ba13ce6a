//! Backing-up functions: how m&n minimaxing turns the m (or n) best successor values into
//! the value of a position. Slagle's `buma`/`bunb` (seed 003, Appendix B), `bua`/`bub` with
//! their inverses `glbua`/`lubub` (Appendix C), and the monotonicity theorem of section 8.1.

use std::f64::consts::LN_2;
use std::fmt;

use crate::game::Player;

/// A backing-up function: the value of a position from the values of its best successors.
///
/// At a position where MAX is to move the search backs up the [`BackingUp::count`]`(Max)`
/// = m greatest successor values; where MIN is to move, the n least. One implementation
/// serves both players, as Slagle's `bua` and `bub` come in a pair.
///
/// # Contract
/// The m&n alpha-beta procedure returns what m&n minimaxing returns (same value, same move)
/// provided that, for each player and depth:
/// 1. [`BackingUp::back_up`] is non-decreasing in its last (worst) value, as a floating
///    point function of it. Slagle's family always is (y, s > 0).
/// 2. The backed-up value is never worse for the player to move than the best successor:
///    at least `best[0]` for MAX, at most `best[0]` for MIN. Slagle's family adds a
///    non-negative amount for MAX and subtracts one for MIN.
/// 3. [`BackingUp::is_monotone`] returns `true` only if `back_up` is non-decreasing in
///    every value. The search then also cuts off when the values seen so far already
///    decide the position; that cutoff is wrong for a function that is not monotone.
///
/// Monotonicity in the best value (Slagle's theorem, [`slagle_is_increasing`]) is not
/// needed for the two procedures to agree: only for the extra cutoff of item 3.
pub trait BackingUp {
    /// How many best successor values are backed up at a position of `player`: Slagle's m
    /// for MAX, n for MIN. At least 1; 1 for both is ordinary minimaxing.
    fn count(&self, player: Player) -> usize;

    /// Slagle's `buma`/`bunb` (Appendix B), `bua`/`bub` (Appendix C): the backed-up value
    /// of a position of `player` whose best successor values are `best`.
    ///
    /// `best` holds exactly [`BackingUp::count`] values, best first (descending for MAX,
    /// ascending for MIN). A position with fewer successors is padded with the player's
    /// worst value, −∞ for MAX and ∞ for MIN, as Slagle's `initima`/`initinb` are.
    /// `depth_below` is Slagle's `dmax` of the successors: the plies the search goes on
    /// below each of them, or `None` in a search that goes on to terminal positions.
    fn back_up(&self, player: Player, best: &[f64], depth_below: Option<u32>) -> f64;

    /// Slagle's `glbua`/`lubub` (Appendix C): the value the last (worst) of the backed-up
    /// values must have, together with the better values `leading`, for [`back_up`] to
    /// equal `bound`.
    ///
    /// `leading` holds `count − 1` values, best first. The answer may be approximate (it
    /// comes through logarithms): the search corrects it, one floating point number at a
    /// time, against [`back_up`] itself, so only [`back_up`] decides a cutoff. Return −∞
    /// for MAX (∞ for MIN) when no last value brings the backed-up value down (up) to
    /// `bound`. The default returns `None`, and the search bisects on [`back_up`] alone.
    ///
    /// [`back_up`]: BackingUp::back_up
    fn inverse(
        &self,
        player: Player,
        leading: &[f64],
        bound: f64,
        depth_below: Option<u32>,
    ) -> Option<f64> {
        let _ = (player, leading, bound, depth_below);
        None
    }

    /// Whether [`BackingUp::back_up`] is non-decreasing in every value at this player and
    /// depth (Slagle's section 8.1). The default is `false`, which is always safe.
    fn is_monotone(&self, player: Player, depth_below: Option<u32>) -> bool {
        let _ = (player, depth_below);
        false
    }
}

/// A backing-up function behind a reference is the function itself.
impl<B: BackingUp + ?Sized> BackingUp for &B {
    fn count(&self, player: Player) -> usize {
        (**self).count(player)
    }
    fn back_up(&self, player: Player, best: &[f64], depth_below: Option<u32>) -> f64 {
        (**self).back_up(player, best, depth_below)
    }
    fn inverse(
        &self,
        player: Player,
        leading: &[f64],
        bound: f64,
        depth_below: Option<u32>,
    ) -> Option<f64> {
        (**self).inverse(player, leading, bound, depth_below)
    }
    fn is_monotone(&self, player: Player, depth_below: Option<u32>) -> bool {
        (**self).is_monotone(player, depth_below)
    }
}

/// A backing-up function with its monotonicity claim replaced, for experiments on the
/// extra cutoff a monotone function allows (docs/m-and-n.md).
///
/// [`MonotoneClaim::withheld`] never claims monotonicity: the m&n alpha-beta procedure then
/// makes Slagle's cutoffs only — always safe, and what the extra cutoff saves is measured
/// against it. [`MonotoneClaim::asserted`] claims it whatever the function: the search
/// trusts the extra cutoff blindly, which breaks item 3 of the [`BackingUp`] contract unless
/// the function is monotone (with Slagle's x = 3, y = 1 the search may then return another
/// value or move than m&n minimaxing).
#[derive(Clone, Copy, Debug)]
pub struct MonotoneClaim<B> {
    /// The backing-up function.
    pub function: B,
    /// What [`BackingUp::is_monotone`] answers, at every player and depth.
    pub monotone: bool,
}

impl<B> MonotoneClaim<B> {
    /// `function`, never claimed monotone: Slagle's cutoffs only.
    pub fn withheld(function: B) -> Self {
        MonotoneClaim {
            function,
            monotone: false,
        }
    }

    /// `function`, always claimed monotone, whether it is or not.
    pub fn asserted(function: B) -> Self {
        MonotoneClaim {
            function,
            monotone: true,
        }
    }
}

impl<B: BackingUp> BackingUp for MonotoneClaim<B> {
    fn count(&self, player: Player) -> usize {
        self.function.count(player)
    }
    fn back_up(&self, player: Player, best: &[f64], depth_below: Option<u32>) -> f64 {
        self.function.back_up(player, best, depth_below)
    }
    fn inverse(
        &self,
        player: Player,
        leading: &[f64],
        bound: f64,
        depth_below: Option<u32>,
    ) -> Option<f64> {
        self.function.inverse(player, leading, bound, depth_below)
    }
    fn is_monotone(&self, _player: Player, _depth_below: Option<u32>) -> bool {
        self.monotone
    }
}

/// Slagle's theorem (seed 003, section 8.1): v(a₂) = a₂ + 2^(x − (a₂ − α)·y), y > 0, is
/// increasing in a₂ on a₂ ≥ α if and only if y·2^x·ln 2 ≤ 1. The same holds for the MIN
/// function with r, s in place of x, y.
///
/// # Example
/// ```
/// use gametree::slagle_is_increasing;
/// // The seed's worked examples use x = 3, y = 1, which break it: 1 · 8 · ln 2 ≈ 5.5.
/// assert!(!slagle_is_increasing(3.0, 1.0));
/// assert!(slagle_is_increasing(2.0, 0.25));
/// ```
#[must_use]
pub fn slagle_is_increasing(x: f64, y: f64) -> bool {
    y * x.exp2() * LN_2 <= 1.0
}

/// The two parameters of one of Slagle's backing-up functions: x and y for MAX
/// (v = a₂ + 2^(x − (a₂ − α)·y)), r and s for MIN (v = b₂ − 2^(r − (β − b₂)·s)).
///
/// x (r) is the log₂ of the most the function adds to (takes from) the best value, when
/// the second best equals it; y (s) says how fast that amount halves as the second best
/// falls behind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exponents {
    /// x for MAX, r for MIN: any finite number.
    pub shift: f64,
    /// y for MAX, s for MIN: finite and greater than 0.
    pub slope: f64,
}

impl Exponents {
    /// The exponents (x, y) or (r, s), checked.
    ///
    /// # Errors
    /// [`BackingUpError::NotFinite`] when either is infinite or NaN,
    /// [`BackingUpError::SlopeNotPositive`] when `slope ≤ 0` (the seed requires y > 0).
    pub fn new(shift: f64, slope: f64) -> Result<Self, BackingUpError> {
        if !shift.is_finite() || !slope.is_finite() {
            return Err(BackingUpError::NotFinite { shift, slope });
        }
        if slope <= 0.0 {
            return Err(BackingUpError::SlopeNotPositive { slope });
        }
        Ok(Exponents { shift, slope })
    }

    /// The amount added (MAX) or taken (MIN) for a value `gap` behind the best:
    /// 2^(x − gap·y). An infinite gap (a padded missing successor) adds nothing.
    fn term(self, gap: f64) -> f64 {
        (self.shift - gap * self.slope).exp2()
    }

    /// Whether the function over `count` values is non-decreasing in every value: Slagle's
    /// y·2^x·ln 2 ≤ 1 at m = 2 and (m − 1)·y·2^x·ln 2 ≤ 1 for the sum that defines m > 2
    /// (see [`Slagle`]); always true for m = 1.
    #[must_use]
    pub fn is_monotone(self, count: usize) -> bool {
        count <= 1 || (count - 1) as f64 * self.slope * self.shift.exp2() * LN_2 <= 1.0
    }
}

/// Why a backing-up function could not be built.
#[derive(Clone, Debug, PartialEq)]
pub enum BackingUpError {
    /// m or n is 0: a position must back up at least its best successor.
    ZeroCount {
        /// The player whose count is 0.
        player: Player,
    },
    /// y or s is not greater than 0.
    SlopeNotPositive {
        /// The offending y or s.
        slope: f64,
    },
    /// An exponent is infinite or NaN.
    NotFinite {
        /// x or r.
        shift: f64,
        /// y or s.
        slope: f64,
    },
}

impl fmt::Display for BackingUpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BackingUpError::ZeroCount {
                player: Player::Max,
            } => f.write_str("m must be at least 1 (the number of values MAX backs up)"),
            BackingUpError::ZeroCount {
                player: Player::Min,
            } => f.write_str("n must be at least 1 (the number of values MIN backs up)"),
            BackingUpError::SlopeNotPositive { slope } => {
                write!(f, "y and s must be greater than 0, got {}", short(*slope))
            }
            BackingUpError::NotFinite { shift, slope } => {
                write!(
                    f,
                    "exponents must be finite numbers, got {} and {}",
                    short(*shift),
                    short(*slope)
                )
            }
        }
    }
}

/// A number as `{}` writes it (`0`, `-0.5`, `inf`) unless that takes more than a few
/// digits (`-1e-300` would be 300 zeros), then in scientific notation.
fn short(number: f64) -> String {
    let magnitude = number.abs();
    if number == 0.0 || !number.is_finite() || (1e-4..1e16).contains(&magnitude) {
        number.to_string()
    } else {
        format!("{number:e}")
    }
}

impl std::error::Error for BackingUpError {}

/// Slagle's family of backing-up functions (seed 003, sections 6 and 8, Appendices B, C).
///
/// With a₁ ≥ a₂ ≥ … ≥ aₘ the m greatest successor values of a MAX position,
///
/// v = a₁ + Σₖ₌₂..ₘ 2^(x − (a₁ − aₖ)·y),
///
/// and with b₁ ≤ b₂ ≤ … ≤ bₙ the n least of a MIN position,
///
/// v = b₁ − Σₖ₌₂..ₙ 2^(r − (bₖ − b₁)·s).
///
/// At m = 2 this is Slagle's a₂ + 2^(x − (a₂ − α)·y) (his a₂ is our a₁, his α our a₂); at
/// m = 1 it is the best value, ordinary minimaxing. The seed defines only m = 2; for m > 2
/// each further near-best successor adds its own bonus, which halves for every 1/y the
/// successor falls behind the best. The function is monotone when
/// (m − 1)·y·2^x·ln 2 ≤ 1, Slagle's condition at m = 2.
///
/// The exponents may depend on the depth (Slagle's `dmax`, section 8): set them per depth
/// with [`Slagle::with_max_at`] / [`Slagle::with_min_at`]; other depths, and a search to
/// terminal positions, use the defaults.
///
/// # Example
/// ```
/// use gametree::{BackingUp, Exponents, Player, Slagle};
/// // Seed 003, Fig. 2: x = 3, y = 1, r = 3, s = 1.
/// let slagle = Slagle::new(2, 2, Exponents::new(3.0, 1.0)?, Exponents::new(3.0, 1.0)?)?;
/// assert_eq!(slagle.back_up(Player::Min, &[15.0, 17.0], Some(0)), 13.0); // v233
/// assert_eq!(slagle.back_up(Player::Max, &[16.0, 13.0], Some(1)), 17.0); // v23
/// # Ok::<(), gametree::BackingUpError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Slagle {
    m: usize,
    n: usize,
    max: Exponents,
    min: Exponents,
    max_at: Vec<Option<Exponents>>,
    min_at: Vec<Option<Exponents>>,
}

impl Slagle {
    /// m&n backing up with exponents (x, y) for MAX and (r, s) for MIN at every depth.
    ///
    /// # Errors
    /// [`BackingUpError::ZeroCount`] when m or n is 0.
    pub fn new(m: usize, n: usize, max: Exponents, min: Exponents) -> Result<Self, BackingUpError> {
        if m == 0 {
            return Err(BackingUpError::ZeroCount {
                player: Player::Max,
            });
        }
        if n == 0 {
            return Err(BackingUpError::ZeroCount {
                player: Player::Min,
            });
        }
        Ok(Slagle {
            m,
            n,
            max,
            min,
            max_at: Vec::new(),
            min_at: Vec::new(),
        })
    }

    /// 1&1: each player backs up its best successor alone — ordinary minimaxing, leaf for
    /// leaf McCarthy's alpha-beta.
    #[must_use]
    pub fn one_and_one() -> Self {
        let unused = Exponents {
            shift: 0.0,
            slope: 1.0,
        };
        Slagle::new(1, 1, unused, unused).expect("invariant: 1 and 1 are counts")
    }

    /// 2&2 with Slagle's own example exponents (seed 003, Appendices B and C: x = r = 3,
    /// y = s = 1): the best value plus 2^(3 − gap) for a second best `gap` behind. Values
    /// are taken to be in the units of the seed's examples (small integers); for another
    /// scale, choose [`Exponents`] and call [`Slagle::new`]. These exponents are not
    /// monotone ((m − 1)·y·2^x·ln 2 = 5.5 > 1), so m&n alpha-beta takes none of the cutoffs
    /// that need monotonicity: its result is still m&n minimaxing's.
    #[must_use]
    pub fn two_and_two() -> Self {
        let seed = Exponents {
            shift: 3.0,
            slope: 1.0,
        };
        Slagle::new(2, 2, seed, seed).expect("invariant: 2 and 2 are counts")
    }

    /// Uses `exponents` for MAX positions whose successors have `depth_below` plies left
    /// (Slagle's `dmax`, as section 8.1 learns x and y per dmax).
    #[must_use]
    pub fn with_max_at(mut self, depth_below: u32, exponents: Exponents) -> Self {
        set_at(&mut self.max_at, depth_below, exponents);
        self
    }

    /// Uses `exponents` for MIN positions whose successors have `depth_below` plies left
    /// (section 8.2).
    #[must_use]
    pub fn with_min_at(mut self, depth_below: u32, exponents: Exponents) -> Self {
        set_at(&mut self.min_at, depth_below, exponents);
        self
    }

    /// The exponents used at a position of `player` whose successors have `depth_below`
    /// plies left.
    #[must_use]
    pub fn exponents(&self, player: Player, depth_below: Option<u32>) -> Exponents {
        let (default, table) = match player {
            Player::Max => (self.max, &self.max_at),
            Player::Min => (self.min, &self.min_at),
        };
        depth_below
            .and_then(|depth| table.get(depth as usize).copied().flatten())
            .unwrap_or(default)
    }

    /// Every (player, depth) whose exponents break monotonicity, `None` standing for the
    /// defaults; empty when the function is monotone everywhere. The CLI warns with it.
    #[must_use]
    pub fn monotonicity_violations(&self) -> Vec<(Player, Option<u32>)> {
        let mut violations = Vec::new();
        for (player, count, default, table) in [
            (Player::Max, self.m, self.max, &self.max_at),
            (Player::Min, self.n, self.min, &self.min_at),
        ] {
            if !default.is_monotone(count) {
                violations.push((player, None));
            }
            for (depth, exponents) in table.iter().enumerate() {
                if let Some(exponents) = exponents
                    && !exponents.is_monotone(count)
                {
                    let depth = u32::try_from(depth).expect("invariant: set from a u32");
                    violations.push((player, Some(depth)));
                }
            }
        }
        violations
    }
}

fn set_at(table: &mut Vec<Option<Exponents>>, depth_below: u32, exponents: Exponents) {
    let index = depth_below as usize;
    if table.len() <= index {
        table.resize(index + 1, None);
    }
    table[index] = Some(exponents);
}

impl BackingUp for Slagle {
    fn count(&self, player: Player) -> usize {
        match player {
            Player::Max => self.m,
            Player::Min => self.n,
        }
    }

    fn back_up(&self, player: Player, best: &[f64], depth_below: Option<u32>) -> f64 {
        let exponents = self.exponents(player, depth_below);
        let Some((&first, rest)) = best.split_first() else {
            return match player {
                Player::Max => f64::NEG_INFINITY,
                Player::Min => f64::INFINITY,
            };
        };
        if first.is_infinite() {
            // Every other value is then the same infinity or a padded missing one.
            return first;
        }
        match player {
            Player::Max => rest
                .iter()
                .fold(first, |value, &next| value + exponents.term(first - next)),
            Player::Min => rest
                .iter()
                .fold(first, |value, &next| value - exponents.term(next - first)),
        }
    }

    fn inverse(
        &self,
        player: Player,
        leading: &[f64],
        bound: f64,
        depth_below: Option<u32>,
    ) -> Option<f64> {
        let exponents = self.exponents(player, depth_below);
        let Some((&first, middle)) = leading.split_first() else {
            // m = 1: the value is the best value itself.
            return Some(bound);
        };
        let (none, all) = match player {
            Player::Max => (f64::NEG_INFINITY, f64::INFINITY),
            Player::Min => (f64::INFINITY, f64::NEG_INFINITY),
        };
        // What the last term must add (MAX) or take (MIN) to reach the bound.
        let remainder = match player {
            Player::Max => middle.iter().fold(bound - first, |rest, &next| {
                rest - exponents.term(first - next)
            }),
            Player::Min => middle.iter().fold(first - bound, |rest, &next| {
                rest - exponents.term(next - first)
            }),
        };
        if remainder.is_nan() || remainder <= 0.0 {
            // glbua's "oldalpha ≤ a₂ → −∞" and lubub's "oldbeta ≥ b₂ → ∞".
            return Some(none);
        }
        if remainder.is_infinite() {
            return Some(all);
        }
        let gap = (exponents.shift - remainder.log2()) / exponents.slope;
        Some(match player {
            // glbua: a₂ + (log₂(oldalpha − a₂) − x)/y
            Player::Max => first - gap,
            // lubub: b₂ + (r − log₂(b₂ − oldbeta))/s
            Player::Min => first + gap,
        })
    }

    fn is_monotone(&self, player: Player, depth_below: Option<u32>) -> bool {
        self.exponents(player, depth_below)
            .is_monotone(self.count(player))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed_function() -> Slagle {
        let three_one = Exponents::new(3.0, 1.0).expect("valid exponents");
        Slagle::new(2, 2, three_one, three_one).expect("valid counts")
    }

    #[test]
    fn a_monotone_claim_changes_only_the_claim() {
        let slagle = seed_function();
        let monotone = Exponents::new(2.0, 0.18).expect("valid exponents");
        let increasing = Slagle::new(2, 2, monotone, monotone).expect("valid counts");
        assert!(increasing.is_monotone(Player::Max, Some(3)));
        for (claim, expected) in [
            (MonotoneClaim::withheld(&increasing), false),
            (MonotoneClaim::asserted(&slagle), true),
        ] {
            let function = claim.function;
            for player in [Player::Max, Player::Min] {
                assert_eq!(claim.is_monotone(player, Some(3)), expected);
                assert_eq!(claim.count(player), function.count(player));
                let best = [5.0, 4.0];
                assert_eq!(
                    claim.back_up(player, &best, Some(3)).to_bits(),
                    function.back_up(player, &best, Some(3)).to_bits()
                );
                assert_eq!(
                    claim.inverse(player, &best[..1], 6.0, Some(3)),
                    function.inverse(player, &best[..1], 6.0, Some(3))
                );
            }
        }
    }

    #[test]
    fn one_and_one_backs_up_the_best_value_alone() {
        let exponents = Exponents::new(3.0, 1.0).expect("valid exponents");
        let plain = Slagle::new(1, 1, exponents, exponents).expect("valid counts");
        assert_eq!(plain.back_up(Player::Max, &[7.5], None), 7.5);
        assert_eq!(plain.back_up(Player::Min, &[-2.0], None), -2.0);
        assert_eq!(plain.inverse(Player::Max, &[], 4.0, None), Some(4.0));
    }

    #[test]
    fn padded_missing_successors_add_nothing() {
        let slagle = seed_function();
        assert_eq!(
            slagle.back_up(Player::Max, &[6.0, f64::NEG_INFINITY], None),
            6.0
        );
        assert_eq!(
            slagle.back_up(Player::Min, &[6.0, f64::INFINITY], None),
            6.0
        );
        assert_eq!(
            slagle.back_up(Player::Max, &[f64::NEG_INFINITY, f64::NEG_INFINITY], None),
            f64::NEG_INFINITY
        );
        assert_eq!(
            slagle.back_up(Player::Min, &[f64::INFINITY; 2], None),
            f64::INFINITY
        );
    }

    #[test]
    fn three_best_values_reduce_to_slagles_function_when_the_third_is_missing() {
        let exponents = Exponents::new(3.0, 1.0).expect("valid exponents");
        let three = Slagle::new(3, 3, exponents, exponents).expect("valid counts");
        let two = seed_function();
        assert_eq!(
            three.back_up(Player::Max, &[16.0, 13.0, f64::NEG_INFINITY], None),
            two.back_up(Player::Max, &[16.0, 13.0], None)
        );
        // Each near-best successor adds its own bonus: 16 + 2^(3−3) + 2^(3−4).
        assert_eq!(three.back_up(Player::Max, &[16.0, 13.0, 12.0], None), 17.5);
        // The inverse in the third value: 16 + 1 + 2^(3 − (16 − c)) = 17.5 at c = 12.
        let third = three
            .inverse(Player::Max, &[16.0, 13.0], 17.5, None)
            .expect("Slagle's family has a closed-form inverse");
        assert!((third - 12.0).abs() < 1e-12);
    }

    #[test]
    fn the_inverse_is_minus_infinity_when_the_leading_values_already_reach_the_bound() {
        let slagle = seed_function();
        // glbua: oldalpha ≤ a₂ → −∞; lubub: oldbeta ≥ b₂ → ∞.
        assert_eq!(
            slagle.inverse(Player::Max, &[12.0], 10.0, None),
            Some(f64::NEG_INFINITY)
        );
        assert_eq!(
            slagle.inverse(Player::Min, &[12.0], 15.0, None),
            Some(f64::INFINITY)
        );
    }

    #[test]
    fn exponents_depending_on_depth_override_the_defaults_only_at_their_depth() {
        let default = Exponents::new(3.0, 1.0).expect("valid exponents");
        let shallow = Exponents::new(1.0, 0.5).expect("valid exponents");
        let slagle = Slagle::new(2, 2, default, default)
            .expect("valid counts")
            .with_max_at(1, shallow);
        assert_eq!(slagle.exponents(Player::Max, Some(1)), shallow);
        assert_eq!(slagle.exponents(Player::Max, Some(2)), default);
        assert_eq!(slagle.exponents(Player::Max, None), default);
        assert_eq!(slagle.exponents(Player::Min, Some(1)), default);
        // 16 + 2^(1 − 3·0.5)
        assert_eq!(
            slagle.back_up(Player::Max, &[16.0, 13.0], Some(1)),
            16.0 + (-0.5f64).exp2()
        );
    }

    #[test]
    fn monotonicity_follows_slagles_theorem_and_is_reported_per_depth() {
        assert!(!slagle_is_increasing(3.0, 1.0));
        assert!(slagle_is_increasing(0.0, 1.0)); // ln 2 ≈ 0.69
        assert!(!slagle_is_increasing(0.0, 1.5)); // 1.04
        let monotone = Exponents::new(2.0, 0.25).expect("valid exponents");
        assert!(monotone.is_monotone(2));
        assert!(!monotone.is_monotone(3)); // 2 · 0.69 > 1
        let broken = Exponents::new(3.0, 1.0).expect("valid exponents");
        let slagle = Slagle::new(2, 2, monotone, monotone)
            .expect("valid counts")
            .with_min_at(4, broken);
        assert_eq!(
            slagle.monotonicity_violations(),
            vec![(Player::Min, Some(4))]
        );
        assert!(slagle.is_monotone(Player::Min, Some(3)));
        assert!(!slagle.is_monotone(Player::Min, Some(4)));
    }

    #[test]
    fn bad_parameters_are_refused_with_a_message() {
        assert_eq!(
            Exponents::new(3.0, 0.0),
            Err(BackingUpError::SlopeNotPositive { slope: 0.0 })
        );
        assert!(Exponents::new(f64::NAN, 1.0).is_err());
        let exponents = Exponents::new(3.0, 1.0).expect("valid exponents");
        let error = Slagle::new(0, 2, exponents, exponents).expect_err("m = 0");
        assert_eq!(
            error.to_string(),
            "m must be at least 1 (the number of values MAX backs up)"
        );
    }
}
