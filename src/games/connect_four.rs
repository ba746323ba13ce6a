//! Connect Four on bitboards, any width × height a `u64` holds (7 × 6 by default), as a
//! [`Game`] for the generic searches and a [`Solvable`] for the [`crate::Solver`].
//!
//! The board layout and the bit tricks are those of Pascal Pons' solver
//! (<http://blog.gamesolver.org>): each column is `height + 1` bits, bottom first, with an
//! empty bit on top so that shifts never carry a line from one column into the next. A
//! position is two bitboards, the stones of the player to move and all the stones; its key
//! (their sum) is unique.
//!
//! # Scores
//! Values follow the benchmark convention of Connect Four solvers, from the first player's
//! (MAX's) point of view in [`Game::value`] and from the player to move's in
//! [`crate::Solution::score`]: 0 for a draw; a win with the winner's k-th stone at the
//! earliest is worth (width·height + 1)/2 + 1 − k (22 − k on 7 × 6), a loss the negation.

use std::fmt;

use crate::game::{Game, Player};
use crate::random::SplitMix64;
use crate::search::mcts::PlayoutPolicy;
use crate::search::solver::{Outlook, Solvable};
use crate::search::transposition::PositionKey;

mod evaluation;
pub use evaluation::EvaluatedConnectFour;

/// The `H` of the const-generic hot functions that means "the height stored in the
/// position" rather than a constant.
const ANY_HEIGHT: u32 = 0;

/// A solve without [`ConnectFour::deep_knowledge`] takes it on after this many positions
/// (see [`Solvable::escalation`]).
pub const ESCALATION_NODES: u64 = 1 << 18;

/// With [`ConnectFour::deep_knowledge`], positions with at least this many eighths of the
/// board empty (16 cells of the standard 42) are keyed without their dead stones' colours
/// and share their entry with their mirror image (Steininger's solver looks its successors
/// up in the table as far as 15 cells before the end); later positions, whose searches are
/// small, are keyed by their cells alone.
const DEAD_STONE_EIGHTHS: i32 = 3;

/// A Connect Four position on a board of `width` columns and `height` rows, the first
/// player (MAX, `X`) to move first. Moves are 0-based column indices; the move notation of
/// [`ConnectFour::play_moves`] is 1-based.
#[derive(Clone, Copy)]
pub struct ConnectFour {
    /// The stones of the player to move.
    current: u64,
    /// Every stone on the board.
    mask: u64,
    /// Stones played.
    moves: u32,
    width: u32,
    height: u32,
    /// The bottom cell of every column.
    bottom: u64,
    /// Every cell of the board (not the empty bit above each column).
    board: u64,
    /// Whether the solver is given the knowledge that pays in large searches (see
    /// [`ConnectFour::deep_knowledge`]).
    deep: bool,
}

/// A board size a `u64` cannot hold, or a degenerate one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "a {width}×{height} board does not fit: Connect Four needs width ≥ 1, 1 ≤ height ≤ 19 \
     and width × (height + 1) ≤ 64"
)]
pub struct SizeError {
    /// The width asked for.
    pub width: u32,
    /// The height asked for.
    pub height: u32,
}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The column does not exist (columns are numbered 1 to the width).
    #[error("there is no column {column}: the columns are 1 to {width}")]
    ColumnOutOfRange {
        /// The column asked for, 1-based.
        column: u32,
        /// The board's width.
        width: u32,
    },
    /// The column has no free cell.
    #[error("column {column} is full")]
    ColumnFull {
        /// The column, 1-based.
        column: u32,
    },
    /// The game has ended: someone has four in a row, or the board is full.
    #[error("the game is already over")]
    GameOver,
}

/// An illegal character or move in a move string, with its place in the string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {index} ({character:?}): {kind}")]
pub struct ParseMovesError {
    /// The position of the offending character in the string, counting from 1.
    pub index: usize,
    /// The offending character.
    pub character: char,
    /// What is wrong with it.
    pub kind: MoveErrorKind,
}

/// What is wrong with a character of a move string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveErrorKind {
    /// Not a digit from 1 to `last`: the board's width, or 9 on wider boards (a move
    /// string names a column by one digit).
    #[error("not a column number 1 to {last}")]
    NotAColumn {
        /// The last column a digit can name on this board.
        last: u32,
    },
    /// A column the rules refuse.
    #[error(transparent)]
    Illegal(#[from] PlayError),
}

impl ConnectFour {
    /// The standard board's width.
    pub const WIDTH: u32 = 7;
    /// The standard board's height.
    pub const HEIGHT: u32 = 6;

    /// The empty standard 7 × 6 board.
    #[must_use]
    pub fn new() -> Self {
        Self::with_size(Self::WIDTH, Self::HEIGHT).expect("invariant: 7×6 fits in a u64")
    }

    /// The empty board of `width` columns and `height` rows.
    ///
    /// # Errors
    /// [`SizeError`] unless width ≥ 1, 1 ≤ height ≤ 19 (the line shifts must stay within
    /// 64 bits) and width × (height + 1) ≤ 64.
    pub fn with_size(width: u32, height: u32) -> Result<Self, SizeError> {
        let fits = width >= 1
            && (1..=19).contains(&height)
            && width.checked_mul(height + 1).is_some_and(|bits| bits <= 64);
        if !fits {
            return Err(SizeError { width, height });
        }
        let bottom = (0..width).fold(0u64, |bits, column| bits | 1 << (column * (height + 1)));
        let board = bottom * ((1u64 << height) - 1);
        Ok(ConnectFour {
            current: 0,
            mask: 0,
            moves: 0,
            width,
            height,
            bottom,
            board,
            deep: false,
        })
    }

    /// The standard board after `moves` (1-based columns, first player first).
    ///
    /// # Errors
    /// [`ParseMovesError`] naming the first bad character: not a column digit, a column
    /// out of range, a full column, or a move after the game ended.
    ///
    /// # Example
    /// ```
    /// use gametree::ConnectFour;
    ///
    /// let game = ConnectFour::from_moves("4453").expect("legal");
    /// assert_eq!(game.moves_played(), 4);
    /// let error = ConnectFour::from_moves("44444444").unwrap_err();
    /// assert_eq!(error.to_string(), "move 7 ('4'): column 4 is full");
    /// ```
    pub fn from_moves(moves: &str) -> Result<Self, ParseMovesError> {
        let mut game = Self::new();
        game.play_moves(moves)?;
        Ok(game)
    }

    /// Plays `moves`, 1-based column digits, in order (so only columns 1 to 9 can be
    /// named: on a wider board play the others with [`play`](Self::play)). On error the
    /// moves before the bad one stay played.
    ///
    /// # Errors
    /// [`ParseMovesError`] naming the first bad character.
    pub fn play_moves(&mut self, moves: &str) -> Result<(), ParseMovesError> {
        for (offset, character) in moves.chars().enumerate() {
            let error = |kind| ParseMovesError {
                index: offset + 1,
                character,
                kind,
            };
            let column = match character.to_digit(10) {
                Some(digit @ 1..=9) => digit,
                _ => {
                    return Err(error(MoveErrorKind::NotAColumn {
                        last: self.width.min(9),
                    }));
                }
            };
            self.play(column)
                .map_err(|play_error| error(MoveErrorKind::Illegal(play_error)))?;
        }
        Ok(())
    }

