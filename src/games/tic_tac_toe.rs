//! McCarthy's 2-dimensional tic-tac-toe exactly as printed in seed 000 ("2-dimensional Tic
//! Tac Toe"): his `lines` table, `xcount`/`ocount`, `ter`, `imval`, the pruning and ordering
//! `successors` (`sort`, `sorta`, `sortb`, `sortc` with `win`, `answer`, `doubleth`,
//! `threat`), and `update`/`revert` with the seed's list orders.
//!
//! The seed's printed results (its Examples 1 and 2) depend on the order in which squares
//! are tried, and that order changes as the search runs: `update` deletes a square from the
//! list of blanks `bs`, `revert` puts it back at the *front*, and `sorta` accumulates
//! threats and other moves by `cons`, so each comes out reversed. This module keeps those
//! orders exactly, in small fixed arrays: making and taking back a move allocates nothing.
//!
//! A search leaves the board in the position it started from but with `bs` reordered, as
//! the seed's would: a second search from the same board tries moves in another order (for
//! Example 1, 93 updates instead of 114). Set a board up afresh to reproduce the seed.
//!
//! `ter`'s window conditions never change what alpha-beta proves: when `9 − level < α`,
//! `imval` is at most α (0, or a win by X worth at most `10 − level ≤ α`, or a loss), and
//! mirror-wise for β, so the search fails low or high exactly when minimax's value lies
//! outside the window, and is exact otherwise (tested on every open position and several
//! windows in `tests/tic_tac_toe.rs`). With the seed's window (−1000, 1000) alpha-beta gives
//! the minimax value everywhere. Only a root that the window itself stops returns `imval`
//! rather than α or β.
//!
//! The numbers in the printed program are octal (`10` is 8, `11` is 9, `12` is 10), and the
//! seed prints squares in octal; [`octal`] writes a square the seed's way.

use std::fmt;

use crate::game::{Game, Player};
use crate::text::excerpt;

/// A square of the board, 1 to 9, numbered left to right starting from the top row
/// (McCarthy's numbering; he prints 8 and 9 in octal, as `10` and `11`).
pub type Square = u8;

/// McCarthy's `lines` (from `commence`): the lines through each square, square 1 first.
/// Lines 1–3 are the rows, 4–6 the columns, 7 and 8 the diagonals. The seed's table reads
/// `lines 10 = (3 5)` and `lines 11 = (3 6 7)`: squares 8 and 9 in octal.
const LINES: [&[usize]; 9] = [
    &[1, 4, 7],
    &[1, 5],
    &[1, 6, 8],
    &[2, 4],
    &[2, 5, 7, 8],
    &[2, 6],
    &[3, 4, 8],
    &[3, 5],
    &[3, 6, 7],
];

/// The squares on each line, line 1 first: the inverse of [`LINES`] (the seed's `doubleth`
/// and `threat` ask "is some other blank square on this line" by searching `bs`).
const LINE_SQUARES: [[Square; 3]; 8] = [
    [1, 2, 3],
    [4, 5, 6],
    [7, 8, 9],
    [1, 4, 7],
    [2, 5, 8],
    [3, 6, 9],
    [1, 5, 9],
    [3, 5, 7],
];

/// The blank squares of the empty board in the seed's order: `bs ← (1 2 3 4 5 6 7 10 11)`.
const ALL_SQUARES: [Square; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 9];

/// A square written the way the seed prints it: in octal, so 8 is `10` and 9 is `11`.
///
/// # Example
/// ```
/// assert_eq!(gametree::tic_tac_toe::octal(7), 7);
/// assert_eq!(gametree::tic_tac_toe::octal(8), 10);
/// assert_eq!(gametree::tic_tac_toe::octal(9), 11);
/// ```
#[must_use]
pub fn octal(square: Square) -> u8 {
    square / 8 * 10 + square % 8
}

