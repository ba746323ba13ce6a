//! Fitting Slagle's backing-up function to data (seed 003, sections 8.1 and 8.2: "the
//! program uses some standard approximation technique to find values of x and y which
//! yield a good fit to this data").
//!
//! The model is v = a₂ + 2^(x − (a₂ − α)·y): the deep value v exceeds the best shallow
//! value a₂ by c·2^(−gap·y), with c = 2^x and gap = a₂ − α. For a fixed y the excess is
//! linear in c, so the least-squares c has a closed form; what remains is a search over the
//! one number y (separable nonlinear least squares, "variable projection", Golub and
//! Pereyra 1973): a logarithmic grid, then golden-section refinement around its best point.

use std::f64::consts::LN_2;

/// One observation for the fit: the gap between the two best shallow values and how much
/// the deep value exceeds the best shallow one, both from the side of the player to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Observation {
    /// a₂ − α (Slagle's names): the best successor value less the second best, ≥ 0.
    pub gap: f64,
    /// v − a₂: the deep value less the best successor value.
    pub excess: f64,
}

/// The least x the fit returns: the data then shows no bonus for a close second best (2⁻³⁰
/// of a point is nothing).
pub const LEAST_SHIFT: f64 = -30.0;
/// The greatest x the fit returns.
pub const GREATEST_SHIFT: f64 = 30.0;
/// The range of y searched, as powers of ten.
const SLOPE_EXPONENTS: (f64, f64) = (-4.0, 2.0);
/// Points of the logarithmic grid over y.
const GRID_POINTS: usize = 121;
/// Golden-section steps after the grid (each shrinks the bracket by 0.618).
const REFINEMENT_STEPS: usize = 80;

/// A fitted backing-up function and how well it fits.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Fit {
    /// x (MAX) or r (MIN).
    pub shift: f64,
    /// y (MAX) or s (MIN), > 0.
    pub slope: f64,
    /// Root mean square of v − (a₂ + 2^(x − gap·y)) over the observations, in points.
    pub rms_error: f64,
    /// Root mean square of v − a₂: the error of 1&1 backing up (plain minimax), for
    /// comparison.
    pub rms_error_minimax: f64,
    /// Mean of v − a₂.
    pub mean_excess: f64,
    /// Observations fitted.
    pub samples: usize,
    /// Whether the fit was held to Slagle's monotonicity condition y·2^x·ln 2 ≤ 1.
    pub constrained: bool,
    /// Whether the fitted function meets y·2^x·ln 2 ≤ 1 (then v increases with a₂).
    pub monotone: bool,
}

impl Fit {
    /// The fitted bonus 2^(x − gap·y) at `gap`.
    #[must_use]
    pub fn bonus(&self, gap: f64) -> f64 {
        (self.shift - gap * self.slope).exp2()
    }
}

/// For a fixed slope: the best factor c = 2^x (within the bounds, and the monotonicity
/// bound c ≤ 1/(y·ln 2) when `monotone`) and the sum of squared errors with it.
fn best_factor(observations: &[Observation], slope: f64, monotone: bool) -> (f64, f64) {
    let (mut excess_weight, mut weight_weight) = (0.0, 0.0);
    for observation in observations {
        let weight = (-observation.gap * slope).exp2();
        excess_weight += observation.excess * weight;
        weight_weight += weight * weight;
    }
    let mut factor = if weight_weight > 0.0 {
        excess_weight / weight_weight
    } else {
        0.0
    };
    let mut greatest = GREATEST_SHIFT.exp2();
    if monotone {
        greatest = greatest.min(1.0 / (slope * LN_2));
    }
    factor = factor.clamp(LEAST_SHIFT.exp2(), greatest);
    let error = observations
        .iter()
        .map(|observation| {
            let residual = observation.excess - factor * (-observation.gap * slope).exp2();
            residual * residual
        })
        .sum();
    (factor, error)
}

