//! Portable Draughts Notation: games read and written as the checkers world exchanges them
//! (tag pairs, movetext with move numbers, results; comments in braces and variations in
//! parentheses are skipped).

use std::fmt;

use super::board::{Color, Move, Position};
use super::notation::MoveError;
use crate::text::excerpt;

/// How a game ended, as PDN writes it. In English checkers Black moves first and PDN's
/// `1-0` is a win for the first player, Black; `0-1` a win for White.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0` (also read from `2-0`).
    BlackWins,
    /// `0-1` (also read from `0-2`).
    WhiteWins,
    /// `1/2-1/2` (also read from `1-1`).
    Draw,
    /// `*`: unfinished or unknown.
    Unfinished,
}

impl GameResult {
    /// The PDN token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    #[must_use]
    pub fn token(self) -> &'static str {
        match self {
            GameResult::BlackWins => "1-0",
            GameResult::WhiteWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    fn from_token(token: &str) -> Option<GameResult> {
        match token {
            "1-0" | "2-0" => Some(GameResult::BlackWins),
            "0-1" | "0-2" => Some(GameResult::WhiteWins),
            "1/2-1/2" | "1-1" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unfinished),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// One game of a PDN file: its tag pairs in file order, the start position (from the `FEN`
/// tag, else the initial position), the moves, and the result token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// Tag pairs, `[Event "..."]` and so on, in the order read or set.
    pub tags: Vec<(String, String)>,
    /// The position before the first move.
    pub start: Position,
    /// The moves played, all legal.
    pub moves: Vec<Move>,
    /// The result token that ends the movetext.
    pub result: GameResult,
}

impl PdnGame {
    /// An unfinished game without moves from `start`, with the tags `Event`, `Black`,
    /// `White`, `Result`, and `FEN` when `start` is not the initial position.
    #[must_use]
    pub fn new(start: Position) -> PdnGame {
        let mut tags: Vec<(String, String)> = ["Event", "Black", "White"]
            .iter()
            .map(|name| (name.to_string(), "?".to_string()))
            .collect();
        tags.push(("Result".to_string(), "*".to_string()));
        if start != Position::initial() {
            tags.push(("FEN".to_string(), start.to_fen()));
        }
        PdnGame {
            tags,
            start,
            moves: Vec::new(),
            result: GameResult::Unfinished,
        }
    }

    /// The value of tag `name`, if present.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(tag, _)| tag == name)
            .map(|(_, value)| value.as_str())
    }

    /// Sets tag `name` to `value`, in place if present, else at the end.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(tag, _)| tag == name) {
            Some((_, old)) => *old = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Sets the result token and the `Result` tag together.
    pub fn set_result(&mut self, result: GameResult) {
        self.result = result;
        self.set_tag("Result", result.token());
    }

    /// The position after all the moves.
    #[must_use]
    pub fn final_position(&self) -> Position {
        self.moves
            .iter()
            .fold(self.start, |position, &mv| position.play(mv))
    }
}

/// Where and why a PDN text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("PDN line {line}, column {column}: {reason}")]
pub struct PdnError {
    /// 1-based line.
    pub line: usize,
    /// 1-based character column.
    pub column: usize,
    /// What is wrong.
    pub reason: String,
}

/// Reads every game of a PDN text. Tag pairs `[Name "value"]` (with `\"` and `\\` escapes),
/// movetext of move numbers (`1.`, `1...`), moves in standard notation, NAGs (`$1`) and
/// `!`/`?` marks, and a result (`1-0`, `0-1`, `1/2-1/2`, `*`, also `2-0`, `0-2`, `1-1`).
/// Comments `{...}`, `;` to the end of the line and variations `(...)` are skipped. Every
/// move is checked against the rules from the game's start position (the `FEN` tag, else
/// the initial position). A game ends at its result or where the next game's tags begin.
///
/// # Errors
/// A [`PdnError`] with the line and column: an unterminated tag, string, comment or
/// variation, an invalid `FEN` tag, a `GameType` other than English draughts (21), or an
/// illegal, ambiguous or malformed move (with the legal moves listed).
///
/// # Example
/// ```
/// use gametree::games::checkers::{GameResult, read_pdn};
///
/// let games = read_pdn("[Event \"club\"]\n1. 11-15 23-19 {book} 2. 8-11 *").unwrap();
/// assert_eq!(games[0].moves.len(), 3);
/// assert_eq!(games[0].result, GameResult::Unfinished);
/// ```
pub fn read_pdn(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    PdnReader::new(text).read()
}

/// Writes games as PDN: tag pairs, a blank line, movetext numbered from 1 (`1... 23-19`
/// when White moves first) wrapped before 80 columns, the result token; games separated by
/// a blank line. [`read_pdn`] reads the text back into equal games.
#[must_use]
pub fn write_pdn(games: &[PdnGame]) -> String {
    games
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

impl fmt::Display for PdnGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in &self.tags {
            let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
            writeln!(f, "[{name} \"{escaped}\"]")?;
        }
        if !self.tags.is_empty() {
            writeln!(f)?;
        }
        let mut tokens = Vec::new();
        let mut number = 1;
        let mut side = self.start.side_to_move();
        for (index, mv) in self.moves.iter().enumerate() {
            match side {
                Color::Black => tokens.push(format!("{number}.")),
                Color::White if index == 0 => tokens.push(format!("{number}...")),
                Color::White => {}
            }
            tokens.push(mv.to_string());
            if side == Color::White {
                number += 1;
            }
            side = side.opponent();
        }
        tokens.push(self.result.token().to_string());
        let mut line = String::new();
        for token in tokens {
            if !line.is_empty() && line.len() + 1 + token.len() > 79 {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
        }
        writeln!(f, "{line}")
    }
}

/// A character cursor over PDN text that tracks lines and columns.
struct PdnReader {
    chars: Vec<char>,
    index: usize,
    line: usize,
    column: usize,
}

/// A game being read.
struct Partial {
    tags: Vec<(String, String)>,
    start: Position,
    position: Position,
    moves: Vec<Move>,
    started_movetext: bool,
}

impl Partial {
    fn new() -> Partial {
        Partial {
            tags: Vec::new(),
            start: Position::initial(),
            position: Position::initial(),
            moves: Vec::new(),
            started_movetext: false,
        }
    }

