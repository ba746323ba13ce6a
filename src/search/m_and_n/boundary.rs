//! Exact floating point boundaries of a monotone predicate, so that a cutoff taken through
//! an inverse function (Slagle's `glbua`/`lubub`) decides exactly as the backing-up
//! function itself would.
//!
//! The inverse goes through a logarithm and can be an ulp or more off; a bound one ulp too
//! high would skip a successor whose value m&n minimaxing would back up above α, and the
//! two procedures would choose different moves. So the inverse is only a first guess: the
//! boundary is then found on the floating point numbers themselves, walking outward from
//! the guess in doubling steps and bisecting, with the backing-up function as the judge.

/// The position of `value` in the total order of floating point numbers, as an integer:
/// neighbouring numbers are neighbouring integers (`f64::total_cmp`'s key).
fn order_key(value: f64) -> i128 {
    let bits = value.to_bits() as i64;
    i128::from(bits ^ ((((bits >> 63) as u64) >> 1) as i64))
}

/// The number at `key` in the total order; the inverse of [`order_key`].
fn from_order_key(key: i128) -> f64 {
    let bits = i64::try_from(key).expect("invariant: keys come from order_key");
    f64::from_bits((bits ^ ((((bits >> 63) as u64) >> 1) as i64)) as u64)
}

/// The greatest number `c` in [−∞, `cap`) with `passes(c)`, for a predicate that holds at
/// −∞, fails at `cap`, and holds on a down-set (once it fails it fails for every greater
/// number). `guess` (an approximate answer, e.g. from an inverse function) makes the usual
/// case two or three calls of `passes`; without it the search bisects, 64 calls at most.
pub(crate) fn last_passing(
    mut passes: impl FnMut(f64) -> bool,
    cap: f64,
    guess: Option<f64>,
) -> f64 {
    // Invariant: passes at `low`, fails at `high`.
    let mut low = order_key(f64::NEG_INFINITY);
    let mut high = order_key(cap);
    if let Some(guess) = guess.filter(|guess| !guess.is_nan()) {
        let start = order_key(guess).clamp(low, high);
        if start > low && start < high {
            if passes(from_order_key(start)) {
                low = start;
                let mut step = 1i128;
                while low + step < high {
                    if passes(from_order_key(low + step)) {
                        low += step;
                        step *= 2;
                    } else {
                        high = low + step;
                        break;
                    }
                }
            } else {
                high = start;
                let mut step = 1i128;
                while high - step > low {
                    if passes(from_order_key(high - step)) {
                        low = high - step;
                        break;
                    }
                    high -= step;
                    step *= 2;
                }
            }
        }
    }
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        if passes(from_order_key(middle)) {
            low = middle;
        } else {
            high = middle;
        }
    }
    from_order_key(low)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbouring_numbers_have_neighbouring_keys() {
        for value in [-3.5, 0.0, 1e-300, 1.0, 10.0, f64::MAX] {
            assert_eq!(from_order_key(order_key(value)).to_bits(), value.to_bits());
            assert_eq!(order_key(value.next_up()), order_key(value) + 1);
        }
        assert!(order_key(f64::NEG_INFINITY) < order_key(-f64::MAX));
        assert!(order_key(f64::MAX) < order_key(f64::INFINITY));
    }

    #[test]
    fn the_boundary_is_found_exactly_with_a_good_a_bad_or_no_guess() {
        let target = 5.0f64.next_down().next_down();
        let passes = |value: f64| value <= target;
        for guess in [
            None,
            Some(5.0),
            Some(target),
            Some(-1e6),
            Some(1e300),
            Some(f64::NAN),
            Some(f64::NEG_INFINITY),
        ] {
            assert_eq!(last_passing(passes, 10.0, guess), target, "guess {guess:?}");
        }
        assert_eq!(
            last_passing(|value| value <= -7.25, f64::INFINITY, None),
            -7.25
        );
    }

    #[test]
    fn the_boundary_of_an_inexact_forward_function_is_where_the_function_crosses() {
        // 6 + 2^(3 − (6 − c)) ≤ 10.1 : the log-based inverse is only approximate.
        let forward = |c: f64| 6.0 + (3.0 - (6.0 - c)).exp2();
        let boundary = last_passing(|c| forward(c) <= 10.1, 6.0, Some(5.0));
        assert!(forward(boundary) <= 10.1);
        assert!(forward(boundary.next_up()) > 10.1);
    }
}