    /// Plays the 1-based `column` for the player to move.
    ///
    /// # Errors
    /// [`PlayError`] when the game is over, the column does not exist or is full.
    pub fn play(&mut self, column: u32) -> Result<(), PlayError> {
        if self.is_over() {
            return Err(PlayError::GameOver);
        }
        if column == 0 || column > self.width {
            return Err(PlayError::ColumnOutOfRange {
                column,
                width: self.width,
            });
        }
        let index = u8::try_from(column - 1).expect("invariant: width ≤ 64");
        if !self.can_play(index) {
            return Err(PlayError::ColumnFull { column });
        }
        self.update(index);
        Ok(())
    }

    /// The position with the solver's knowledge for large searches on or off (off in a
    /// new position).
    ///
    /// Off, the [`crate::Solver`] searches as Pascal Pons' solver does: its own key, the
    /// moves that create the most threats first, the value narrowed by bisection; each
    /// position is cheap. On, it searches as Christophe Steininger's `c4` does, fewer
    /// positions at a greater cost each: positions that differ only in dead stones, and
    /// mirror images, share a table entry (see [`Solvable::solver_key`]); every
    /// successor's outlook is read before any is searched, and the successors are
    /// searched by the threats they leave (see [`Solvable::outlook_with_promise`]); the
    /// value is narrowed from 0 (MTD(f)). Near the empty board that searches a few times
    /// fewer positions in less time; on a position solved in a few thousand positions it
    /// costs more than it saves. The solver switches it on by itself ([`Solvable::escalate`])
    /// when a search grows large, so a position need not be told.
    ///
    /// Either way the values are the same; the claimeven and zugzwang bounds and the test
    /// whether a player can still complete a line are always used.
    ///
    /// # Example
    /// ```
    /// use gametree::{ConnectFour, SolveOptions, Solver};
    ///
    /// let mut solver = Solver::new(SolveOptions::default());
    /// let mut game = ConnectFour::from_moves("4444").expect("legal");
    /// let plain = solver.solve(&mut game.with_deep_knowledge(false)).score;
    /// solver.clear();
    /// let deep = solver.solve(&mut game.with_deep_knowledge(true)).score;
    /// assert_eq!((plain, deep), (1, 1));
    /// ```
    #[must_use]
    pub fn with_deep_knowledge(mut self, on: bool) -> Self {
        self.deep = on;
        self
    }

    /// Whether the solver's knowledge for large searches is on (see
    /// [`ConnectFour::with_deep_knowledge`]).
    #[must_use]
    pub fn deep_knowledge(&self) -> bool {
        self.deep
    }

    /// The number of columns.
    #[must_use]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The number of rows.
    #[must_use]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Stones played so far.
    #[must_use]
    pub fn moves_played(&self) -> u32 {
        self.moves
    }

    /// A key the position shares with its mirror image and with no other position: the
    /// lesser of the two positions' keys (Pons' `current + mask`). Mirror images have the
    /// same score, so an opening book keeps one entry for both.
    ///
    /// # Example
    /// ```
    /// use gametree::ConnectFour;
    ///
    /// let left = ConnectFour::from_moves("12").expect("legal");
    /// let right = ConnectFour::from_moves("76").expect("legal");
    /// assert_eq!(left.symmetric_key(), right.symmetric_key());
    /// let other = ConnectFour::from_moves("21").expect("legal");
    /// assert_ne!(left.symmetric_key(), other.symmetric_key());
    /// ```
    #[must_use]
    pub fn symmetric_key(&self) -> u64 {
        let key = self.hash_key();
        key.min(self.mirror_columns_in::<ANY_HEIGHT>(key))
    }

    /// Whether the 0-based `column` exists and has a free cell.
    #[must_use]
    pub fn can_play(&self, column: u8) -> bool {
        u32::from(column) < self.width && self.mask & self.top_cell(column) == 0
    }

    /// The player who has four in a row, if any.
    #[must_use]
    pub fn winner(&self) -> Option<Player> {
        // Only the player who moved last can have completed a line.
        if self.moves > 0 && self.has_line(self.current ^ self.mask) {
            Some(if self.moves % 2 == 1 {
                Player::Max
            } else {
                Player::Min
            })
        } else {
            None
        }
    }

