//! Fitting a linear evaluation together with a hidden layer: the model of
//! [`super::fit_logistic`] (the logit of a position's result is a weighted sum of its
//! columns) plus an antisymmetric network `g(x) − g(x̄)`, where `g` is one layer of ReLU
//! units and a linear output, `x` the position's sparse inputs (for a board game, which
//! piece stands on which square) and `x̄` those of the same position seen from the other
//! side. Subtracting the other side's view makes the network's value change sign with the
//! colours, as the linear part's does; there is no constant term.
//!
//! The linear part is convex and Newton's method fits it in a few steps; the network is
//! not, and is fitted as networks are: Adam (Kingma and Ba, 2015) on mini-batches, a small
//! weight decay on the network's weights, the learning rate halved twice, and the epoch
//! kept whose loss on positions of games left out of training (the validation games) is
//! lowest, stopped when it has not improved for a few epochs. Everything is seeded:
//! the same samples and options give the same weights.

use super::{Samples, cross_entropy, logistic};
use crate::random::SplitMix64;

/// Sparse rows of inputs: for each sample, the inputs that are not 0, each with its
/// value (for a board, 1 for each piece on its square).
#[derive(Clone, Debug)]
pub struct SparseRows {
    /// Where each row starts in `entries`, and after the last where it ends.
    starts: Vec<usize>,
    entries: Vec<(u16, f32)>,
}

impl Default for SparseRows {
    fn default() -> SparseRows {
        SparseRows::new()
    }
}

impl SparseRows {
    /// No rows yet.
    #[must_use]
    pub fn new() -> SparseRows {
        SparseRows {
            starts: vec![0],
            entries: Vec::new(),
        }
    }

    /// Adds a row: its inputs that are not 0, as (input, value).
    pub fn push(&mut self, entries: &[(u16, f32)]) {
        self.entries.extend_from_slice(entries);
        self.starts.push(self.entries.len());
    }

    /// How many rows.
    #[must_use]
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Row `index`.
    #[must_use]
    pub fn row(&self, index: usize) -> &[(u16, f32)] {
        &self.entries[self.starts[index]..self.starts[index + 1]]
    }
}

/// Samples for a fit with a network: the linear part's columns and results
/// ([`Samples`]), each position's network inputs as it stands and as the other side sees
/// it. All three have the same number of rows.
#[derive(Clone, Copy, Debug)]
pub struct NetworkSamples<'a> {
    /// The linear part's columns and the results.
    pub linear: &'a Samples,
    /// The network's inputs of each position.
    pub as_it_stands: &'a SparseRows,
    /// The network's inputs of each position seen from the other side.
    pub turned: &'a SparseRows,
}

/// How [`fit_network`] fits.
#[derive(Clone, Debug, PartialEq)]
pub struct NetworkFitOptions {
    /// Hidden units.
    pub units: usize,
    /// How many network inputs there are (each sparse entry's input is below this).
    pub inputs: usize,
    /// Adam's step size at the start.
    pub learning_rate: f64,
    /// The epochs after which the step size is halved (counting from 0).
    pub halve_after: Vec<usize>,
    /// Samples a step.
    pub batch: usize,
    /// The L2 penalty on the network's weights (not its biases, not the linear part).
    pub weight_decay: f64,
    /// The most epochs.
    pub max_epochs: usize,
    /// Stop when the validation loss has not improved for this many epochs.
    pub patience: usize,
    /// The linear columns are multiplied by this before the fit (its weights divided by
    /// it after): columns of a few units each then learn at the network's pace.
    pub column_scale: f64,
    /// The seed of the initial weights and of the order of the samples.
    pub seed: u64,
}

impl Default for NetworkFitOptions {
    /// The settings of the checkers prototype (results/checkers-learning/network-prototype):
    /// 32 units, Adam at 0.002 halved after epochs 8 and 16, batches of 1,024, decay 1e-5,
    /// at most 40 epochs, patience 3, columns scaled by ¼, seed 1.
    fn default() -> NetworkFitOptions {
        NetworkFitOptions {
            units: 32,
            inputs: 0,
            learning_rate: 0.002,
            halve_after: vec![8, 16],
            batch: 1024,
            weight_decay: 1e-5,
            max_epochs: 40,
            patience: 3,
            column_scale: 0.25,
            seed: 1,
        }
    }
}

/// A fitted linear part and network, all in logits.
#[derive(Clone, Debug, PartialEq)]
pub struct NetworkFit {
    /// A weight for each linear column.
    pub linear: Vec<f64>,
    /// A weight for each input and unit: input `i`'s weights are `input[i·units ..
    /// (i+1)·units]`.
    pub input: Vec<f64>,
    /// A bias for each unit.
    pub bias: Vec<f64>,
    /// A weight for each unit's activation.
    pub output: Vec<f64>,
    /// The validation loss after each epoch run.
    pub validation_losses: Vec<f64>,
    /// The epoch kept (the lowest validation loss).
    pub best_epoch: usize,
}

