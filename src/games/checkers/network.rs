//! A hidden layer in the learned evaluation ([`super::LearnedWeights`]): one layer of ReLU
//! units on the pieces' squares, added to the linear evaluation's value. The linear
//! features say what a man, a king, a square is worth; the units learn what combinations of
//! pieces are worth — which endings of seven to ten pieces are won, which are drawn — and
//! that is where the linear evaluation lost its games against GuiNN (docs/checkers.md,
//! "A hidden layer").
//!
//! The inputs are 130: each kind of piece (Black man, Black king, White man, White king) on
//! each of the 32 squares, Black to move, and the phase's share of a full board. A unit's
//! first-layer sum ("accumulator") is kept up to date move by move
//! ([`Network::update_accumulators`], which a [`super::Checkers`] game calls at every
//! move), as GuiNN and the NNUE chess programs keep theirs:
//! a move changes two to four squares, so the evaluation costs a few dozen additions
//! instead of the whole layer.
//!
//! The network is made antisymmetric by construction: its value is `g(x) − g(x̄)`, where
//! `x̄` is the position with the colours swapped and the board turned round
//! ([`Position::turned_round`]), so the evaluation of a position and of its colour-reversed
//! twin are exact negatives, as the linear evaluation's are. Both views' accumulators are
//! kept. The weights are whole numbers ([`INPUT_SCALE`], [`OUTPUT_SCALE`]), so evaluations
//! are exact, the same on every machine, and the weights file reads back to the same
//! network. The number of units is fixed ([`UNITS`]), as the NNUE programs fix theirs: the
//! compiler then lays the first layer's loops out in vector instructions, which it did not
//! for a count read from the file (measured in a search to depth 16 from the start: the
//! update's share of the time fell from 15% to 9%).

use super::board::{Bitboard, Color, Position, squares_of};
use super::features::PHASE_PIECES;

/// How many inputs a unit has: four kinds of piece on 32 squares, the side to move, the
/// phase.
pub const NETWORK_INPUTS: usize = 4 * 32 + 2;

/// How many hidden units: 32. The prototype fitted 32 and 64 and found 64 no better on
/// its 6,946 games (results/checkers-learning/network-prototype).
pub const UNITS: usize = 32;

/// The input row of "Black to move".
const SIDE_ROW: usize = 128;

/// The input row of the phase's share of a full board ([`PHASE_PIECES`] pieces).
const PHASE_ROW: usize = 129;

/// First-layer weights are in units of 1/`INPUT_SCALE` of a unit's activation.
pub const INPUT_SCALE: i64 = 1024;

/// Output weights are in units of 1/`OUTPUT_SCALE` of an evaluation point per unit of
/// activation.
pub const OUTPUT_SCALE: i64 = 64;

/// The largest weight a file may give: far above any fitted one (a fitted input weight of
/// 1.6 is 1,638), small enough that no sum overflows an `i32` (a unit's sum has at most
/// 27 rows and the bias).
pub const MOST_NETWORK_WEIGHT: i32 = 1 << 20;

/// A weight, or a sum, for each unit.
pub type UnitRow = [i32; UNITS];

/// The first-layer sums of a position: the biases and the rows of its pieces as they
/// stand, and as they stand turned round ([`Network::fill_accumulators`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Accumulators {
    /// The sums of the position as it stands.
    pub as_it_stands: UnitRow,
    /// The sums of the position turned round, colours swapped.
    pub turned: UnitRow,
}

/// One hidden layer of ReLU units on the piece-square inputs, with a linear output in
/// evaluation points, made antisymmetric (the module's documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// [`NETWORK_INPUTS`] rows: row `32·kind + square − 1` for the pieces (kinds: Black
    /// man, Black king, White man, White king), then the side row, then the phase row.
    input: Vec<UnitRow>,
    /// A bias for each unit.
    bias: UnitRow,
    /// A weight for each unit's activation.
    output: UnitRow,
    /// The phase row times the phase's share, for each phase (0 to [`PHASE_PIECES`]
    /// pieces): what [`Network::points`] adds, looked up rather than divided at every
    /// evaluation.
    phase_terms: Vec<UnitRow>,
}