    /// Whether the game has ended: four in a row, or a full board.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.moves == self.width * self.height || self.winner().is_some()
    }

    /// Whether playing the 0-based `column` wins at once for the player to move.
    #[must_use]
    pub fn is_winning_move(&self, column: u8) -> bool {
        self.can_play(column)
            && self.winning_cells(self.current) & self.possible() & self.column_mask(column) != 0
    }

    /// The greatest score on this board: a win with the first stone, (w·h + 1)/2.
    #[must_use]
    pub fn max_score(&self) -> i32 {
        (self.cells() + 1) / 2
    }

    fn cells(&self) -> i32 {
        i32::try_from(self.width * self.height).expect("invariant: at most 64 cells")
    }

    fn played(&self) -> i32 {
        i32::try_from(self.moves).expect("invariant: at most 64 moves")
    }

    /// The 0-based column of each stone: what the player to move or the other owns.
    fn cell_owner(&self, column: u32, row: u32) -> Option<Player> {
        let bit = 1u64 << (column * (self.height + 1) + row);
        if self.mask & bit == 0 {
            return None;
        }
        let to_move_owns = self.current & bit != 0;
        let to_move = self.to_move();
        Some(if to_move_owns {
            to_move
        } else {
            to_move.opponent()
        })
    }

    #[inline]
    fn column_mask(&self, column: u8) -> u64 {
        ((1u64 << self.height) - 1) << (u32::from(column) * (self.height + 1))
    }

    #[inline]
    fn top_cell(&self, column: u8) -> u64 {
        1u64 << (self.height - 1 + u32::from(column) * (self.height + 1))
    }

    #[inline]
    fn bottom_cell(&self, column: u8) -> u64 {
        1u64 << (u32::from(column) * (self.height + 1))
    }

    /// Every stone after a stone is dropped into `column`: adding the column's bottom cell
    /// carries up through its stones to the first free cell.
    #[inline]
    fn mask_after(&self, column: u8) -> u64 {
        self.mask | (self.mask + self.bottom_cell(column))
    }

    /// The cells a stone can be dropped into now.
    #[inline]
    fn possible(&self) -> u64 {
        (self.mask + self.bottom) & self.board
    }

    /// Whether the board is the standard 7 × 6, whose hot functions are compiled with its
    /// size as constants.
    #[inline(always)]
    fn is_standard(&self) -> bool {
        self.width == Self::WIDTH && self.height == Self::HEIGHT
    }

    /// The board's height: `H`, or when `H` is [`ANY_HEIGHT`] the height stored in the
    /// position. The search's hot functions are compiled twice, for the standard board
    /// (`H` its height) with its size as constants (the compiler then shifts by
    /// immediates and divides by multiplying) and for any board.
    #[inline(always)]
    fn height_of<const H: u32>(&self) -> u32 {
        debug_assert!(H == ANY_HEIGHT || (H == self.height && self.is_standard()));
        if H == ANY_HEIGHT { self.height } else { H }
    }

    /// The board's width: the standard width when `H` is not [`ANY_HEIGHT`] (see
    /// [`Self::height_of`]), otherwise the width stored in the position.
    #[inline(always)]
    fn width_of<const H: u32>(&self) -> u32 {
        if H == ANY_HEIGHT {
            self.width
        } else {
            Self::WIDTH
        }
    }

    /// Whether `stones` hold four in a row (Pons' `alignment`).
    #[inline]
    fn has_line(&self, stones: u64) -> bool {
        has_line(stones, self.height)
    }

    /// The free cells that would complete four in a row for `stones` (Pons'
    /// `compute_winning_position`).
    #[inline]
    fn winning_cells(&self, stones: u64) -> u64 {
        self.winning_cells_in::<ANY_HEIGHT>(stones)
    }

    /// [`Self::winning_cells`] for a board of height `H` (see [`Self::height_of`]).
    #[inline(always)]
    fn winning_cells_in<const H: u32>(&self, stones: u64) -> u64 {
        winning_cells(stones, self.height_of::<H>()) & (self.board ^ self.mask)
    }

    /// The cells the player to move can play without letting the opponent win at once
    /// (Pons' `possibleNonLosingMoves`): empty when every move loses.
    /// `opponent_wins`: the free cells where the opponent would win.
    #[inline(always)]
    fn non_losing_cells_given(&self, opponent_wins: u64) -> u64 {
        let mut possible = self.possible();
        let forced = possible & opponent_wins;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                // Two threats at once: one cannot parry both.
                return 0;
            }
            possible = forced;
        }
        // Never play right below a cell where the opponent would win.
        possible & !(opponent_wins >> 1)
    }

    /// Appends the columns of `cells` (one playable cell per column at most), ordered by
    /// the threats the move creates (free cells that would then win), most first, and
    /// among equals centre columns first.
    fn append_ordered(&self, cells: u64, moves: &mut Vec<u8>) {
        if self.is_standard() {
            self.append_ordered_in::<{ Self::HEIGHT }, true>(cells, moves);
        } else {
            self.append_ordered_in::<ANY_HEIGHT, true>(cells, moves);
        }
    }

    /// Appends the columns of `cells`, centre columns first (see
    /// [`Self::append_ordered_in`] for the order of two columns as far from the centre).
    fn append_centre_first(&self, cells: u64, moves: &mut Vec<u8>) {
        if self.is_standard() {
            self.append_ordered_in::<{ Self::HEIGHT }, false>(cells, moves);
        } else {
            self.append_ordered_in::<ANY_HEIGHT, false>(cells, moves);
        }
    }

    /// [`Self::append_ordered`] (`BY_THREATS`) or [`Self::append_centre_first`] for a
    /// board of height `H` (see [`Self::height_of`]).
    #[inline(always)]
    fn append_ordered_in<const H: u32, const BY_THREATS: bool>(
        &self,
        cells: u64,
        moves: &mut Vec<u8>,
    ) {
        let stride = self.height_of::<H>() + 1;
        if cells & cells.wrapping_sub(1) == 0 {
            // No move, or a forced one: nothing to order.
            if cells != 0 {
                let column = cells.trailing_zeros() / stride;
                moves.push(u8::try_from(column).expect("invariant: width ≤ 32"));
            }
            return;
        }
        // Sort keys, greatest first: the move's threat score, then the centre rank (twice
        // the distance from the centre of the board, plus one for the second column of
        // two as far), packed with the column as (score · 128 + 127 − rank) · 32 + column.
        // A board is at most 32 columns wide.
        //
        // Of two columns as far from the centre, the one on the side of the mirror image
        // whose key is the lesser comes first: so the moves of a position and of its
        // mirror image are ordered as each other's mirror images, and the move a table
        // entry names by its place in the list (the two share one entry) is the same move.
        // (Without deep knowledge mirror images have keys of their own, and the order is
        // fixed.)
        let right_first = self.deep && self.key_above_mirror_in::<H>();
        let mut keys = [0u32; 32];
        let mut count = 0;
        let mut rest = cells;
        while rest != 0 {
            let cell = rest & rest.wrapping_neg();
            rest ^= cell;
            let column = cell.trailing_zeros() / stride;
            let rank = if self.deep {
                let doubled_distance = (2 * column + 1).abs_diff(self.width);
                let right = 2 * column + 1 > self.width;
                let second = doubled_distance > 0 && right != right_first;
                2 * doubled_distance + u32::from(second)
            } else {
                // The centre column (on an even board, the one right of the middle), then
                // alternately left and right of it.
                let centre = self.width / 2;
                if column >= centre {
                    2 * (column - centre)
                } else {
                    2 * (centre - column) - 1
                }
            };
            let score = if BY_THREATS {
                self.winning_cells_in::<H>(self.current | cell).count_ones()
            } else {
                0
            };
            let key = (score << 7 | (127 - rank)) << 5 | column;
            let mut slot = count;
            while slot > 0 && keys[slot - 1] < key {
                keys[slot] = keys[slot - 1];
                slot -= 1;
            }
            keys[slot] = key;
            count += 1;
        }
        moves.extend(keys[..count].iter().map(|&key| (key & 31) as u8));
    }

    /// How promising the move just played was for its player, by the threats it left them
    /// (`threats`: free cells that would complete a line): a threat right above a playable
    /// cell counts most (the opponent cannot play below it without giving the win away),
    /// then one two cells above, then any other; a threat right above one of the
    /// opponent's (`opponent_threats`, the player to move's) does not count, since the
    /// opponent would win first. Steininger's solver orders its moves by such a score.
    #[inline(always)]
    fn promise_of(&self, threats: u64, opponent_threats: u64) -> i32 {
        let empty = self.board ^ self.mask;
        let useful = threats & !((opponent_threats & empty) << 1);
        let above_playable = self.possible() << 1;
        let two_above = (above_playable & self.board) << 1;
        // At most 64 cells each: the sum fits easily.
        let count = |cells: u64| cells.count_ones() as i32;
        12 * count(useful & above_playable) + 5 * count(useful & two_above) + 3 * count(useful)
    }

    /// [`Solvable::outlook_with_promise`] for a board of height `H` (see
    /// [`Self::height_of`]).
    #[inline(always)]
    fn outlook_with_promise_in<const H: u32>(&self) -> (Outlook<u64>, i32) {
        let (outlook, threats) = self.outlook_and_threats_in::<H>(true);
        let opponent_threats = self.winning_cells_in::<H>(self.current);
        (outlook, self.promise_of(threats, opponent_threats))
    }

    /// `bits`, a board of height `H`, with its columns in the reverse order.
    #[inline(always)]
    fn mirror_columns_in<const H: u32>(&self, bits: u64) -> u64 {
        let stride = self.height_of::<H>() + 1;
        let width = self.width_of::<H>();
        let column = (1u64 << stride) - 1;
        let mut mirrored = 0;
        for index in 0..width {
            let part = (bits >> (index * stride)) & column;
            mirrored |= part << ((width - 1 - index) * stride);
        }
        mirrored
    }

    /// Whether Pons' key of the board is greater than its mirror image's.
    #[inline(always)]
    fn key_above_mirror_in<const H: u32>(&self) -> bool {
        let key = self.hash_key();
        key > self.mirror_columns_in::<H>(key)
    }

    /// [`Solvable::solver_key`] for a board of height `H`: the key of the position with its
    /// dead stones given to the player to move, or of its mirror image, the lesser.
    #[inline(always)]
    fn canonical_key_in<const H: u32>(&self) -> u64 {
        let height = self.height_of::<H>();
        let dead = dead_stones(self.current, self.current ^ self.mask, self.board, height);
        let key = self.key_of(self.current | dead, self.mask);
        key.min(self.mirror_columns_in::<H>(key))
    }

    /// The solver's one encoding of a position (every [`Solvable::solver_key`] is one):
    /// below the first empty cell of each column, the cells of `stones` (the player to
    /// move's); the first empty cell marked. `mask`: every stone.
    #[inline(always)]
    fn key_of(&self, stones: u64, mask: u64) -> u64 {
        stones | (mask + self.bottom)
    }

    /// [`Solvable::outlook`] for a board of height `H` (see [`Self::height_of`]).
    #[inline(always)]
    fn outlook_in<const H: u32>(&self, after_search_move: bool) -> Outlook<u64> {
        self.outlook_and_threats_in::<H>(after_search_move).0
    }

    /// [`Self::outlook_in`], and the free cells where the player who moved last would
    /// win (0 when the outlook knows the value before it needs them).
    #[inline(always)]
    fn outlook_and_threats_in<const H: u32>(&self, after_search_move: bool) -> (Outlook<u64>, u64) {
        let (cells, played) = (self.cells(), self.played());
        if !after_search_move {
            if self.is_over() {
                return (Outlook::Known(self.value()), 0);
            }
            if self.winning_cells_in::<H>(self.current) & self.possible() != 0 {
                return (
                    Outlook::Known(self.value_to_max((cells + 1 - played) / 2)),
                    0,
                );
            }
        }
        let threats = self.winning_cells_in::<H>(self.current ^ self.mask);
        let candidates = self.non_losing_cells_given(threats);
        if candidates == 0 {
            return (
                Outlook::Known(self.value_to_max(-(cells - played) / 2)),
                threats,
            );
        }
        if played >= cells - 2 {
            return (Outlook::Known(0), threats);
        }
        let (mut lower, mut upper) = (-(cells - 2 - played) / 2, (cells - 1 - played) / 2);
        let height = self.height_of::<H>();
        let empty = self.board ^ self.mask;
        let opponent = self.current ^ self.mask;
        // A player who cannot complete any line, even with every empty cell, cannot win.
        if !has_line(self.current | empty, height) {
            upper = upper.min(0);
        }
        if !has_line(opponent | empty, height) {
            lower = lower.max(0);
        }
        if height.is_multiple_of(2) && self.moves.is_multiple_of(2) {
            upper = upper.min(self.claimeven_bound_in::<H>());
        }
        if threats != 0 {
            upper = upper.min(self.zugzwang_bound_in::<H>(threats));
        }
        if lower >= upper {
            return (Outlook::Known(self.value_to_max(upper)), threats);
        }
        let outlook = if self.moves.is_multiple_of(2) {
            Outlook::Search {
                lower,
                upper,
                candidates,
            }
        } else {
            Outlook::Search {
                lower: -upper,
                upper: -lower,
                candidates,
            }
        };
        (outlook, threats)
    }

    /// Allis' *claimeven* as an upper bound on the score of the first player to move, on a
    /// board of even height with an even number of stones: the second player can answer
    /// every move in a column by playing on top of it, and every move into a column with
    /// an odd number of stones by a move into another such column (there is always one:
    /// the stones are even in number). So the second player gets at least every even-row
    /// cell (rows 2, 4, … from the bottom) that is not playable now, and the first player
    /// at most every other cell. If the first player's cells hold no line, they cannot
    /// win: at best a draw; and if then the second player's hold one, the first player
    /// loses, no later than when its cells are all filled (the cells above the highest of
    /// them still empty). `i32::MAX` when the rule proves nothing.
    #[inline(always)]
    fn claimeven_bound_in<const H: u32>(&self) -> i32 {
        let height = self.height_of::<H>();
        let even_rows = (0x5555_5555_5555_5555_u64 << 1) & ((1 << height) - 1);
        let even_cells = self.bottom * even_rows;
        let claimed = (self.current ^ self.mask) | (even_cells & !self.mask & !self.possible());
        let first_player_cells = self.board & !claimed;
        if has_line(first_player_cells, height) {
            return i32::MAX;
        }
        // The lowest row r such that the claimed cells up to row r hold a line.
        let mut up_to_row = 0;
        for row in 0..height {
            up_to_row |= self.bottom << row;
            if has_line(claimed & up_to_row, height) {
                // The last cell of the line is filled at the latest at move
                // cells − (height − 1 − row): the second player's stone (that move)/2.
                let last_move =
                    self.cells() - i32::try_from(height - 1 - row).expect("invariant: small");
                return -(self.cells() + 2 - last_move) / 2;
            }
        }
        0
    }

    /// The threat of the player who moved last, in a cell whose row leaves the player to
    /// move to fill the cell below it (Allis' *zugzwang control*; on the standard board the
    /// first player's odd threat), as an upper bound on the score of the player to move.
    /// `threats`: the free cells where the player who moved last would win.
    ///
    /// Call the player to move P, the other Q. Take a threat `t` of Q's with the cell `u`
    /// below it empty, and set apart `u`, `t` and the cells above them. If the rest of the
    /// board holds an even number of empty cells, then once it is full it is P's move, and
    /// P must play `u`: Q wins in `t`. Q gets there by answering every move of P's in the
    /// rest by playing on top of it, pairing each column's empty cells from the top of the
    /// rest down (in `t`'s column from the cell below `u`), and every move into a column's
    /// unpaired lowest cell by a move into another such cell (they are even in number: the
    /// pairs are). Q never has to play `u`. P gets at most the lower cell of each pair,
    /// the playable cells and `u`: if those and P's stones hold no line, Q wins, no later
    /// than with the stone in `t`. The lowest such `t` gives the bound. On a board of even
    /// height with the second player to move, `t` is in an odd row (1, 3, … from the
    /// bottom) and the second player's cells are the odd rows, and in `t`'s column the
    /// even ones below `t`; with the first player to move it is the second player's even
    /// threat, which claimeven mostly knows already. `i32::MAX` when the rule proves
    /// nothing.
    ///
    /// Steininger's `c4` and Pons' solver use claimeven alone.
    #[inline(always)]
    fn zugzwang_bound_in<const H: u32>(&self, threats: u64) -> i32 {
        const EVEN_BITS: u64 = 0x5555_5555_5555_5555;
        let height = self.height_of::<H>();
        let stride = height + 1;
        let empty = self.board ^ self.mask;
        let column_bits = (1u64 << height) - 1;
        // The rows (bit 0 the bottom) of a column whose bits are `parity` mod 2, in every
        // column.
        let rows_of_parity = |parity: u32| {
            let pattern = if parity.is_multiple_of(2) {
                EVEN_BITS
            } else {
                EVEN_BITS << 1
            };
            self.bottom * (pattern & column_bits)
        };
        // The rest of the board, `height − row + 1` cells apart from it, holds an even
        // number of empty cells when the row has the parity of height + 1 + empty cells.
        let empty_cells = u32::try_from(self.cells() - self.played()).expect("invariant: small");
        let threat_rows = rows_of_parity(height + 1 + empty_cells);
        // Threats with an empty cell below (never in the bottom row: the bit below it is
        // the previous column's spare bit, never empty).
        let mut candidates = threats & threat_rows & (empty << 1);
        if candidates == 0 {
            return i32::MAX;
        }
        // The lower cells of the pairs: paired from the top, the rows of the other parity
        // than the top's (height − 1 in the other columns, the threat's row − 2 in its own).
        let lower_elsewhere = rows_of_parity(height);
        let lower_in_threat_column = rows_of_parity(height + empty_cells);
        let to_move_anywhere = self.current | self.possible();
        let mut best = i32::MAX;
        while candidates != 0 {
            let threat = candidates & candidates.wrapping_neg();
            candidates &= candidates - 1;
            let index = threat.trailing_zeros();
            let row = index % stride;
            let column_bottom = 1u64 << (index - row);
            let column = column_bits * column_bottom;
            let below_threat = threat - column_bottom;
            let to_move_cells = to_move_anywhere
                | (empty & lower_elsewhere & !column)
                | (empty & lower_in_threat_column & below_threat);
            if !has_line(to_move_cells, height) {
                // The stone in `t` is played with the `height − row` cells from `t` up
                // empty: its score is (height − row + 1) / 2, rounded down (Pons'
                // (w·h + 1 − n)/2 after n stones).
                let score = i32::try_from((height - row).div_ceil(2)).expect("invariant: small");
                best = best.min(-score);
            }
        }
        best
    }

    /// A score to the player to move as a value to MAX.
    fn value_to_max(self, score: i32) -> i32 {
        if self.moves.is_multiple_of(2) {
            score
        } else {
            -score
        }
    }
}