impl NetworkFit {
    /// The validation loss of the epoch kept: the lowest.
    #[must_use]
    pub fn validation_loss(&self) -> f64 {
        self.validation_losses[self.best_epoch]
    }
}

/// The parameters being fitted, in `f32` as networks are fitted (the linear part's
/// columns are scaled, its weights with them).
#[derive(Clone)]
struct Parameters {
    units: usize,
    linear: Vec<f32>,
    input: Vec<f32>,
    bias: Vec<f32>,
    output: Vec<f32>,
}

impl Parameters {
    /// A fit's weights as they are fitted (its linear weights taken as already scaled).
    fn of_fit(fit: &NetworkFit) -> Parameters {
        let narrow = |list: &[f64]| list.iter().map(|&weight| weight as f32).collect();
        Parameters {
            units: fit.bias.len(),
            linear: narrow(&fit.linear),
            input: narrow(&fit.input),
            bias: narrow(&fit.bias),
            output: narrow(&fit.output),
        }
    }

    /// Every list, in one order, for Adam's moments and the gradients.
    fn lists_mut(&mut self) -> [&mut Vec<f32>; 4] {
        [
            &mut self.linear,
            &mut self.input,
            &mut self.bias,
            &mut self.output,
        ]
    }

    fn zeros_like(&self) -> Parameters {
        Parameters {
            units: self.units,
            linear: vec![0.0; self.linear.len()],
            input: vec![0.0; self.input.len()],
            bias: vec![0.0; self.bias.len()],
            output: vec![0.0; self.output.len()],
        }
    }
}

/// The units' sums of one view of a sample.
fn hidden_sums(parameters: &Parameters, row: &[(u16, f32)], sums: &mut [f32]) {
    sums.copy_from_slice(&parameters.bias);
    let units = parameters.units;
    for &(input, value) in row {
        let weights = &parameters.input[usize::from(input) * units..][..units];
        for (sum, weight) in sums.iter_mut().zip(weights) {
            *sum += value * weight;
        }
    }
}

/// The logit of sample `index`, with the two views' unit sums left in `first` and
/// `second`.
fn logit(
    parameters: &Parameters,
    samples: NetworkSamples,
    scale: f32,
    index: usize,
    (first, second): (&mut [f32], &mut [f32]),
) -> f64 {
    let (columns, _, _) = samples.linear.sample(index);
    let linear: f64 = columns
        .iter()
        .zip(&parameters.linear)
        .map(|(&column, &weight)| column * f64::from(weight * scale))
        .sum();
    hidden_sums(parameters, samples.as_it_stands.row(index), first);
    hidden_sums(parameters, samples.turned.row(index), second);
    let network: f32 = first
        .iter()
        .zip(second.iter())
        .zip(&parameters.output)
        .map(|((&a, &b), &weight)| weight * (a.max(0.0) - b.max(0.0)))
        .sum();
    linear + f64::from(network)
}

/// The mean cross-entropy of the samples' results under the parameters.
fn mean_loss(parameters: &Parameters, samples: NetworkSamples, scale: f32) -> f64 {
    let count = samples.linear.len();
    if count == 0 {
        return 0.0;
    }
    let mut first = vec![0.0; parameters.units];
    let mut second = vec![0.0; parameters.units];
    let total: f64 = (0..count)
        .map(|index| {
            let (_, result, _) = samples.linear.sample(index);
            let z = logit(parameters, samples, scale, index, (&mut first, &mut second));
            cross_entropy(z, result)
        })
        .sum();
    total / count as f64
}

