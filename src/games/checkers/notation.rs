//! Checkers notation as players write it: moves `11-15`, captures `15x24` and `15x24x31`,
//! and positions in PDN FEN (`B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29`).

use std::fmt;
use std::str::FromStr;

use super::board::{Bitboard, Color, Move, Position, squares_of};
use crate::text::excerpt;

impl fmt::Display for Move {
    /// `11-15` for a step; every landing square of a capture sequence, `15x24x31`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let separator = if self.is_capture() { 'x' } else { '-' };
        for (index, square) in self.path().enumerate() {
            if index > 0 {
                write!(f, "{separator}")?;
            }
            write!(f, "{square}")?;
        }
        Ok(())
    }
}

/// What is wrong with a move typed or read from a file. Messages quote at most the first
/// 40 characters of the text ([`excerpt`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not move notation.
    #[error("invalid move text {} at column {column}: {reason}", excerpt(.text))]
    Syntax {
        /// The text as given.
        text: String,
        /// The 1-based character column of the problem in the text.
        column: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// Well-formed, but not a legal move of the position.
    #[error("illegal move {}: {reason}; legal moves: {}", excerpt(.text), .legal.join(" "))]
    Illegal {
        /// The text as given.
        text: String,
        /// Why it is refused.
        reason: String,
        /// The legal moves of the position, in notation.
        legal: Vec<String>,
    },
    /// Matches more than one legal move: the intermediate squares must be given.
    #[error("ambiguous move {}: it could be {}", excerpt(.text), .candidates.join(" or "))]
    Ambiguous {
        /// The text as given.
        text: String,
        /// The legal moves it could mean.
        candidates: Vec<String>,
    },
}

/// Move text taken apart: the squares it names and whether it is written as a capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// The squares named, in order (at least two).
    pub squares: Vec<u8>,
    /// Whether the squares are joined by `x` (a capture) rather than `-`.
    pub capture: bool,
}

impl FromStr for MoveText {
    type Err = MoveError;

    /// Reads `11-15`, `15x24`, `15x24x31` (also `15X24`); leading zeros (`09-13`) are
    /// accepted. Only syntax is checked here; [`Position::parse_move`] checks legality.
    ///
    /// The error's column is where the text goes wrong: the first character that is not a
    /// digit, the start of a missing or out-of-range square, the first separator that
    /// differs from the first one, the third square of a step, or the end of a move with
    /// one square.
    fn from_str(text: &str) -> Result<MoveText, MoveError> {
        let syntax = |column: usize, reason: String| MoveError::Syntax {
            text: text.to_string(),
            column,
            reason,
        };
        if text.is_empty() {
            return Err(syntax(1, "empty".to_string()));
        }
        let mut squares = Vec::new();
        // The column where each part (a square's digits) starts.
        let mut starts = Vec::new();
        let mut column = 1;
        for (index, part) in text.split(['-', 'x', 'X']).enumerate() {
            starts.push(column);
            if part.is_empty() {
                return Err(syntax(
                    column,
                    format!("square {} is missing (expected a number 1-32)", index + 1),
                ));
            }
            if let Some((offset, character)) =
                part.chars().enumerate().find(|(_, c)| !c.is_ascii_digit())
            {
                return Err(syntax(
                    column + offset,
                    format!(
                        "{character:?} is not part of a square number (expected 1-32, joined \
                         by '-' or 'x')"
                    ),
                ));
            }
            let square = part
                .parse::<u32>()
                .ok()
                .filter(|square| (1..=32).contains(square));
            let Some(square) = square else {
                let shown = part
                    .parse::<u64>()
                    .map_or_else(|_| excerpt(part), |number| number.to_string());
                return Err(syntax(
                    column,
                    format!("square {shown} is out of range 1-32"),
                ));
            };
            squares.push(square as u8);
            // The part's digits are ASCII: one column each, then one for the separator.
            column += part.len() + 1;
        }
        // The separator before part i (i ≥ 1) is in the column just before it.
        let separators: Vec<(usize, bool)> = starts[1..]
            .iter()
            .zip(text.chars().filter(|c| matches!(c, '-' | 'x' | 'X')))
            .map(|(start, character)| (start - 1, character != '-'))
            .collect();
        let capture = separators.first().is_some_and(|&(_, capture)| capture);
        if let Some(&(at, _)) = separators.iter().find(|&&(_, other)| other != capture) {
            return Err(syntax(at, "mixes '-' and 'x'".to_string()));
        }
        if squares.len() < 2 {
            // Only digits and separators are left: one column each.
            return Err(syntax(
                text.len() + 1,
                "a move names at least two squares, as in 11-15 or 15x24".to_string(),
            ));
        }
        if !capture && squares.len() > 2 {
            return Err(syntax(
                starts[2],
                "a step names two squares; write a capture sequence with 'x'".to_string(),
            ));
        }
        Ok(MoveText { squares, capture })
    }
}

