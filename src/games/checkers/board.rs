//! The checkers board on bitboards: squares, colours, moves and positions.
//!
//! In the public API bit `i` of a [`Bitboard`] is PDN square `i + 1`; inside, positions use
//! a 64-bit layout with ghost bits ([`Board`]) where every diagonal step is one shift. The board is seen as in every checkers
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

/// The internal board: a 64-bit word with "ghost" bits 8, 17 and 26 left unused, so that
/// square index `i` (PDN square `i + 1`) is bit `i + i / 8`. In this layout every diagonal
/// step is the same shift everywhere on the board — down-left +4, down-right +5, up-right
/// −4, up-left −5 — and a step off the board lands on a ghost bit or outside bits 0–34, which
/// no piece and no empty square ever occupies. One shift and one mask per direction.
pub(crate) type Board = u64;

/// The 32 playable bits of a [`Board`].
pub(crate) const VALID: Board = 0x7_FBFD_FEFF;

/// The [`Board`] bit of square index `index` (0–31).
#[inline(always)]
pub(crate) const fn bit_of(index: u8) -> u8 {
    index + index / 8
}

/// The square index (0–31) of [`Board`] bit `bit`.
#[inline(always)]
pub(crate) const fn index_of(bit: u8) -> u8 {
    bit - bit / 9
}

/// A [`Board`] as a square bitboard (bit `i` = square `i + 1`).
#[inline]
pub(crate) const fn to_squares(board: Board) -> Bitboard {
    ((board & 0xFF)
        | ((board >> 9) & 0xFF) << 8
        | ((board >> 18) & 0xFF) << 16
        | ((board >> 27) & 0xFF) << 24) as Bitboard
}

/// A square bitboard as a [`Board`].
#[inline]
pub(crate) const fn from_squares(squares: Bitboard) -> Board {
    let squares = squares as Board;
    (squares & 0xFF)
        | ((squares >> 8) & 0xFF) << 9
        | ((squares >> 16) & 0xFF) << 18
        | ((squares >> 24) & 0xFF) << 27
}

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

    /// How far a [`Board`] bit moves in this direction.
    #[inline(always)]
    pub(crate) const fn delta(self) -> i32 {
        match self {
            Direction::UpLeft => -5,
            Direction::UpRight => -4,
            Direction::DownLeft => 4,
            Direction::DownRight => 5,
        }
    }
}

/// Every bit of `board` moved `delta` places (left for positive, right for negative). The
/// result may hold ghost bits; mask it with a set of real squares.
#[inline(always)]
pub(crate) const fn shift(board: Board, delta: i32) -> Board {
    if delta > 0 {
        board << delta
    } else {
        board >> -delta
    }
}

/// A move: a step of one square, or a whole capture sequence (every distinct sequence of
/// jumps is a distinct move). Sixteen bytes, `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// [`Board`] bit of the square the piece leaves.
    pub(crate) from: u8,
    /// [`Board`] bit of the square the piece stops on.
    pub(crate) to: u8,
    /// Number of jumps: 0 for a step.
    pub(crate) jumps: u8,
    /// Whether a man reaches the far row with this move and is crowned.
    pub(crate) crowns: bool,
    /// The direction of each jump, two bits per jump, first jump in the low bits: the path
    /// of the sequence, which the captured squares alone do not fix (a king may go round a
    /// ring of pieces either way).
    pub(crate) directions: u32,
    /// The [`Board`] bits of the pieces captured.
    pub(crate) captured: Board,
}

impl Move {
    /// The PDN square (1–32) the piece moves from.
    #[must_use]
    pub fn from_square(&self) -> u8 {
        index_of(self.from) + 1
    }

    /// The PDN square (1–32) the piece ends on.
    #[must_use]
    pub fn to_square(&self) -> u8 {
        index_of(self.to) + 1
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
        squares_of(to_squares(self.captured))
    }

