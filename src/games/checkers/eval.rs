//! A static evaluation in Samuel's style: a weighted sum of board features (A. L. Samuel,
//! "Some Studies in Machine Learning Using the Game of Checkers", 1959, the program Slagle's
//! experiment cites), with the weights in a struct so they can be tuned or learned.

use super::board::{BLACK_BACK_ROW, Bitboard, Color, Position, WHITE_BACK_ROW};

/// The central squares 10, 11, 14, 15, 18, 19, 22, 23: the four middle squares of each of the
/// four middle rows.
const CENTRE: Bitboard =
    (1 << 9) | (1 << 10) | (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18) | (1 << 21) | (1 << 22);

/// The weight of each feature. Every feature is counted for Black minus the same count for
/// White, so a symmetric position is worth 0 and the evaluation is from Black's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvaluationWeights {
    /// Per man.
    pub man: i32,
    /// Per king: Samuel valued a king above a man, about three to two.
    pub king: i32,
    /// Per row a man has advanced from its own back row.
    pub advancement: i32,
    /// Per man still on its own back row, guarding it against the opponent's crowning.
    pub back_row_guard: i32,
    /// Per piece on the central squares 10, 11, 14, 15, 18, 19, 22, 23.
    pub centre_control: i32,
    /// Per non-capturing move the side could make (mobility, counted for both sides
    /// whoever is to move).
    pub mobility: i32,
}

impl Default for EvaluationWeights {
    /// Material dominates (a man is 100, a king 150); the positional features are worth a
    /// few hundredths of a man each, enough to order otherwise equal positions.
    fn default() -> Self {
        EvaluationWeights {
            man: 100,
            king: 150,
            advancement: 2,
            back_row_guard: 8,
            centre_control: 4,
            mobility: 2,
        }
    }
}

/// Index of the row of each square: 0 for squares 1–4 ... 7 for 29–32.
fn row_sum(men: Bitboard, from_black_side: bool) -> i32 {
    let mut total = 0;
    for row in 0..8u32 {
        let on_row = ((men >> (4 * row)) & 0xF).count_ones() as i32;
        let advanced = if from_black_side { row } else { 7 - row } as i32;
        total += on_row * advanced;
    }
    total
}

impl EvaluationWeights {
    /// The weighted sum of the features for `color`.
    fn side(&self, position: &Position, color: Color) -> i32 {
        let men = position.men(color);
        let kings = position.kings(color);
        let (advancement, back_row) = match color {
            Color::Black => (row_sum(men, true), men & BLACK_BACK_ROW),
            Color::White => (row_sum(men, false), men & WHITE_BACK_ROW),
        };
        self.man * men.count_ones() as i32
            + self.king * kings.count_ones() as i32
            + self.advancement * advancement
            + self.back_row_guard * back_row.count_ones() as i32
            + self.centre_control * ((men | kings) & CENTRE).count_ones() as i32
            + self.mobility * position.step_count(color) as i32
    }

    /// The evaluation of `position` from Black's side: Black's features minus White's.
    /// It does not look at whose turn it is or whether the game is over; the game's
    /// [`crate::Evaluate`] implementation handles finished games.
    #[must_use]
    pub fn evaluate(&self, position: &Position) -> i32 {
        self.side(position, Color::Black) - self.side(position, Color::White)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_is_level() {
        assert_eq!(
            EvaluationWeights::default().evaluate(&Position::initial()),
            0
        );
    }

    #[test]
    fn a_king_is_worth_more_than_a_man() {
        let weights = EvaluationWeights::default();
        let man = Position::from_fen("B:W32:B14").expect("valid");
        let king = Position::from_fen("B:W32:BK14").expect("valid");
        assert!(weights.evaluate(&king) > weights.evaluate(&man));
    }

    #[test]
    fn mirrored_positions_have_opposite_values() {
        // Black man on 11 against a white man on 22: square s mirrors to 33 - s.
        let weights = EvaluationWeights::default();
        let position = Position::from_fen("B:W22,K30:B11,3").expect("valid");
        let mirrored = Position::from_fen("W:W30,22:B11,K3").expect("valid");
        assert_eq!(weights.evaluate(&position), -weights.evaluate(&mirrored));
    }
}