impl Position {
    /// The legal move that `text` denotes. A capture sequence may be written in full
    /// (`15x24x31`) or by its ends (`15x31`) when that is unambiguous.
    ///
    /// # Errors
    /// [`MoveError::Syntax`] for text that is not move notation, [`MoveError::Illegal`]
    /// (with the reason and the legal moves) for a move the position does not allow, and
    /// [`MoveError::Ambiguous`] when `15x31` could be more than one sequence.
    ///
    /// # Example
    /// ```
    /// use gametree::games::checkers::Position;
    ///
    /// let start = Position::initial();
    /// assert_eq!(start.parse_move("11-15").unwrap().to_string(), "11-15");
    /// assert!(start.parse_move("11-14").is_err());
    /// ```
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let written: MoveText = text.parse()?;
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        let illegal = |reason: String| MoveError::Illegal {
            text: text.to_string(),
            reason,
            legal: legal.iter().map(ToString::to_string).collect(),
        };
        let first = written.squares[0];
        let last = *written
            .squares
            .last()
            .expect("invariant: at least two squares");
        let candidates: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|mv| {
                mv.from_square() == first
                    && mv.to_square() == last
                    && mv.is_capture() == written.capture
                    && (written.squares.len() == 2 || mv.path().eq(written.squares.iter().copied()))
            })
            .collect();
        match candidates.as_slice() {
            [mv] => Ok(*mv),
            [] => {
                let own = self.pieces(self.side);
                let reason = if own & (1 << (first - 1)) == 0 {
                    format!("{} has no piece on square {first}", self.side)
                } else if !written.capture && self.has_capture() {
                    "a capture is compulsory".to_string()
                } else if written.capture && !self.has_capture() {
                    "there is no capture".to_string()
                } else {
                    format!("the piece on {first} cannot go that way")
                };
                Err(illegal(reason))
            }
            _ => Err(MoveError::Ambiguous {
                text: text.to_string(),
                candidates: candidates.iter().map(ToString::to_string).collect(),
            }),
        }
    }
}

/// What is wrong with a PDN FEN string, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid FEN at column {column}: {reason}")]
pub struct FenError {
    /// 1-based character column of the problem in the FEN string.
    pub column: usize,
    /// What is wrong.
    pub reason: String,
}

impl Position {
    /// Reads a PDN FEN: the side to move (`B` or `W`), then for each colour a `:`, the
    /// colour letter and a comma-separated list of squares, a `K` before a king's square
    /// (`B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29`). Ranges such as `W21-32` are
    /// accepted, as are surrounding spaces, a trailing `.` and a colour with no pieces
    /// (`B:W:B1`, a game White has lost) or left out (`B:W18`) — but not a board with no
    /// pieces at all (`B:W:B`, `B`).
    ///
    /// # Errors
    /// A [`FenError`] naming the column and what is wrong: an unknown side or colour
    /// letter, a colour listed twice, a square outside 1–32 or missing after a `,`, a
    /// square given twice, a man on the row where it would have been crowned, anything
    /// after the final `.`, no pieces at all. The message quotes no more than
    /// 40 characters of the FEN.
    ///
    /// # Example
    /// ```
    /// use gametree::games::checkers::Position;
    ///
    /// let fen = "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29";
    /// assert_eq!(Position::from_fen(fen).unwrap().to_fen(), fen);
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        FenReader::new(fen).read()
    }

    /// The PDN FEN of the position: side to move, then White's and Black's pieces, each
    /// list men first then kings, ascending — the form [`Position::from_fen`] reads back
    /// (unless the board has no piece at all, which no game reaches).
    #[must_use]
    pub fn to_fen(&self) -> String {
        let mut fen = String::new();
        fen.push(self.side.letter());
        for color in [Color::White, Color::Black] {
            fen.push(':');
            fen.push(color.letter());
            let men = squares_of(self.men(color)).map(|square| square.to_string());
            let kings = squares_of(self.kings(color)).map(|square| format!("K{square}"));
            fen.push_str(&men.chain(kings).collect::<Vec<_>>().join(","));
        }
        fen
    }
}