/// Why a network's weights were refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// A list of weights that is not as long as it must be.
    #[error("{what}: {found} weights where {expected} were expected")]
    Length {
        /// Which list.
        what: &'static str,
        /// Its length.
        found: usize,
        /// What it should have been.
        expected: usize,
    },
    /// A weight beyond [`MOST_NETWORK_WEIGHT`].
    #[error("a network weight of {0} is beyond ±{MOST_NETWORK_WEIGHT}")]
    TooLarge(i32),
}

impl Network {
    /// A network from its weights: `input` has [`NETWORK_INPUTS`] rows of [`UNITS`] (the
    /// order of [`row_name`]), `bias` and `output` one weight a unit.
    ///
    /// # Errors
    /// [`NetworkError`] when a list has the wrong length or a weight is beyond
    /// [`MOST_NETWORK_WEIGHT`].
    pub fn new(input: &[i32], bias: &[i32], output: &[i32]) -> Result<Network, NetworkError> {
        for (what, list, expected) in [
            ("input weights", input, NETWORK_INPUTS * UNITS),
            ("biases", bias, UNITS),
            ("output weights", output, UNITS),
        ] {
            if list.len() != expected {
                return Err(NetworkError::Length {
                    what,
                    found: list.len(),
                    expected,
                });
            }
            if let Some(&weight) = list.iter().find(|w| w.abs() > MOST_NETWORK_WEIGHT) {
                return Err(NetworkError::TooLarge(weight));
            }
        }
        let row = |weights: &[i32]| -> UnitRow {
            let mut row = [0; UNITS];
            row.copy_from_slice(weights);
            row
        };
        let input: Vec<UnitRow> = input.chunks_exact(UNITS).map(row).collect();
        let phase_terms = (0..=i64::from(PHASE_PIECES))
            .map(|phase| {
                input[PHASE_ROW].map(|weight| {
                    // |weight| ≤ 2^20: its share fits.
                    (i64::from(weight) * phase / i64::from(PHASE_PIECES)) as i32
                })
            })
            .collect();
        Ok(Network {
            input,
            bias: row(bias),
            output: row(output),
            phase_terms,
        })
    }

    /// A network from a fit's weights in logits (the inputs as [`Network::new`] orders
    /// them; the output's unit one logit), rounded to whole weights at `points_per_logit`
    /// evaluation points a logit.
    ///
    /// # Errors
    /// As [`Network::new`].
    pub fn from_logits(
        input: &[f64],
        bias: &[f64],
        output: &[f64],
        points_per_logit: f64,
    ) -> Result<Network, NetworkError> {
        let most = f64::from(MOST_NETWORK_WEIGHT);
        let round = |weights: &[f64], scale: f64| -> Vec<i32> {
            weights
                .iter()
                .map(|weight| (weight * scale).round().clamp(-most, most) as i32)
                .collect()
        };
        let input_scale = INPUT_SCALE as f64;
        Network::new(
            &round(input, input_scale),
            &round(bias, input_scale),
            &round(output, points_per_logit * OUTPUT_SCALE as f64),
        )
    }

    /// The input weights of row `row` (below [`NETWORK_INPUTS`]; see [`row_name`]).
    #[must_use]
    pub fn input_row(&self, row: usize) -> &UnitRow {
        &self.input[row]
    }

    /// The biases.
    #[must_use]
    pub fn bias(&self) -> &UnitRow {
        &self.bias
    }

    /// The output weights.
    #[must_use]
    pub fn output(&self) -> &UnitRow {
        &self.output
    }

    /// The first-layer sums of `position`'s pieces: the biases and the rows of its pieces
    /// as they stand, and as they stand turned round. The side and phase rows are added
    /// when the position is evaluated ([`points`](Self::points)): they change at every
    /// move.
    #[must_use]
    pub fn fill_accumulators(&self, position: &Position) -> Accumulators {
        let mut accumulators = Accumulators {
            as_it_stands: self.bias,
            turned: self.bias,
        };
        for (kind, board) in kind_boards(position).into_iter().enumerate() {
            for square in squares_of(board) {
                let row = 32 * kind + usize::from(square) - 1;
                add(&mut accumulators.as_it_stands, &self.input[row]);
                add(&mut accumulators.turned, &self.input[turned_row(row)]);
            }
        }
        accumulators
    }