/// The stones of `first` and `second` on a board of `height` rows whose colours can be
/// changed, all at once, without changing the game: those through which every line that is
/// not full holds stones of both colours besides these.
///
/// The value of a position depends only on the cells filled, the player to move and, for
/// each line that still has an empty cell, which colours it holds (a line with both can
/// never be completed; one with a single colour only by that player). Changing a stone's
/// colour changes nothing when every line through it (with an empty cell) holds both
/// colours besides it: such a stone is *dead* (Steininger's solver gives the dead stones
/// to one player before hashing). Two dead stones on one line may keep it blocked only
/// together, though, so they cannot both be changed; the second pass keeps only the dead
/// stones whose lines hold both colours among the stones that are not dead, and any of
/// those may change together.
#[inline(always)]
fn dead_stones(first: u64, second: u64, board: u64, height: u32) -> u64 {
    let stones = first | second;
    let empty = board & !stones;
    // Pass 1: a stone is alive when some line through it with an empty cell lacks one of
    // the colours besides it: its other three cells all open for one player and one of
    // them empty. (Shifting by d moves one cell along a direction; the empty bit above
    // each column keeps lines from wrapping.)
    // Vertical lines first: most stones are alive by them, and once none is left dead
    // the other directions need no look.
    let open = [board & !second, board & !first];
    let mut dead = stones & !alive_along(open, empty, 1);
    for step in [height + 1, height, height + 2] {
        if dead == 0 {
            return 0;
        }
        dead &= !alive_along(open, empty, step);
    }
    if dead == 0 {
        return 0;
    }
    // Pass 2: of those, the ones every line of which (with an empty cell) holds both
    // colours among the stones that are not dead.
    let (first, second) = (first & !dead, second & !dead);
    let mut alive = 0;
    for step in [1, height + 1, height, height + 2] {
        let spread = |bits: u64| bits | bits >> step | bits >> (2 * step) | bits >> (3 * step);
        let lines = board & (board >> step) & (board >> (2 * step)) & (board >> (3 * step));
        let open = lines & spread(empty) & !(spread(first) & spread(second));
        alive |= open | open << step | open << (2 * step) | open << (3 * step);
    }
    dead & !alive
}

