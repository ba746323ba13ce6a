//! Fitting an evaluation's weights to game outcomes: logistic regression of each position's
//! result (1 a win, ½ a draw, 0 a loss for the side the evaluation favours) on its
//! features, the method chess programmers call "Texel tuning". Any game whose evaluation
//! is a weighted sum of features can use it; the checkers evaluation
//! ([`crate::games::checkers::LearnedWeights`]) is fitted with it.
//!
//! The model: P(result) = σ(w · f), σ the logistic function, w fitted by maximum
//! likelihood (the mean cross-entropy of the results, with a small ridge penalty so that
//! a feature the data never varies stays at 0) by Newton's method, which for a few dozen
//! weights converges in a handful of steps and needs no learning rate.
//!
//! A draw counted as half a win makes a drawish phase of the game look like a small
//! advantage: fitted so, a man ahead in an ending where most games are drawn is worth
//! little, and a search that trusts the weights would avoid the exchanges that win. So
//! [`fit_with_draws`] fits the model of Rao and Kupper (1967; the draw margin of chess
//! rating systems) instead: Black wins with σ(E − θ), White with σ(−E − θ), and the game is
//! drawn otherwise, the advantage E = w · f as before and the draw margin θ = exp(c₀ + c₁·z)
//! growing or shrinking with a covariate z of the position (checkers: the share of the
//! pieces gone). The margin takes the drawishness, the weights keep the advantage.
//!
//! [`network`] fits a linear part together with a hidden layer, by Adam.

pub mod network;

/// Positions for a fit: a row of feature values for each, and its result.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    columns: usize,
    rows: Vec<f64>,
    results: Vec<f64>,
    /// The draw margin's covariate z of each position ([`fit_with_draws`]).
    draw_covariates: Vec<f64>,
}

impl Samples {
    /// No samples yet, each to have `columns` features.
    #[must_use]
    pub fn new(columns: usize) -> Samples {
        Samples {
            columns,
            rows: Vec::new(),
            results: Vec::new(),
            draw_covariates: Vec::new(),
        }
    }

    /// Adds a position: its features (`columns` of them) and its result in [0, 1].
    ///
    /// # Panics
    /// When `features` has another length than `columns`, or `result` is outside [0, 1].
    pub fn push(&mut self, features: &[f64], result: f64) {
        self.push_with_draw_covariate(features, result, 0.0);
    }

    /// Adds a position with the covariate z of its draw margin ([`fit_with_draws`]).
    ///
    /// # Panics
    /// As [`push`](Self::push).
    pub fn push_with_draw_covariate(&mut self, features: &[f64], result: f64, covariate: f64) {
        assert_eq!(features.len(), self.columns, "one value per column");
        assert!((0.0..=1.0).contains(&result), "a result in [0, 1]");
        self.rows.extend_from_slice(features);
        self.results.push(result);
        self.draw_covariates.push(covariate);
    }

    /// How many positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// Features per position.
    #[must_use]
    pub fn columns(&self) -> usize {
        self.columns
    }

    /// Position `index`: its features, its result and its draw covariate.
    #[must_use]
    pub fn sample(&self, index: usize) -> (&[f64], f64, f64) {
        (
            self.row(index),
            self.results[index],
            self.draw_covariates[index],
        )
    }

    fn row(&self, index: usize) -> &[f64] {
        &self.rows[index * self.columns..(index + 1) * self.columns]
    }

    /// The mean cross-entropy (in nats) of the results under weights `weights`: what the
    /// fit minimises, less its ridge term. 0.693 (ln 2) is the loss of predicting ½ always.
    #[must_use]
    pub fn log_loss(&self, weights: &[f64]) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        let total: f64 = (0..self.len())
            .map(|index| {
                let logit = dot(self.row(index), weights);
                cross_entropy(logit, self.results[index])
            })
            .sum();
        total / self.len() as f64
    }
}

/// A fit's weights and how well they predict.
#[derive(Clone, Debug, PartialEq)]
pub struct LogisticFit {
    /// One weight per column: the logit of a position is their dot product with its row.
    pub weights: Vec<f64>,
    /// The mean cross-entropy at these weights ([`Samples::log_loss`]).
    pub log_loss: f64,
    /// Newton steps taken.
    pub steps: usize,
}

/// The most Newton steps; a fit of a few dozen weights converges in under 15.
const MOST_STEPS: usize = 100;
/// The fit stops when a step changes the loss by less than this.
const TOLERANCE: f64 = 1e-12;