/// A standard normal number (Box–Muller).
fn normal(random: &mut SplitMix64) -> f64 {
    let uniform =
        |random: &mut SplitMix64| ((random.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
    let (first, second) = (uniform(random), uniform(random));
    (-2.0 * first.ln()).sqrt() * (std::f64::consts::TAU * second).cos()
}

/// Fits the linear part and the network to `training` by Adam, keeping the epoch with the
/// lowest loss on `validation`; `on_epoch` hears each epoch's number and validation loss.
///
/// # Panics
/// If the three parts of a sample set do not have as many rows, or an input is not below
/// `options.inputs`.
pub fn fit_network(
    training: NetworkSamples,
    validation: NetworkSamples,
    options: &NetworkFitOptions,
    mut on_epoch: impl FnMut(usize, f64),
) -> NetworkFit {
    for samples in [training, validation] {
        assert_eq!(samples.linear.len(), samples.as_it_stands.len());
        assert_eq!(samples.linear.len(), samples.turned.len());
    }
    let units = options.units;
    let mut random = SplitMix64::new(options.seed);
    // He initialisation for about 24 inputs at once (a board's pieces), small outputs.
    let input_spread = (2.0 / 24.0_f64).sqrt();
    let mut parameters = Parameters {
        units,
        linear: vec![0.0; training.linear.columns()],
        input: (0..options.inputs * units)
            .map(|_| (normal(&mut random) * input_spread) as f32)
            .collect(),
        bias: vec![0.0; units],
        output: (0..units)
            .map(|_| (normal(&mut random) * 0.01) as f32)
            .collect(),
    };
    let scale = options.column_scale as f32;
    let mut gradients = parameters.zeros_like();
    let mut first_moments = parameters.zeros_like();
    let mut second_moments = parameters.zeros_like();
    let mut order: Vec<usize> = (0..training.linear.len()).collect();
    let (mut first, mut second) = (vec![0.0f32; units], vec![0.0f32; units]);
    let mut learning_rate = options.learning_rate;
    let mut step = 0;
    let mut best = (f64::INFINITY, parameters.clone(), 0);
    let mut validation_losses = Vec::new();
    for epoch in 0..options.max_epochs {
        random.shuffle(&mut order);
        for batch in order.chunks(options.batch.max(1)) {
            for list in gradients.lists_mut() {
                list.fill(0.0);
            }
            let share = 1.0 / batch.len() as f32;
            for &index in batch {
                let z = logit(
                    &parameters,
                    training,
                    scale,
                    index,
                    (&mut first, &mut second),
                );
                let (columns, result, _) = training.linear.sample(index);
                let error = ((logistic(z) - result) as f32) * share;
                for (gradient, &column) in gradients.linear.iter_mut().zip(columns) {
                    *gradient += error * scale * column as f32;
                }
                for unit in 0..units {
                    let (a, b) = (first[unit], second[unit]);
                    gradients.output[unit] += error * (a.max(0.0) - b.max(0.0));
                    let back = error * parameters.output[unit];
                    // What each view's sum passes back: through the ReLU, the second view
                    // subtracted.
                    first[unit] = if a > 0.0 { back } else { 0.0 };
                    second[unit] = if b > 0.0 { -back } else { 0.0 };
                    gradients.bias[unit] += first[unit] + second[unit];
                }
                for (row, back) in [
                    (training.as_it_stands.row(index), &first),
                    (training.turned.row(index), &second),
                ] {
                    for &(input, value) in row {
                        let weights = &mut gradients.input[usize::from(input) * units..][..units];
                        for (gradient, &back) in weights.iter_mut().zip(back.iter()) {
                            *gradient += value * back;
                        }
                    }
                }
            }
            step += 1;
            adam_step(
                (&mut parameters, &mut gradients),
                (&mut first_moments, &mut second_moments),
                (learning_rate, step, options.weight_decay),
            );
        }
        let loss = mean_loss(&parameters, validation, scale);
        validation_losses.push(loss);
        on_epoch(epoch, loss);
        if loss < best.0 {
            best = (loss, parameters.clone(), epoch);
        } else if epoch - best.2 >= options.patience {
            break;
        }
        if options.halve_after.contains(&epoch) {
            learning_rate *= 0.5;
        }
    }
    let (_, kept, best_epoch) = best;
    let widen = |list: &[f32]| list.iter().map(|&weight| f64::from(weight)).collect();
    NetworkFit {
        linear: kept
            .linear
            .iter()
            .map(|&weight| f64::from(weight) * options.column_scale)
            .collect(),
        input: widen(&kept.input),
        bias: widen(&kept.bias),
        output: widen(&kept.output),
        validation_losses,
        best_epoch,
    }
}

/// One step of Adam (β₁ 0.9, β₂ 0.999, ε 1e-8, bias-corrected), the weight decay added to
/// the network's weights' gradients.
fn adam_step(
    (parameters, gradients): (&mut Parameters, &mut Parameters),
    (first_moments, second_moments): (&mut Parameters, &mut Parameters),
    (learning_rate, step, weight_decay): (f64, i32, f64),
) {
    let first_correction = 1.0 - 0.9_f64.powi(step);
    let second_correction = 1.0 - 0.999_f64.powi(step);
    let rate = (learning_rate / first_correction) as f32;
    let second_correction = second_correction as f32;
    let decay = weight_decay as f32;
    let lists = parameters
        .lists_mut()
        .into_iter()
        .zip(gradients.lists_mut())
        .zip(first_moments.lists_mut())
        .zip(second_moments.lists_mut())
        .enumerate();
    for (list, (((weights, gradients), first), second)) in lists {
        // The input weights (1) and output weights (3) decay; the linear part and biases
        // do not.
        let decayed = list == 1 || list == 3;
        for (((weight, &gradient), first), second) in weights
            .iter_mut()
            .zip(gradients.iter())
            .zip(first.iter_mut())
            .zip(second.iter_mut())
        {
            let gradient = if decayed {
                gradient + decay * *weight
            } else {
                gradient
            };
            *first = 0.9 * *first + 0.1 * gradient;
            *second = 0.999 * *second + 0.001 * gradient * gradient;
            *weight -= rate * *first / ((*second / second_correction).sqrt() + 1e-8);
        }
    }
}

/// The mean cross-entropy of `samples`' results under a fit.
#[must_use]
pub fn network_log_loss(fit: &NetworkFit, samples: NetworkSamples) -> f64 {
    mean_loss(&Parameters::of_fit(fit), samples, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions of a toy game: four binary inputs for each side; the result is won when
    /// the side has inputs 0 and 1 both and the other has not (an interaction no linear
    /// model holds), else drawn; one linear column, the difference of the sides' counts.
    fn toy(count: usize, seed: u64) -> (Samples, SparseRows, SparseRows) {
        let mut random = SplitMix64::new(seed);
        let (mut linear, mut as_it_stands, mut turned) =
            (Samples::new(1), SparseRows::new(), SparseRows::new());
        for _ in 0..count {
            let own = random.next_u64() & 15;
            let other = random.next_u64() & 15;
            let both = |bits: u64| bits & 3 == 3;
            let result = match (both(own), both(other)) {
                (true, false) => 1.0,
                (false, true) => 0.0,
                _ => 0.5,
            };
            let entries = |first: u64, second: u64| -> Vec<(u16, f32)> {
                (0..4u16)
                    .filter(|&bit| first >> bit & 1 == 1)
                    .map(|bit| (bit, 1.0))
                    .chain(
                        (0..4u16)
                            .filter(|&bit| second >> bit & 1 == 1)
                            .map(|bit| (4 + bit, 1.0)),
                    )
                    .collect()
            };
            let difference = f64::from(own.count_ones()) - f64::from(other.count_ones());
            linear.push(&[difference], result);
            as_it_stands.push(&entries(own, other));
            turned.push(&entries(other, own));
        }
        (linear, as_it_stands, turned)
    }

    #[test]
    fn the_network_learns_what_the_linear_part_cannot_and_is_seeded() {
        let (linear, as_it_stands, turned) = toy(4000, 1);
        let (valid_linear, valid_as, valid_turned) = toy(1000, 2);
        let training = NetworkSamples {
            linear: &linear,
            as_it_stands: &as_it_stands,
            turned: &turned,
        };
        let validation = NetworkSamples {
            linear: &valid_linear,
            as_it_stands: &valid_as,
            turned: &valid_turned,
        };
        let options = NetworkFitOptions {
            units: 8,
            inputs: 8,
            learning_rate: 0.02,
            batch: 64,
            max_epochs: 30,
            ..NetworkFitOptions::default()
        };
        let mut heard = 0;
        let fit = fit_network(training, validation, &options, |_, _| heard += 1);
        assert_eq!(heard, fit.validation_losses.len());
        let network_loss = network_log_loss(&fit, validation);
        assert_eq!(network_loss, fit.validation_loss());
        // Draws (10 in 16 positions) cost ln 2 each whatever the model, so the best loss is
        // about 10/16 · ln 2 = 0.433; the linear model, blind to the pair, stays near 0.6.
        let linear_only = crate::learning::fit_logistic(&linear, 1e-6);
        let linear_loss = valid_linear.log_loss(&linear_only.weights);
        assert!(
            network_loss < linear_loss - 0.05,
            "network {network_loss}, linear {linear_loss}"
        );
        // Seeded: the same fit again.
        assert_eq!(fit_network(training, validation, &options, |_, _| {}), fit);
        // Antisymmetric: a position and its other side's view are worth opposite logits.
        let swapped = NetworkSamples {
            linear: &valid_linear,
            as_it_stands: &valid_turned,
            turned: &valid_as,
        };
        let without_linear = NetworkFit {
            linear: vec![0.0],
            ..fit.clone()
        };
        let plain = Parameters::of_fit(&without_linear);
        let (mut first, mut second) = (vec![0.0; 8], vec![0.0; 8]);
        for index in 0..20 {
            let ours = logit(&plain, validation, 1.0, index, (&mut first, &mut second));
            let theirs = logit(&plain, swapped, 1.0, index, (&mut first, &mut second));
            assert_eq!(ours, -theirs);
        }
    }
}
