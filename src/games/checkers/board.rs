//! The checkers board on 32-bit bitboards: squares, colours, moves and positions.
//!
//! Bit `i` of a bitboard is PDN square `i + 1`. The board is seen as in every checkers
//! diagram: Black's men start on squares 1–12 at the top and move down the page, White's on
//! 21–32 at the bottom and move up. Row 0 (squares 1–4) is the top row; squares 1–4 stand on
//! columns b, d, f, h and squares 5–8 on columns a, c, e, g, and so on alternately, so
//! square 4 (h8) and square 29 (a1) are the single corners and 1–5 and 28–32 the double
//! corners — the standard PDN orientation, checked by the start position's FEN
//! `B:W21,...,32:B1,...,12` in the tests.

use std::fmt;

/// A bitboard: bit `i` is PDN square `i + 1`.
pub type Bitboard = u32;

/// The two sides. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// The dark pieces, on squares 1–12 at the start; moves first.
    Black,
    /// The light pieces (red on many boards), on squares 21–32 at the start.
    White,
}

impl Color {
    /// The other side.
    #[must_use]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The letter PDN uses for the side: `B` or `W`.
    #[must_use]
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "Black",
            Color::White => "White",
        })
    }
}

/// Squares on rows 0, 2, 4, 6 (they stand on columns b, d, f, h).
const EVEN_ROWS: Bitboard = 0x0F0F_0F0F;
/// Squares on rows 1, 3, 5, 7 (columns a, c, e, g).
const ODD_ROWS: Bitboard = 0xF0F0_F0F0;
/// The first square of each row (5, 13, 21, 29 are on the a-file; 1, 9, 17, 25 on b).
const FIRST_OF_ROW: Bitboard = 0x1111_1111;
/// The last square of each row (4, 12, 20, 28 are on the h-file; 8, 16, 24, 32 on g).
const LAST_OF_ROW: Bitboard = 0x8888_8888;
/// Black's back row, squares 1–4: where White's men are crowned.
pub const BLACK_BACK_ROW: Bitboard = 0x0000_000F;
/// White's back row, squares 29–32: where Black's men are crowned.
pub const WHITE_BACK_ROW: Bitboard = 0xF000_0000;

/// A diagonal direction. "Up" is towards row 0 (squares 1–4), White's forward direction;
/// "down" is Black's forward direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    UpLeft = 0,
    UpRight = 1,
    DownLeft = 2,
    DownRight = 3,
}

impl Direction {
    pub(crate) const ALL: [Direction; 4] = [
        Direction::UpLeft,
        Direction::UpRight,
        Direction::DownLeft,
        Direction::DownRight,
    ];

    pub(crate) fn from_index(index: u32) -> Direction {
        Direction::ALL[(index & 3) as usize]
    }

    /// The direction back where a step came from.
    pub(crate) fn opposite(self) -> Direction {
        Direction::from_index(3 - self as u32)
    }
}

/// Every square of `squares` moved one step in `direction`; steps off the board vanish.
#[inline(always)]
pub(crate) fn step(squares: Bitboard, direction: Direction) -> Bitboard {
    match direction {
        Direction::UpLeft => ((squares & EVEN_ROWS) >> 4) | ((squares & ODD_ROWS & !FIRST_OF_ROW) >> 5),
        Direction::UpRight => ((squares & EVEN_ROWS & !LAST_OF_ROW) >> 3) | ((squares & ODD_ROWS) >> 4),
        Direction::DownLeft => ((squares & EVEN_ROWS) << 4) | ((squares & ODD_ROWS & !FIRST_OF_ROW) << 3),
        Direction::DownRight => ((squares & EVEN_ROWS & !LAST_OF_ROW) << 5) | ((squares & ODD_ROWS) << 4),
    }
}

/// No square: the neighbour of an edge square off the board.
pub(crate) const NO_SQUARE: u8 = 0xFF;

const fn neighbour_table() -> [[u8; 32]; 4] {
    let mut table = [[NO_SQUARE; 32]; 4];
    let mut index = 0;
    while index < 32 {
        let row = index / 4;
        let place = index % 4;
        let even = row % 2 == 0;
        // Up-left, up-right, down-left, down-right: see `step`.
        if row > 0 {
            if even {
                table[0][index] = (index - 4) as u8;
                if place < 3 {
                    table[1][index] = (index - 3) as u8;
                }
            } else {
                if place > 0 {
                    table[0][index] = (index - 5) as u8;
                }
                table[1][index] = (index - 4) as u8;
            }
        }
        if row < 7 {
            if even {
                table[2][index] = (index + 4) as u8;
                if place < 3 {
                    table[3][index] = (index + 5) as u8;
                }
            } else {
                if place > 0 {
                    table[2][index] = (index + 3) as u8;
                }
                table[3][index] = (index + 4) as u8;
            }
        }
        index += 1;
    }
    table
}