    /// The accumulators of `after` from those of `before` (`source`): the rows of the
    /// pieces that left a square taken away, of those that arrived added, one pass each
    /// (two for a quiet move, one more for each piece captured). Positions that are not
    /// one move apart are filled from scratch.
    #[must_use]
    #[inline]
    pub fn update_accumulators(
        &self,
        before: &Position,
        after: &Position,
        source: &Accumulators,
    ) -> Accumulators {
        let (old, new) = (kind_boards(before), kind_boards(after));
        let changes: u32 = (0..4)
            .map(|kind| (old[kind] ^ new[kind]).count_ones())
            .sum();
        if changes > 16 {
            // Not one move apart (a move changes at most 14 squares' contents).
            return self.fill_accumulators(after);
        }
        let mut accumulators = *source;
        for kind in 0..4 {
            let changed = old[kind] ^ new[kind];
            for (squares, change) in [
                (changed & old[kind], subtract as fn(&mut UnitRow, &UnitRow)),
                (changed & new[kind], add),
            ] {
                for square in squares_of(squares) {
                    let row = 32 * kind + usize::from(square) - 1;
                    change(&mut accumulators.as_it_stands, &self.input[row]);
                    change(&mut accumulators.turned, &self.input[turned_row(row)]);
                }
            }
        }
        accumulators
    }

    /// The network's value of `position` in evaluation points from Black's side, given its
    /// accumulators ([`fill_accumulators`](Self::fill_accumulators)): each view's side and
    /// phase rows added, the units' activations weighted, the turned-round view's
    /// subtracted.
    #[must_use]
    #[inline]
    pub fn points(&self, position: &Position, accumulators: &Accumulators) -> i32 {
        let phase = (position.piece_count() as usize).min(PHASE_PIECES as usize);
        let shared = &self.phase_terms[phase];
        let side = &self.input[SIDE_ROW];
        let zeros = [0; UNITS];
        let (own_side, turned_side) = match position.side_to_move() {
            Color::Black => (side, &zeros),
            Color::White => (&zeros, side),
        };
        let mut sum: i64 = 0;
        for unit in 0..UNITS {
            // Each sum is below 30 · 2^20 in size: no overflow in `i32`.
            let as_it_stands =
                (accumulators.as_it_stands[unit] + shared[unit] + own_side[unit]).max(0);
            let turned = (accumulators.turned[unit] + shared[unit] + turned_side[unit]).max(0);
            sum += i64::from(self.output[unit]) * i64::from(as_it_stands - turned);
        }
        // Division truncates towards zero, so the turned-round position's value is
        // exactly the negative.
        i32::try_from(sum / (INPUT_SCALE * OUTPUT_SCALE)).unwrap_or(0)
    }

    /// The network's value of `position` from scratch (what a game's accumulators give
    /// move by move).
    #[must_use]
    pub fn evaluate(&self, position: &Position) -> i32 {
        self.points(position, &self.fill_accumulators(position))
    }
}

/// Adds `row` to `sums`.
#[inline]
fn add(sums: &mut UnitRow, row: &UnitRow) {
    for unit in 0..UNITS {
        sums[unit] += row[unit];
    }
}

/// Takes `row` from `sums`.
#[inline]
fn subtract(sums: &mut UnitRow, row: &UnitRow) {
    for unit in 0..UNITS {
        sums[unit] -= row[unit];
    }
}

/// The row of a piece turned round: the other colour's kind of piece, on square 33 − s.
#[inline]
fn turned_row(row: usize) -> usize {
    let (kind, square) = (row / 32, row % 32);
    32 * ((kind + 2) % 4) + (31 - square)
}

/// The four kinds' squares: Black men, Black kings, White men, White kings.
#[inline]
fn kind_boards(position: &Position) -> [Bitboard; 4] {
    [
        position.men(Color::Black),
        position.kings(Color::Black),
        position.men(Color::White),
        position.kings(Color::White),
    ]
}

