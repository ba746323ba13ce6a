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
use super::features::{
    FEATURE_COUNT, FEATURE_NAMES, Features, PHASE_PIECES, SQUARE_FEATURE_COUNT, features,
    for_each_square_feature, square_feature_index, square_feature_name, square_features,
};

/// How many columns a fit with square tables has: each feature, then each square feature,
/// for the opening and again for the endgame.
const COLUMN_COUNT: usize = 2 * (FEATURE_COUNT + SQUARE_FEATURE_COUNT);

/// A weight for each feature at the opening (24 pieces on the board) and at the end (none):
/// a position with `p` pieces weighs feature `i` as `(opening[i]·p + endgame[i]·(24 − p)) / 24`
/// — a "tapered" evaluation, so that a man can be worth more as the board empties, and
/// mobility less. The square tables, if the weights have them, add what a man or a king is
/// worth on each square beyond its feature weights (from its own side's view, blended the
/// same way); weights without them have all zeros there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LearnedWeights {
    /// Weights with the board full, in the order of [`FEATURE_NAMES`].
    pub opening: [i32; FEATURE_COUNT],
    /// Weights with the board empty.
    pub endgame: [i32; FEATURE_COUNT],
    /// The square tables with the board full, in the order of
    /// [`square_feature_name`](super::features::square_feature_name).
    pub square_opening: [i32; SQUARE_FEATURE_COUNT],
    /// The square tables with the board empty.
    pub square_endgame: [i32; SQUARE_FEATURE_COUNT],
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
    /// How many columns [`columns_with_squares`](Self::columns_with_squares) gives: each
    /// feature, then each square feature, for the opening and again for the endgame.
    pub const COLUMNS_WITH_SQUARES: usize = COLUMN_COUNT;

    /// Where [`columns_with_squares`](Self::columns_with_squares) puts the square tables:
    /// their opening columns, then their endgame columns.
    pub const SQUARE_COLUMNS: [std::ops::Range<usize>; 2] = [
        FEATURE_COUNT..FEATURE_COUNT + SQUARE_FEATURE_COUNT,
        COLUMN_COUNT / 2 + FEATURE_COUNT..COLUMN_COUNT,
    ];

    /// The weights shipped in `data/checkers/learned-weights.txt`.
    #[must_use]
    pub fn shipped() -> LearnedWeights {
        LearnedWeights::parse(SHIPPED).expect("invariant: the shipped weights file is valid")
    }

    /// The evaluation of `position` from Black's side.
    #[must_use]
    #[inline]
    pub fn evaluate(&self, position: &Position) -> i32 {
        let features = features(position);
        let (mut opening, mut endgame) = self.feature_sums(&features);
        for_each_square_feature(position, |index, sign| {
            opening += sign * self.square_opening[index];
            endgame += sign * self.square_endgame[index];
        });
        tapered(opening, endgame, features.phase)
    }

    /// The evaluation of a position with these features, the square tables left out (they
    /// need the position itself: [`evaluate`](Self::evaluate)).
    #[must_use]
    #[inline]
    pub fn evaluate_features(&self, features: &Features) -> i32 {
        let (opening, endgame) = self.feature_sums(features);
        tapered(opening, endgame, features.phase)
    }

    /// The features weighted by the opening's weights and by the endgame's.
    #[inline]
    fn feature_sums(&self, features: &Features) -> (i32, i32) {
        let weighted = |weights: &[i32; FEATURE_COUNT]| -> i32 {
            weights
                .iter()
                .zip(features.values)
                .map(|(w, v)| w * v)
                .sum()
        };
        (weighted(&self.opening), weighted(&self.endgame))
    }

    /// Whether any square weight is not zero.
    #[must_use]
    pub fn has_square_tables(&self) -> bool {
        self.square_opening
            .iter()
            .chain(&self.square_endgame)
            .any(|&weight| weight != 0)
    }

    /// Each weight with its name, as the weights file gives them: the features, then the
    /// square tables if there are any.
    pub fn named(&self) -> impl Iterator<Item = (String, i32, i32)> + '_ {
        let features = FEATURE_NAMES
            .iter()
            .zip(self.opening.iter().zip(&self.endgame))
            .map(|(name, (&opening, &endgame))| ((*name).to_string(), opening, endgame));
        let squares = self
            .square_opening
            .iter()
            .zip(&self.square_endgame)
            .enumerate()
            .map(|(index, (&opening, &endgame))| (square_feature_name(index), opening, endgame))
            .take(if self.has_square_tables() {
                SQUARE_FEATURE_COUNT
            } else {
                0
            });
        features.chain(squares)
    }

    /// The columns of a position for the fit ([`crate::learning::Samples`]): each feature
    /// times the opening's share of the phase, then each times the endgame's share, so that
    /// the fitted weights are [`opening`](Self::opening) and [`endgame`](Self::endgame).
    #[must_use]
    pub fn columns(features: &Features) -> [f64; 2 * FEATURE_COUNT] {
        let mut columns = [0.0; 2 * FEATURE_COUNT];
        tapered_columns(features.values, features.phase, &mut columns);
        columns
    }

    /// The columns of `position` for a fit with square tables: the features' opening
    /// columns, the square features' opening columns, then the same for the endgame
    /// ([`COLUMNS_WITH_SQUARES`](Self::COLUMNS_WITH_SQUARES) in all, the square tables'
    /// at [`SQUARE_COLUMNS`](Self::SQUARE_COLUMNS); the order
    /// [`from_logit_weights`](Self::from_logit_weights) reads).
    #[must_use]
    pub fn columns_with_squares(position: &Position) -> [f64; COLUMN_COUNT] {
        let features = features(position);
        let values = features.values.into_iter().chain(square_features(position));
        let mut columns = [0.0; COLUMN_COUNT];
        tapered_columns(values, features.phase, &mut columns);
        columns
    }

    /// Weights from a fit's logit weights, `points_per_logit` evaluation points to one unit
    /// of logit, rounded: in the order of [`columns`](Self::columns) (no square tables) or,
    /// [`COLUMNS_WITH_SQUARES`](Self::COLUMNS_WITH_SQUARES) of them, of [`columns_with_squares`](Self::columns_with_squares).
    ///
    /// # Panics
    /// If there are neither `2 × FEATURE_COUNT` nor [`COLUMNS_WITH_SQUARES`](Self::COLUMNS_WITH_SQUARES) logit weights.
    #[must_use]
    pub fn from_logit_weights(logit_weights: &[f64], points_per_logit: f64) -> LearnedWeights {
        let points = |logit: f64| {
            (logit * points_per_logit)
                .round()
                .clamp(-f64::from(MOST_WEIGHT), f64::from(MOST_WEIGHT)) as i32
        };
        let squares = match logit_weights.len() {
            COLUMN_COUNT => SQUARE_FEATURE_COUNT,
            length if length == 2 * FEATURE_COUNT => 0,
            length => panic!("{length} logit weights: neither features nor features and squares"),
        };
        let (opening, endgame) = logit_weights.split_at(FEATURE_COUNT + squares);
        let mut weights = LearnedWeights::default();
        for (slots, logits) in [
            (&mut weights.opening[..], &opening[..FEATURE_COUNT]),
            (&mut weights.endgame[..], &endgame[..FEATURE_COUNT]),
            (
                &mut weights.square_opening[..squares],
                &opening[FEATURE_COUNT..],
            ),
            (
                &mut weights.square_endgame[..squares],
                &endgame[FEATURE_COUNT..],
            ),
        ] {
            for (slot, &logit) in slots.iter_mut().zip(logits) {
                *slot = points(logit);
            }
        }
        weights
    }

    /// Reads weights from text: a line `name opening endgame` for each feature of
    /// [`FEATURE_NAMES`] and, if the weights have square tables, for any square feature
    /// (`man_on_S`, `king_on_S`; one left out weighs 0), in any order, blank lines and lines
    /// starting `#` ignored.
    ///
    /// # Errors
    /// [`WeightsError`] naming the line of an unknown or repeated feature or a bad number,
    /// or the feature left out.
    pub fn parse(text: &str) -> Result<LearnedWeights, WeightsError> {
        let mut opening = [None; FEATURE_COUNT];
        let mut endgame = [0; FEATURE_COUNT];
        let mut squares_seen = [false; SQUARE_FEATURE_COUNT];
        let mut weights = LearnedWeights::default();
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
            let twice = || line_error(format!("feature {name:?} given twice"));
            if let Some(index) = FEATURE_NAMES.iter().position(|&known| known == name) {
                if opening[index].is_some() {
                    return Err(twice());
                }
                opening[index] = Some(weight(first)?);
                endgame[index] = weight(second)?;
            } else if let Some(index) = square_feature_index(name) {
                if std::mem::replace(&mut squares_seen[index], true) {
                    return Err(twice());
                }
                weights.square_opening[index] = weight(first)?;
                weights.square_endgame[index] = weight(second)?;
            } else {
                return Err(line_error(format!(
                    "unknown feature {name:?} (known: {}, man_on_1 to man_on_28, king_on_1 \
                     to king_on_32)",
                    FEATURE_NAMES.join(", ")
                )));
            }
        }
        weights.endgame = endgame;
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
        for (index, (name, opening, endgame)) in self.named().enumerate() {
            if index == FEATURE_COUNT {
                let _ = writeln!(
                    text,
                    "# square tables: a man or king on each square, from its own side's view"
                );
            }
            let _ = writeln!(text, "{name:<16} {opening:>6} {endgame:>6}");
        }
        text
    }
}