/// `NEIGHBOUR[direction][index]`: the index of the next square that way, or [`NO_SQUARE`].
pub(crate) const NEIGHBOUR: [[u8; 32]; 4] = neighbour_table();

/// A move: a step of one square, or a whole capture sequence (every distinct sequence of
/// jumps is a distinct move). It carries what it takes to undo it, so a search can take it
/// back without copying the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Index (0–31) of the square the piece leaves.
    pub(crate) from: u8,
    /// Index of the square the piece stops on.
    pub(crate) to: u8,
    /// Number of jumps: 0 for a step.
    pub(crate) jumps: u8,
    /// Whether a man reaches the far row with this move and is crowned.
    pub(crate) crowns: bool,
    /// The direction of each jump, two bits per jump, first jump in the low bits: the path
    /// of the sequence, which the captured squares alone do not fix (a king may go round a
    /// ring of pieces either way).
    pub(crate) directions: u32,
    /// The squares of the pieces captured.
    pub(crate) captured: Bitboard,
    /// The captured pieces that were kings (to put them back on revert).
    pub(crate) captured_kings: Bitboard,
}

impl Move {
    /// The PDN square (1–32) the piece moves from.
    #[must_use]
    pub fn from_square(&self) -> u8 {
        self.from + 1
    }

    /// The PDN square (1–32) the piece ends on.
    #[must_use]
    pub fn to_square(&self) -> u8 {
        self.to + 1
    }

    /// Whether the move captures.
    #[must_use]
    pub fn is_capture(&self) -> bool {
        self.jumps > 0
    }

    /// Whether a man is crowned by this move.
    #[must_use]
    pub fn crowns(&self) -> bool {
        self.crowns
    }

    /// How many pieces the move captures.
    #[must_use]
    pub fn captures(&self) -> u32 {
        u32::from(self.jumps)
    }

    /// The PDN squares of the captured pieces, in ascending order.
    pub fn captured_squares(&self) -> impl Iterator<Item = u8> {
        squares_of(self.captured)
    }

    /// The PDN squares the piece stands on along the move: the start, every landing square
    /// of a capture sequence, the end. `11-15` gives `[11, 15]`, `15x24x31` gives
    /// `[15, 24, 31]`.
    pub fn path(&self) -> impl Iterator<Item = u8> {
        let mut square = self.from;
        let mut jump = 0;
        let steps = if self.jumps == 0 { 1 } else { u32::from(self.jumps) };
        let start = std::iter::once(self.from + 1);
        let (to, directions, jumps) = (self.to, self.directions, self.jumps);
        start.chain(std::iter::from_fn(move || {
            if jump >= steps {
                return None;
            }
            if jumps == 0 {
                jump += 1;
                return Some(to + 1);
            }
            let direction = Direction::from_index(directions >> (2 * jump)) as usize;
            let over = NEIGHBOUR[direction][square as usize];
            square = NEIGHBOUR[direction][over as usize];
            jump += 1;
            Some(square + 1)
        }))
    }
}

/// The PDN squares (1–32) of a bitboard, ascending.
pub fn squares_of(mut squares: Bitboard) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if squares == 0 {
            None
        } else {
            let index = squares.trailing_zeros() as u8;
            squares &= squares - 1;
            Some(index + 1)
        }
    })
}

/// A checkers position: where the men and kings of each side stand, and whose turn it is.
/// Small and `Copy`, so a search can copy it instead of undoing moves.
///
/// It knows the rules that depend on the board alone (moves, captures, crowning); the draw
/// rules, which depend on the history, live in [`super::Checkers`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) black: Bitboard,
    pub(crate) white: Bitboard,
    pub(crate) kings: Bitboard,
    pub(crate) side: Color,
}

impl Default for Position {
    fn default() -> Self {
        Position::initial()
    }
}

impl Position {
    /// The start of every game: Black's twelve men on 1–12, White's on 21–32, Black to move.
    #[must_use]
    pub fn initial() -> Position {
        Position {
            black: 0x0000_0FFF,
            white: 0xFFF0_0000,
            kings: 0,
            side: Color::Black,
        }
    }

    /// A position from bitboards (bit `i` = square `i + 1`).
    ///
    /// # Errors
    /// When a square holds both colours, a king stands on an empty square, or a man stands
    /// on the row where it would have been crowned.
    pub fn from_bitboards(
        black: Bitboard,
        white: Bitboard,
        kings: Bitboard,
        side: Color,
    ) -> Result<Position, String> {
        if let Some(square) = squares_of(black & white).next() {
            return Err(format!("square {square} holds a black and a white piece"));
        }
        if let Some(square) = squares_of(kings & !(black | white)).next() {
            return Err(format!("a king is marked on the empty square {square}"));
        }
        if let Some(square) = squares_of(black & !kings & WHITE_BACK_ROW).next() {
            return Err(format!(
                "a black man on square {square} would have been crowned"
            ));
        }
        if let Some(square) = squares_of(white & !kings & BLACK_BACK_ROW).next() {
            return Err(format!(
                "a white man on square {square} would have been crowned"
            ));
        }
        Ok(Position {
            black,
            white,
            kings,
            side,
        })
    }

