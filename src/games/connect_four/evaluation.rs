//! An evaluation for Connect Four, so that the depth-limited searches (alpha-beta with
//! McCarthy's evaluation at the horizon, Slagle's m&n) can play it as they play checkers
//! and Kalah, and be graded against the solver (issue 19).
//!
//! The solver needs no evaluation: it searches to the end. A search cut off at a depth
//! does, and Connect Four's own values (the benchmark score: how early a win comes) leave
//! no room for one in integers, since the latest win already scores 1. So the evaluated
//! game is seen with `f64` values: the exact score at the end of the game, and between −1
//! and 1 before it, never as large as the smallest win.

use super::{ConnectFour, winning_cells};
use crate::game::{Evaluate, Game, Player};

/// The estimate's weight of one line of four cells still open to a player (no stone of
/// the opponent in it) holding one of the player's stones; two stones count
/// [`TWO_STONE_WEIGHT`] more, and three [`THREE_STONE_WEIGHT`] more again.
const ONE_STONE_WEIGHT: f64 = 1.0;
/// See [`ONE_STONE_WEIGHT`].
const TWO_STONE_WEIGHT: f64 = 2.0;
/// See [`ONE_STONE_WEIGHT`].
const THREE_STONE_WEIGHT: f64 = 4.0;
/// A threat (a free cell that would complete four) on a row of the parity its owner can
/// use in the end game: odd rows (1 at the bottom) for the first player, even rows for the
/// second (Allis 1988, "zugzwang control"). Other threats count [`OTHER_THREAT_WEIGHT`].
const USABLE_THREAT_WEIGHT: f64 = 12.0;
/// See [`USABLE_THREAT_WEIGHT`].
const OTHER_THREAT_WEIGHT: f64 = 5.0;
/// The weighted balance at which the estimate is tanh(1) ≈ 0.76 of its bound.
const BALANCE_SCALE: f64 = 40.0;
/// The largest estimate: below the smallest win (1), so a search prefers any win it sees.
const ESTIMATE_BOUND: f64 = 0.9;

impl ConnectFour {
    /// A guess of how the game stands for the first player, strictly between −1 and 1: the
    /// weighted balance of lines still open to each player and of threats, by their row's
    /// parity, through tanh. Hand-set weights, not tuned: a plain evaluation of the kind a
    /// newcomer writes first, for the searches that need one. The game's end is not looked
    /// at: [`EvaluatedConnectFour`] gives the exact score there.
    #[must_use]
    pub fn estimate(&self) -> f64 {
        // The player to move owns `current`; MAX moves when an even number were played.
        let (first, second) = if self.moves.is_multiple_of(2) {
            (self.current, self.mask ^ self.current)
        } else {
            (self.mask ^ self.current, self.current)
        };
        let balance = self.side_weight(first, second, Player::Max)
            - self.side_weight(second, first, Player::Min);
        ESTIMATE_BOUND * (balance / BALANCE_SCALE).tanh()
    }

    /// The weighted open lines and threats of `own` against `other`, for `player`.
    fn side_weight(&self, own: u64, other: u64, player: Player) -> f64 {
        let open = self.board & !other;
        let mut lines = 0.0;
        for shift in [1, self.height + 1, self.height, self.height + 2] {
            // The first cell of every line of four whose cells are all on the board and
            // free of the other player's stones; the board's empty bit above each column
            // breaks every line that would wrap.
            let starts = open & (open >> shift) & (open >> (2 * shift)) & (open >> (3 * shift));
            let cells = [own, own >> shift, own >> (2 * shift), own >> (3 * shift)];
            let one = cells[0] | cells[1] | cells[2] | cells[3];
            let two = (cells[0] & (cells[1] | cells[2] | cells[3]))
                | (cells[1] & (cells[2] | cells[3]))
                | (cells[2] & cells[3]);
            let three = (cells[0] & cells[1] & (cells[2] | cells[3]))
                | (cells[2] & cells[3] & (cells[0] | cells[1]));
            lines += ONE_STONE_WEIGHT * f64::from((starts & one).count_ones())
                + TWO_STONE_WEIGHT * f64::from((starts & two).count_ones())
                + THREE_STONE_WEIGHT * f64::from((starts & three).count_ones());
        }
        let threats = winning_cells(own, self.height) & (self.board ^ self.mask);
        let usable_rows = self.rows_of_parity(player);
        lines
            + USABLE_THREAT_WEIGHT * f64::from((threats & usable_rows).count_ones())
            + OTHER_THREAT_WEIGHT * f64::from((threats & !usable_rows).count_ones())
    }

