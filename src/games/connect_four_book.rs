//! An opening book for Connect Four: the exact score of every position up to some number of
//! stones, computed once by the solver, so that a player near the start of the game, where
//! a solve takes seconds to a minute, answers at once (Tromp's 8-ply database and Pons'
//! book serve the same end).
//!
//! A book is text in the format of Pons' benchmark files, one position a line: the moves
//! from the empty board (1-based columns; nothing for the empty board, the line then
//! starting with a blank) and the score for the player to move. So `gametree connect4
//! solve BOOK` checks every entry. A position and its mirror image share one entry.

use std::collections::HashMap;
use std::collections::HashSet;
use std::fmt;

use crate::game::Game;
use crate::games::connect_four::ConnectFour;

/// Scores by [`ConnectFour::symmetric_key`], for one board size.
#[derive(Clone, Debug)]
pub struct OpeningBook {
    width: u32,
    height: u32,
    scores: HashMap<u64, i8>,
}

/// What is wrong with a line of a book.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct BookError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl OpeningBook {
    /// An empty book for a `width` × `height` board.
    #[must_use]
    pub fn new(width: u32, height: u32) -> Self {
        OpeningBook {
            width,
            height,
            scores: HashMap::new(),
        }
    }

    /// Reads a book for a board of `empty`'s size from `text` (see the module
    /// documentation).
    ///
    /// # Errors
    /// [`BookError`] naming the first line that is not `MOVES SCORE` with legal moves
    /// that leave the game unfinished and a score a position can have.
    pub fn parse(text: &str, empty: &ConnectFour) -> Result<Self, BookError> {
        let mut book = OpeningBook::new(empty.width(), empty.height());
        for (index, line) in text.lines().enumerate() {
            let error = |message: String| BookError {
                line: index + 1,
                message,
            };
            let (moves, mut fields) = split_line(line);
            let score = fields
                .next()
                .ok_or_else(|| error("no score after the moves".into()))?;
            if fields.next().is_some() {
                return Err(error("more than MOVES SCORE".into()));
            }
            let mut game = *empty;
            game.play_moves(moves)
                .map_err(|problem| error(problem.to_string()))?;
            if game.is_over() {
                return Err(error(format!("the game is over after {moves}")));
            }
            let reach = game.max_score();
            let score: i32 = score
                .parse()
                .ok()
                .filter(|score: &i32| score.abs() <= reach)
                .ok_or_else(|| {
                    error(format!(
                        "score {score} is not a whole number within ±{reach}"
                    ))
                })?;
            book.insert(&game, score);
        }
        Ok(book)
    }

    /// The score of `game` for the player to move, if the book has it (and `game` is on the
    /// book's board).
    #[must_use]
    pub fn score(&self, game: &ConnectFour) -> Option<i32> {
        if (game.width(), game.height()) != (self.width, self.height) {
            return None;
        }
        self.scores
            .get(&game.symmetric_key())
            .map(|&score| i32::from(score))
    }

    /// Records `score` (for the player to move) as `game`'s, and its mirror image's.
    ///
    /// # Panics
    /// If `game` is on another board than the book's, or the score does not fit a byte
    /// (no Connect Four board a `u64` holds has such a score).
    pub fn insert(&mut self, game: &ConnectFour, score: i32) {
        assert_eq!(
            (game.width(), game.height()),
            (self.width, self.height),
            "a position on the book's board"
        );
        let score = i8::try_from(score).expect("invariant: a Connect Four score fits a byte");
        self.scores.insert(game.symmetric_key(), score);
    }

    /// How many positions (a mirror pair counted once) the book holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    /// Whether the book holds nothing.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }
}

/// A line of Pons' format split into its moves (nothing for the empty board, whose line
/// starts with a blank) and the fields after them (the score, if the line gives one).
///
/// # Example
/// ```
/// use gametree::games::connect_four_book::split_line;
///
/// let (moves, mut rest) = split_line("4453 -2");
/// assert_eq!((moves, rest.next()), ("4453", Some("-2")));
/// let (moves, mut rest) = split_line(" 1");
/// assert_eq!((moves, rest.next()), ("", Some("1")));
/// ```
#[must_use]
pub fn split_line(line: &str) -> (&str, std::str::SplitWhitespace<'_>) {
    let mut fields = line.split_whitespace();
    let moves = if line.starts_with(char::is_whitespace) {
        ""
    } else {
        fields.next().unwrap_or_default()
    };
    (moves, fields)
}