/// The inputs of `position` that are not 0, as a fit reads them
/// ([`crate::learning::network`]): each piece's row with 1, Black to move with 1 if it is,
/// and the phase's share of a full board; first as the position stands, then turned round
/// (each piece as the other colour's kind on square 33 − s, the side row if White is to
/// move). [`Network::points`] computes the same sums.
#[must_use]
pub fn sparse_inputs(position: &Position) -> [Vec<(u16, f32)>; 2] {
    let phase = position.piece_count().min(PHASE_PIECES as u32);
    let share = phase as f32 / PHASE_PIECES as f32;
    let mut views = [Vec::with_capacity(26), Vec::with_capacity(26)];
    for (kind, board) in kind_boards(position).into_iter().enumerate() {
        for square in squares_of(board) {
            let row = 32 * kind + usize::from(square) - 1;
            // Rows are below 130.
            views[0].push((row as u16, 1.0));
            views[1].push((turned_row(row) as u16, 1.0));
        }
    }
    let side_view = usize::from(position.side_to_move() == Color::White);
    views[side_view].push((SIDE_ROW as u16, 1.0));
    for view in &mut views {
        view.push((PHASE_ROW as u16, share));
    }
    views
}

/// The name of input row `row` in a weights file: `net_black_man_S` … `net_white_king_S`
/// for the pieces (S the square, 1–32), `net_black_to_move`, `net_phase`.
#[must_use]
pub fn row_name(row: usize) -> String {
    const KINDS: [&str; 4] = ["black_man", "black_king", "white_man", "white_king"];
    match row {
        SIDE_ROW => "net_black_to_move".to_string(),
        PHASE_ROW => "net_phase".to_string(),
        _ => format!("net_{}_{}", KINDS[row / 32], row % 32 + 1),
    }
}

/// The input row a weights file's name stands for ([`row_name`]'s inverse).
#[must_use]
pub fn row_index(name: &str) -> Option<usize> {
    (0..NETWORK_INPUTS).find(|&row| row_name(row) == name)
}