/// The cells through which some line along `step` has its three other cells all `open`
/// for one player (one of the two masks), one of them `empty`: the first pass of
/// [`dead_stones`].
#[inline(always)]
fn alive_along(open: [u64; 2], empty: u64, step: u32) -> u64 {
    let (e1, e2, e3) = (empty >> step, empty >> (2 * step), empty >> (3 * step));
    let (f1, f2, f3) = (empty << step, empty << (2 * step), empty << (3 * step));
    let mut alive = 0;
    for open in open {
        let (a1, a2, a3) = (open >> step, open >> (2 * step), open >> (3 * step));
        let (b1, b2, b3) = (open << step, open << (2 * step), open << (3 * step));
        alive |= (a1 & a2 & a3 & (e1 | e2 | e3))
            | (b1 & a1 & a2 & (f1 | e1 | e2))
            | (b2 & b1 & a1 & (f2 | f1 | e1))
            | (b3 & b2 & b1 & (f3 | f2 | f1));
    }
    alive
}

/// Whether `stones` hold four in a row on a board of `height` rows.
#[inline(always)]
fn has_line(stones: u64, height: u32) -> bool {
    // Horizontal, the two diagonals, vertical: pairs, then pairs of pairs.
    for shift in [height + 1, height, height + 2, 1] {
        let pairs = stones & (stones >> shift);
        if pairs & (pairs >> (2 * shift)) != 0 {
            return true;
        }
    }
    false
}

/// The cells, free or not, that would complete four in a row for `stones` on a board of
/// `height` rows.
#[inline(always)]
fn winning_cells(stones: u64, height: u32) -> u64 {
    // Vertical: three stones below.
    let mut cells = (stones << 1) & (stones << 2) & (stones << 3);
    for shift in [height + 1, height, height + 2] {
        // Two stones on one side, and a third beyond them or on the other side.
        let pair = (stones << shift) & (stones << (2 * shift));
        cells |= pair & (stones << (3 * shift));
        cells |= pair & (stones >> shift);
        let pair = (stones >> shift) & (stones >> (2 * shift));
        cells |= pair & (stones << shift);
        cells |= pair & (stones >> (3 * shift));
    }
    cells
}

/// Positions are equal when their boards are: the solver's knowledge is not part of the
/// position.
impl PartialEq for ConnectFour {
    fn eq(&self, other: &Self) -> bool {
        (self.current, self.mask, self.moves, self.width, self.height)
            == (
                other.current,
                other.mask,
                other.moves,
                other.width,
                other.height,
            )
    }
}