    fn is_empty(&self) -> bool {
        self.tags.is_empty() && !self.started_movetext
    }

    fn finish(self, result: GameResult) -> PdnGame {
        PdnGame {
            tags: self.tags,
            start: self.start,
            moves: self.moves,
            result,
        }
    }
}

impl PdnReader {
    fn new(text: &str) -> PdnReader {
        PdnReader {
            chars: text.chars().collect(),
            index: 0,
            line: 1,
            column: 1,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.index).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let character = self.peek()?;
        self.index += 1;
        if character == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(character)
    }

    fn error_at(line: usize, column: usize, reason: String) -> PdnError {
        PdnError {
            line,
            column,
            reason,
        }
    }

    fn read(mut self) -> Result<Vec<PdnGame>, PdnError> {
        let mut games = Vec::new();
        let mut game = Partial::new();
        loop {
            while self.peek().is_some_and(char::is_whitespace) {
                self.bump();
            }
            let (line, column) = (self.line, self.column);
            let Some(character) = self.peek() else { break };
            match character {
                '[' => {
                    if game.started_movetext {
                        // A new game's tags: the previous game had no result token.
                        let done = std::mem::replace(&mut game, Partial::new());
                        games.push(done.finish(GameResult::Unfinished));
                    }
                    let (name, value) = self.tag()?;
                    self.apply_tag(&mut game, &name, &value, line, column)?;
                    game.tags.push((name, value));
                }
                '{' => self.skip_comment()?,
                '(' => self.skip_variation()?,
                ';' => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.bump();
                    }
                }
                '%' if column == 1 => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.bump();
                    }
                }
                ')' | ']' | '}' => {
                    return Err(Self::error_at(
                        line,
                        column,
                        format!("unexpected {character:?} without its opening bracket"),
                    ));
                }
                _ => {
                    let word = self.word();
                    game.started_movetext = true;
                    if let Some(result) = GameResult::from_token(&word) {
                        let done = std::mem::replace(&mut game, Partial::new());
                        games.push(done.finish(result));
                    } else {
                        Self::movetext_word(&mut game, &word, line, column)?;
                    }
                }
            }
        }
        if !game.is_empty() {
            games.push(game.finish(GameResult::Unfinished));
        }
        Ok(games)
    }

    /// A word of movetext: everything up to whitespace or a bracket.
    fn word(&mut self) -> String {
        let mut word = String::new();
        while let Some(character) = self.peek() {
            if character.is_whitespace() || "[]{}();".contains(character) {
                break;
            }
            word.push(character);
            self.bump();
        }
        word
    }

    /// A move number, NAG or move (possibly glued to its number, `1.11-15`).
    fn movetext_word(
        game: &mut Partial,
        word: &str,
        line: usize,
        column: usize,
    ) -> Result<(), PdnError> {
        if word.starts_with('$') && word.len() > 1 && word[1..].bytes().all(|b| b.is_ascii_digit())
        {
            return Ok(());
        }
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        let dots = word[digits..].bytes().take_while(|&b| b == b'.').count();
        let (rest, rest_column) = if digits > 0 && dots > 0 {
            (&word[digits + dots..], column + digits + dots)
        } else {
            (word, column)
        };
        if rest.is_empty() {
            return Ok(());
        }
        let text = rest.trim_end_matches(['!', '?']);
        let mv = game.position.parse_move(text).map_err(|error| {
            let number = game.moves.len() + 1;
            let side = game.position.side_to_move();
            match error {
                // Point at the offending character itself, not at the start of the move.
                MoveError::Syntax {
                    text,
                    column,
                    reason,
                } => Self::error_at(
                    line,
                    rest_column + column - 1,
                    format!(
                        "move {number} ({side}): invalid move text {}: {reason}",
                        excerpt(&text)
                    ),
                ),
                error => Self::error_at(
                    line,
                    rest_column,
                    format!("move {number} ({side}): {error}"),
                ),
            }
        })?;
        game.position = game.position.play(mv);
        game.moves.push(mv);
        Ok(())
    }

    fn apply_tag(
        &self,
        game: &mut Partial,
        name: &str,
        value: &str,
        line: usize,
        column: usize,
    ) -> Result<(), PdnError> {
        match name {
            "FEN" => {
                let position = Position::from_fen(value).map_err(|error| {
                    Self::error_at(line, column, format!("in the FEN tag: {error}"))
                })?;
                game.start = position;
                game.position = position;
            }
            "GameType" => {
                let kind = value.split(',').next().unwrap_or("").trim();
                if kind != "21" {
                    return Err(Self::error_at(
                        line,
                        column,
                        format!("GameType {} is not English draughts (21)", excerpt(value)),
                    ));
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// `[Name "value"]`.
    fn tag(&mut self) -> Result<(String, String), PdnError> {
        let (line, column) = (self.line, self.column);
        self.bump();
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
        let mut name = String::new();
        while let Some(character) = self.peek() {
            if character.is_alphanumeric() || character == '_' {
                name.push(character);
                self.bump();
            } else {
                break;
            }
        }
        if name.is_empty() {
            return Err(Self::error_at(
                self.line,
                self.column,
                "a tag needs a name, as in [Event \"...\"]".to_string(),
            ));
        }
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
        if self.peek() != Some('"') {
            return Err(Self::error_at(
                self.line,
                self.column,
                format!(
                    "the value of tag {} must be a quoted string",
                    excerpt(&name)
                ),
            ));
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                None => {
                    return Err(Self::error_at(
                        line,
                        column,
                        format!(
                            "the value of tag {} is not closed with '\"'",
                            excerpt(&name)
                        ),
                    ));
                }
                Some('"') => break,
                Some('\\') => match self.bump() {
                    Some(escaped @ ('"' | '\\')) => value.push(escaped),
                    Some(other) => {
                        value.push('\\');
                        value.push(other);
                    }
                    None => {
                        return Err(Self::error_at(
                            line,
                            column,
                            format!(
                                "the value of tag {} is not closed with '\"'",
                                excerpt(&name)
                            ),
                        ));
                    }
                },
                Some(character) => value.push(character),
            }
        }
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
        if self.peek() != Some(']') {
            return Err(Self::error_at(
                self.line,
                self.column,
                format!("tag {} is not closed with ']'", excerpt(&name)),
            ));
        }
        self.bump();
        Ok((name, value))
    }

    fn skip_comment(&mut self) -> Result<(), PdnError> {
        let (line, column) = (self.line, self.column);
        self.bump();
        loop {
            match self.bump() {
                None => {
                    return Err(Self::error_at(
                        line,
                        column,
                        "comment '{' is never closed with '}'".to_string(),
                    ));
                }
                Some('}') => return Ok(()),
                Some(_) => {}
            }
        }
    }

    fn skip_variation(&mut self) -> Result<(), PdnError> {
        let (line, column) = (self.line, self.column);
        self.bump();
        let mut depth = 1usize;
        while depth > 0 {
            match self.peek() {
                None => {
                    return Err(Self::error_at(
                        line,
                        column,
                        "variation '(' is never closed with ')'".to_string(),
                    ));
                }
                Some('{') => self.skip_comment()?,
                Some('(') => {
                    depth += 1;
                    self.bump();
                }
                Some(')') => {
                    depth -= 1;
                    self.bump();
                }
                Some(_) => {
                    self.bump();
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_read_with_tags_numbers_comments_and_result() {
        let text = "[Event \"Test \\\"quoted\\\"\"]\n[Result \"1-0\"]\n\n1. 11-15 23-19 {Old Fourteenth?} 2. 8-11 (2. 9-13) 22-17 $1 3. 4-8! 1-0\n";
        let games = read_pdn(text).expect("valid PDN");
        assert_eq!(games.len(), 1);
        let game = &games[0];
        assert_eq!(game.tag("Event"), Some("Test \"quoted\""));
        let moves: Vec<String> = game.moves.iter().map(ToString::to_string).collect();
        assert_eq!(moves, ["11-15", "23-19", "8-11", "22-17", "4-8"]);
        assert_eq!(game.result, GameResult::BlackWins);
    }

    #[test]
    fn a_game_from_a_fen_with_white_to_move_is_numbered_from_one_ellipsis() {
        let mut game = PdnGame::new(Position::from_fen("W:W18:B14").expect("valid"));
        let mv = game.start.parse_move("18x9").expect("legal");
        game.moves.push(mv);
        game.set_result(GameResult::WhiteWins);
        let text = game.to_string();
        assert!(text.contains("\n1... 18x9 0-1\n"), "{text}");
        assert_eq!(read_pdn(&text).expect("reads back"), vec![game]);
    }

    #[test]
    fn errors_give_line_and_column() {
        let error = read_pdn("[Event \"x\"]\n1. 10-15 24-19 2. 15-18").unwrap_err();
        assert_eq!((error.line, error.column), (2, 19));
        assert!(error.reason.contains("capture is compulsory"), "{error}");
        let error = read_pdn("1. 11-15 {never closed").unwrap_err();
        assert_eq!((error.line, error.column), (1, 10));
    }
}
