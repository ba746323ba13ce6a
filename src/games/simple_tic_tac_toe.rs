//! Seed 002's tic-tac-toe ("Game tree search"): the computer plays X and moves first, a
//! grid is over when it is full or has three in a row, and scores are `COMPUTER_WIN = 1`,
//! `DRAW = 0`, `HUMAN_WIN = -1`. The board is two 9-bit bitboards, so make and unmake
//! allocate nothing.

use std::fmt;

use thiserror::Error;

use crate::game::{Evaluate, Game, Player};

/// Seed 002: "give a grid a score of 1 if the computer is guaranteed a win".
pub const COMPUTER_WIN: i32 = 1;
/// Seed 002: "a score of 0 if perfect players will draw".
pub const DRAW: i32 = 0;
/// Seed 002: "a score of -1 if the computer's opponent is guaranteed a win".
pub const HUMAN_WIN: i32 = -1;

/// A square, numbered 1 to 9 row by row from the top left.
pub type Square = u8;

/// The eight lines: rows, columns and diagonals, as bit masks (square `s` is bit `s - 1`).
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// Every square.
const FULL: u16 = 0b111_111_111;

/// A tic-tac-toe grid: X is the computer (MAX) and moves first, O is the human (MIN).
/// Moves are squares 1–9, tried in that order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SimpleTicTacToe {
    /// The squares X holds.
    x: u16,
    /// The squares O holds.
    o: u16,
}

/// Why a move cannot be played on a [`SimpleTicTacToe`] grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum SimpleTicTacToeError {
    /// The square is not one of 1–9.
    #[error("square {square} is out of range (1-9)")]
    OutOfRange {
        /// The square asked for.
        square: Square,
    },
    /// The square is taken.
    #[error("square {square} is occupied")]
    Occupied {
        /// The square asked for.
        square: Square,
    },
    /// The game is over (a line is complete or the grid is full).
    #[error("the game is over")]
    GameOver,
}

/// A move that could not be played from a list, and where it stands in the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("move {position} (square {square}): {error}")]
pub struct MovesError {
    /// 1-based position of the move in the list.
    pub position: usize,
    /// The square of the move.
    pub square: Square,
    /// What was wrong with it.
    pub error: SimpleTicTacToeError,
}

fn bit(square: Square) -> u16 {
    1 << (square - 1)
}

fn has_line(squares: u16) -> bool {
    LINES.iter().any(|&line| line & !squares == 0)
}

impl SimpleTicTacToe {
    /// The empty grid, X (the computer) to move.
    #[must_use]
    pub fn new() -> Self {
        SimpleTicTacToe::default()
    }

    /// The grid after `squares` are played in turn, X first.
    ///
    /// # Errors
    /// The first move that is out of range, on an occupied square, or after the game is
    /// over, with its position in the list.
    pub fn from_moves(squares: &[Square]) -> Result<Self, MovesError> {
        let mut grid = SimpleTicTacToe::new();
        for (index, &square) in squares.iter().enumerate() {
            grid.play(square).map_err(|error| MovesError {
                position: index + 1,
                square,
                error,
            })?;
        }
        Ok(grid)
    }

    /// Plays `square` for the player to move, after checking that it is legal.
    ///
    /// # Errors
    /// When the square is out of range or occupied, or the game is over.
    pub fn play(&mut self, square: Square) -> Result<(), SimpleTicTacToeError> {
        if !(1..=9).contains(&square) {
            return Err(SimpleTicTacToeError::OutOfRange { square });
        }
        if self.is_over() {
            return Err(SimpleTicTacToeError::GameOver);
        }
        if (self.x | self.o) & bit(square) != 0 {
            return Err(SimpleTicTacToeError::Occupied { square });
        }
        self.update(square);
        Ok(())
    }

    /// Who holds `square` (1–9): X is [`Player::Max`], O is [`Player::Min`]; `None` when
    /// empty or out of range.
    #[must_use]
    pub fn at(&self, square: Square) -> Option<Player> {
        if !(1..=9).contains(&square) {
            None
        } else if self.x & bit(square) != 0 {
            Some(Player::Max)
        } else if self.o & bit(square) != 0 {
            Some(Player::Min)
        } else {
            None
        }
    }

    /// Seed 002's "full or has a win".
    #[must_use]
    pub fn is_over(&self) -> bool {
        (self.x | self.o) == FULL || has_line(self.x) || has_line(self.o)
    }

    /// Lines still open to X (no O in them) minus lines still open to O: the count behind
    /// this game's [`Evaluate`] (which keeps only its sign), for finer evaluations.
    #[must_use]
    pub fn open_lines_difference(&self) -> i32 {
        let open = |opponent: u16| LINES.iter().filter(|&&line| line & opponent == 0).count();
        // At most 8 lines each: the casts cannot truncate.
        open(self.o) as i32 - open(self.x) as i32
    }
}

