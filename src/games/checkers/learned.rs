//! The learned evaluation: a weight for each board feature ([`super::features`]) in the
//! opening and another in the endgame, blended by the pieces on the board, the weights
//! fitted to the outcomes of real games by logistic regression ("Texel tuning", after the
//! Texel chess program; Samuel fitted his program's weights to play in 1959 — this fits
//! them to results). [`crate::learning`] does the fitting; `gametree checkers learn` runs
//! it on game files and writes the weights in the text format of
//! [`LearnedWeights::parse`]; the weights the project fitted ship in
//! `data/checkers/learned-weights.txt` ([`LearnedWeights::shipped`]).

use std::fmt::Write as _;

use super::board::Position;
use super::features::{FEATURE_COUNT, FEATURE_NAMES, Features, PHASE_PIECES, features};

/// A weight for each feature at the opening (24 pieces on the board) and at the end (none):
/// a position with `p` pieces weighs feature `i` as `(opening[i]·p + endgame[i]·(24 − p)) / 24`
/// — a "tapered" evaluation, so that a man can be worth more as the board empties, and
/// mobility less.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LearnedWeights {
    /// Weights with the board full, in the order of [`FEATURE_NAMES`].
    pub opening: [i32; FEATURE_COUNT],
    /// Weights with the board empty.
    pub endgame: [i32; FEATURE_COUNT],
}

