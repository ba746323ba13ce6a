//! The learned evaluation: a weight for each board feature ([`super::features`]) in the
//! opening and another in the endgame, blended by the pieces on the board, the weights
//! fitted to the outcomes of real games by logistic regression ("Texel tuning", after the
//! Texel chess program; Samuel fitted his program's weights to play in 1959 — this fits
//! them to results). [`crate::learning`] does the fitting; `gametree checkers learn` runs
//! it on game files and writes the weights in the text format of
//! [`LearnedWeights::parse`]; the weights the project fitted ship in
//! `data/checkers/learned-weights.txt` ([`LearnedWeights::shipped`]).

use std::fmt::Write as _;
use std::sync::Arc;

use super::board::Position;
use super::features::{
    FEATURE_COUNT, FEATURE_NAMES, Features, PATTERN_FEATURE_COUNT, PHASE_PIECES,
    SQUARE_FEATURE_COUNT, features, for_each_pattern_feature, for_each_square_feature,
    pattern_feature_index, pattern_feature_name, pattern_features, square_feature_index,
    square_feature_name, square_features,
};
use super::network::{NETWORK_INPUTS, Network, NetworkError, UNITS, row_index, row_name};

/// How many columns a fit with square tables has: each feature, then each square feature,
/// for the opening and again for the endgame.
const COLUMN_COUNT: usize = 2 * (FEATURE_COUNT + SQUARE_FEATURE_COUNT);

/// How many columns a fit with square tables and patterns has: each feature, each square
/// feature, then each pattern feature, for the opening and again for the endgame.
const PATTERN_COLUMN_COUNT: usize =
    2 * (FEATURE_COUNT + SQUARE_FEATURE_COUNT + PATTERN_FEATURE_COUNT);

/// A weight for each feature at the opening (24 pieces on the board) and at the end (none):
/// a position with `p` pieces weighs feature `i` as `(opening[i]·p + endgame[i]·(24 − p)) / 24`
/// — a "tapered" evaluation, so that a man can be worth more as the board empties, and
/// mobility less. The square tables, if the weights have them, add what a man or a king is
/// worth on each square beyond its feature weights (from its own side's view, blended the
/// same way); weights without them have all zeros there. So do the patterns: what a man
/// adds with a neighbour of a kind on a given square (its own man ahead of it, an enemy
/// ahead, an enemy behind; [`super::features::pattern_feature_name`]). A hidden layer
/// ([`Network`]), if the weights have one, adds what combinations of pieces are worth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnedWeights {
    /// Weights with the board full, in the order of [`FEATURE_NAMES`].
    pub opening: [i32; FEATURE_COUNT],
    /// Weights with the board empty.
    pub endgame: [i32; FEATURE_COUNT],
    /// The square tables with the board full, in the order of
    /// [`square_feature_name`](super::features::square_feature_name).
    /// Read and set through [`square_weights`](Self::square_weights) and
    /// [`set_square_weights`](Self::set_square_weights), which keep `squares` up to date.
    square_opening: [i32; SQUARE_FEATURE_COUNT],
    /// The square tables with the board empty.
    square_endgame: [i32; SQUARE_FEATURE_COUNT],
    /// Whether any square weight is not zero: weights fitted with a hidden layer need no
    /// square tables (the network sees every piece on every square; on rounds 0–5 the
    /// held-out loss was 0.49529 without them, 0.49527 with them), and
    /// [`evaluate`](Self::evaluate) skips finding a position's squares then (some 15% more
    /// positions a second to depth 15 from the start, 2026-11-29).
    squares: bool,
    /// The pattern weights, in the order of
    /// [`pattern_feature_name`](super::features::pattern_feature_name), each pair (board
    /// full, board empty) packed in one word ([`pack`]): a position's patterns are summed
    /// with one load and one addition each, where two arrays took two (the evaluation is
    /// about a quarter of the search's time). Read and set through
    /// [`pattern_weights`](Self::pattern_weights) and
    /// [`set_pattern_weights`](Self::set_pattern_weights), which keep `patterns` true.
    pattern_pairs: [i64; PATTERN_FEATURE_COUNT],
    /// Whether any pattern weight is not zero: finding the patterns costs weights without
    /// any about a tenth of the search's speed (3.09 M positions a second against 2.83 M
    /// to depth 15 from the start, 2026-11-28), so [`evaluate`](Self::evaluate) skips them
    /// then.
    patterns: bool,
    /// The hidden layer, if any: shared, not copied, by the games and search threads that
    /// evaluate with these weights (it is some 17 KB at 32 units).
    network: Option<Arc<Network>>,
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
    /// A network's rows that do not make a network (`net_output` missing, or refused by
    /// [`Network::new`]).
    #[error("the network: {0}")]
    Network(String),
}

