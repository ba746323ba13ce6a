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

/// The `H` of the const-generic hot functions that means "the height stored in the
/// position" rather than a constant.
const ANY_HEIGHT: u32 = 0;

/// A Connect Four position on a board of `width` columns and `height` rows, the first
/// player (MAX, `X`) to move first. Moves are 0-based column indices; the move notation of
/// [`ConnectFour::play_moves`] is 1-based.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
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
    /// Not a digit 1–9.
    #[error("not a column number 1 to 9")]
    NotAColumn,
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

    /// Plays `moves`, 1-based column digits, in order. On error the moves before the bad
    /// one stay played.
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
                _ => return Err(error(MoveErrorKind::NotAColumn)),
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

    /// The board's height: `H`, or when `H` is [`ANY_HEIGHT`] the height stored in the
    /// position. The search's hot functions are compiled twice, for the standard height
    /// as a constant (the compiler then shifts by immediates and divides by
    /// multiplying) and for any height.
    #[inline(always)]
    fn height_of<const H: u32>(&self) -> u32 {
        debug_assert!(H == ANY_HEIGHT || H == self.height);
        if H == ANY_HEIGHT { self.height } else { H }
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
    #[inline(always)]
    fn non_losing_cells_in<const H: u32>(&self) -> u64 {
        let mut possible = self.possible();
        let opponent_wins = self.winning_cells_in::<H>(self.current ^ self.mask);
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
        if self.height == Self::HEIGHT {
            self.append_ordered_in::<{ Self::HEIGHT }>(cells, moves);
        } else {
            self.append_ordered_in::<ANY_HEIGHT>(cells, moves);
        }
    }

    /// [`Self::append_ordered`] for a board of height `H` (see [`Self::height_of`]).
    #[inline(always)]
    fn append_ordered_in<const H: u32>(&self, cells: u64, moves: &mut Vec<u8>) {
        let stride = self.height_of::<H>() + 1;
        if cells & cells.wrapping_sub(1) == 0 {
            // No move, or a forced one: nothing to order.
            if cells != 0 {
                let column = cells.trailing_zeros() / stride;
                moves.push(u8::try_from(column).expect("invariant: width ≤ 32"));
            }
            return;
        }
        // Sort keys, greatest first: the threats created, then the centre rank (0 for the
        // centre column, then alternately left and right of it), packed with the column
        // as (threats · 32 + 31 − rank) · 32 + column. A board is at most 32 columns wide.
        let centre = self.width / 2;
        let mut keys = [0u32; 32];
        let mut count = 0;
        let mut rest = cells;
        while rest != 0 {
            let cell = rest & rest.wrapping_neg();
            rest ^= cell;
            let column = cell.trailing_zeros() / stride;
            let rank = if column >= centre {
                2 * (column - centre)
            } else {
                2 * (centre - column) - 1
            };
            let threats = self.winning_cells_in::<H>(self.current | cell).count_ones();
            let key = (threats << 5 | (31 - rank)) << 5 | column;
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

    /// [`Solvable::outlook`] for a board of height `H` (see [`Self::height_of`]).
    #[inline(always)]
    fn outlook_in<const H: u32>(&self, after_search_move: bool) -> Outlook<u64> {
        let (cells, played) = (self.cells(), self.played());
        if !after_search_move {
            if self.is_over() {
                return Outlook::Known(self.value());
            }
            if self.winning_cells_in::<H>(self.current) & self.possible() != 0 {
                return Outlook::Known(self.value_to_max((cells + 1 - played) / 2));
            }
        }
        let candidates = self.non_losing_cells_in::<H>();
        if candidates == 0 {
            return Outlook::Known(self.value_to_max(-(cells - played) / 2));
        }
        if played >= cells - 2 {
            return Outlook::Known(0);
        }
        let (lower, upper) = (-(cells - 2 - played) / 2, (cells - 1 - played) / 2);
        if self.moves.is_multiple_of(2) {
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
        }
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
}

impl Solvable for ConnectFour {
    /// The cells that do not lose at once.
    type Candidates = u64;

    /// Pons' pruning: the player to move who can win at once scores (w·h + 1 − n)/2 after
    /// n stones; one whose every move lets the opponent win at once scores −(w·h − n)/2;
    /// with two cells left and neither, the game is a draw. Otherwise a win can come no
    /// sooner than the player's next-but-one stone, nor a loss sooner than the opponent's
    /// next-but-one. The candidates are the cells that do not lose at once.
    ///
    /// After one of its own search moves the game is not over and the player to move
    /// cannot win at once (the previous player's move did not allow it): those checks are
    /// skipped.
    fn outlook(&self, after_search_move: bool) -> Outlook<u64> {
        if self.height == Self::HEIGHT {
            self.outlook_in::<{ Self::HEIGHT }>(after_search_move)
        } else {
            self.outlook_in::<ANY_HEIGHT>(after_search_move)
        }
    }

    /// The `candidates` (the moves that do not let the opponent win at once), ordered as
    /// [`Game::successors`] orders them: after any of them the opponent cannot win at
    /// once, which [`Solvable::outlook`] relies on.
    fn search_moves(&self, candidates: u64, moves: &mut Vec<u8>) {
        self.append_ordered(candidates, moves);
    }

    /// The players alternate: the opponent, without playing the column.
    fn to_move_after(&mut self, _column: u8) -> Player {
        self.to_move().opponent()
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
            }
        }
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
}
