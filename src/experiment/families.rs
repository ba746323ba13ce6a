//! Three families of backing-up functions compared on the same learning samples (issue 15,
//! "the family has the wrong shape for the data"): is the bonus Slagle's family adds for a
//! close second best really there, once the deep value may also sit at a fixed distance
//! from the best shallow one?
//!
//! - **offset**: v = a₂ + c, one number a level, no dependence on the gap (the null model);
//! - **Slagle**: v = a₂ + 2^(x − (a₂ − α)·y), the family of seed 003 (it can only add);
//! - **shifted**: v = a₂ + c + 2^(x − (a₂ − α)·y), Slagle's family with an offset.
//!
//! Each is fitted by least squares and compared by Akaike's information criterion for
//! normal errors, AIC = n·ln(SSE/n) + 2k with k the family's parameters (the smaller the
//! better; a difference of 10 or more is decisive), and by a held-out split: fitted on the
//! positions of even index, its root mean square error measured on the odd ones.

use serde::{Deserialize, Serialize};

use super::fitting::{GREATEST_SHIFT, LEAST_SHIFT, Observation, best_slope, fit_backing_up};
use super::learning::LearningSample;

/// The families compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// v = a₂ + c.
    Offset,
    /// v = a₂ + 2^(x − gap·y).
    Slagle,
    /// v = a₂ + c + 2^(x − gap·y).
    Shifted,
}

impl Family {
    /// Every family, simplest first.
    pub const ALL: [Family; 3] = [Family::Offset, Family::Slagle, Family::Shifted];

    /// Its free parameters.
    #[must_use]
    pub fn parameters(self) -> usize {
        match self {
            Family::Offset => 1,
            Family::Slagle => 2,
            Family::Shifted => 3,
        }
    }

    /// `offset`, `Slagle` or `shifted`.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Family::Offset => "offset",
            Family::Slagle => "Slagle",
            Family::Shifted => "shifted",
        }
    }
}

/// One family fitted to observations: v − a₂ = offset + 2^(shift − gap·slope) (no bonus
/// term for [`Family::Offset`]; no offset for [`Family::Slagle`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FamilyFit {
    /// The family.
    pub family: Family,
    /// c (0 for Slagle's family).
    pub offset: f64,
    /// x (unused by the offset family: [`LEAST_SHIFT`]).
    pub shift: f64,
    /// y (unused by the offset family: 0).
    pub slope: f64,
    /// The sum of squared errors over the observations.
    pub squared_error: f64,
    /// Observations.
    pub samples: usize,
}

impl FamilyFit {
    /// The fitted v − a₂ at `gap`.
    #[must_use]
    pub fn excess(&self, gap: f64) -> f64 {
        match self.family {
            Family::Offset => self.offset,
            _ => self.offset + (self.shift - gap * self.slope).exp2(),
        }
    }

    /// The root mean square error.
    #[must_use]
    pub fn rms_error(&self) -> f64 {
        (self.squared_error / self.samples.max(1) as f64).sqrt()
    }

    /// Akaike's criterion for normal errors: n·ln(SSE/n) + 2k.
    #[must_use]
    pub fn aic(&self) -> f64 {
        let n = self.samples.max(1) as f64;
        n * (self.squared_error / n).max(f64::MIN_POSITIVE).ln()
            + 2.0 * self.family.parameters() as f64
    }

    /// The root mean square error of the fitted function on other observations.
    #[must_use]
    pub fn rms_error_on(&self, observations: &[Observation]) -> f64 {
        let sum: f64 = observations
            .iter()
            .map(|o| (o.excess - self.excess(o.gap)).powi(2))
            .sum();
        (sum / observations.len().max(1) as f64).sqrt()
    }
}

/// For a fixed slope: the least-squares offset c and factor f = 2^x ≥ 2^[`LEAST_SHIFT`] of
/// excess = c + f·2^(−gap·slope) (a straight line in w = 2^(−gap·slope)), and its sum of
/// squared errors.
fn shifted_for_slope(observations: &[Observation], slope: f64) -> (f64, f64, f64) {
    let n = observations.len() as f64;
    let weight = |o: &Observation| (-o.gap * slope).exp2();
    let mean_w = observations.iter().map(weight).sum::<f64>() / n;
    let mean_e = observations.iter().map(|o| o.excess).sum::<f64>() / n;
    let (mut covariance, mut variance) = (0.0, 0.0);
    for o in observations {
        let w = weight(o) - mean_w;
        covariance += w * (o.excess - mean_e);
        variance += w * w;
    }
    let factor = if variance > 0.0 {
        covariance / variance
    } else {
        0.0
    }
    .clamp(LEAST_SHIFT.exp2(), GREATEST_SHIFT.exp2());
    let offset = mean_e - factor * mean_w;
    let error = observations
        .iter()
        .map(|o| (o.excess - offset - factor * weight(o)).powi(2))
        .sum();
    (offset, factor, error)
}