impl Game for SimpleTicTacToe {
    type Move = Square;
    type Value = i32;

    fn to_move(&self) -> Player {
        if self.x.count_ones() == self.o.count_ones() {
            Player::Max
        } else {
            Player::Min
        }
    }

    /// The empty squares, 1 to 9.
    fn successors(&self, moves: &mut Vec<Square>) {
        let taken = self.x | self.o;
        moves.extend((1..=9).filter(|&square| taken & bit(square) == 0));
    }

    /// Seed 002's "full or has a win"; the window is not used.
    fn is_terminal(&self) -> bool {
        self.is_over()
    }

    /// `COMPUTER_WIN` for three X in a row, `HUMAN_WIN` for three O, else `DRAW`.
    fn value(&self) -> i32 {
        if has_line(self.x) {
            COMPUTER_WIN
        } else if has_line(self.o) {
            HUMAN_WIN
        } else {
            DRAW
        }
    }

    fn update(&mut self, square: Square) {
        match self.to_move() {
            Player::Max => self.x |= bit(square),
            Player::Min => self.o |= bit(square),
        }
    }

    fn revert(&mut self, square: Square) {
        self.x &= !bit(square);
        self.o &= !bit(square);
    }
}

impl Evaluate for SimpleTicTacToe {
    /// The score of a finished grid; otherwise the sign of (lines still open to X − lines
    /// still open to O): a crude guess, within the seed's scores, of who is better off.
    fn evaluate(&self) -> i32 {
        if self.is_over() {
            self.value()
        } else {
            self.open_lines_difference().signum()
        }
    }
}

impl fmt::Display for SimpleTicTacToe {
    /// Three rows of `X`, `O` and `.`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..3u8 {
            for column in 1..=3u8 {
                let mark = match self.at(row * 3 + column) {
                    Some(Player::Max) => 'X',
                    Some(Player::Min) => 'O',
                    None => '.',
                };
                write!(f, "{mark}")?;
            }
            if row < 2 {
                writeln!(f)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_played_in_turn_and_shown_row_by_row() {
        let grid = SimpleTicTacToe::from_moves(&[5, 1, 9]).expect("legal moves");
        assert_eq!(grid.to_string(), "O..\n.X.\n..X");
        assert_eq!(grid.to_move(), Player::Min);
        let mut moves = Vec::new();
        grid.successors(&mut moves);
        assert_eq!(moves, vec![2, 3, 4, 6, 7, 8]);
    }

    #[test]
    fn illegal_moves_are_reported_with_their_place_in_the_list() {
        let occupied = SimpleTicTacToe::from_moves(&[5, 5]).unwrap_err();
        assert_eq!(
            occupied.to_string(),
            "move 2 (square 5): square 5 is occupied"
        );
        let out = SimpleTicTacToe::from_moves(&[0]).unwrap_err();
        assert_eq!(
            out.to_string(),
            "move 1 (square 0): square 0 is out of range (1-9)"
        );
        let over = SimpleTicTacToe::from_moves(&[1, 4, 2, 5, 3, 6]).unwrap_err();
        assert_eq!(over.error, SimpleTicTacToeError::GameOver);
        assert_eq!(over.position, 6);
    }

    #[test]
    fn a_finished_grid_scores_as_the_seed_says() {
        let x_wins = SimpleTicTacToe::from_moves(&[1, 4, 2, 5, 3]).expect("legal moves");
        assert!(x_wins.is_terminal());
        assert_eq!(x_wins.value(), COMPUTER_WIN);
        let o_wins = SimpleTicTacToe::from_moves(&[1, 4, 2, 5, 9, 6]).expect("legal moves");
        assert_eq!(o_wins.value(), HUMAN_WIN);
        // X O X / X O O / O X X: full, no line.
        let draw = SimpleTicTacToe::from_moves(&[1, 2, 3, 5, 4, 6, 8, 7, 9]).expect("legal");
        assert!(draw.is_over());
        assert_eq!(draw.value(), DRAW);
    }

    #[test]
    fn update_and_revert_restore_the_grid() {
        let mut grid = SimpleTicTacToe::from_moves(&[5, 1]).expect("legal moves");
        let before = grid;
        grid.update(9);
        assert_ne!(grid, before);
        grid.revert(9);
        assert_eq!(grid, before);
    }

    #[test]
    fn the_evaluation_favours_the_side_with_more_open_lines() {
        // X in the centre leaves all 8 lines open to X and 4 to O.
        let centre = SimpleTicTacToe::from_moves(&[5]).expect("legal move");
        assert_eq!(centre.open_lines_difference(), 4);
        assert_eq!(centre.evaluate(), 1);
        assert_eq!(SimpleTicTacToe::new().evaluate(), 0);
    }
}