impl FromStr for Position {
    type Err = FenError;

    fn from_str(fen: &str) -> Result<Position, FenError> {
        Position::from_fen(fen)
    }
}

impl fmt::Display for Position {
    /// The PDN FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

/// A cursor over a FEN string that knows its column for error messages.
struct FenReader<'a> {
    chars: Vec<char>,
    index: usize,
    text: &'a str,
}

impl<'a> FenReader<'a> {
    fn new(text: &'a str) -> Self {
        FenReader {
            chars: text.chars().collect(),
            index: 0,
            text,
        }
    }

    fn error(&self, column_index: usize, reason: String) -> FenError {
        FenError {
            column: column_index + 1,
            reason,
        }
    }

    fn describe(&self, index: usize) -> String {
        match self.chars.get(index) {
            Some(character) => format!("{character:?}"),
            None => "the end".to_string(),
        }
    }

    fn skip_spaces(&mut self) {
        while self
            .chars
            .get(self.index)
            .is_some_and(|c| c.is_whitespace())
        {
            self.index += 1;
        }
    }

    /// Reads `B` or `W` (either case), naming `what` was expected if it is neither.
    fn read_color(&mut self, what: &str) -> Result<Color, FenError> {
        let color = match self.chars.get(self.index) {
            Some('B' | 'b') => Color::Black,
            Some('W' | 'w') => Color::White,
            _ => {
                return Err(self.error(
                    self.index,
                    format!(
                        "expected {what}, 'B' or 'W', found {}",
                        self.describe(self.index)
                    ),
                ));
            }
        };
        self.index += 1;
        Ok(color)
    }

    fn read(mut self) -> Result<Position, FenError> {
        if self.text.trim().is_empty() {
            return Err(self.error(0, "empty FEN".to_string()));
        }
        self.skip_spaces();
        let side = self.read_color("the side to move")?;
        let mut pieces: [Option<(Bitboard, Bitboard)>; 2] = [None, None];
        let mut occupied_at: [usize; 32] = [0; 32];
        let mut occupied: Bitboard = 0;
        loop {
            self.skip_spaces();
            match self.chars.get(self.index) {
                None | Some('.') => break,
                Some(':') => self.index += 1,
                Some(_) => {
                    return Err(self.error(
                        self.index,
                        format!(
                            "expected ':' before a colour, found {}",
                            self.describe(self.index)
                        ),
                    ));
                }
            }
            self.skip_spaces();
            let colour_at = self.index;
            let color = self.read_color("a colour")?;
            let slot = color as usize;
            if pieces[slot].is_some() {
                return Err(self.error(colour_at, format!("{color}'s pieces are listed twice")));
            }
            let mut men: Bitboard = 0;
            let mut kings: Bitboard = 0;
            // After a ',' another square must follow.
            let mut after_comma = false;
            loop {
                self.skip_spaces();
                match self.chars.get(self.index) {
                    None | Some(':' | '.') if after_comma => {
                        return Err(self.error(
                            self.index,
                            format!(
                                "expected a square after ',', found {}",
                                self.describe(self.index)
                            ),
                        ));
                    }
                    None | Some(':' | '.') => break,
                    _ => {}
                }
                let item_start = self.index;
                let king = matches!(self.chars.get(self.index), Some('K' | 'k'));
                if king {
                    self.index += 1;
                }
                let first = self.number()?;
                let last = if self.chars.get(self.index) == Some(&'-') {
                    self.index += 1;
                    let last = self.number()?;
                    if last < first {
                        return Err(self.error(
                            item_start,
                            format!("the range {first}-{last} runs backwards"),
                        ));
                    }
                    last
                } else {
                    first
                };
                for square in first..=last {
                    let bit = 1u32 << (square - 1);
                    if occupied & bit != 0 {
                        return Err(self.error(
                            item_start,
                            format!(
                                "square {square} is given twice (first at column {})",
                                occupied_at[square as usize - 1] + 1
                            ),
                        ));
                    }
                    occupied |= bit;
                    occupied_at[square as usize - 1] = item_start;
                    let crowning = match color {
                        Color::Black => 29..=32,
                        Color::White => 1..=4,
                    };
                    if !king && crowning.contains(&square) {
                        return Err(self.error(
                            item_start,
                            format!(
                                "a {} man on square {square} would have been crowned (write K{square} for a king)",
                                color.to_string().to_lowercase()
                            ),
                        ));
                    }
                    if king {
                        kings |= bit;
                    } else {
                        men |= bit;
                    }
                }
                self.skip_spaces();
                after_comma = self.chars.get(self.index) == Some(&',');
                match self.chars.get(self.index) {
                    Some(',') => self.index += 1,
                    None | Some(':' | '.') => {}
                    _ => {
                        return Err(self.error(
                            self.index,
                            format!(
                                "expected ',' or ':' after a square, found {}",
                                self.describe(self.index)
                            ),
                        ));
                    }
                }
            }
            pieces[slot] = Some((men, kings));
        }
        if self.chars.get(self.index) == Some(&'.') {
            self.index += 1;
            self.skip_spaces();
            if self.index < self.chars.len() {
                return Err(self.error(
                    self.index,
                    format!(
                        "unexpected {} after the final '.'",
                        self.describe(self.index)
                    ),
                ));
            }
        }
        if occupied == 0 {
            return Err(self.error(
                self.chars.len(),
                "no pieces at all: a position needs at least one piece (as in B:W18:B14)"
                    .to_string(),
            ));
        }
        let (black_men, black_kings) = pieces[Color::Black as usize].unwrap_or((0, 0));
        let (white_men, white_kings) = pieces[Color::White as usize].unwrap_or((0, 0));
        Position::from_bitboards(
            black_men | black_kings,
            white_men | white_kings,
            black_kings | white_kings,
            side,
        )
        .map_err(|error| self.error(0, error.to_string()))
    }