/// The weights of the logistic regression of `samples`' results on their features, with a
/// ridge penalty `ridge · |w|² / 2` per sample on the mean loss (0 for none; a little keeps
/// a column of zeros from making the problem singular).
#[must_use]
pub fn fit_logistic(samples: &Samples, ridge: f64) -> LogisticFit {
    fit_logistic_with_ridges(samples, &vec![ridge; samples.columns()])
}

/// [`fit_logistic`] with a ridge penalty of its own for each column, `ridges[c] · w_c² / 2`:
/// a larger one on a group of columns whose sum is another column (a square table and the
/// piece count) leaves the shared part to the unpenalised column and only what each column
/// adds to the group's, so the fit has one answer and its weights mean what they say.
///
/// # Panics
/// If `ridges` has not one entry per column.
#[must_use]
pub fn fit_logistic_with_ridges(samples: &Samples, ridges: &[f64]) -> LogisticFit {
    let columns = samples.columns();
    assert_eq!(ridges.len(), columns, "one ridge per column");
    let mut weights = vec![0.0; columns];
    let penalty = |weights: &[f64]| -> f64 {
        weights
            .iter()
            .zip(ridges)
            .map(|(weight, ridge)| ridge * weight * weight)
            .sum::<f64>()
            / 2.0
    };
    let objective = |weights: &[f64]| samples.log_loss(weights) + penalty(weights);
    let mut current = objective(&weights);
    let mut steps = 0;
    let count = samples.len().max(1) as f64;
    while steps < MOST_STEPS {
        steps += 1;
        let mut gradient = vec![0.0; columns];
        let mut hessian = vec![0.0; columns * columns];
        // The columns where a row is not zero: the only ones that add to the sums (a row
        // of square tables and patterns is mostly zeros).
        let mut nonzero = Vec::with_capacity(columns);
        for index in 0..samples.len() {
            let row = samples.row(index);
            let predicted = logistic(dot(row, &weights));
            let error = predicted - samples.results[index];
            let curvature = predicted * (1.0 - predicted);
            nonzero.clear();
            nonzero.extend((0..columns).filter(|&column| row[column] != 0.0));
            for (place, &first) in nonzero.iter().enumerate() {
                let value = row[first];
                gradient[first] += error * value;
                let products = &mut hessian[first * columns..(first + 1) * columns];
                for &second in &nonzero[place..] {
                    products[second] += curvature * value * row[second];
                }
            }
        }
        for first in 0..columns {
            gradient[first] = gradient[first] / count + ridges[first] * weights[first];
            for second in first..columns {
                let entry = hessian[first * columns + second] / count;
                hessian[first * columns + second] = entry;
                hessian[second * columns + first] = entry;
            }
            hessian[first * columns + first] += ridges[first].max(1e-12);
        }
        let Some(step) = solve_symmetric(&hessian, &gradient, columns) else {
            break;
        };
        // Newton's step, halved until the objective falls.
        let Some((trial, value)) = descend(&weights, &step, current, 1e-6, objective) else {
            break;
        };
        let change = current - value;
        weights = trial;
        current = value;
        if change < TOLERANCE {
            break;
        }
    }
    LogisticFit {
        log_loss: samples.log_loss(&weights),
        weights,
        steps,
    }
}

/// A fit of the draw-margin model: the advantage's weights and the margin's.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawFit {
    /// One weight per column: a position's advantage E is their dot product with its row.
    pub weights: Vec<f64>,
    /// c₀ and c₁ of the draw margin θ = exp(c₀ + c₁·z).
    pub margin: [f64; 2],
    /// The mean negative log-likelihood of the results (in nats) at the fit.
    pub log_loss: f64,
    /// Newton steps taken.
    pub steps: usize,
}

impl DrawFit {
    /// The draw margin θ of a position with covariate `covariate`.
    #[must_use]
    pub fn margin_at(&self, covariate: f64) -> f64 {
        (self.margin[0] + self.margin[1] * covariate).exp()
    }
}

/// The probabilities of a win, a draw and a loss for the side the advantage favours,
/// for advantage `advantage` and margin `margin` (> 0).
#[must_use]
pub fn outcome_probabilities(advantage: f64, margin: f64) -> [f64; 3] {
    let win = logistic(advantage - margin);
    let loss = logistic(-advantage - margin);
    [win, (1.0 - win - loss).max(0.0), loss]
}

/// The mean negative log-likelihood of `samples`' results under the draw-margin model
/// with advantage weights `weights` and margin parameters `margin`. Results must be 0, ½
/// or 1.
#[must_use]
pub fn draw_log_loss(samples: &Samples, weights: &[f64], margin: [f64; 2]) -> f64 {
    draw_objective(samples, weights, margin, None)
}