/// One position of [`positions_up_to`]: the moves that reach it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookPosition {
    /// 1-based columns from the empty board.
    pub moves: String,
    /// The game after them.
    pub game: ConnectFour,
}

impl fmt::Display for BookPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.moves)
    }
}

/// Every unfinished position of at most `stones` stones on `empty`'s board, a mirror pair
/// once, the fewest stones first (and within a number of stones, in the order the
/// columns reach them: 1 before 2), each with the first moves that reach it in that order.
#[must_use]
pub fn positions_up_to(empty: &ConnectFour, stones: u32) -> Vec<BookPosition> {
    let mut level = vec![BookPosition {
        moves: String::new(),
        game: *empty,
    }];
    let mut all = Vec::new();
    let mut columns = Vec::new();
    for depth in 0..=stones {
        let mut next = Vec::new();
        if depth < stones {
            let mut seen = HashSet::new();
            for position in &level {
                columns.clear();
                position.game.successors(&mut columns);
                columns.sort_unstable();
                for &column in &columns {
                    let mut game = position.game;
                    game.update(column);
                    if !game.is_over() && seen.insert(game.symmetric_key()) {
                        next.push(BookPosition {
                            moves: format!("{}{}", position.moves, column + 1),
                            game,
                        });
                    }
                }
            }
        }
        all.append(&mut level);
        level = next;
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_positions_up_to_four_stones_are_counted_once_a_mirror_pair() {
        let empty = ConnectFour::new();
        let positions = positions_up_to(&empty, 4);
        let at = |stones: u32| {
            positions
                .iter()
                .filter(|position| position.game.moves_played() == stones)
                .count()
        };
        // 1, 7, 49, 238, 1120 positions (OEIS A212693); mirror pairs once: the symmetric
        // ones count whole.
        // One stone: columns 1–4 (5–7 mirror 3–1); two: the 49 pairs, (4, 4) alone its
        // own mirror image, (49 − 1)/2 + 1.
        assert_eq!((at(0), at(1), at(2)), (1, 4, 25));
        let symmetric = |stones: u32| {
            positions
                .iter()
                .filter(|position| position.game.moves_played() == stones)
                .filter(|position| {
                    let mut mirrored = String::new();
                    for column in position.moves.chars() {
                        let digit = column.to_digit(10).expect("a digit");
                        mirrored.push(char::from_digit(8 - digit, 10).expect("a digit"));
                    }
                    ConnectFour::from_moves(&mirrored).expect("legal") == position.game
                })
                .count()
        };
        for (stones, all) in [(3, 238), (4, 1120)] {
            assert_eq!(2 * at(stones) - symmetric(stones), all, "{stones} stones");
        }
        // On a board whose columns fill up, every position is reached by legal moves.
        let small = ConnectFour::with_size(5, 4).expect("a board");
        for position in positions_up_to(&small, 6) {
            let mut replayed = small;
            replayed.play_moves(&position.moves).expect("legal moves");
            assert_eq!(replayed, position.game, "{}", position.moves);
        }
        assert!(
            positions
                .windows(2)
                .all(|pair| { pair[0].game.moves_played() <= pair[1].game.moves_played() })
        );
    }

    #[test]
    fn a_book_reads_what_it_wrote_and_finds_mirror_images() {
        let empty = ConnectFour::with_size(5, 4).expect("a board");
        let book = OpeningBook::parse(" 0\n1 -1\n12 2\n", &empty).expect("a book");
        assert_eq!(book.len(), 3);
        assert_eq!(book.score(&empty), Some(0));
        let mut mirror = empty;
        mirror.play_moves("54").expect("legal");
        assert_eq!(book.score(&mirror), Some(2));
        assert_eq!(book.score(&ConnectFour::new()), None, "another board");
    }

    #[test]
    fn a_bad_line_is_named() {
        let empty = ConnectFour::new();
        let error = OpeningBook::parse("4 1\n48 2\n", &empty).expect_err("no column 8");
        assert_eq!(error.line, 2);
        let error = OpeningBook::parse("4\n", &empty).expect_err("no score");
        assert_eq!(error.to_string(), "line 1: no score after the moves");
        let error = OpeningBook::parse("4 30\n", &empty).expect_err("too large");
        assert!(error.message.contains("within ±"), "{error}");
        let error = OpeningBook::parse("4455667 1\n", &empty).expect_err("over");
        assert!(error.message.contains("over"), "{error}");
    }
}