    /// The side to move.
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The squares of `color`'s pieces.
    #[must_use]
    pub fn pieces(&self, color: Color) -> Bitboard {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// The squares of `color`'s men.
    #[must_use]
    pub fn men(&self, color: Color) -> Bitboard {
        self.pieces(color) & !self.kings
    }

    /// The squares of `color`'s kings.
    #[must_use]
    pub fn kings(&self, color: Color) -> Bitboard {
        self.pieces(color) & self.kings
    }

    /// The empty squares.
    #[must_use]
    pub fn empty(&self) -> Bitboard {
        !(self.black | self.white)
    }

    /// The position after `mv`, which must be a legal move of this position (as generated
    /// by [`Position::legal_moves`] or resolved by [`Position::parse_move`]).
    #[must_use]
    #[inline]
    pub fn play(&self, mv: Move) -> Position {
        let mut next = *self;
        let moved = (1u32 << mv.from) ^ (1u32 << mv.to);
        let (own, opponent) = match self.side {
            Color::Black => (&mut next.black, &mut next.white),
            Color::White => (&mut next.white, &mut next.black),
        };
        *own ^= moved;
        *opponent &= !mv.captured;
        next.kings &= !mv.captured;
        if self.kings & (1u32 << mv.from) != 0 {
            next.kings ^= moved;
        } else if mv.crowns {
            next.kings |= 1u32 << mv.to;
        }
        next.side = self.side.opponent();
        next
    }

    /// Draws the board as text, Black at the top, with square numbers on the empty dark
    /// squares: `b`/`w` are men, `B`/`W` kings.
    #[must_use]
    pub fn diagram(&self) -> String {
        let mut text = String::new();
        for row in 0..8 {
            for column in 0..8 {
                let dark = (row + column) % 2 == 1;
                if !dark {
                    text.push_str(" . ");
                    continue;
                }
                let index = row * 4 + column / 2;
                let bit = 1u32 << index;
                let cell = if self.black & bit != 0 {
                    if self.kings & bit != 0 { " B " } else { " b " }.to_string()
                } else if self.white & bit != 0 {
                    if self.kings & bit != 0 { " W " } else { " w " }.to_string()
                } else {
                    format!("{:>2} ", index + 1)
                };
                text.push_str(&cell);
            }
            text.push('\n');
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_follow_the_pdn_numbering() {
        // From the standard diagram: 1 touches 5 and 6, 5 touches 1 and 9, 11 touches 7, 8,
        // 15, 16, 32 touches 27 and 28.
        let neighbours = |square: usize| -> Vec<u8> {
            let mut found: Vec<u8> = Direction::ALL
                .iter()
                .map(|&direction| NEIGHBOUR[direction as usize][square - 1])
                .filter(|&index| index != NO_SQUARE)
                .map(|index| index + 1)
                .collect();
            found.sort_unstable();
            found
        };
        assert_eq!(neighbours(1), vec![5, 6]);
        assert_eq!(neighbours(5), vec![1, 9]);
        assert_eq!(neighbours(11), vec![7, 8, 15, 16]);
        assert_eq!(neighbours(32), vec![27, 28]);
        assert_eq!(neighbours(29), vec![25]);
        assert_eq!(neighbours(4), vec![8]);
    }

    #[test]
    fn bitboard_steps_agree_with_the_neighbour_table() {
        for direction in Direction::ALL {
            for index in 0..32 {
                let expected = match NEIGHBOUR[direction as usize][index] {
                    NO_SQUARE => 0,
                    next => 1u32 << next,
                };
                assert_eq!(step(1 << index, direction), expected, "{direction:?} {index}");
                if expected != 0 {
                    assert_eq!(step(expected, direction.opposite()), 1 << index);
                }
            }
        }
    }

    #[test]
    fn the_diagram_numbers_the_dark_squares_in_pdn_order() {
        let empty = Position::from_bitboards(0, 0, 0, Color::Black).expect("empty board");
        let diagram = empty.diagram();
        let first_row = diagram.lines().next().expect("a row");
        assert_eq!(first_row, " .  1  .  2  .  3  .  4 ");
        let last_row = diagram.lines().last().expect("a row");
        assert_eq!(last_row, "29  . 30  . 31  . 32  . ");
    }
}