/// The smallest probability the loss takes the logarithm of: a bound on one position's
/// loss when the weights under trial are far off.
const LEAST_PROBABILITY: f64 = 1e-300;

/// The draw model's mean loss, and with `gradient` its gradient by the weights then c₀, c₁.
fn draw_objective(
    samples: &Samples,
    weights: &[f64],
    margin: [f64; 2],
    mut gradient: Option<&mut [f64]>,
) -> f64 {
    let columns = samples.columns();
    if let Some(gradient) = gradient.as_deref_mut() {
        gradient.fill(0.0);
    }
    let mut total = 0.0;
    for index in 0..samples.len() {
        let (row, result, covariate) = samples.sample(index);
        let advantage = dot(row, weights);
        let theta = (margin[0] + margin[1] * covariate).exp();
        let (win, loss) = (logistic(advantage - theta), logistic(-advantage - theta));
        // d ln P / dE and d ln P / dθ.
        let (by_advantage, by_theta, probability) = if result > 0.75 {
            (1.0 - win, -(1.0 - win), win)
        } else if result < 0.25 {
            (-(1.0 - loss), -(1.0 - loss), loss)
        } else {
            let draw = (1.0 - win - loss).max(LEAST_PROBABILITY);
            let (win_slope, loss_slope) = (win * (1.0 - win), loss * (1.0 - loss));
            (
                (loss_slope - win_slope) / draw,
                (win_slope + loss_slope) / draw,
                draw,
            )
        };
        total -= probability.max(LEAST_PROBABILITY).ln();
        if let Some(gradient) = gradient.as_deref_mut() {
            for (slot, &value) in gradient[..columns].iter_mut().zip(row) {
                *slot -= by_advantage * value;
            }
            gradient[columns] -= by_theta * theta;
            gradient[columns + 1] -= by_theta * theta * covariate;
        }
    }
    let count = samples.len().max(1) as f64;
    if let Some(gradient) = gradient {
        for slot in gradient.iter_mut() {
            *slot /= count;
        }
    }
    total / count
}

/// The advantage weights and draw margin of the draw-margin model fitted to `samples`
/// (results 0, ½ or 1), with the same ridge penalty as [`fit_logistic`] on the weights.
/// Newton's method on a Hessian taken by differences of the exact gradient, started from
/// the logistic fit with a margin of one.
#[must_use]
pub fn fit_with_draws(samples: &Samples, ridge: f64) -> DrawFit {
    let columns = samples.columns();
    let size = columns + 2;
    let start = fit_logistic(samples, ridge);
    let mut parameters = start.weights;
    parameters.extend([0.0, 0.0]);
    let objective_and_gradient = |parameters: &[f64], gradient: Option<&mut [f64]>| {
        let (weights, margin) = parameters.split_at(columns);
        let margin = [margin[0], margin[1]];
        let penalty = ridge * dot(weights, weights) / 2.0;
        match gradient {
            Some(gradient) => {
                let value = draw_objective(samples, weights, margin, Some(gradient));
                for (slot, weight) in gradient[..columns].iter_mut().zip(weights) {
                    *slot += ridge * weight;
                }
                value + penalty
            }
            None => draw_objective(samples, weights, margin, None) + penalty,
        }
    };
    let mut gradient = vec![0.0; size];
    let mut current = objective_and_gradient(&parameters, Some(&mut gradient));
    let mut steps = 0;
    while steps < MOST_STEPS {
        steps += 1;
        // The Hessian by forward differences of the gradient, made symmetric.
        let mut hessian = vec![0.0; size * size];
        let mut shifted_gradient = vec![0.0; size];
        for column in 0..size {
            let delta = 1e-5 * parameters[column].abs().max(1e-2);
            let mut shifted = parameters.clone();
            shifted[column] += delta;
            objective_and_gradient(&shifted, Some(&mut shifted_gradient));
            for row in 0..size {
                hessian[row * size + column] = (shifted_gradient[row] - gradient[row]) / delta;
            }
        }
        for row in 0..size {
            for column in row + 1..size {
                let mean = (hessian[row * size + column] + hessian[column * size + row]) / 2.0;
                hessian[row * size + column] = mean;
                hessian[column * size + row] = mean;
            }
            hessian[row * size + row] += 1e-12;
        }
        // Newton's step where the Hessian is positive definite, else the gradient's.
        let step = solve_symmetric(&hessian, &gradient, size).unwrap_or_else(|| gradient.clone());
        let Some((trial, value)) = descend(&parameters, &step, current, 1e-9, |trial| {
            objective_and_gradient(trial, None)
        }) else {
            break;
        };
        let change = current - value;
        parameters = trial;
        current = objective_and_gradient(&parameters, Some(&mut gradient));
        if change < TOLERANCE {
            break;
        }
    }
    let margin = [parameters[columns], parameters[columns + 1]];
    parameters.truncate(columns);
    DrawFit {
        log_loss: draw_log_loss(samples, &parameters, margin),
        weights: parameters,
        margin,
        steps,
    }
}