/// A mark on the board. X moves first and is the maximizing player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// The first player, MAX.
    X,
    /// The second player, MIN.
    O,
}

impl Mark {
    /// The player this mark plays for: X is MAX, O is MIN.
    #[must_use]
    pub fn player(self) -> Player {
        match self {
            Mark::X => Player::Max,
            Mark::O => Player::Min,
        }
    }

    /// The other mark.
    #[must_use]
    pub fn opponent(self) -> Mark {
        match self {
            Mark::X => Mark::O,
            Mark::O => Mark::X,
        }
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mark::X => "X",
            Mark::O => "O",
        })
    }
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The square is not one of 1 to 9.
    #[error("square {0} is out of range: the squares are 1 to 9")]
    OutOfRange(u32),
    /// The square already holds a mark.
    #[error("square {square} is already taken by {mark}")]
    Occupied {
        /// The square asked for.
        square: Square,
        /// The mark on it.
        mark: Mark,
    },
    /// The game has ended: no move may follow.
    #[error("the game is over ({0})")]
    GameOver(Ending),
}

/// Why a list of moves such as `2,1` does not describe a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMovesError {
    /// An entry is not a decimal number. The message quotes at most 40 characters of it.
    #[error("move {index} ({}) is not a square number 1 to 9", excerpt(.text))]
    NotANumber {
        /// The entry's place in the list, the first move being 1.
        index: usize,
        /// The entry as written.
        text: String,
    },
    /// An entry is a number but not a legal move at that point of the game.
    #[error("move {index}: {error}")]
    Illegal {
        /// The entry's place in the list, the first move being 1.
        index: usize,
        /// What is wrong with it.
        error: PlayError,
    },
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// This mark has three on a line.
    Win(Mark),
    /// The board is full and nobody has three on a line.
    Draw,
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Win(mark) => write!(f, "{mark} has won"),
            Ending::Draw => f.write_str("a draw"),
        }
    }
}

/// McCarthy's tic-tac-toe board: the seed's global variables `lines`, `xcount`, `ocount`,
/// `p1`, `bs`, `w`, `level` and `count`, as one value.
///
/// X is the maximizing player. A position where X has won is worth `10 − level` (the
/// number of moves played), one where O has won `level − 10`, any other terminal position
/// 0: a quicker win is worth more.
///
/// # Example
/// ```
/// use gametree::{Window, alphabeta_line, tic_tac_toe::{TicTacToe, octal}};
///
/// // The seed's Example 1: X played 2, O played 1.
/// let mut game = TicTacToe::from_moves(&[2, 1]).unwrap();
/// let result = alphabeta_line(&mut game, Window::new(-1000, 1000));
/// let line: Vec<u8> = result.principal_line.iter().map(|&square| octal(square)).collect();
/// assert_eq!((result.value, line), (0, vec![5, 10, 6, 4, 7, 3, 11]));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    /// `xcount`: how many X's are on each line, line 1 first.
    xcount: [u8; 8],
    /// `ocount`: how many O's are on each line.
    ocount: [u8; 8],
    /// `p1` in game order: `moves[..level]`, the first move first. X played the even
    /// places, O the odd ones, so the seed's `xs` and `os` are read off it.
    moves: [Square; 9],
    /// `bs`: the blank squares in the seed's list order, `blanks[..9 - level]`.
    blanks: [Square; 9],
    /// `level`: the number of moves played.
    level: u8,
    /// `w`: true when O is to move.
    o_to_move: bool,
    /// `count`: the number of `update` calls since the board was set up.
    count: u64,
}

impl Default for TicTacToe {
    fn default() -> Self {
        TicTacToe::new()
    }
}

impl TicTacToe {
    /// McCarthy's `newgame`: the empty board, X to move, `bs = (1 2 3 4 5 6 7 10 11)`,
    /// `count = 0`.
    #[must_use]
    pub fn new() -> Self {
        TicTacToe {
            xcount: [0; 8],
            ocount: [0; 8],
            moves: [0; 9],
            blanks: ALL_SQUARES,
            level: 0,
            o_to_move: false,
            count: 0,
        }
    }