    /// A square number 1–32 at the cursor.
    fn number(&mut self) -> Result<u8, FenError> {
        let start = self.index;
        while self.chars.get(self.index).is_some_and(char::is_ascii_digit) {
            self.index += 1;
        }
        if start == self.index {
            return Err(self.error(
                start,
                format!("expected a square number, found {}", self.describe(start)),
            ));
        }
        let digits: String = self.chars[start..self.index].iter().collect();
        match digits.parse::<u64>() {
            Ok(square @ 1..=32) => Ok(square as u8),
            Ok(square) => Err(self.error(start, format!("square {square} is out of range 1-32"))),
            Err(_) => Err(self.error(
                start,
                format!("square {} is out of range 1-32", excerpt(&digits)),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_has_the_standard_fen() {
        assert_eq!(
            Position::initial().to_fen(),
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
        );
        assert_eq!(
            Position::from_fen("B:W21-32:B1-12").expect("ranges"),
            Position::initial()
        );
    }

    #[test]
    fn fen_errors_name_the_column() {
        let error = Position::from_fen("B:W18,24,33").unwrap_err();
        assert_eq!(error.column, 10);
        assert!(error.to_string().contains("out of range"), "{error}");
        let error = Position::from_fen("X:W1:B2").unwrap_err();
        assert_eq!(error.column, 1);
        let error = Position::from_fen("B:W5:B5").unwrap_err();
        assert!(error.to_string().contains("given twice"), "{error}");
        let error = Position::from_fen("B:W1:B5").unwrap_err();
        assert!(error.to_string().contains("crowned"), "{error}");
    }

    #[test]
    fn a_fen_without_any_piece_or_with_a_dangling_comma_is_refused_where_it_goes_wrong() {
        let cases = [
            ("B:W:B", 6, "no pieces at all"),
            ("B", 2, "no pieces at all"),
            ("W:B:W.", 7, "no pieces at all"),
            ("B:W21,:B9", 7, "expected a square after ',', found ':'"),
            ("B:W21,", 7, "expected a square after ',', found the end"),
            ("B:W9:B1,.", 9, "expected a square after ',', found '.'"),
        ];
        for (fen, column, reason) in cases {
            let error = Position::from_fen(fen).expect_err(fen);
            assert_eq!(error.column, column, "{fen}: {error}");
            assert!(error.reason.starts_with(reason), "{fen}: {error}");
        }
        // A colour without pieces is a game that colour has lost, and reads back.
        let lost = Position::from_fen("W:W:B5").expect("White has lost");
        assert_eq!(lost.to_fen(), "W:W:B5");
        assert_eq!(Position::from_fen(&lost.to_fen()), Ok(lost));
    }

    #[test]
    fn a_huge_square_number_is_quoted_only_in_part() {
        let fen = format!("B:W{}:B1", "7".repeat(100_000));
        let message = Position::from_fen(&fen).unwrap_err().to_string();
        assert_eq!(
            message,
            format!(
                "invalid FEN at column 4: square \"{}\"… is out of range 1-32",
                "7".repeat(40)
            )
        );
        let error = Position::from_fen("B:W99:B1").unwrap_err();
        assert_eq!(error.reason, "square 99 is out of range 1-32");
    }

    #[test]
    fn move_text_errors_name_the_column() {
        let cases = [
            ("", 1, "empty"),
            (
                "11",
                3,
                "a move names at least two squares, as in 11-15 or 15x24",
            ),
            ("11-", 4, "square 2 is missing (expected a number 1-32)"),
            ("-15", 1, "square 1 is missing (expected a number 1-32)"),
            (
                "11-1a5",
                5,
                "'a' is not part of a square number (expected 1-32, joined by '-' or 'x')",
            ),
            ("11-33", 4, "square 33 is out of range 1-32"),
            ("11-0", 4, "square 0 is out of range 1-32"),
            ("15x24-31", 6, "mixes '-' and 'x'"),
            (
                "11-15-19",
                7,
                "a step names two squares; write a capture sequence with 'x'",
            ),
        ];
        for (text, column, reason) in cases {
            let error = text.parse::<MoveText>().expect_err(text);
            assert_eq!(
                error,
                MoveError::Syntax {
                    text: text.to_string(),
                    column,
                    reason: reason.to_string()
                },
                "{text}"
            );
        }
        let message = Position::initial()
            .parse_move("11-15-19")
            .unwrap_err()
            .to_string();
        assert_eq!(
            message,
            "invalid move text \"11-15-19\" at column 7: a step names two squares; write a \
             capture sequence with 'x'"
        );
        let huge = format!("11-{}", "9".repeat(100_000));
        let message = Position::initial()
            .parse_move(&huge)
            .unwrap_err()
            .to_string();
        assert!(message.len() < 200, "{message}");
        assert!(message.contains("at column 4: square \"999"), "{message}");
    }

    #[test]
    fn a_capture_may_be_written_by_its_ends_when_unambiguous() {
        // Black man on 6 jumps 10 and 19: 6x15x24, also written 6x24.
        let position = Position::from_fen("B:W10,19:B6").expect("valid");
        let full = position.parse_move("6x15x24").expect("full path");
        let short = position.parse_move("6x24").expect("ends only");
        assert_eq!(full, short);
        assert_eq!(full.to_string(), "6x15x24");
    }

    #[test]
    fn a_capture_written_by_its_ends_that_could_be_two_sequences_is_ambiguous() {
        // The king on 10 can go round the ring of four men either way, back to 10.
        let position = Position::from_fen("B:W14,15,22,23:BK10").expect("valid");
        let error = position.parse_move("10x10").unwrap_err();
        assert!(matches!(error, MoveError::Ambiguous { .. }), "{error}");
        assert!(error.to_string().contains("10x17x26x19x10"), "{error}");
        let full = position
            .parse_move("10x19x26x17x10")
            .expect("the full path");
        assert_eq!(full.to_string(), "10x19x26x17x10");
        assert_eq!(full.captures(), 4);
    }

    #[test]
    fn an_illegal_move_says_why_and_lists_the_legal_moves() {
        let position = Position::from_fen("B:W14:B9,10").expect("valid");
        let error = position.parse_move("10-15").unwrap_err();
        let message = error.to_string();
        assert!(message.contains("capture is compulsory"), "{message}");
        assert!(message.contains("9x18"), "{message}");
    }
}