/// `parameters − scale·step` for the first scale of 1, ½, ¼, ... (down to `least_scale`)
/// at which `objective` is no more than `current`, with its objective.
fn descend(
    parameters: &[f64],
    step: &[f64],
    current: f64,
    least_scale: f64,
    objective: impl Fn(&[f64]) -> f64,
) -> Option<(Vec<f64>, f64)> {
    let mut scale = 1.0;
    while scale > least_scale {
        let trial: Vec<f64> = parameters
            .iter()
            .zip(step)
            .map(|(parameter, step)| parameter - scale * step)
            .collect();
        let value = objective(&trial);
        if value <= current {
            return Some((trial, value));
        }
        scale /= 2.0;
    }
    None
}

fn dot(first: &[f64], second: &[f64]) -> f64 {
    first.iter().zip(second).map(|(a, b)| a * b).sum()
}

/// σ(x) = 1 / (1 + e^−x).
#[must_use]
pub fn logistic(logit: f64) -> f64 {
    1.0 / (1.0 + (-logit).exp())
}

/// −[t ln σ(x) + (1 − t) ln(1 − σ(x))], computed without overflow for large |x|.
fn cross_entropy(logit: f64, result: f64) -> f64 {
    // ln σ(x) = −ln(1 + e^−x); ln(1 − σ(x)) = −ln(1 + e^x).
    let softplus = |x: f64| {
        if x > 30.0 { x } else { x.exp().ln_1p() }
    };
    result * softplus(-logit) + (1.0 - result) * softplus(logit)
}