impl Eq for ConnectFour {}

impl std::hash::Hash for ConnectFour {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.current, self.mask, self.moves, self.width, self.height).hash(state);
    }
}

impl Default for ConnectFour {
    fn default() -> Self {
        Self::new()
    }
}

impl Game for ConnectFour {
    type Move = u8;
    type Value = i32;

    fn to_move(&self) -> Player {
        if self.moves.is_multiple_of(2) {
            Player::Max
        } else {
            Player::Min
        }
    }

    /// Every playable column, unless the game is over: those creating the most threats
    /// first, centre columns first among equals.
    fn successors(&self, moves: &mut Vec<u8>) {
        if self.winner().is_none() {
            self.append_ordered(self.possible(), moves);
        }
    }

    /// Four in a row or a full board: the rules alone decide.
    fn is_terminal(&self) -> bool {
        self.is_over()
    }

    /// At the end of the game: the winner's score by the benchmark convention, 0 for a
    /// draw. (0 for a game still going: it is only asked at the end.)
    fn value(&self) -> i32 {
        if self.winner().is_some() {
            // The player to move lost to the stone just played, the winner's
            // ⌈moves / 2⌉-th.
            self.value_to_max(-(self.cells() + 2 - self.played()) / 2)
        } else {
            0
        }
    }

    fn update(&mut self, column: u8) {
        self.current ^= self.mask;
        self.mask = self.mask_after(column);
        self.moves += 1;
    }

    fn revert(&mut self, column: u8) {
        // The column's stones are contiguous from its bottom: adding the bottom cell gives
        // the cell above the top stone.
        let top = ((self.mask & self.column_mask(column)) + self.bottom_cell(column)) >> 1;
        self.mask ^= top;
        self.current ^= self.mask;
        self.moves -= 1;
    }
}

impl PositionKey for ConnectFour {
    /// Pons' key, the stones of the player to move plus all stones: exact, below
    /// 2^(width·(height + 1)).
    fn hash_key(&self) -> u64 {
        self.current + self.mask
    }

    /// The opponent's stones plus every stone with the new one.
    fn hash_key_after(&mut self, column: u8) -> u64 {
        (self.current ^ self.mask) + self.mask_after(column)
    }

    const KEY_AFTER_IS_CHEAP: bool = true;
}

impl Solvable for ConnectFour {
    /// The cells that do not lose at once.
    type Candidates = u64;

    /// With [`ConnectFour::deep_knowledge`]: the outlook is a few bitboard operations,
    /// knows many positions at once (a win at once, a loss to a double threat,
    /// claimeven, zugzwang control), and finds the threats the move ordering needs.
    fn outlook_successors(&self) -> bool {
        self.deep
    }

    /// Pons' pruning: the player to move who can win at once scores (w·h + 1 − n)/2 after
    /// n stones; one whose every move lets the opponent win at once scores −(w·h − n)/2;
    /// with two cells left and neither, the game is a draw. Otherwise a win can come no
    /// sooner than the player's next-but-one stone, nor a loss sooner than the opponent's
    /// next-but-one. Beyond Pons: a player who cannot complete a line cannot win; Allis'
    /// claimeven and zugzwang control bound the score (see the docs' "Zugzwang control").
    /// The candidates are the cells that do not lose at once.
    ///
    /// After one of its own search moves the game is not over and the player to move
    /// cannot win at once (the previous player's move did not allow it): those checks are
    /// skipped.
    fn outlook(&self, after_search_move: bool) -> Outlook<u64> {
        if self.is_standard() {
            self.outlook_in::<{ Self::HEIGHT }>(after_search_move)
        } else {
            self.outlook_in::<ANY_HEIGHT>(after_search_move)
        }
    }

    /// The `candidates` (the moves that do not let the opponent win at once), centre
    /// columns first: the solver then searches them by the promise of their outlooks
    /// ([`Solvable::outlook_with_promise`]). After any of them the opponent cannot win at
    /// once, which [`Solvable::outlook`] relies on.
    fn search_moves(&self, candidates: u64, moves: &mut Vec<u8>) {
        if self.deep {
            self.append_centre_first(candidates, moves);
        } else {
            self.append_ordered(candidates, moves);
        }
    }

    /// The one cell that does not lose at once, if there is one: it parries the
    /// opponent's threat, or every other cell lets the opponent win.
    #[inline]
    fn forced_move(&self, candidates: u64) -> Option<u8> {
        if candidates == 0 || candidates & (candidates - 1) != 0 {
            return None;
        }
        let column = candidates.trailing_zeros() / (self.height + 1);
        u8::try_from(column).ok()
    }

    /// The outlook, and the promise of the move just played by the threats it left its
    /// player: a threat right above a playable cell counts most (the opponent cannot play
    /// below it without giving the win away), then one two cells above, then any other; a
    /// threat right above one of the opponent's does not count. Steininger's solver
    /// orders its moves by such a score. The outlook finds the threats anyway.
    fn outlook_with_promise(&self) -> (Outlook<u64>, i32) {
        if self.is_standard() {
            self.outlook_with_promise_in::<{ Self::HEIGHT }>()
        } else {
            self.outlook_with_promise_in::<ANY_HEIGHT>()
        }
    }

    /// The players alternate: the opponent, without playing the column.
    fn to_move_after(&mut self, _column: u8) -> Player {
        self.to_move().opponent()
    }

    /// With [`ConnectFour::deep_knowledge`], positions that differ only in the colours of
    /// dead stones, and mirror images, share one key: the position's with the dead stones
    /// given to the player to move, or its mirror image's, the lesser. A stone is dead when
    /// every line through it that is not full holds stones of both colours besides it
    /// (and besides the other dead stones): no colour it could have changes what either
    /// player can still complete. Exact otherwise: a key holds every cell's state but the
    /// dead stones' colours. Without deep knowledge, the position's own key.
    ///
    /// Every key, with deep knowledge or without, is one encoding of a position: the player
    /// to move's stones and a mark on each column's first empty cell. A solve switches to
    /// deep knowledge on the way (and a book keeps its table from one position to the
    /// next), so the table holds keys of both kinds at once; with two encodings (Pons' key,
    /// stones + mask, beside this one) a key of one kind could be the key of another
    /// position of the other kind, and its entry give that position a wrong value.
    #[inline]
    fn solver_key(&self) -> u64 {
        if !self.deep || 8 * (self.cells() - self.played()) < DEAD_STONE_EIGHTHS * self.cells() {
            return self.key_of(self.current, self.mask);
        }
        if self.is_standard() {
            self.canonical_key_in::<{ Self::HEIGHT }>()
        } else {
            self.canonical_key_in::<ANY_HEIGHT>()
        }
    }

    fn solver_key_after(&mut self, column: u8) -> u64 {
        if !self.deep {
            // The opponent's stones are the mover's after the move.
            return self.key_of(self.current ^ self.mask, self.mask_after(column));
        }
        let mut after = *self;
        after.update(column);
        after.solver_key()
    }