    /// The board after `moves`, played from the empty board in game order, X first, with
    /// the seed's `update` (so `bs` is in the order the seed would have it). The update
    /// counter is then reset to 0, so [`TicTacToe::count`] counts only what follows.
    ///
    /// # Errors
    /// When a square is out of range, already taken, or played after the game ended; the
    /// error names the move.
    pub fn from_moves(moves: &[Square]) -> Result<Self, ParseMovesError> {
        let mut game = TicTacToe::new();
        for (place, &square) in moves.iter().enumerate() {
            game.play(u32::from(square))
                .map_err(|error| ParseMovesError::Illegal {
                    index: place + 1,
                    error,
                })?;
        }
        game.count = 0;
        Ok(game)
    }

    /// The board after a comma-separated list of squares in decimal digits, X first: `"2,1"`
    /// is X on 2 and O on 1. An empty or blank text is the empty board. Spaces around
    /// entries are ignored; signs (`+5`) are not numbers. The update counter is reset to 0, as by [`TicTacToe::from_moves`].
    ///
    /// # Errors
    /// When an entry is not a number, or is not a legal move at its point of the game.
    ///
    /// # Example
    /// ```
    /// use gametree::tic_tac_toe::TicTacToe;
    /// assert_eq!(TicTacToe::parse_moves("2, 1").unwrap().moves(), &[2, 1]);
    /// let error = TicTacToe::parse_moves("2,2").unwrap_err();
    /// assert_eq!(error.to_string(), "move 2: square 2 is already taken by X");
    /// ```
    pub fn parse_moves(text: &str) -> Result<Self, ParseMovesError> {
        let mut game = TicTacToe::new();
        if text.trim().is_empty() {
            return Ok(game);
        }
        for (place, entry) in text.split(',').enumerate() {
            let entry = entry.trim();
            let index = place + 1;
            // Digits only: `str::parse` would also take a sign (`+5`).
            let square = Some(entry)
                .filter(|entry| !entry.is_empty() && entry.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|digits| digits.parse::<u32>().ok())
                .ok_or_else(|| ParseMovesError::NotANumber {
                    index,
                    text: entry.to_string(),
                })?;
            game.play(square)
                .map_err(|error| ParseMovesError::Illegal { index, error })?;
        }
        game.count = 0;
        Ok(game)
    }

    /// Plays `square` for the side to move after checking that it is legal (the search
    /// plays only legal moves and uses [`Game::update`] directly).
    ///
    /// # Errors
    /// When the square is out of range or taken, or the game is over.
    pub fn play(&mut self, square: u32) -> Result<(), PlayError> {
        if let Some(ending) = self.ending() {
            return Err(PlayError::GameOver(ending));
        }
        let Some(square) = Square::try_from(square)
            .ok()
            .filter(|s| (1..=9).contains(s))
        else {
            return Err(PlayError::OutOfRange(square));
        };
        if let Some(mark) = self.mark(square) {
            return Err(PlayError::Occupied { square, mark });
        }
        self.update(square);
        Ok(())
    }

    /// The seed's `count`: how many times `update` has run since the board was set up
    /// (by [`TicTacToe::new`], [`TicTacToe::from_moves`] or [`TicTacToe::parse_moves`]) or
    /// since [`TicTacToe::reset_count`].
    #[must_use]
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Sets the update counter back to 0.
    pub fn reset_count(&mut self) {
        self.count = 0;
    }

    /// The seed's `level`: how many moves have been played.
    #[must_use]
    pub fn level(&self) -> usize {
        usize::from(self.level)
    }

    /// The moves played, the first move first (the seed's `p1` is this list reversed).
    #[must_use]
    pub fn moves(&self) -> &[Square] {
        &self.moves[..self.level()]
    }