    /// The PDN squares the piece stands on along the move: the start, every landing square
    /// of a capture sequence, the end. `11-15` gives `[11, 15]`, `15x24x31` gives
    /// `[15, 24, 31]`.
    pub fn path(&self) -> impl Iterator<Item = u8> {
        let mut bit = self.from;
        let mut jump = 0;
        let steps = if self.jumps == 0 {
            1
        } else {
            u32::from(self.jumps)
        };
        let (to, directions, jumps) = (self.to, self.directions, self.jumps);
        std::iter::once(index_of(self.from) + 1).chain(std::iter::from_fn(move || {
            if jump >= steps {
                return None;
            }
            jump += 1;
            if jumps == 0 {
                return Some(index_of(to) + 1);
            }
            let direction = Direction::from_index(directions >> (2 * (jump - 1)));
            bit = (i32::from(bit) + 2 * direction.delta()) as u8;
            Some(index_of(bit) + 1)
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

/// Why bitboards do not make a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A square holds a black and a white piece.
    #[error("square {square} holds a black and a white piece")]
    BothColours {
        /// The square (1–32).
        square: u8,
    },
    /// A king is marked where there is no piece.
    #[error("a king is marked on the empty square {square}")]
    KingOnEmptySquare {
        /// The square (1–32).
        square: u8,
    },
    /// A man stands on the far row, where it would have been crowned.
    #[error("a {color} man on square {square} would have been crowned")]
    UncrownedMan {
        /// Its colour.
        color: Color,
        /// The square (1–32).
        square: u8,
    },
}

/// A checkers position: where the men and kings of each side stand, and whose turn it is.
/// Small and `Copy`, so a search can copy it instead of undoing moves.
///
/// It knows the rules that depend on the board alone (moves, captures, crowning); the draw
/// rules, which depend on the history, live in [`super::Checkers`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) black: Board,
    pub(crate) white: Board,
    pub(crate) kings: Board,
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
            black: from_squares(0x0000_0FFF),
            white: from_squares(0xFFF0_0000),
            kings: 0,
            side: Color::Black,
        }
    }

    /// A position from bitboards (bit `i` = square `i + 1`).
    ///
    /// # Errors
    /// [`PositionError`] when a square holds both colours, a king stands on an empty
    /// square, or a man stands on the row where it would have been crowned.
    pub fn from_bitboards(
        black: Bitboard,
        white: Bitboard,
        kings: Bitboard,
        side: Color,
    ) -> Result<Position, PositionError> {
        if let Some(square) = squares_of(black & white).next() {
            return Err(PositionError::BothColours { square });
        }
        if let Some(square) = squares_of(kings & !(black | white)).next() {
            return Err(PositionError::KingOnEmptySquare { square });
        }
        for (color, men, crowning_row) in [
            (Color::Black, black & !kings, WHITE_BACK_ROW),
            (Color::White, white & !kings, BLACK_BACK_ROW),
        ] {
            if let Some(square) = squares_of(men & crowning_row).next() {
                return Err(PositionError::UncrownedMan { color, square });
            }
        }
        Ok(Position {
            black: from_squares(black),
            white: from_squares(white),
            kings: from_squares(kings),
            side,
        })
    }

    /// The position turned round: square s to 33 − s, colours swapped, the other side to
    /// move — the same position for the other side (the board is symmetric under the half
    /// turn).
    #[must_use]
    #[inline]
    pub fn turned_round(&self) -> Position {
        let turn = |board: Board| from_squares(to_squares(board).reverse_bits());
        Position {
            black: turn(self.white),
            white: turn(self.black),
            kings: turn(self.kings),
            side: self.side.opponent(),
        }
    }

    /// The side to move.
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The squares of `color`'s pieces.
    #[must_use]
    pub fn pieces(&self, color: Color) -> Bitboard {
        to_squares(self.board(color))
    }

    /// The pieces on the board, both colours (24 at the start).
    #[must_use]
    pub fn piece_count(&self) -> u32 {
        (self.board(Color::Black) | self.board(Color::White)).count_ones()
    }

    /// The squares of `color`'s men.
    #[must_use]
    pub fn men(&self, color: Color) -> Bitboard {
        to_squares(self.board(color) & !self.kings)
    }

    /// The squares of `color`'s kings.
    #[must_use]
    pub fn kings(&self, color: Color) -> Bitboard {
        to_squares(self.board(color) & self.kings)
    }

    /// The empty squares.
    #[must_use]
    pub fn empty(&self) -> Bitboard {
        to_squares(self.empty_board())
    }

    /// `color`'s pieces on the internal board.
    #[inline(always)]
    pub(crate) fn board(&self, color: Color) -> Board {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// The empty squares on the internal board.
    #[inline(always)]
    pub(crate) fn empty_board(&self) -> Board {
        VALID & !(self.black | self.white)
    }

    /// The position after `mv`, which must be a legal move of this position (as generated
    /// by [`Position::legal_moves`] or resolved by [`Position::parse_move`]).
    #[must_use]
    #[inline]
    pub fn play(&self, mv: Move) -> Position {
        let mut next = *self;
        let moved = (1u64 << mv.from) ^ (1u64 << mv.to);
        let (own, opponent) = match self.side {
            Color::Black => (&mut next.black, &mut next.white),
            Color::White => (&mut next.white, &mut next.black),
        };
        *own ^= moved;
        *opponent &= !mv.captured;
        next.kings &= !mv.captured;
        if self.kings & (1u64 << mv.from) != 0 {
            next.kings ^= moved;
        } else if mv.crowns {
            next.kings |= 1u64 << mv.to;
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
                let bit = 1u64 << bit_of(index as u8);
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

    /// No square: the neighbour of an edge square off the board.
    const NO_SQUARE: u8 = 0xFF;

    /// The [`Board`] bit next to `bit` `delta`-wards, or [`NO_SQUARE`].
    fn neighbour(bit: u8, delta: i32) -> u8 {
        let next = i32::from(bit) + delta;
        if (0..35).contains(&next) && VALID & (1 << next) != 0 {
            next as u8
        } else {
            NO_SQUARE
        }
    }

    /// Every square of `squares` moved one step in `direction`.
    fn step(squares: Board, direction: Direction) -> Board {
        shift(squares, direction.delta()) & VALID
    }

    fn neighbours(square: u8) -> Vec<u8> {
        let mut found: Vec<u8> = Direction::ALL
            .iter()
            .map(|&direction| neighbour(bit_of(square - 1), direction.delta()))
            .filter(|&bit| bit != NO_SQUARE)
            .map(|bit| index_of(bit) + 1)
            .collect();
        found.sort_unstable();
        found
    }

    #[test]
    fn neighbours_follow_the_pdn_numbering() {
        // From the standard diagram: 1 touches 5 and 6, 5 touches 1 and 9, 11 touches 7, 8,
        // 15, 16, 32 touches 27 and 28, the single corners 4 and 29 touch one square.
        assert_eq!(neighbours(1), vec![5, 6]);
        assert_eq!(neighbours(5), vec![1, 9]);
        assert_eq!(neighbours(11), vec![7, 8, 15, 16]);
        assert_eq!(neighbours(12), vec![8, 16]);
        assert_eq!(neighbours(13), vec![9, 17]);
        assert_eq!(neighbours(32), vec![27, 28]);
        assert_eq!(neighbours(29), vec![25]);
        assert_eq!(neighbours(4), vec![8]);
    }

    #[test]
    fn every_square_has_its_geometric_neighbours() {
        // Row r (0 at the top) holds squares 4r+1..4r+4 on columns 2p+1 (even rows) or 2p.
        let coordinates = |index: u8| -> (i32, i32) {
            let row = i32::from(index / 4);
            let place = i32::from(index % 4);
            (row, 2 * place + i32::from(row % 2 == 0))
        };
        for index in 0..32u8 {
            let (row, column) = coordinates(index);
            for direction in Direction::ALL {
                let (row_step, column_step) = match direction {
                    Direction::UpLeft => (-1, -1),
                    Direction::UpRight => (-1, 1),
                    Direction::DownLeft => (1, -1),
                    Direction::DownRight => (1, 1),
                };
                let target = (row + row_step, column + column_step);
                let expected = (0..32u8).find(|&other| coordinates(other) == target);
                let found = match neighbour(bit_of(index), direction.delta()) {
                    NO_SQUARE => None,
                    bit => Some(index_of(bit)),
                };
                assert_eq!(found, expected, "square {} {direction:?}", index + 1);
                let stepped = step(1 << bit_of(index), direction);
                assert_eq!(stepped, found.map_or(0, |other| 1 << bit_of(other)));
            }
        }
    }

    #[test]
    fn square_bitboards_convert_both_ways() {
        for index in 0..32u8 {
            assert_eq!(index_of(bit_of(index)), index);
            assert_eq!(from_squares(1 << index), 1 << bit_of(index));
            assert_eq!(to_squares(1 << bit_of(index)), 1 << index);
        }
        assert_eq!(from_squares(u32::MAX), VALID);
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