/// `opening` and `endgame` blended by the phase: all of `opening` with the board full
/// ([`PHASE_PIECES`] pieces), all of `endgame` with it empty.
#[inline]
fn tapered(opening: i32, endgame: i32, phase: i32) -> i32 {
    (opening * phase + endgame * (PHASE_PIECES - phase)) / PHASE_PIECES
}

/// The fit's columns of `values` at `phase`: each value times the opening's share in the
/// first half of `columns`, times the endgame's share in the second, so that the fitted
/// weights blend as [`tapered`] does.
fn tapered_columns(values: impl IntoIterator<Item = i32>, phase: i32, columns: &mut [f64]) {
    let opening_share = f64::from(phase) / f64::from(PHASE_PIECES);
    let (opening, endgame) = columns.split_at_mut(columns.len() / 2);
    for ((value, opening), endgame) in values.into_iter().zip(opening).zip(endgame) {
        *opening = f64::from(value) * opening_share;
        *endgame = f64::from(value) * (1.0 - opening_share);
    }
}

impl Default for LearnedWeights {
    /// Every weight 0: the evaluation of every position is 0.
    fn default() -> LearnedWeights {
        LearnedWeights {
            opening: [0; FEATURE_COUNT],
            endgame: [0; FEATURE_COUNT],
            square_opening: [0; SQUARE_FEATURE_COUNT],
            square_endgame: [0; SQUARE_FEATURE_COUNT],
        }
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
        let position = Position::from_fen("B:W22,K30,18,26:B11,3,1,K14,6").expect("valid");
        let mirrored = Position::from_fen("W:W22,30,32,K19,27:B11,K3,15,7").expect("valid");
        for weights in [LearnedWeights::shipped(), with_square_tables()] {
            assert_eq!(weights.evaluate(&position), -weights.evaluate(&mirrored));
        }
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
        let mut weights = LearnedWeights::default();
        weights.opening[0] = 100;
        weights.endgame[0] = 200;
        // Two Black men against a White king: three pieces on the board, two men more.
        let three = Position::from_fen("B:WK1:B14,15").expect("valid");
        assert_eq!(weights.evaluate(&three), 2 * (100 * 3 + 200 * 21) / 24);
        assert_eq!(weights.evaluate(&Position::initial()), 0);
    }