    /// The seed's `bs`: the blank squares, in the order `successors` will consider them.
    #[must_use]
    pub fn blanks(&self) -> &[Square] {
        &self.blanks[..9 - self.level()]
    }

    /// The mark whose turn it is (the seed's `w`: O when true).
    #[must_use]
    pub fn mark_to_move(&self) -> Mark {
        if self.o_to_move { Mark::O } else { Mark::X }
    }

    /// The mark on `square` (1 to 9), if any.
    #[must_use]
    pub fn mark(&self, square: Square) -> Option<Mark> {
        let place = self.moves().iter().position(|&played| played == square)?;
        Some(if place.is_multiple_of(2) {
            Mark::X
        } else {
            Mark::O
        })
    }

    /// How the game has ended, or `None` while it goes on: three in a line for either
    /// mark, or a full board.
    #[must_use]
    pub fn ending(&self) -> Option<Ending> {
        if self.xcount.contains(&3) {
            Some(Ending::Win(Mark::X))
        } else if self.ocount.contains(&3) {
            Some(Ending::Win(Mark::O))
        } else if self.level == 9 {
            Some(Ending::Draw)
        } else {
            None
        }
    }

    fn is_blank(&self, square: Square) -> bool {
        self.blanks().contains(&square)
    }

    /// The counts of the side to move and of its opponent (the seed's
    /// `qif w qthen ocount x qelse xcount x` and its mirror).
    fn counts(&self) -> (&[u8; 8], &[u8; 8]) {
        if self.o_to_move {
            (&self.ocount, &self.xcount)
        } else {
            (&self.xcount, &self.ocount)
        }
    }

    fn lines_of(square: Square) -> &'static [usize] {
        LINES[usize::from(square) - 1]
    }

    /// McCarthy's `win`: playing `square` completes a line of the side to move.
    fn win(&self, square: Square) -> bool {
        let (own, _) = self.counts();
        Self::lines_of(square)
            .iter()
            .any(|&line| own[line - 1] == 2)
    }

    /// McCarthy's `answer`: playing `square` blocks a line on which the opponent has two.
    fn answer(&self, square: Square) -> bool {
        let (_, theirs) = self.counts();
        Self::lines_of(square)
            .iter()
            .any(|&line| theirs[line - 1] == 2)
    }

    /// The predicate of `threat` and `doubleth`: the side to move has one mark on `line`
    /// and some blank square other than `square` is on it, so playing `square` makes two
    /// on a line whose third square is free.
    fn makes_threat_on(&self, square: Square, line: usize) -> bool {
        let (own, _) = self.counts();
        own[line - 1] == 1
            && LINE_SQUARES[line - 1]
                .iter()
                .any(|&other| other != square && self.is_blank(other))
    }

    /// McCarthy's `doubleth` (with `twolis`): playing `square` makes two threats at once.
    fn doubleth(&self, square: Square) -> bool {
        Self::lines_of(square)
            .iter()
            .filter(|&&line| self.makes_threat_on(square, line))
            .nth(1)
            .is_some()
    }

    /// McCarthy's `threat`: playing `square` makes a threat.
    fn threat(&self, square: Square) -> bool {
        Self::lines_of(square)
            .iter()
            .any(|&line| self.makes_threat_on(square, line))
    }

    /// McCarthy's `sortb[u, m]`: `m` answers a threat, unless a later square wins.
    fn sortb(&self, rest: &[Square], answer: Square) -> Square {
        rest.iter()
            .copied()
            .find(|&square| self.win(square))
            .unwrap_or(answer)
    }

    /// McCarthy's `sortc[u, m]`: `m` is a double threat, unless a later square wins or
    /// answers a threat.
    fn sortc(&self, rest: &[Square], double_threat: Square) -> Square {
        for (place, &square) in rest.iter().enumerate() {
            if self.win(square) {
                return square;
            }
            if self.answer(square) {
                return self.sortb(&rest[place + 1..], square);
            }
        }
        double_threat
    }
}