impl From<NetworkError> for WeightsError {
    fn from(error: NetworkError) -> WeightsError {
        WeightsError::Network(error.to_string())
    }
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

    /// How many columns [`columns_with_patterns`](Self::columns_with_patterns) gives.
    pub const COLUMNS_WITH_PATTERNS: usize = PATTERN_COLUMN_COUNT;

    /// Where [`columns_with_patterns`](Self::columns_with_patterns) puts the square tables
    /// and the patterns: their opening columns, then their endgame columns.
    pub const PATTERN_LAYOUT_TABLE_COLUMNS: [std::ops::Range<usize>; 2] = [
        FEATURE_COUNT..PATTERN_COLUMN_COUNT / 2,
        PATTERN_COLUMN_COUNT / 2 + FEATURE_COUNT..PATTERN_COLUMN_COUNT,
    ];

    /// The weights shipped in `data/checkers/learned-weights.txt`.
    #[must_use]
    pub fn shipped() -> LearnedWeights {
        LearnedWeights::parse(SHIPPED).expect("invariant: the shipped weights file is valid")
    }

    /// The weights shipped in `data/checkers/learned-weights-network.txt`: a linear part
    /// and a hidden layer of 32 units fitted together to the games of rounds 0–5
    /// (results/checkers-learning/network-prototype, whose README says how).
    #[must_use]
    pub fn shipped_network() -> LearnedWeights {
        LearnedWeights::parse(SHIPPED_NETWORK)
            .expect("invariant: the shipped network weights file is valid")
    }

    /// The evaluation of `position` from Black's side: the linear part and the network's,
    /// computed from scratch (a [`super::Checkers`] game keeps the network's first layer
    /// up to date move by move instead).
    #[must_use]
    #[inline]
    pub fn evaluate(&self, position: &Position) -> i32 {
        let network = self
            .network
            .as_ref()
            .map_or(0, |network| network.evaluate(position));
        self.evaluate_linear(position) + network
    }

    /// The evaluation of `position` without the network's part: the features, square
    /// tables and patterns.
    #[must_use]
    #[inline]
    pub fn evaluate_linear(&self, position: &Position) -> i32 {
        let features = features(position);
        let (mut opening, mut endgame) = self.feature_sums(&features);
        if self.squares {
            for_each_square_feature(position, |index, sign| {
                opening += sign * self.square_opening[index];
                endgame += sign * self.square_endgame[index];
            });
        }
        if self.patterns {
            let mut pairs = 0;
            for_each_pattern_feature(position, |index, sign| {
                pairs += i64::from(sign) * self.pattern_pairs[index];
            });
            let (pattern_opening, pattern_endgame) = unpack(pairs);
            opening += pattern_opening;
            endgame += pattern_endgame;
        }
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
        self.squares
    }

    /// The opening and endgame weights of square feature `index` (below
    /// [`SQUARE_FEATURE_COUNT`]).
    #[must_use]
    pub fn square_weights(&self, index: usize) -> (i32, i32) {
        (self.square_opening[index], self.square_endgame[index])
    }

    /// Sets the opening and endgame weights of square feature `index` (below
    /// [`SQUARE_FEATURE_COUNT`]).
    pub fn set_square_weights(&mut self, index: usize, opening: i32, endgame: i32) {
        self.square_opening[index] = opening;
        self.square_endgame[index] = endgame;
        self.squares = self
            .square_opening
            .iter()
            .chain(&self.square_endgame)
            .any(|&weight| weight != 0);
    }