    /// The cells on the rows a player's threats want: odd rows (counting 1 at the bottom)
    /// for the first player, even rows for the second.
    fn rows_of_parity(&self, player: Player) -> u64 {
        let first_row = match player {
            Player::Max => 0,
            Player::Min => 1,
        };
        let mut rows = 0;
        let mut row = first_row;
        while row < self.height {
            rows |= self.bottom << row;
            row += 2;
        }
        rows & self.board
    }
}

/// Connect Four seen with `f64` values and an evaluation: at the end of the game its
/// score (the benchmark convention, as [`ConnectFour`]'s value), before it
/// [`ConnectFour::estimate`], which stays between −1 and 1. Everything else is the wrapped
/// game's, the move order of its successors included.
///
/// # Example
/// ```
/// use gametree::games::connect_four::EvaluatedConnectFour;
/// use gametree::{ConnectFour, Evaluate, Window, depth_limited_line};
///
/// // The first player has 1, 2 and 3 on the bottom row: column 4 wins at once.
/// let mut game = EvaluatedConnectFour(ConnectFour::from_moves("172737").expect("legal moves"));
/// let result = depth_limited_line(&mut game, 1, Window::full());
/// assert_eq!(result.principal_line[0], 3); // column 4, 0-based
/// assert!(result.value >= 1.0);
/// assert!(game.evaluate().abs() < 1.0);
/// ```
#[derive(Clone, Copy)]
pub struct EvaluatedConnectFour(pub ConnectFour);

impl Game for EvaluatedConnectFour {
    type Move = u8;
    type Value = f64;

    fn to_move(&self) -> Player {
        self.0.to_move()
    }

    fn successors(&self, moves: &mut Vec<u8>) {
        self.0.successors(moves);
    }

    fn is_terminal(&self) -> bool {
        self.0.is_terminal()
    }

    fn value(&self) -> f64 {
        f64::from(self.0.value())
    }

    fn update(&mut self, column: u8) {
        self.0.update(column);
    }

    fn revert(&mut self, column: u8) {
        self.0.revert(column);
    }
}

impl Evaluate for EvaluatedConnectFour {
    /// The score at the end of the game, [`ConnectFour::estimate`] before it.
    fn evaluate(&self) -> f64 {
        if self.0.is_over() {
            self.value()
        } else {
            self.0.estimate()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_empty_board_is_even_and_the_centre_stone_is_worth_most() {
        let empty = ConnectFour::new();
        assert!(empty.estimate().abs() < 1e-12);
        let mut best = (0, f64::NEG_INFINITY);
        for column in 1..=7u32 {
            let mut game = ConnectFour::new();
            game.play(column).expect("legal");
            let estimate = game.estimate();
            assert!(estimate > 0.0, "a first stone helps the first player");
            if estimate > best.1 {
                best = (column, estimate);
            }
        }
        assert_eq!(best.0, 4);
    }

    #[test]
    fn the_estimate_stays_below_every_win_and_follows_the_stones() {
        for moves in [
            "",
            "4",
            "44",
            "4433",
            "443322",
            "1234567",
            "4444443333",
            "1122334",
        ] {
            let game = ConnectFour::from_moves(moves).expect("legal");
            assert!(game.estimate().abs() <= ESTIMATE_BOUND, "{moves}");
        }
        // The second player gives the first a free second stone in the centre.
        let even = ConnectFour::from_moves("44").expect("legal");
        let ahead = ConnectFour::from_moves("414").expect("legal");
        assert!(ahead.estimate() > even.estimate());
    }

    #[test]
    fn a_usable_threat_counts_more_than_one_on_the_wrong_row() {
        // Stones in columns 1, 2, 3 of the bottom row (row 1, odd): a threat in column 4
        // that the first player can use and the second cannot.
        let game = ConnectFour::from_moves("172737").expect("legal");
        let first = game.current; // the first player moves after six stones
        let none = 0;
        assert!(
            game.side_weight(first, none, Player::Max) > game.side_weight(first, none, Player::Min)
        );
        assert_eq!(game.rows_of_parity(Player::Max) & game.bottom, game.bottom);
        assert_eq!(game.rows_of_parity(Player::Min) & game.bottom, 0);
    }

    #[test]
    fn the_evaluated_game_scores_the_end_exactly() {
        // X wins with the seventh stone in column 1.
        let mut game = EvaluatedConnectFour(ConnectFour::from_moves("121212").expect("legal"));
        game.update(0);
        assert!(game.is_terminal());
        assert_eq!(game.evaluate(), f64::from(game.0.value()));
        assert!(game.evaluate() >= 1.0);
    }
}