/// Fits `family` to `observations` by least squares; `None` without observations.
#[must_use]
pub fn fit_family(family: Family, observations: &[Observation]) -> Option<FamilyFit> {
    if observations.is_empty() {
        return None;
    }
    let samples = observations.len();
    let fit = match family {
        Family::Offset => {
            let offset = observations.iter().map(|o| o.excess).sum::<f64>() / samples as f64;
            FamilyFit {
                family,
                offset,
                shift: LEAST_SHIFT,
                slope: 0.0,
                squared_error: observations
                    .iter()
                    .map(|o| (o.excess - offset).powi(2))
                    .sum(),
                samples,
            }
        }
        Family::Slagle => {
            let fit = fit_backing_up(observations, false)?;
            FamilyFit {
                family,
                offset: 0.0,
                shift: fit.shift,
                slope: fit.slope,
                squared_error: fit.rms_error.powi(2) * samples as f64,
                samples,
            }
        }
        Family::Shifted => {
            let slope = best_slope(|slope| shifted_for_slope(observations, slope).2);
            let (offset, factor, squared_error) = shifted_for_slope(observations, slope);
            FamilyFit {
                family,
                offset,
                shift: factor.log2(),
                slope,
                squared_error,
                samples,
            }
        }
    };
    Some(fit)
}

/// One family at one level: fitted to all observations, and its held-out error.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FamilyComparison {
    /// Fitted to every observation (for the parameters, RMS and AIC).
    pub fit: FamilyFit,
    /// Fitted to the observations of even index, its RMS error on the odd ones.
    pub held_out_rms: f64,
}

/// Every family fitted to `observations` (in the order of the typical positions, so that
/// the held-out split is by position), simplest first.
#[must_use]
pub fn compare_families(observations: &[Observation]) -> Vec<FamilyComparison> {
    let even: Vec<Observation> = observations.iter().step_by(2).copied().collect();
    let odd: Vec<Observation> = observations.iter().skip(1).step_by(2).copied().collect();
    Family::ALL
        .iter()
        .filter_map(|&family| {
            let fit = fit_family(family, observations)?;
            let held_out_rms =
                fit_family(family, &even).map_or(f64::NAN, |trained| trained.rms_error_on(&odd));
            Some(FamilyComparison { fit, held_out_rms })
        })
        .collect()
}

/// The observations of the learning samples that `keep` keeps, by dmax (increasing): at
/// each dmax one per typical position, in the order of the positions (so that the held-out
/// split of [`compare_families`] is by position), decided positions left out as in the fit.
pub fn observations_by_dmax(
    samples: &[LearningSample],
    keep: impl Fn(&LearningSample) -> bool,
) -> Vec<(u32, Vec<Observation>)> {
    let mut dmaxes: Vec<u32> = samples.iter().map(|sample| sample.dmax).collect();
    dmaxes.sort_unstable();
    dmaxes.dedup();
    dmaxes
        .into_iter()
        .map(|dmax| {
            let mut level: Vec<&LearningSample> = samples
                .iter()
                .filter(|sample| sample.dmax == dmax && !sample.is_decided() && keep(sample))
                .collect();
            level.sort_by_key(|sample| sample.position);
            level.dedup_by_key(|sample| sample.position);
            (
                dmax,
                level.iter().map(|sample| sample.observation()).collect(),
            )
        })
        .collect()
}

/// The three families fitted at each dmax of the learning samples
/// ([`observations_by_dmax`], every sample).
#[must_use]
pub fn compare_families_by_dmax(samples: &[LearningSample]) -> Vec<(u32, Vec<FamilyComparison>)> {
    observations_by_dmax(samples, |_| true)
        .into_iter()
        .map(|(dmax, observations)| (dmax, compare_families(&observations)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Observations from v − a₂ = offset + 2^(shift − gap·slope), with seeded uniform
    /// noise in ±`noise`.
    fn data(offset: f64, shift: f64, slope: f64, noise: f64) -> Vec<Observation> {
        let mut random = crate::random::SplitMix64::new(15);
        (0..400)
            .map(|index| {
                let gap = f64::from(index % 40) * 0.5;
                let uniform = random.next_u64() as f64 / u64::MAX as f64;
                let wobble = noise * (2.0 * uniform - 1.0);
                Observation {
                    gap,
                    excess: offset + (shift - gap * slope).exp2() + wobble,
                }
            })
            .collect()
    }

    #[test]
    fn the_shifted_family_recovers_its_parameters() {
        let fit = fit_family(Family::Shifted, &data(-3.0, 2.0, 0.5, 0.0)).expect("data");
        assert!((fit.offset + 3.0).abs() < 1e-6, "{fit:?}");
        assert!((fit.shift - 2.0).abs() < 1e-6, "{fit:?}");
        assert!((fit.slope - 0.5).abs() < 1e-6, "{fit:?}");
        assert!(fit.rms_error() < 1e-6);
    }

    #[test]
    fn aic_prefers_the_offset_where_there_is_no_bonus_and_the_shifted_family_where_there_is() {
        // A constant excess below zero: Slagle's family, which can only add, fits worst.
        let flat = compare_families(&data(-4.0, LEAST_SHIFT, 1.0, 1.0));
        let aic = |family: Family, rows: &[FamilyComparison]| {
            rows.iter()
                .find(|row| row.fit.family == family)
                .expect("every family")
                .fit
                .aic()
        };
        assert!(aic(Family::Offset, &flat) < aic(Family::Slagle, &flat));
        // The shifted family contains the offset: it fits a little better, never decisively.
        assert!(aic(Family::Shifted, &flat) > aic(Family::Offset, &flat) - 10.0);
        // An offset and a real bonus: the shifted family wins by far.
        let bonus = compare_families(&data(-4.0, 3.0, 0.5, 1.0));
        assert!(aic(Family::Shifted, &bonus) + 10.0 < aic(Family::Offset, &bonus));
        assert!(aic(Family::Shifted, &bonus) + 10.0 < aic(Family::Slagle, &bonus));
        for row in &bonus {
            assert!(row.held_out_rms.is_finite());
        }
    }
}