    /// Whether any pattern weight is not zero.
    #[must_use]
    pub fn has_patterns(&self) -> bool {
        self.patterns
    }

    /// The hidden layer, if the weights have one.
    #[must_use]
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }

    /// The same weights with the hidden layer `network` (or none).
    #[must_use]
    pub fn with_network(mut self, network: Option<Network>) -> LearnedWeights {
        self.network = network.map(Arc::new);
        self
    }

    /// The opening and endgame weights of pattern `index` (below
    /// [`PATTERN_FEATURE_COUNT`](super::features::PATTERN_FEATURE_COUNT)).
    #[must_use]
    pub fn pattern_weights(&self, index: usize) -> (i32, i32) {
        unpack(self.pattern_pairs[index])
    }

    /// Sets the opening and endgame weights of pattern `index` (below
    /// [`PATTERN_FEATURE_COUNT`](super::features::PATTERN_FEATURE_COUNT)).
    pub fn set_pattern_weights(&mut self, index: usize, opening: i32, endgame: i32) {
        self.pattern_pairs[index] = pack(opening, endgame);
        self.patterns = self.pattern_pairs.iter().any(|&pair| pair != 0);
    }

    /// Each weight with its name, as the weights file gives them: the features, then the
    /// square tables if there are any, then the patterns (those that can occur) if there
    /// are any.
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
        let patterns = self
            .pattern_pairs
            .iter()
            .enumerate()
            .take(if self.has_patterns() {
                PATTERN_FEATURE_COUNT
            } else {
                0
            })
            .filter_map(|(index, &pair)| {
                let (opening, endgame) = unpack(pair);
                Some((pattern_feature_name(index)?, opening, endgame))
            });
        features.chain(squares).chain(patterns)
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

    /// The columns of `position` for a fit with square tables and patterns: the features',
    /// the square features' and the pattern features' opening columns, then the same for
    /// the endgame ([`COLUMNS_WITH_PATTERNS`](Self::COLUMNS_WITH_PATTERNS) in all; the
    /// order [`from_logit_weights`](Self::from_logit_weights) reads).
    #[must_use]
    pub fn columns_with_patterns(position: &Position) -> [f64; PATTERN_COLUMN_COUNT] {
        let features = features(position);
        let values = features
            .values
            .into_iter()
            .chain(square_features(position))
            .chain(pattern_features(position));
        let mut columns = [0.0; PATTERN_COLUMN_COUNT];
        tapered_columns(values, features.phase, &mut columns);
        columns
    }

    /// Weights from a fit's logit weights, `points_per_logit` evaluation points to one unit
    /// of logit, rounded: in the order of [`columns`](Self::columns) (no square tables),
    /// [`columns_with_squares`](Self::columns_with_squares) or
    /// [`columns_with_patterns`](Self::columns_with_patterns), told apart by their number.
    ///
    /// # Panics
    /// If there are not as many logit weights as one of the three has columns.
    #[must_use]
    pub fn from_logit_weights(logit_weights: &[f64], points_per_logit: f64) -> LearnedWeights {
        let points = |logit: f64| {
            (logit * points_per_logit)
                .round()
                .clamp(-f64::from(MOST_WEIGHT), f64::from(MOST_WEIGHT)) as i32
        };
        let (squares, patterns) = match logit_weights.len() {
            PATTERN_COLUMN_COUNT => (SQUARE_FEATURE_COUNT, PATTERN_FEATURE_COUNT),
            COLUMN_COUNT => (SQUARE_FEATURE_COUNT, 0),
            length if length == 2 * FEATURE_COUNT => (0, 0),
            length => {
                panic!("{length} logit weights: not the columns of features, squares or patterns")
            }
        };
        let (opening, endgame) = logit_weights.split_at(FEATURE_COUNT + squares + patterns);
        let tables = FEATURE_COUNT..FEATURE_COUNT + squares;
        let pattern_columns = FEATURE_COUNT + squares..;
        let mut weights = LearnedWeights::default();
        for (slots, logits) in [
            (&mut weights.opening[..], &opening[..FEATURE_COUNT]),
            (&mut weights.endgame[..], &endgame[..FEATURE_COUNT]),
        ] {
            for (slot, &logit) in slots.iter_mut().zip(logits) {
                *slot = points(logit);
            }
        }
        for (index, (&opening, &endgame)) in opening[tables.clone()]
            .iter()
            .zip(&endgame[tables])
            .enumerate()
        {
            weights.set_square_weights(index, points(opening), points(endgame));
        }
        for (index, (&opening, &endgame)) in opening[pattern_columns.clone()]
            .iter()
            .zip(&endgame[pattern_columns])
            .enumerate()
        {
            weights.set_pattern_weights(index, points(opening), points(endgame));
        }
        weights
    }

    /// Reads weights from text: a line `name opening endgame` for each feature of
    /// [`FEATURE_NAMES`] and, if the weights have square tables or patterns, for any square
    /// feature (`man_on_S`, `king_on_S`) or pattern (`man_S_own_T`, `man_S_enemy_T`; one left
    /// out weighs 0), in any order, blank lines and lines starting `#` ignored.
    ///
    /// # Errors
    /// [`WeightsError`] naming the line of an unknown or repeated feature or a bad number,
    /// or the feature left out.
    pub fn parse(text: &str) -> Result<LearnedWeights, WeightsError> {
        let mut opening = [None; FEATURE_COUNT];
        let mut endgame = [0; FEATURE_COUNT];
        let mut squares_seen = [false; SQUARE_FEATURE_COUNT];
        let mut patterns_seen = [false; PATTERN_FEATURE_COUNT];
        let mut weights = LearnedWeights::default();
        let mut network = NetworkRows::default();
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
            if words[0].starts_with("net_") {
                network.read(&words).map_err(line_error)?;
                continue;
            }
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
                weights.set_square_weights(index, weight(first)?, weight(second)?);
            } else if let Some(index) = pattern_feature_index(name) {
                if std::mem::replace(&mut patterns_seen[index], true) {
                    return Err(twice());
                }
                weights.set_pattern_weights(index, weight(first)?, weight(second)?);
            } else {
                return Err(line_error(format!(
                    "unknown feature {name:?} (known: {}, man_on_1 to man_on_28, king_on_1 \
                     to king_on_32, and patterns man_S_own_T or man_S_enemy_T of a man on S \
                     and a neighbour on T)",
                    FEATURE_NAMES.join(", ")
                )));
            }
        }
        weights.endgame = endgame;
        for (index, found) in opening.iter().enumerate() {
            weights.opening[index] = found.ok_or(WeightsError::Missing(FEATURE_NAMES[index]))?;
        }
        weights.network = network.finish()?.map(Arc::new);
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
        let patterns_from = FEATURE_COUNT
            + if self.has_square_tables() {
                SQUARE_FEATURE_COUNT
            } else {
                0
            };
        for (index, (name, opening, endgame)) in self.named().enumerate() {
            if index == FEATURE_COUNT && self.has_square_tables() {
                let _ = writeln!(
                    text,
                    "# square tables: a man or king on each square, from its own side's view"
                );
            }
            if index == patterns_from && self.has_patterns() {
                let _ = writeln!(
                    text,
                    "# patterns: a man on S with its own man or an enemy piece on T, from its own side's view"
                );
            }
            let _ = writeln!(text, "{name:<16} {opening:>6} {endgame:>6}");
        }
        if let Some(network) = &self.network {
            let _ = writeln!(
                text,
                "# network: {} units; for each input a weight a unit (in 1/{} of an activation), \
                 then each unit's bias (the same), then its output (in 1/{} of a point)",
                UNITS,
                super::network::INPUT_SCALE,
                super::network::OUTPUT_SCALE
            );
            let mut row = |name: &str, weights: &[i32]| {
                let _ = write!(text, "{name}");
                for weight in weights {
                    let _ = write!(text, " {weight}");
                }
                let _ = writeln!(text);
            };
            for index in 0..NETWORK_INPUTS {
                row(&row_name(index), network.input_row(index));
            }
            row("net_bias", network.bias());
            row("net_output", network.output());
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

/// An opening weight and an endgame weight in one word, the opening's in the high half:
/// sums of packed pairs are the packed sums, as long as each sum of endgame weights stays
/// within an `i32` (weights are at most [`MOST_WEIGHT`], a position has at most 144 patterns).
#[inline]
fn pack(opening: i32, endgame: i32) -> i64 {
    (i64::from(opening) << 32) + i64::from(endgame)
}

/// The two weights (or sums of weights) of a [`pack`]ed word.
#[inline]
fn unpack(pair: i64) -> (i32, i32) {
    // The low half is the endgame's, as an `i32` (a negative one borrowed from the high
    // half, which its subtraction returns).
    #[allow(clippy::cast_possible_truncation)]
    let endgame = pair as i32;
    #[allow(clippy::cast_possible_truncation)]
    let opening = ((pair - i64::from(endgame)) >> 32) as i32;
    (opening, endgame)
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
            squares: false,
            pattern_pairs: [0; PATTERN_FEATURE_COUNT],
            patterns: false,
            network: None,
        }
    }
}