    /// With [`ConnectFour::deep_knowledge`], 0: the large searches it is for are of
    /// positions near the start, whose values are near 0 (wins come late), and a test at
    /// the value's neighbour is the cheapest. Otherwise none: the solver bisects as
    /// Pons' solver does, which pays on positions with early wins.
    fn first_guess(&self) -> Option<i32> {
        self.deep.then_some(0)
    }

    /// Without [`ConnectFour::deep_knowledge`]: after [`ESCALATION_NODES`] positions.
    fn escalation(&self) -> Option<u64> {
        (!self.deep).then_some(ESCALATION_NODES)
    }

    /// Switches to [`ConnectFour::deep_knowledge`].
    fn escalate(&mut self) -> bool {
        let changed = !self.deep;
        self.deep = true;
        changed
    }
}

impl fmt::Display for ConnectFour {
    /// The board, top row first: `X` the first player, `O` the second, `.` empty; column
    /// numbers below.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..self.height).rev() {
            for column in 0..self.width {
                if column > 0 {
                    f.write_str(" ")?;
                }
                f.write_str(match self.cell_owner(column, row) {
                    Some(Player::Max) => "X",
                    Some(Player::Min) => "O",
                    None => ".",
                })?;
            }
            writeln!(f)?;
        }
        for column in 1..=self.width {
            if column > 1 {
                f.write_str(" ")?;
            }
            write!(f, "{}", column % 10)?;
        }
        Ok(())
    }
}

/// Uniformly random Monte Carlo playouts for Connect Four, drawn from the bitboard: every
/// playable column equally likely, as [`crate::search::mcts::UniformPlayouts`] would draw
/// them, without building the ordered list of [`Game::successors`] at every move.
///
/// # Example
/// ```
/// use gametree::games::connect_four::RandomColumns;
/// use gametree::search::mcts::{Budget, Mcts, MctsOptions};
/// use gametree::ConnectFour;
///
/// let mut game = ConnectFour::new();
/// let mut mcts = Mcts::with_policy(MctsOptions::default(), RandomColumns);
/// let result = mcts.search(&mut game, Budget::Playouts(1_000));
/// assert_eq!(result.playouts, 1_000);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RandomColumns;

impl PlayoutPolicy<ConnectFour> for RandomColumns {
    #[inline]
    fn playout_move(
        &mut self,
        game: &ConnectFour,
        _moves: &mut Vec<u8>,
        random: &mut SplitMix64,
    ) -> Option<u8> {
        let mut cells = game.possible();
        if cells == 0 {
            return None;
        }
        let mut skip = random.below(u64::from(cells.count_ones()));
        while skip > 0 {
            cells &= cells - 1;
            skip -= 1;
        }
        let column = cells.trailing_zeros() / (game.height + 1);
        Some(u8::try_from(column).expect("invariant: width ≤ 64"))
    }
}