/// The slope y in [10⁻⁴, 10²] with the least `error_at(y)`: a logarithmic grid, then
/// golden-section refinement between the grid neighbours of its best point (the first of
/// equal errors wins, so the result is deterministic).
pub(super) fn best_slope(error_at_slope: impl Fn(f64) -> f64) -> f64 {
    let (low, high) = SLOPE_EXPONENTS;
    let exponent_at = |index: usize| low + (high - low) * index as f64 / (GRID_POINTS - 1) as f64;
    let error_at = |exponent: f64| error_at_slope(10f64.powf(exponent));
    let mut best_index = 0;
    let mut best_error = f64::INFINITY;
    for index in 0..GRID_POINTS {
        let error = error_at(exponent_at(index));
        if error < best_error {
            best_error = error;
            best_index = index;
        }
    }
    let mut left = exponent_at(best_index.saturating_sub(1));
    let mut right = exponent_at((best_index + 1).min(GRID_POINTS - 1));
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut inner_left = right - ratio * (right - left);
    let mut inner_right = left + ratio * (right - left);
    let (mut error_left, mut error_right) = (error_at(inner_left), error_at(inner_right));
    for _ in 0..REFINEMENT_STEPS {
        if error_left <= error_right {
            right = inner_right;
            inner_right = inner_left;
            error_right = error_left;
            inner_left = right - ratio * (right - left);
            error_left = error_at(inner_left);
        } else {
            left = inner_left;
            inner_left = inner_right;
            error_left = error_right;
            inner_right = left + ratio * (right - left);
            error_right = error_at(inner_right);
        }
    }
    let mut exponent = (left + right) / 2.0;
    if error_at(exponent) > best_error {
        exponent = exponent_at(best_index);
    }
    10f64.powf(exponent)
}

/// Fits x and y of v = a₂ + 2^(x − (a₂ − α)·y) to `observations` by least squares, with
/// y > 0 and x in [[`LEAST_SHIFT`], [`GREATEST_SHIFT`]]; with `monotone`, also
/// y·2^x·ln 2 ≤ 1 (Slagle's theorem). `None` when there are no observations.
///
/// The same function fits r and s at MIN positions, with the values seen from MIN's side
/// (b₂ − v for the excess, β − b₂ for the gap).
///
/// # Example
/// ```
/// use gametree::experiment::{Observation, fit_backing_up};
///
/// // Data made from x = 3, y = 0.5 exactly.
/// let observations: Vec<Observation> = (0..20)
///     .map(|gap| Observation { gap: f64::from(gap), excess: (3.0 - 0.5 * f64::from(gap)).exp2() })
///     .collect();
/// let fit = fit_backing_up(&observations, false).expect("observations");
/// assert!((fit.shift - 3.0).abs() < 1e-6 && (fit.slope - 0.5).abs() < 1e-6);
/// ```
#[must_use]
pub fn fit_backing_up(observations: &[Observation], monotone: bool) -> Option<Fit> {
    if observations.is_empty() {
        return None;
    }
    let slope = best_slope(|slope| best_factor(observations, slope, monotone).1);
    let (factor, error) = best_factor(observations, slope, monotone);
    let count = observations.len() as f64;
    let mean_excess = observations.iter().map(|o| o.excess).sum::<f64>() / count;
    let minimax_error = observations
        .iter()
        .map(|o| o.excess * o.excess)
        .sum::<f64>();
    let shift = factor.log2();
    Some(Fit {
        shift,
        slope,
        rms_error: (error / count).sqrt(),
        rms_error_minimax: (minimax_error / count).sqrt(),
        mean_excess,
        samples: observations.len(),
        constrained: monotone,
        monotone: crate::slagle_is_increasing(shift, slope),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact(shift: f64, slope: f64) -> Vec<Observation> {
        (0..40)
            .map(|index| {
                let gap = f64::from(index) * 0.75;
                Observation {
                    gap,
                    excess: (shift - gap * slope).exp2(),
                }
            })
            .collect()
    }

    #[test]
    fn exact_data_gives_back_its_parameters() {
        for (shift, slope) in [(3.0, 0.5), (-1.0, 0.02), (5.5, 2.0)] {
            let fit = fit_backing_up(&exact(shift, slope), false).expect("data");
            assert!((fit.shift - shift).abs() < 1e-6, "{fit:?}");
            assert!((fit.slope - slope).abs() < 1e-6 * slope.max(1.0), "{fit:?}");
            assert!(fit.rms_error < 1e-6);
        }
    }

    #[test]
    fn the_monotone_fit_stays_on_slagles_bound() {
        // x = 3, y = 1 breaks y·2^x·ln 2 ≤ 1 (8·ln 2 ≈ 5.5): the constrained fit may not.
        let fit = fit_backing_up(&exact(3.0, 1.0), true).expect("data");
        assert!(fit.constrained);
        assert!(
            fit.slope * fit.shift.exp2() * LN_2 <= 1.0 + 1e-12,
            "{fit:?}"
        );
        assert!(fit.rms_error > 0.0);
    }

    #[test]
    fn data_without_a_bonus_drives_x_to_its_least_value() {
        let observations: Vec<Observation> = (0..10)
            .map(|gap| Observation {
                gap: f64::from(gap),
                excess: -5.0,
            })
            .collect();
        let fit = fit_backing_up(&observations, false).expect("data");
        assert_eq!(fit.shift, LEAST_SHIFT);
        assert_eq!(fit.mean_excess, -5.0);
        assert_eq!(fit_backing_up(&[], false), None);
    }
}