#[cfg(test)]
pub(crate) fn scrambled() -> Network {
    // Every weight a different small number, so that no two rows agree; the outputs a few
    // dozen points a unit of activation.
    let weight = |index: usize, modulus: usize, offset: i32| {
        i32::try_from(index * 7919 % modulus).expect("small") - offset
    };
    let input: Vec<i32> = (0..NETWORK_INPUTS * UNITS)
        .map(|index| weight(index, 2001, 1000))
        .collect();
    let bias: Vec<i32> = (0..UNITS).map(|index| weight(index, 301, 150)).collect();
    let output: Vec<i32> = (0..UNITS)
        .map(|index| 64 * weight(index, 129, 64) / 4)
        .collect();
    Network::new(&input, &bias, &output).expect("valid")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_turned_round_position_is_worth_the_negative() {
        let network = scrambled();
        for fen in [
            "B:W22,K30,18,26:B11,3,1,K14,6",
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            "B:WK1:B14,15",
        ] {
            let position = Position::from_fen(fen).expect("valid");
            let value = network.evaluate(&position);
            assert_eq!(network.evaluate(&position.turned_round()), -value, "{fen}");
        }
        let position = Position::from_fen("B:W22,K30,18,26:B11,3,1,K14,6").expect("valid");
        assert_ne!(network.evaluate(&position), 0);
    }

    #[test]
    fn accumulators_kept_up_to_date_equal_those_filled_from_scratch() {
        let network = scrambled();
        let mut position = Position::initial();
        let mut accumulators = network.fill_accumulators(&position);
        // A game of the first legal move each time, then the last, alternately: captures,
        // crowning and king moves all come.
        let mut moves = Vec::new();
        for ply in 0..200 {
            position.legal_moves(&mut moves);
            let Some(&mv) = (if ply % 3 == 0 {
                moves.last()
            } else {
                moves.first()
            }) else {
                break;
            };
            let next = position.play(mv);
            accumulators = network.update_accumulators(&position, &next, &accumulators);
            assert_eq!(accumulators, network.fill_accumulators(&next), "ply {ply}");
            assert_eq!(
                network.points(&next, &accumulators),
                network.evaluate(&next)
            );
            position = next;
        }
        // Positions not one move apart are filled from scratch.
        let far = Position::from_fen("B:WK1:B14").expect("valid");
        let start = network.fill_accumulators(&Position::initial());
        assert_eq!(
            network.update_accumulators(&Position::initial(), &far, &start),
            network.fill_accumulators(&far)
        );
    }

    #[test]
    fn one_unit_computes_what_its_weights_say() {
        // Only unit 0 weighs anything: +2.0 for a Black man on 14, +0.5 if Black is to
        // move, bias −0.25, output 10 points.
        let mut input = vec![0; NETWORK_INPUTS * UNITS];
        input[13 * UNITS] = 2 * 1024;
        input[SIDE_ROW * UNITS] = 512;
        let mut bias = vec![0; UNITS];
        bias[0] = -256;
        let mut output = vec![0; UNITS];
        output[0] = 10 * 64;
        let network = Network::new(&input, &bias, &output).expect("valid");
        let position = Position::from_fen("B:WK1:B14").expect("valid");
        // As it stands: 2 + 0.5 − 0.25 = 2.25; turned round (a White man on 19, White to
        // move): −0.25, so 0. 2.25 × 10 = 22.5, truncated to 22.
        assert_eq!(network.evaluate(&position), 22);
        // White to move: 1.75 as it stands, 0.25 turned round (its side row now):
        // 1.5 × 10 = 15.
        let white_to_move = Position::from_fen("W:WK1:B14").expect("valid");
        assert_eq!(network.evaluate(&white_to_move), 15);
    }

    #[test]
    fn bad_sizes_and_weights_are_refused() {
        assert!(matches!(
            Network::new(&[0; 10], &[0; UNITS], &[0; UNITS]),
            Err(NetworkError::Length { .. })
        ));
        let mut bias = [0; UNITS];
        bias[3] = 1 << 21;
        assert_eq!(
            Network::new(&vec![0; NETWORK_INPUTS * UNITS], &bias, &[0; UNITS]),
            Err(NetworkError::TooLarge(1 << 21))
        );
    }

    #[test]
    fn the_sparse_inputs_give_the_sums_the_network_computes() {
        // A network whose input weights are whole activations, so that float sums are exact.
        let mut input: Vec<i32> = (0..NETWORK_INPUTS * UNITS)
            .map(|index| (index * 37 % 7) as i32 * 1024 - 3 * 1024)
            .collect();
        // The phase row's share: a multiple of 24 so that the integer evaluation's 24ths
        // are whole.
        for weight in &mut input[PHASE_ROW * UNITS..(PHASE_ROW + 1) * UNITS] {
            *weight = 24 * 1024;
        }
        let bias = [512; UNITS];
        let network = Network::new(&input, &bias, &[64; UNITS]).expect("valid");
        for fen in ["B:W22,K30,18,26:B11,3,1,K14,6", "W:WK1:B14,15"] {
            let position = Position::from_fen(fen).expect("valid");
            let [first, second] = sparse_inputs(&position);
            let relu_sum = |entries: &[(u16, f32)]| -> f32 {
                (0..UNITS)
                    .map(|unit| {
                        let sum = entries
                            .iter()
                            .fold(bias[unit] as f32, |sum, &(row, value)| {
                                sum + value * input[usize::from(row) * UNITS + unit] as f32
                            });
                        sum.max(0.0)
                    })
                    .sum()
            };
            // Each unit's output is 1 point an activation: the value is the difference of
            // the views' activations, in 1/1024ths.
            let expected = (relu_sum(&first) - relu_sum(&second)) / 1024.0;
            let value = network.evaluate(&position);
            assert!(
                (value as f32 - expected).abs() <= 1.0,
                "{fen}: {value} {expected}"
            );
            assert_ne!(value, 0, "{fen}");
        }
    }

    #[test]
    fn row_names_read_back() {
        for row in 0..NETWORK_INPUTS {
            assert_eq!(row_index(&row_name(row)), Some(row));
        }
        assert_eq!(row_name(0), "net_black_man_1");
        assert_eq!(row_name(127), "net_white_king_32");
        assert_eq!(row_index("net_black_man_33"), None);
    }
}