/// Solves `matrix · x = vector` for a symmetric positive definite `matrix` (`size` × `size`,
/// row-major) by Cholesky factorisation; `None` when it is not positive definite.
fn solve_symmetric(matrix: &[f64], vector: &[f64], size: usize) -> Option<Vec<f64>> {
    let mut lower = vec![0.0; size * size];
    for row in 0..size {
        for column in 0..=row {
            let mut sum = matrix[row * size + column];
            for inner in 0..column {
                sum -= lower[row * size + inner] * lower[column * size + inner];
            }
            if row == column {
                if sum <= 0.0 {
                    return None;
                }
                lower[row * size + row] = sum.sqrt();
            } else {
                lower[row * size + column] = sum / lower[column * size + column];
            }
        }
    }
    let mut forward = vec![0.0; size];
    for row in 0..size {
        let mut sum = vector[row];
        for inner in 0..row {
            sum -= lower[row * size + inner] * forward[inner];
        }
        forward[row] = sum / lower[row * size + row];
    }
    let mut solution = vec![0.0; size];
    for row in (0..size).rev() {
        let mut sum = forward[row];
        for inner in row + 1..size {
            sum -= lower[inner * size + row] * solution[inner];
        }
        solution[row] = sum / lower[row * size + row];
    }
    Some(solution)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::SplitMix64;

    fn uniform(random: &mut SplitMix64) -> f64 {
        (random.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    #[test]
    fn recovers_the_weights_that_made_the_data() {
        // Results drawn from σ(1.5·a − 0.8·b + 0.3), a and b uniform in [−2, 2].
        let truth = [1.5, -0.8, 0.3];
        let mut random = SplitMix64::new(7);
        let mut samples = Samples::new(3);
        for _ in 0..40_000 {
            let a = uniform(&mut random) * 4.0 - 2.0;
            let b = uniform(&mut random) * 4.0 - 2.0;
            let row = [a, b, 1.0];
            let won = uniform(&mut random) < logistic(dot(&row, &truth));
            samples.push(&row, if won { 1.0 } else { 0.0 });
        }
        let fit = fit_logistic(&samples, 0.0);
        for (fitted, true_weight) in fit.weights.iter().zip(truth) {
            assert!((fitted - true_weight).abs() < 0.06, "{fit:?}");
        }
        assert!(fit.steps < 20, "{fit:?}");
        // The fit's loss is below the loss at the true weights (it is the minimum) and
        // below always saying one half.
        assert!(fit.log_loss <= samples.log_loss(&truth) + 1e-12);
        assert!(fit.log_loss < std::f64::consts::LN_2);
    }

    #[test]
    fn a_penalised_group_leaves_its_sum_to_the_column_it_sums_to() {
        // Column 0 is the sum of columns 1 and 2 (a piece count and its squares): the
        // unpenalised fit cannot tell them apart; penalising the group alone gives the
        // shared weight to column 0 and to the group only their difference.
        let truth = [1.0, 0.5, -0.5]; // in the data: 1.5 on the first square, 0.5 on the second
        let mut random = SplitMix64::new(5);
        let mut samples = Samples::new(3);
        for _ in 0..40_000 {
            let first = f64::from(u8::from(uniform(&mut random) < 0.5));
            let second = f64::from(u8::from(uniform(&mut random) < 0.5));
            let row = [first + second, first, second];
            let won = uniform(&mut random) < logistic(dot(&row, &truth));
            samples.push(&row, if won { 1.0 } else { 0.0 });
        }
        let fit = fit_logistic_with_ridges(&samples, &[0.0, 1e-2, 1e-2]);
        let [count, first, second] = fit.weights[..] else {
            panic!("three weights");
        };
        assert!((count - 1.0).abs() < 0.1, "{fit:?}");
        assert!((first + second).abs() < 0.02, "{fit:?}");
        assert!(first > 0.3 && second < -0.3, "{fit:?}");
        // Every column penalised alike is `fit_logistic`.
        assert_eq!(
            fit_logistic_with_ridges(&samples, &[1e-3; 3]),
            fit_logistic(&samples, 1e-3)
        );
    }

    #[test]
    fn draws_count_as_half_and_a_constant_column_stays_at_zero() {
        // Every result a draw: the best prediction is ½, every weight 0.
        let mut samples = Samples::new(2);
        for index in 0..100 {
            samples.push(&[f64::from(index % 7) - 3.0, 0.0], 0.5);
        }
        let fit = fit_logistic(&samples, 1e-6);
        assert!(
            fit.weights.iter().all(|weight| weight.abs() < 1e-6),
            "{fit:?}"
        );
        assert!((fit.log_loss - std::f64::consts::LN_2).abs() < 1e-9);
    }

    #[test]
    fn the_draw_model_recovers_its_advantage_and_margin() {
        // Outcomes drawn from the draw-margin model with E = 1.2·a − 0.5 and
        // θ = exp(−0.3 + 0.9·z), a and z uniform in [−1, 1] and [0, 1].
        let (truth, margin) = ([1.2, -0.5], [-0.3, 0.9]);
        let mut random = SplitMix64::new(11);
        let mut samples = Samples::new(2);
        for _ in 0..60_000 {
            let a = uniform(&mut random) * 2.0 - 1.0;
            let z = uniform(&mut random);
            let row = [a, 1.0];
            let theta = (margin[0] + margin[1] * z).exp();
            let [win, draw, _] = outcome_probabilities(dot(&row, &truth), theta);
            let draw_of = uniform(&mut random);
            let result = if draw_of < win {
                1.0
            } else if draw_of < win + draw {
                0.5
            } else {
                0.0
            };
            samples.push_with_draw_covariate(&row, result, z);
        }
        let fit = fit_with_draws(&samples, 0.0);
        for (fitted, true_weight) in fit.weights.iter().zip(truth) {
            assert!((fitted - true_weight).abs() < 0.06, "{fit:?}");
        }
        for (fitted, true_margin) in fit.margin.iter().zip(margin) {
            assert!((fitted - true_margin).abs() < 0.08, "{fit:?}");
        }
        assert!(fit.log_loss <= draw_log_loss(&samples, &truth, margin) + 1e-9);
        // The gradient is the loss's: checked against a difference quotient.
        let mut gradient = [0.0; 4];
        let weights = [0.7, 0.1];
        let base = draw_objective(&samples, &weights, [0.2, 0.4], Some(&mut gradient));
        let delta = 1e-6;
        let moved = draw_objective(&samples, &[0.7 + delta, 0.1], [0.2, 0.4], None);
        assert!(((moved - base) / delta - gradient[0]).abs() < 1e-4);
        let moved = draw_objective(&samples, &weights, [0.2, 0.4 + delta], None);
        assert!(((moved - base) / delta - gradient[3]).abs() < 1e-4);
    }

    #[test]
    fn cross_entropy_does_not_overflow() {
        assert!(cross_entropy(1000.0, 1.0).abs() < 1e-9);
        assert!((cross_entropy(1000.0, 0.0) - 1000.0).abs() < 1e-9);
        assert!((cross_entropy(-1000.0, 1.0) - 1000.0).abs() < 1e-9);
    }
}