    fn with_square_tables() -> LearnedWeights {
        let mut weights = LearnedWeights::shipped();
        for index in 0..SQUARE_FEATURE_COUNT {
            let index_weight = i32::try_from(index).expect("small");
            weights.square_opening[index] = index_weight % 7 - 3;
            weights.square_endgame[index] = 20 - index_weight % 11;
        }
        weights
    }

    #[test]
    fn square_tables_read_and_write_back_and_may_be_left_out() {
        let weights = with_square_tables();
        let text = weights.to_text("squares");
        assert!(text.contains("king_on_32"));
        assert_eq!(LearnedWeights::parse(&text).expect("valid"), weights);
        // Weights without them write none; the shipped ones have them; one left out
        // weighs 0.
        let plain = LearnedWeights {
            square_opening: [0; SQUARE_FEATURE_COUNT],
            square_endgame: [0; SQUARE_FEATURE_COUNT],
            ..LearnedWeights::shipped()
        };
        assert!(!plain.has_square_tables());
        assert!(!plain.to_text("").contains("man_on_"));
        assert_eq!(LearnedWeights::parse(&plain.to_text("")), Ok(plain));
        assert!(LearnedWeights::shipped().has_square_tables());
        let without_one: String = text
            .lines()
            .filter(|line| !line.starts_with("man_on_5 "))
            .map(|line| format!("{line}\n"))
            .collect();
        let read = LearnedWeights::parse(&without_one).expect("valid");
        let index = square_feature_index("man_on_5").expect("a square feature");
        assert_eq!(
            (read.square_opening[index], read.square_endgame[index]),
            (0, 0)
        );
        let twice = format!("{text}king_on_3 1 1\n");
        assert!(
            LearnedWeights::parse(&twice)
                .expect_err("given twice")
                .to_string()
                .contains("given twice")
        );
    }

    #[test]
    fn square_tables_add_each_piece_on_its_square_blended_by_the_phase() {
        let mut weights = LearnedWeights::default();
        let man_on_14 = square_feature_index("man_on_14").expect("a square feature");
        weights.square_opening[man_on_14] = 24;
        weights.square_endgame[man_on_14] = 48;
        // Black men on 14 and 15 against a White king on 1: three pieces on the board.
        let three = Position::from_fen("B:WK1:B14,15").expect("valid");
        assert_eq!(weights.evaluate(&three), (24 * 3 + 48 * 21) / 24);
        // White's man on 19 stands on its own square 14.
        let white = Position::from_fen("B:W19:BK1").expect("valid");
        assert_eq!(weights.evaluate(&white), -(24 * 2 + 48 * 22) / 24);
    }

    #[test]
    fn logit_weights_with_squares_land_in_the_square_tables() {
        let logits: Vec<f64> = (0..COLUMN_COUNT).map(|index| index as f64).collect();
        let weights = LearnedWeights::from_logit_weights(&logits, 1.0);
        assert_eq!(weights.opening[1], 1);
        assert_eq!(weights.square_opening[0], FEATURE_COUNT as i32);
        let half = (COLUMN_COUNT / 2) as i32;
        assert_eq!(weights.endgame[0], half);
        assert_eq!(weights.square_endgame[0], half + FEATURE_COUNT as i32);
        let plain = LearnedWeights::from_logit_weights(&logits[..2 * FEATURE_COUNT], 1.0);
        assert!(!plain.has_square_tables());
        assert_eq!(plain.endgame[0], FEATURE_COUNT as i32);
    }
}