/// The network's lines of a weights file as they are read: `net_…` and a whole number for
/// each of the [`UNITS`] units, input rows left out weighing 0, `net_bias` 0, `net_output`
/// required.
#[derive(Default)]
struct NetworkRows {
    /// A slot for each input row once a network line has been read (empty before).
    input: Vec<Option<Vec<i32>>>,
    bias: Option<Vec<i32>>,
    output: Option<Vec<i32>>,
}

impl NetworkRows {
    /// Reads one line's words (the name first).
    fn read(&mut self, words: &[&str]) -> Result<(), String> {
        let name = words[0];
        let weights = words[1..]
            .iter()
            .map(|word| {
                word.parse::<i32>()
                    .ok()
                    .filter(|weight| weight.abs() <= super::network::MOST_NETWORK_WEIGHT)
                    .ok_or_else(|| {
                        format!(
                            "network weight {word:?} is not a whole number from -{0} to {0}",
                            super::network::MOST_NETWORK_WEIGHT
                        )
                    })
            })
            .collect::<Result<Vec<i32>, String>>()?;
        if weights.len() != UNITS {
            return Err(format!(
                "{name} has {} weights; a network row has one for each of its {UNITS} units",
                weights.len()
            ));
        }
        if self.input.is_empty() {
            self.input = vec![None; NETWORK_INPUTS];
        }
        let slot = match name {
            "net_bias" => &mut self.bias,
            "net_output" => &mut self.output,
            _ => {
                let row = row_index(name).ok_or_else(|| {
                    format!(
                        "unknown network row {name:?} (known: net_black_man_S, \
                         net_black_king_S, net_white_man_S, net_white_king_S for S from 1 \
                         to 32, net_black_to_move, net_phase, net_bias, net_output)"
                    )
                })?;
                &mut self.input[row]
            }
        };
        if slot.replace(weights).is_some() {
            return Err(format!("network row {name:?} given twice"));
        }
        Ok(())
    }