impl Game for TicTacToe {
    type Move = Square;
    type Value = i32;

    /// X (MAX) or O (MIN): the seed's `w`.
    fn to_move(&self) -> Player {
        self.mark_to_move().player()
    }

    /// McCarthy's `successors p ← sort mapcar[[λx: x . p], bs]`, with `sort`/`sorta`: the
    /// blank squares in `bs` order are examined one by one; the first that wins is the only
    /// successor; else the first that answers an opponent's two-in-a-line (`sortb`: unless
    /// a later square wins); else the first double threat (`sortc`: unless a later square
    /// wins or answers); else all squares, the threats first. Threats and the other squares
    /// are each accumulated by `cons`, so each group comes out in reverse `bs` order
    /// (`th * ord`).
    fn successors(&self, moves: &mut Vec<Square>) {
        let blanks = self.blanks();
        let mut threats = [0; 9];
        let mut threat_count = 0;
        let mut others = [0; 9];
        let mut other_count = 0;
        for (place, &square) in blanks.iter().enumerate() {
            let rest = &blanks[place + 1..];
            if self.win(square) {
                moves.push(square);
                return;
            } else if self.answer(square) {
                moves.push(self.sortb(rest, square));
                return;
            } else if self.doubleth(square) {
                moves.push(self.sortc(rest, square));
                return;
            } else if self.threat(square) {
                threats[threat_count] = square;
                threat_count += 1;
            } else {
                others[other_count] = square;
                other_count += 1;
            }
        }
        moves.extend(threats[..threat_count].iter().rev());
        moves.extend(others[..other_count].iter().rev());
    }

    /// McCarthy's `ter[p, alpha, beta]`, its part that the rules decide: never at the start
    /// of the game (`¬qn p`); otherwise when the board is full (`level = 11`, octal 9) or
    /// when the side that just moved has three on a line.
    fn is_terminal(&self) -> bool {
        if self.level == 0 {
            return false;
        }
        let (_, just_moved) = self.counts();
        self.level == 9 || just_moved.contains(&3)
    }

    /// McCarthy's `ter[p, alpha, beta]`, its part that the window decides: when even a win
    /// on the next move could not beat α (`11 − level < alpha`: `9 − level < α`) or even a
    /// loss on the next move could not get below β (`−11 + level > beta`) — never at the
    /// start of the game.
    fn stops_early(&self, alpha: i32, beta: i32) -> bool {
        if self.level == 0 {
            return false;
        }
        let level = i32::from(self.level);
        9 - level < alpha || level - 9 > beta
    }

    /// McCarthy's `imval`: for the side that just moved, three on a line is worth
    /// `12 − level` (octal: 10 − level) when it is X and `level − 10` when it is O;
    /// anything else is 0.
    fn value(&self) -> i32 {
        let level = i32::from(self.level);
        if self.o_to_move {
            if self.xcount.contains(&3) {
                10 - level
            } else {
                0
            }
        } else if self.ocount.contains(&3) {
            level - 10
        } else {
            0
        }
    }

    /// McCarthy's `update m`: one more level, `m` deleted from `bs` (the other blanks keep
    /// their order), `m` consed onto `p1`, `count` increased, and the mover's count raised
    /// on every line through `m`.
    fn update(&mut self, square: Square) {
        let blanks = 9 - self.level();
        let place = self.blanks[..blanks]
            .iter()
            .position(|&blank| blank == square)
            .expect("invariant: the search plays only blank squares");
        self.blanks.copy_within(place + 1..blanks, place);
        self.moves[self.level()] = square;
        self.level += 1;
        self.count += 1;
        let counts = if self.o_to_move {
            &mut self.ocount
        } else {
            &mut self.xcount
        };
        for &line in Self::lines_of(square) {
            counts[line - 1] += 1;
        }
        self.o_to_move = !self.o_to_move;
    }