/// Why a weights file could not be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum WeightsError {
    /// A line that is not `name opening endgame`, or a weight that is not a whole number.
    #[error("line {line}: {message}")]
    Line {
        /// 1-based.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A feature the file does not give.
    #[error("no weights for feature {0:?}")]
    Missing(&'static str),
}

/// The largest weight a file may give: far above any sensible one, small enough that a
/// weighted sum cannot overflow.
const MOST_WEIGHT: i32 = 100_000;

impl LearnedWeights {
    /// The weights shipped in `data/checkers/learned-weights.txt`.
    #[must_use]
    pub fn shipped() -> LearnedWeights {
        LearnedWeights::parse(SHIPPED).expect("invariant: the shipped weights file is valid")
    }

    /// The evaluation of `position` from Black's side.
    #[must_use]
    #[inline]
    pub fn evaluate(&self, position: &Position) -> i32 {
        self.evaluate_features(&features(position))
    }

    /// The evaluation of a position with these features.
    #[must_use]
    #[inline]
    pub fn evaluate_features(&self, features: &Features) -> i32 {
        let phase = features.phase;
        let mut total = 0;
        for index in 0..FEATURE_COUNT {
            let weight = self.opening[index] * phase + self.endgame[index] * (PHASE_PIECES - phase);
            total += weight * features.values[index];
        }
        total / PHASE_PIECES
    }

    /// The columns of a position for the fit ([`crate::learning::Samples`]): each feature
    /// times the opening's share of the phase, then each times the endgame's share, so that
    /// the fitted weights are [`opening`](Self::opening) and [`endgame`](Self::endgame).
    #[must_use]
    pub fn columns(features: &Features) -> [f64; 2 * FEATURE_COUNT] {
        let opening_share = f64::from(features.phase) / f64::from(PHASE_PIECES);
        let mut columns = [0.0; 2 * FEATURE_COUNT];
        for (index, &value) in features.values.iter().enumerate() {
            columns[index] = f64::from(value) * opening_share;
            columns[FEATURE_COUNT + index] = f64::from(value) * (1.0 - opening_share);
        }
        columns
    }

    /// Weights from a fit's logit weights (in the order of [`columns`](Self::columns)),
    /// `points_per_logit` evaluation points to one unit of logit, rounded.
    #[must_use]
    pub fn from_logit_weights(logit_weights: &[f64], points_per_logit: f64) -> LearnedWeights {
        let mut weights = LearnedWeights {
            opening: [0; FEATURE_COUNT],
            endgame: [0; FEATURE_COUNT],
        };
        for index in 0..FEATURE_COUNT {
            let points = |logit: f64| {
                (logit * points_per_logit)
                    .round()
                    .clamp(-f64::from(MOST_WEIGHT), f64::from(MOST_WEIGHT)) as i32
            };
            weights.opening[index] = points(logit_weights[index]);
            weights.endgame[index] = points(logit_weights[FEATURE_COUNT + index]);
        }
        weights
    }

    /// Reads weights from text: a line `name opening endgame` for each feature of
    /// [`FEATURE_NAMES`] in any order, blank lines and lines starting `#` ignored.
    ///
    /// # Errors
    /// [`WeightsError`] naming the line of an unknown or repeated feature or a bad number,
    /// or the feature left out.
    pub fn parse(text: &str) -> Result<LearnedWeights, WeightsError> {
        let mut opening = [None; FEATURE_COUNT];
        let mut endgame = [0; FEATURE_COUNT];
        for (number, line) in text.lines().enumerate() {
            let line_error = |message: String| WeightsError::Line {
                line: number + 1,
                message,
            };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let [name, first, second] = words[..] else {
                return Err(line_error(format!(
                    "expected `feature opening endgame`, found {line:?}"
                )));
            };
            let index = FEATURE_NAMES
                .iter()
                .position(|&known| known == name)
                .ok_or_else(|| {
                    line_error(format!(
                        "unknown feature {name:?} (known: {})",
                        FEATURE_NAMES.join(", ")
                    ))
                })?;
            if opening[index].is_some() {
                return Err(line_error(format!("feature {name:?} given twice")));
            }
            let weight = |text: &str| {
                text.parse::<i32>()
                    .ok()
                    .filter(|weight| weight.abs() <= MOST_WEIGHT)
                    .ok_or_else(|| {
                        line_error(format!(
                            "weight {text:?} is not a whole number from -{MOST_WEIGHT} to {MOST_WEIGHT}"
                        ))
                    })
            };
            opening[index] = Some(weight(first)?);
            endgame[index] = weight(second)?;
        }
        let mut weights = LearnedWeights {
            opening: [0; FEATURE_COUNT],
            endgame,
        };
        for (index, found) in opening.iter().enumerate() {
            weights.opening[index] = found.ok_or(WeightsError::Missing(FEATURE_NAMES[index]))?;
        }
        Ok(weights)
    }

    /// The weights as [`parse`](Self::parse) reads them, after `comment` (each of its lines
    /// written as a `#` line).
    #[must_use]
    pub fn to_text(&self, comment: &str) -> String {
        let mut text = String::new();
        // Writing to a String cannot fail.
        for line in comment.lines() {
            let _ = writeln!(text, "# {line}");
        }
        let _ = writeln!(text, "# feature opening endgame");
        for (name, (opening, endgame)) in FEATURE_NAMES
            .iter()
            .zip(self.opening.iter().zip(&self.endgame))
        {
            let _ = writeln!(text, "{name:<16} {opening:>6} {endgame:>6}");
        }
        text
    }
}

/// The shipped weights file.
const SHIPPED: &str = include_str!("../../../data/checkers/learned-weights.txt");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_weights_read_and_write_back() {
        let weights = LearnedWeights::shipped();
        assert_eq!(
            LearnedWeights::parse(&weights.to_text("again")).expect("valid"),
            weights
        );
        assert!(weights.opening[0] > 0, "a man is worth something");
    }

    #[test]
    fn colours_reversed_negate_the_value() {
        let weights = LearnedWeights::shipped();
        let position = Position::from_fen("B:W22,K30,18,26:B11,3,1,K14,6").expect("valid");
        let mirrored = Position::from_fen("W:W22,30,32,K19,27:B11,K3,15,7").expect("valid");
        assert_eq!(weights.evaluate(&position), -weights.evaluate(&mirrored));
    }

    #[test]
    fn bad_files_are_refused_with_the_line() {
        let good = LearnedWeights::shipped().to_text("");
        let unknown = format!("{good}\nqueen 1 2\n");
        let error = LearnedWeights::parse(&unknown).expect_err("unknown feature");
        assert!(
            error.to_string().contains("unknown feature \"queen\""),
            "{error}"
        );
        let twice = format!("{good}man 1 2\n");
        assert!(matches!(
            LearnedWeights::parse(&twice),
            Err(WeightsError::Line { .. })
        ));
        let missing: String = good
            .lines()
            .filter(|line| !line.starts_with("king"))
            .map(|line| format!("{line}\n"))
            .collect();
        assert_eq!(
            LearnedWeights::parse(&missing),
            Err(WeightsError::Missing("king"))
        );
        let bad_number = good.replacen("man ", "man x", 1);
        assert!(LearnedWeights::parse(&bad_number).is_err());
        let huge = format!(
            "{}\nman 999999999 1\n",
            good.lines()
                .filter(|line| !line.starts_with("man"))
                .collect::<Vec<_>>()
                .join("\n")
        );
        assert!(LearnedWeights::parse(&huge).is_err());
    }

    #[test]
    fn the_phase_blends_the_two_weights() {
        let mut weights = LearnedWeights {
            opening: [0; FEATURE_COUNT],
            endgame: [0; FEATURE_COUNT],
        };
        weights.opening[0] = 100;
        weights.endgame[0] = 200;
        // Two Black men against a White king: three pieces on the board, two men more.
        let three = Position::from_fen("B:WK1:B14,15").expect("valid");
        assert_eq!(weights.evaluate(&three), 2 * (100 * 3 + 200 * 21) / 24);
        assert_eq!(weights.evaluate(&Position::initial()), 0);
    }
}