impl fmt::Debug for ConnectFour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ConnectFour {}×{} after {} moves:\n{self}",
            self.width, self.height, self.moves
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_four_directions_are_lines_and_nothing_wraps_between_columns() {
        // Horizontal, vertical and both diagonals, for the first player.
        for (moves, winner) in [
            ("4455667", true),
            ("1212121", true),
            ("12234334744", true),
            ("76654554144", true),
            ("1223433474", false),
        ] {
            let game = ConnectFour::from_moves(moves).expect("legal");
            assert_eq!(game.winner() == Some(Player::Max), winner, "{moves}");
        }
    }

    #[test]
    fn revert_undoes_update_in_every_column() {
        let mut game = ConnectFour::from_moves("44444").expect("legal");
        let before = game;
        for column in 0..7 {
            game.update(column);
            game.revert(column);
            assert_eq!(game, before);
        }
    }

    #[test]
    fn the_key_and_player_to_move_after_a_move_are_those_of_the_position_it_makes() {
        for start in ["", "44444", "334455", "7777766666"] {
            let mut game = ConnectFour::from_moves(start).expect("legal");
            for column in 0..7 {
                if !game.can_play(column) {
                    continue;
                }
                let mut played = game;
                played.update(column);
                assert_eq!(
                    game.hash_key_after(column),
                    played.hash_key(),
                    "{start} {column}"
                );
                assert_eq!(
                    game.to_move_after(column),
                    played.to_move(),
                    "{start} {column}"
                );
                for deep in [false, true] {
                    let (mut game, played) = (
                        game.with_deep_knowledge(deep),
                        played.with_deep_knowledge(deep),
                    );
                    assert_eq!(
                        game.solver_key_after(column),
                        played.solver_key(),
                        "{start} {column} deep {deep}"
                    );
                }
            }
        }
    }

    /// The exact score of `game` to the player to move, by plain minimax.
    fn exact_score(game: &ConnectFour) -> i32 {
        let value = crate::minimax_value(&mut game.clone());
        if game.to_move() == Player::Max {
            value
        } else {
            -value
        }
    }

    #[test]
    fn positions_with_one_solver_key_have_one_score_with_or_without_deep_knowledge() {
        // The table holds keys made with and without deep knowledge at once (a solve
        // switches on the way; a book keeps its table from one position to the next): no
        // key may stand for two positions of different scores. Every 4×4 position of 3 to
        // 9 stones, each by its key either way, against plain minimax. (With Pons' key
        // beside the deep one this failed: a book built so held wrong scores.)
        let mut seen = std::collections::HashSet::new();
        let mut layer = vec![ConnectFour::with_size(4, 4).expect("fits")];
        let mut scores: std::collections::HashMap<u64, (i32, ConnectFour)> =
            std::collections::HashMap::new();
        for stones in 1..=9 {
            let mut next = Vec::new();
            for game in &layer {
                for column in 0..4 {
                    if !game.can_play(column) {
                        continue;
                    }
                    let mut child = *game;
                    child.update(column);
                    if !child.is_over() && seen.insert((child.current, child.mask)) {
                        next.push(child);
                    }
                }
            }
            layer = next;
            if stones < 3 {
                continue;
            }
            for game in &layer {
                let score = exact_score(game);
                for deep in [false, true] {
                    let key = game.with_deep_knowledge(deep).solver_key();
                    let (known, other) = *scores.entry(key).or_insert((score, *game));
                    assert_eq!(known, score, "{game:?} and {other:?}: key {key:#x}");
                }
            }
        }
        // 20,345 keys: the positions met, once by each kind of key (the deep kind shares
        // one among mirror images and positions differing in dead stones). Far fewer would
        // mean the positions were not enumerated.
        assert!(scores.len() > 5000, "only {} keys", scores.len());
    }

    #[test]
    fn the_only_cell_that_parries_a_threat_is_the_forced_move() {
        // Three of the first player's stones stand in column 1: the second player must
        // play there, and the solver plays it without a table entry.
        let game = ConnectFour::from_moves("12121").expect("legal");
        let Outlook::Search { candidates, .. } = game.outlook(false) else {
            panic!("the position is searched");
        };
        assert_eq!(game.forced_move(candidates), Some(0));
        let open = ConnectFour::from_moves("44").expect("legal");
        let Outlook::Search { candidates, .. } = open.outlook(false) else {
            panic!("the position is searched");
        };
        assert_eq!(open.forced_move(candidates), None);
    }

    #[test]
    fn moves_are_ordered_by_threats_then_centre_first() {
        let game = ConnectFour::new();
        let mut moves = Vec::new();
        game.successors(&mut moves);
        assert_eq!(moves, vec![3, 2, 4, 1, 5, 0, 6]);
        let mut narrow = Vec::new();
        ConnectFour::with_size(4, 4)
            .expect("fits")
            .successors(&mut narrow);
        assert_eq!(narrow, vec![2, 1, 3, 0]);
    }

    /// Random positions of `width`×`height` boards after `stones` random moves, games not
    /// over.
    fn random_positions(width: u32, height: u32, stones: u32, count: usize) -> Vec<ConnectFour> {
        let mut random = SplitMix64::new(u64::from(width * 1000 + height * 100 + stones));
        let mut positions = Vec::new();
        while positions.len() < count {
            let mut game = ConnectFour::with_size(width, height).expect("fits");
            for _ in 0..stones {
                if game.is_over() {
                    break;
                }
                let mut moves = Vec::new();
                game.successors(&mut moves);
                game.update(moves[random.below(moves.len() as u64) as usize]);
            }
            if !game.is_over() {
                positions.push(game);
            }
        }
        positions
    }

    /// For every line of four with an empty cell (as start cell and step), the colours it
    /// holds: what decides who can still complete it.
    fn line_colours(game: &ConnectFour) -> Vec<(u32, u32, bool, bool)> {
        let stride = game.height + 1;
        let mut lines = Vec::new();
        for start in 0..64 {
            for step in [1, stride, stride - 1, stride + 1] {
                let cells: Vec<u32> = (0..4).map(|k| start + k * step).collect();
                if cells
                    .iter()
                    .any(|&cell| cell >= 64 || game.board & 1 << cell == 0)
                {
                    continue;
                }
                let has = |stones: u64| cells.iter().any(|&cell| stones & 1 << cell != 0);
                if !has(game.board & !game.mask) {
                    continue;
                }
                lines.push((
                    start,
                    step,
                    has(game.current),
                    has(game.current ^ game.mask),
                ));
            }
        }
        lines
    }

    #[test]
    fn changing_any_dead_stones_keeps_every_open_line_as_it_is() {
        // The equivalence the key relies on: any subset of the dead stones may change
        // colour together without changing the colours of a line that can still be filled.
        let mut random = SplitMix64::new(5);
        let (mut positions, mut with_dead) = (0, 0);
        for stones in [10, 16, 22, 28, 34] {
            for game in random_positions(7, 6, stones, 200) {
                let dead = dead_stones(game.current, game.current ^ game.mask, game.board, 6);
                assert_eq!(dead & !game.mask, 0);
                let lines = line_colours(&game);
                for _ in 0..4 {
                    let flipped_stones = dead & random.next_u64();
                    let mut flipped = game;
                    flipped.current ^= flipped_stones;
                    assert_eq!(line_colours(&flipped), lines, "{game:?}");
                }
                positions += 1;
                with_dead += usize::from(dead != 0);
            }
        }
        assert_eq!(positions, 1000);
        assert!(with_dead > 500, "dead stones in only {with_dead} positions");
    }

    #[test]
    fn a_position_changed_in_its_dead_stones_has_the_same_value() {
        let mut checked = 0;
        for (width, height, stones) in [(4, 4, 9), (5, 4, 12), (4, 5, 12)] {
            for game in random_positions(width, height, stones, 60) {
                let dead = dead_stones(game.current, game.current ^ game.mask, game.board, height);
                if dead == 0 {
                    continue;
                }
                let mut flipped = game;
                flipped.current ^= dead;
                // A full line may become four of a colour: a finished game, which the
                // solver never looks up (its outlook knows it first).
                if has_line(flipped.current, height)
                    || has_line(flipped.current ^ flipped.mask, height)
                {
                    continue;
                }
                let mut original = game;
                assert_eq!(
                    crate::minimax_value(&mut original),
                    crate::minimax_value(&mut flipped),
                    "{game:?}"
                );
                checked += 1;
            }
        }
        assert!(checked > 30, "only {checked} positions with dead stones");
    }

    #[test]
    fn the_zugzwang_bound_holds_the_exact_score_and_decides_many_positions() {
        // Either player to move, boards of even and odd height, against plain minimax: the
        // rule's bound is never above the exact score, and it is often the score itself.
        let (mut bounded, mut tight) = ([0; 2], 0);
        for (width, height, stones, count) in [
            (4, 4, 5, 3000),
            (4, 4, 6, 3000),
            (4, 4, 7, 3000),
            (4, 4, 9, 3000),
            (5, 4, 8, 2000),
            (5, 4, 9, 2000),
            (5, 4, 11, 2000),
            (6, 4, 11, 1000),
            (6, 4, 12, 1000),
            (6, 4, 13, 1000),
            (4, 5, 8, 2000),
            (4, 5, 9, 2000),
            (5, 5, 14, 1000),
            (5, 5, 15, 1000),
            (4, 6, 11, 1000),
            (4, 6, 12, 1000),
            (4, 6, 13, 1000),
            (5, 6, 17, 1000),
            (5, 6, 18, 1000),
            (5, 6, 19, 1000),
        ] {
            for game in random_positions(width, height, stones, count) {
                let threats = game.winning_cells(game.current ^ game.mask);
                let bound = game.zugzwang_bound_in::<ANY_HEIGHT>(threats);
                if bound == i32::MAX {
                    continue;
                }
                let score = exact_score(&game);
                assert!(score <= bound, "{game:?}: {score} above the bound {bound}");
                bounded[usize::from(height % 2 == 1)] += 1;
                tight += usize::from(score == bound);
            }
        }
        // With these seeds: 525 positions of even height and 176 of odd, 521 of them tight.
        assert!(
            bounded[0] > 500,
            "the rule bounded only {bounded:?} positions"
        );
        assert!(
            bounded[1] > 150,
            "the rule bounded only {bounded:?} positions"
        );
        assert!(
            tight > 450,
            "the bound was the score in only {tight} positions"
        );
    }

    #[test]
    fn a_position_and_its_mirror_image_share_their_key() {
        for stones in [0, 1, 4, 9, 14, 20] {
            for game in random_positions(7, 6, stones, 100) {
                let game = game.with_deep_knowledge(true);
                let mut mirrored = game;
                mirrored.current = game.mirror_columns_in::<ANY_HEIGHT>(game.current);
                mirrored.mask = game.mirror_columns_in::<ANY_HEIGHT>(game.mask);
                assert_eq!(game.solver_key(), mirrored.solver_key(), "{game:?}");
                if mirrored == game {
                    continue;
                }
                // Their moves are ordered as each other's mirror images.
                let (mut ours, mut theirs) = (Vec::new(), Vec::new());
                game.search_moves(game.possible(), &mut ours);
                mirrored.search_moves(mirrored.possible(), &mut theirs);
                let mirrored_moves: Vec<u8> = ours.iter().map(|&column| 6 - column).collect();
                assert_eq!(theirs, mirrored_moves, "{game:?}");
            }
        }
    }
}