    /// McCarthy's `revert[]`: takes back the last move (the head of `p1`, which is `square`)
    /// and puts its square back at the *front* of `bs`.
    fn revert(&mut self, square: Square) {
        debug_assert!(self.level > 0, "revert at the start of the game");
        self.level -= 1;
        let last = self.moves[self.level()];
        debug_assert_eq!(last, square, "revert takes back the last move");
        let blanks = 9 - self.level();
        self.blanks.copy_within(0..blanks - 1, 1);
        self.blanks[0] = last;
        // w is still the side to move after `last`: O to move means X played it.
        let counts = if self.o_to_move {
            &mut self.xcount
        } else {
            &mut self.ocount
        };
        for &line in Self::lines_of(last) {
            counts[line - 1] -= 1;
        }
        self.o_to_move = !self.o_to_move;
    }
}

impl fmt::Display for TicTacToe {
    /// The board in three rows, a blank square shown by its number (1 to 9, decimal):
    /// `O X 3` / `4 5 6` / `7 8 9`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..3 {
            for column in 0..3 {
                let square = row * 3 + column + 1;
                if column > 0 {
                    f.write_str(" ")?;
                }
                match self.mark(square) {
                    Some(mark) => write!(f, "{mark}")?,
                    None => write!(f, "{square}")?,
                }
            }
            if row < 2 {
                f.write_str("\n")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn successors_of(game: &TicTacToe) -> Vec<Square> {
        let mut moves = Vec::new();
        game.successors(&mut moves);
        moves
    }

    #[test]
    fn line_squares_are_the_inverse_of_the_seeds_lines_table() {
        for square in 1..=9u8 {
            for line in 1..=8 {
                let listed = LINES[usize::from(square) - 1].contains(&line);
                let on_line = LINE_SQUARES[line - 1].contains(&square);
                assert_eq!(listed, on_line, "square {square}, line {line}");
            }
        }
    }

    #[test]
    fn octal_writes_eight_and_nine_as_the_seed_prints_them() {
        let written: Vec<u8> = (1..=9).map(octal).collect();
        assert_eq!(written, [1, 2, 3, 4, 5, 6, 7, 10, 11]);
    }

    #[test]
    fn revert_puts_the_square_back_at_the_front_of_bs() {
        let mut game = TicTacToe::from_moves(&[2, 1]).expect("legal");
        assert_eq!(game.blanks(), &[3, 4, 5, 6, 7, 8, 9]);
        game.update(6);
        assert_eq!(game.blanks(), &[3, 4, 5, 7, 8, 9]);
        game.revert(6);
        assert_eq!(game.blanks(), &[6, 3, 4, 5, 7, 8, 9]);
        assert_eq!(game.count(), 1);
    }

    #[test]
    fn update_then_revert_restores_every_count() {
        let start = TicTacToe::from_moves(&[5, 1, 9]).expect("legal");
        let mut game = start.clone();
        game.update(3);
        game.revert(3);
        assert_eq!(game.xcount, start.xcount);
        assert_eq!(game.ocount, start.ocount);
        assert_eq!(game.moves(), start.moves());
        assert_eq!(game.mark_to_move(), start.mark_to_move());
    }

    #[test]
    fn on_the_empty_board_sort_returns_every_square_reversed() {
        // No threats are possible yet, so every square goes to `ord`, consed: reversed.
        assert_eq!(
            successors_of(&TicTacToe::new()),
            [9, 8, 7, 6, 5, 4, 3, 2, 1]
        );
    }

    #[test]
    fn threats_come_first_each_group_reversed() {
        // X on 2, O on 1 (Example 1): X's threats are the squares on lines through 2 with
        // a free third square: 5 and 8 (column) — 3 is on the top row with O's 1.
        let game = TicTacToe::from_moves(&[2, 1]).expect("legal");
        assert_eq!(successors_of(&game), [8, 5, 9, 7, 6, 4, 3]);
    }

    #[test]
    fn a_winning_square_is_the_only_successor() {
        // X on 1 and 2, O on 4 and 5: X wins on 3 (O also threatens 6).
        let game = TicTacToe::from_moves(&[1, 4, 2, 5]).expect("legal");
        assert_eq!(successors_of(&game), [3]);
    }

    #[test]
    fn a_forced_answer_is_the_only_successor() {
        // X on 1 and 2: O must answer on 3.
        let game = TicTacToe::from_moves(&[1, 5, 2]).expect("legal");
        assert_eq!(successors_of(&game), [3]);
    }

    #[test]
    fn a_double_threat_is_the_only_successor() {
        // X on 1 and 5, O on 2 and 9; bs = (3 4 6 7 10). Nobody can win or must answer;
        // square 3 makes one threat (on 3-5-7), square 4 makes two (4-5-6 and 1-4-7).
        let game = TicTacToe::from_moves(&[1, 2, 5, 9]).expect("legal");
        assert_eq!(game.blanks(), &[3, 4, 6, 7, 8]);
        assert!(game.threat(3) && !game.doubleth(3));
        assert!(game.doubleth(4));
        assert_eq!(successors_of(&game), [4]);
    }

    #[test]
    fn ter_follows_the_window_except_at_the_start() {
        let game = TicTacToe::new();
        assert!(
            !crate::game::ter(&game, 100, 200),
            "the empty position is never terminal"
        );
        let game = TicTacToe::from_moves(&[2, 1]).expect("legal");
        // 9 − level = 7: terminal exactly when 7 < α.
        assert!(!crate::game::ter(&game, 7, 1000));
        assert!(crate::game::ter(&game, 8, 1000));
        // level − 9 = −7: terminal exactly when −7 > β.
        assert!(!crate::game::ter(&game, -1000, -7));
        assert!(crate::game::ter(&game, -1000, -8));
    }

    #[test]
    fn imval_scores_a_quicker_win_higher() {
        let x_wins = TicTacToe::from_moves(&[1, 4, 2, 5, 3]).expect("legal");
        assert!(x_wins.is_terminal());
        assert_eq!(x_wins.value(), 10 - 5);
        let o_wins = TicTacToe::from_moves(&[1, 4, 2, 5, 9, 6]).expect("legal");
        assert!(o_wins.is_terminal());
        assert_eq!(o_wins.value(), 6 - 10);
    }

    #[test]
    fn parse_moves_names_the_bad_entry() {
        let cases = [
            ("2,x", "move 2 (\"x\") is not a square number 1 to 9"),
            (
                "0",
                "move 1: square 0 is out of range: the squares are 1 to 9",
            ),
            (
                "1,10",
                "move 2: square 10 is out of range: the squares are 1 to 9",
            ),
            ("5,5", "move 2: square 5 is already taken by X"),
            ("1,4,2,5,3,6", "move 6: the game is over (X has won)"),
            ("1,,2", "move 2 (\"\") is not a square number 1 to 9"),
            ("+5", "move 1 (\"+5\") is not a square number 1 to 9"),
            (
                "1,99999999999",
                "move 2 (\"99999999999\") is not a square number 1 to 9",
            ),
        ];
        for (text, message) in cases {
            let error = TicTacToe::parse_moves(text).expect_err(text);
            assert_eq!(error.to_string(), message, "{text}");
        }
    }

    #[test]
    fn parse_moves_of_nothing_is_the_empty_board() {
        assert_eq!(TicTacToe::parse_moves("").expect("empty"), TicTacToe::new());
        assert_eq!(
            TicTacToe::parse_moves("  ").expect("blank"),
            TicTacToe::new()
        );
    }

    #[test]
    fn the_board_prints_blanks_by_number() {
        let game = TicTacToe::from_moves(&[2, 1, 9]).expect("legal");
        assert_eq!(game.to_string(), "O X 3\n4 5 6\n7 8 X");
    }
}