    /// The network the lines gave, if any.
    fn finish(self) -> Result<Option<Network>, WeightsError> {
        if self.input.is_empty() {
            return Ok(None);
        }
        let output = self
            .output
            .ok_or_else(|| WeightsError::Network("no net_output line".to_string()))?;
        let input: Vec<i32> = self
            .input
            .into_iter()
            .flat_map(|row| row.unwrap_or_else(|| vec![0; UNITS]))
            .collect();
        let bias = self.bias.unwrap_or_else(|| vec![0; UNITS]);
        Ok(Some(Network::new(&input, &bias, &output)?))
    }
}

/// The shipped weights file.
const SHIPPED: &str = include_str!("../../../data/checkers/learned-weights.txt");

/// The shipped weights file with a hidden layer.
const SHIPPED_NETWORK: &str = include_str!("../../../data/checkers/learned-weights-network.txt");

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
            weights.set_square_weights(index, index_weight % 7 - 3, 20 - index_weight % 11);
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
        let mut plain = LearnedWeights::shipped();
        for index in 0..SQUARE_FEATURE_COUNT {
            plain.set_square_weights(index, 0, 0);
        }
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
        assert_eq!(read.square_weights(index), (0, 0));
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
        weights.set_square_weights(man_on_14, 24, 48);
        assert!(weights.has_square_tables());
        // Black men on 14 and 15 against a White king on 1: three pieces on the board.
        let three = Position::from_fen("B:WK1:B14,15").expect("valid");
        assert_eq!(weights.evaluate(&three), (24 * 3 + 48 * 21) / 24);
        // White's man on 19 stands on its own square 14.
        let white = Position::from_fen("B:W19:BK1").expect("valid");
        assert_eq!(weights.evaluate(&white), -(24 * 2 + 48 * 22) / 24);
    }

    #[test]
    fn patterns_read_and_write_back_and_add_each_pattern_blended_by_the_phase() {
        let mut weights = with_square_tables();
        for index in 0..PATTERN_FEATURE_COUNT {
            if pattern_feature_name(index).is_some() {
                let index_weight = i32::try_from(index).expect("small");
                weights.set_pattern_weights(index, index_weight % 5 - 2, 9 - index_weight % 13);
            }
        }
        let text = weights.to_text("patterns");
        assert!(text.contains("man_9_own_14"), "{text}");
        assert_eq!(LearnedWeights::parse(&text).expect("valid"), weights);
        assert!(
            LearnedWeights::shipped()
                .to_text("")
                .contains("man_9_own_14")
        );
        // One pattern alone: a Black man on 9 with its own man on 14 ahead of it, against a
        // White king: three pieces on the board.
        let mut one = LearnedWeights::default();
        let index = pattern_feature_index("man_9_own_14").expect("a pattern");
        one.set_pattern_weights(index, 24, 48);
        let three = Position::from_fen("B:WK32:B9,14").expect("valid");
        assert_eq!(one.evaluate(&three), (24 * 3 + 48 * 21) / 24);
        assert!(one.has_patterns() && !one.has_square_tables());
        assert_eq!(LearnedWeights::parse(&one.to_text("")), Ok(one.clone()));
        let logits: Vec<f64> = (0..PATTERN_COLUMN_COUNT)
            .map(|index| index as f64)
            .collect();
        let fitted = LearnedWeights::from_logit_weights(&logits, 1.0);
        let tables = FEATURE_COUNT + SQUARE_FEATURE_COUNT;
        assert_eq!(fitted.pattern_weights(0).0, tables as i32);
        assert_eq!(
            fitted.pattern_weights(1).1,
            (PATTERN_COLUMN_COUNT / 2 + tables + 1) as i32
        );
        one.set_pattern_weights(index, 0, 0);
        assert!(!one.has_patterns());
    }

    #[test]
    fn the_shipped_network_evaluates_what_its_fit_predicted() {
        // Five positions of the fit's data (rows 0, 1,000, 50,000, 300,000 and 700,000 of
        // the prototype's positions.bin) and the values numpy's fitted model gives them in
        // points (its logit × 48.8): the whole-number weights give the same within the
        // rounding of the linear weights to whole points.
        let weights = LearnedWeights::shipped_network();
        assert!(weights.network().is_some() && weights.has_patterns());
        for (fen, ours, numpy) in [
            (
                "B:W17,18,21,22,24,26,28,29,30,31,32:B1,2,3,4,6,7,8,10,11,12,13",
                37,
                38.3,
            ),
            ("W:W18,19,23,24,30,32:B4,8,10,12,16,17", -31, -30.5),
            ("B:W29,K11,K15:BK26,K27,K30", 32, 31.6),
            ("W:WK17,K18,K19,K30:BK32", -406, -410.4),
            (
                "B:W18,21,22,24,25,26,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,12,19",
                -16,
                -15.9,
            ),
        ] {
            let position = Position::from_fen(fen).expect("valid");
            let value = weights.evaluate(&position);
            assert_eq!(value, ours, "{fen}");
            assert!((f64::from(value) - numpy).abs() < 5.0, "{fen}");
            assert_eq!(weights.evaluate(&position.turned_round()), -value);
        }
        assert_eq!(
            LearnedWeights::parse(&weights.to_text("again")).expect("valid"),
            weights
        );
    }

    #[test]
    fn a_network_reads_and_writes_back_and_adds_its_value() {
        let network = super::super::network::scrambled();
        let weights = LearnedWeights::shipped().with_network(Some(network.clone()));
        let text = weights.to_text("with a network");
        assert!(text.contains("net_white_king_32 "), "{text}");
        let read = LearnedWeights::parse(&text).expect("valid");
        assert_eq!(read, weights);
        let position = Position::from_fen("B:W22,K30,18,26:B11,3,1,K14,6").expect("valid");
        assert_eq!(
            weights.evaluate(&position),
            LearnedWeights::shipped().evaluate(&position) + network.evaluate(&position)
        );
        // Rows left out weigh 0; the output is required; a row has a weight a unit.
        let without_row: String = text
            .lines()
            .filter(|line| !line.starts_with("net_black_man_5 "))
            .map(|line| format!("{line}\n"))
            .collect();
        let read = LearnedWeights::parse(&without_row).expect("valid");
        let row = super::super::network::row_index("net_black_man_5").expect("a row");
        assert!(
            read.network()
                .expect("a network")
                .input_row(row)
                .iter()
                .all(|&w| w == 0)
        );
        let without_output: String = text
            .lines()
            .filter(|line| !line.starts_with("net_output"))
            .map(|line| format!("{line}\n"))
            .collect();
        assert!(matches!(
            LearnedWeights::parse(&without_output),
            Err(WeightsError::Network(_))
        ));
        for (bad, expected) in [
            ("net_bias 1 2\n", "has 2 weights"),
            (
                &format!("net_black_to_move{}\n", " 1".repeat(UNITS)),
                "given twice",
            ),
            (
                &format!("net_queen_3{}\n", " 1".repeat(UNITS)),
                "unknown network row",
            ),
            ("net_phase 1 2 3 x 5 6 7\n", "not a whole number"),
        ] {
            let error = LearnedWeights::parse(&format!("{text}{bad}")).expect_err(bad);
            assert!(error.to_string().contains(expected), "{bad}: {error}");
        }
    }

    #[test]
    fn packed_pairs_add_as_their_halves() {
        let pairs = [(3, -7), (-100_000, 100_000), (0, -1), (-5, 0), (42, 42)];
        let mut sum = 0;
        let (mut openings, mut endgames) = (0, 0);
        for (opening, endgame) in pairs {
            assert_eq!(unpack(pack(opening, endgame)), (opening, endgame));
            sum -= pack(opening, endgame);
            openings -= opening;
            endgames -= endgame;
        }
        assert_eq!(unpack(sum), (openings, endgames));
    }

    #[test]
    fn logit_weights_with_squares_land_in_the_square_tables() {
        let logits: Vec<f64> = (0..COLUMN_COUNT).map(|index| index as f64).collect();
        let weights = LearnedWeights::from_logit_weights(&logits, 1.0);
        assert_eq!(weights.opening[1], 1);
        assert_eq!(weights.square_weights(0).0, FEATURE_COUNT as i32);
        let half = (COLUMN_COUNT / 2) as i32;
        assert_eq!(weights.endgame[0], half);
        assert_eq!(weights.square_weights(0).1, half + FEATURE_COUNT as i32);
        let plain = LearnedWeights::from_logit_weights(&logits[..2 * FEATURE_COUNT], 1.0);
        assert!(!plain.has_square_tables());
        assert_eq!(plain.endgame[0], FEATURE_COUNT as i32);
    }
}
