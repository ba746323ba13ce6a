//! Endgame databases: every position with few pieces valued once, before the search, so
//! that a search that reaches one reads its value instead of searching it.
//!
//! The game divides the positions the database holds into *slices* (Kalah: by the seeds
//! left in the houses; checkers: by the pieces on the board) and numbers the positions of
//! each slice ([`Endgame`]). No move may lead from a slice to a later one: a move either
//! stays in its slice or leaves for an earlier one (a capture, seeds reaching a store), or
//! ends the game. [`EndgameTable::build`] then values the slices in order, each position
//! from its successors' values: those in earlier slices are already in the table, and
//! those in the same slice are valued first, depth-first. This is retrograde analysis
//! done forwards, as Irving, Donkers and Uiterwijk built Kalah's databases ("Solving
//! Kalah", 2000): it needs no unmoves.
//!
//! Moves that stay in a slice may form cycles (checkers kings going back and forth). A
//! position whose value waits on a cycle is left for another pass over the slice, in which
//! it is valued if its best successor already reaches the most the position can be worth
//! (the upper bound of [`Solvable::outlook`]) or once all its successors are valued; what
//! no pass can value takes [`Endgame::endless_value`] (a draw). That is the classic
//! retrograde fixed point for games valued win, draw or loss; for a game whose values are
//! margins (Kalah) it is exact only without cycles, and Kalah has none (a move that keeps
//! every seed in the houses carries seeds forwards).
//!
//! A table holds each position's score to its player to move less that player's
//! [`Solvable::settled_value`] (Kalah: the margin still to be won, whatever the stores
//! hold), one byte a position.

use std::fmt;
use std::io::{self, Read, Write};
use std::time::{Duration, Instant};

use crate::game::{Game, Player};
use crate::search::solver::{Outlook, Solvable};

/// A game whose positions with few pieces an [`EndgameTable`] can hold.
pub trait Endgame: Solvable {
    /// What the table is for, written into a saved table and checked when it is read:
    /// the game, its size and the rules that change values (`"kalah houses=6 irving"`).
    fn endgame_id(&self) -> String;

    /// Positions in `slice` (Kalah: every way to lay `slice` seeds in the houses), at most
    /// [`MAX_SLICE_POSITIONS`].
    fn slice_len(&self, slice: usize) -> u64;

    /// Sets the game to position `index` of `slice` (`index < slice_len(slice)`), as a
    /// position in play: it forgets what was played before.
    fn set_position(&mut self, slice: usize, index: u64);

    /// The slice and index of the current position, or `None` when it lies in no slice
    /// below `slices`. A game with symmetric positions maps them to one index (Kalah: the
    /// board seen from the player to move), and then [`set_position`](Self::set_position)
    /// sets up one of them.
    fn position_index(&self, slices: usize) -> Option<(usize, u64)>;

    /// The score to the player to move of a position no pass could value: one where play
    /// can go on for ever. A draw (0) by default.
    fn endless_value(&self) -> i32 {
        0
    }
}

/// The most positions one slice may have: an index is kept in a `u64`, but the table holds
/// a byte a position in memory.
pub const MAX_SLICE_POSITIONS: u64 = 1 << 36;

/// Not valued yet.
const UNKNOWN: i8 = i8::MIN;
/// Being valued: on the stack of the depth-first pass.
const IN_PROGRESS: i8 = i8::MIN + 1;
/// Waiting on a cycle: left for the next pass.
const DEFERRED: i8 = i8::MIN + 2;
/// The least value a table can hold: below it are the markers above.
const LEAST_VALUE: i32 = i8::MIN as i32 + 3;

/// Why a table could not be built, read or written.
#[derive(Debug, thiserror::Error)]
pub enum EndgameError {
    /// The game broke a promise of [`Endgame`]; the message says which.
    #[error("the game is not an endgame database's game: {0}")]
    Game(String),
    /// A slice too large to hold.
    #[error("slice {slice} has {positions} positions: at most {MAX_SLICE_POSITIONS} fit a table")]
    TooLarge {
        /// The slice.
        slice: usize,
        /// Its positions.
        positions: u64,
    },
    /// A saved table that is not one, or is for another game.
    #[error("{0}")]
    Format(String),
    /// Reading or writing failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Where a [`EndgameTable::build`] is: what its progress callback is given after each
/// pass over a slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildProgress {
    /// The slice valued last.
    pub slice: usize,
    /// The slices being built.
    pub slices: usize,
    /// Positions valued so far, in every slice.
    pub positions: u64,
    /// Time since the build began.
    pub elapsed: Duration,
}

/// An endgame database: a byte a position, slice by slice. See the
/// [module documentation](self).
#[derive(Clone, PartialEq, Eq)]
pub struct EndgameTable {
    id: String,
    slices: Vec<Box<[i8]>>,
}

impl fmt::Debug for EndgameTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EndgameTable")
            .field("id", &self.id)
            .field("slices", &self.slices.len())
            .field("positions", &self.positions())
            .finish()
    }
}

/// A score to `mover` as a value to MAX, or back.
fn seen_by(value: i32, mover: Player) -> i32 {
    match mover {
        Player::Max => value,
        Player::Min => -value,
    }
}

impl EndgameTable {
    /// Values every position of slices `0..slices` of `game`'s kind, calling `progress`
    /// after each slice. `game` is used as a board to set positions on; what it held is
    /// lost.
    ///
    /// # Errors
    /// [`EndgameError::TooLarge`] for a slice over [`MAX_SLICE_POSITIONS`], and
    /// [`EndgameError::Game`] when a move leads to a later slice or out of every slice, a
    /// position in play has no moves, or a value does not fit a byte.
    ///
    /// # Example
    /// Kalah with two houses a side, every position with up to 12 seeds in the houses:
    /// ```
    /// use gametree::games::kalah::{Kalah, KalahRules};
    /// use gametree::search::retrograde::EndgameTable;
    ///
    /// let mut board = Kalah::new(2, 1, KalahRules::irving()).expect("a board");
    /// let table = EndgameTable::build(&mut board, 13, |_| {}).expect("Kalah is an endgame game");
    /// // Slice n holds the (n + 3 choose 3) ways to lay n seeds in four houses.
    /// let expected: u64 = (0..13_u64).map(|n| (n + 1) * (n + 2) * (n + 3) / 6).sum();
    /// assert_eq!(table.positions(), expected);
    /// // Every position of a slice is valued: the start of Kalah(2,3) has 12 seeds in the
    /// // houses, and the table gives its value.
    /// let start = Kalah::new(2, 3, KalahRules::irving()).expect("a board");
    /// assert!(table.probe(&start).is_some());
    /// ```
    pub fn build<G: Endgame>(
        game: &mut G,
        slices: usize,
        mut progress: impl FnMut(BuildProgress),
    ) -> Result<EndgameTable, EndgameError> {
        let started = Instant::now();
        let mut table = EndgameTable {
            id: game.endgame_id(),
            slices: Vec::with_capacity(slices),
        };
        let mut valued = 0;
        for slice in 0..slices {
            let positions = game.slice_len(slice);
            if positions > MAX_SLICE_POSITIONS {
                return Err(EndgameError::TooLarge { slice, positions });
            }
            let len = usize::try_from(positions)
                .map_err(|_| EndgameError::TooLarge { slice, positions })?;
            table.slices.push(vec![UNKNOWN; len].into_boxed_slice());
            table.value_slice(game, slice)?;
            valued += positions;
            progress(BuildProgress {
                slice,
                slices,
                positions: valued,
                elapsed: started.elapsed(),
            });
        }
        Ok(table)
    }

    /// Values slice `slice` (the last of `self.slices`), pass after pass until a pass
    /// values nothing new.
    fn value_slice<G: Endgame>(&mut self, game: &mut G, slice: usize) -> Result<(), EndgameError> {
        let mut moves = Vec::new();
        let mut stack: Vec<u64> = Vec::new();
        let len = self.slices[slice].len() as u64;
        loop {
            let mut valued_in_pass = 0_u64;
            let mut deferred = 0_u64;
            for root in 0..len {
                if self.slices[slice][as_index(root)] != UNKNOWN {
                    continue;
                }
                stack.push(root);
                while let Some(&index) = stack.last() {
                    let current = self.slices[slice][as_index(index)];
                    if current != UNKNOWN && current != IN_PROGRESS {
                        // Pushed twice (two moves lead to it) and valued since.
                        stack.pop();
                        continue;
                    }
                    match self.value_position(game, slice, index, &mut moves, &mut stack)? {
                        Valued::Value(value) => {
                            self.slices[slice][as_index(index)] = value;
                            valued_in_pass += 1;
                            stack.pop();
                        }
                        Valued::Deferred => {
                            self.slices[slice][as_index(index)] = DEFERRED;
                            deferred += 1;
                            stack.pop();
                        }
                        Valued::Waiting => {
                            self.slices[slice][as_index(index)] = IN_PROGRESS;
                        }
                    }
                }
            }
            if deferred == 0 {
                return Ok(());
            }
            // Positions left waiting on a cycle: another pass, or, when the last valued
            // nothing, play that goes on for ever.
            let last_pass = valued_in_pass == 0;
            for index in 0..len {
                if self.slices[slice][as_index(index)] != DEFERRED {
                    continue;
                }
                self.slices[slice][as_index(index)] = if last_pass {
                    game.set_position(slice, index);
                    let settled = seen_by(game.settled_value(), game.to_move());
                    relative_byte(game.endless_value(), settled)?
                } else {
                    UNKNOWN
                };
            }
            if last_pass {
                return Ok(());
            }
        }
    }

    /// Values position `index` of `slice` from its successors, or pushes the successors in
    /// the same slice that are not valued yet onto `stack` and says it waits on them.
    fn value_position<G: Endgame>(
        &self,
        game: &mut G,
        slice: usize,
        index: u64,
        moves: &mut Vec<G::Move>,
        stack: &mut Vec<u64>,
    ) -> Result<Valued, EndgameError> {
        game.set_position(slice, index);
        let mover = game.to_move();
        let settled = seen_by(game.settled_value(), mover);
        let upper = match game.outlook(false) {
            Outlook::Known(value) => {
                return Ok(Valued::Value(relative_byte(
                    seen_by(value, mover),
                    settled,
                )?));
            }
            Outlook::Search { lower, upper, .. } => {
                let (_, upper) = match mover {
                    Player::Max => (lower, upper),
                    Player::Min => (upper.saturating_neg(), lower.saturating_neg()),
                };
                upper
            }
        };
        moves.clear();
        game.successors(moves);
        if moves.is_empty() {
            return Err(EndgameError::Game(format!(
                "position {index} of slice {slice} is in play but has no moves"
            )));
        }
        let mut best = i32::MIN;
        let mut waiting = false;
        let mut on_cycle = false;
        let slices = self.slices.len();
        for &mv in moves.iter() {
            game.update(mv);
            let through = if game.is_terminal() {
                Some(seen_by(game.value(), mover))
            } else {
                let (child_slice, child_index) = game.position_index(slices).ok_or_else(|| {
                    EndgameError::Game(format!(
                        "a move from position {index} of slice {slice} leads out of every slice"
                    ))
                })?;
                if child_slice > slice {
                    return Err(EndgameError::Game(format!(
                        "a move from position {index} of slice {slice} leads to slice {child_slice}"
                    )));
                }
                match self.slices[child_slice][as_index(child_index)] {
                    UNKNOWN => {
                        stack.push(child_index);
                        waiting = true;
                        None
                    }
                    IN_PROGRESS | DEFERRED => {
                        on_cycle = true;
                        None
                    }
                    value => {
                        let child_mover = game.to_move();
                        let score = i32::from(value) + seen_by(game.settled_value(), child_mover);
                        Some(if child_mover == mover { score } else { -score })
                    }
                }
            };
            game.revert(mv);
            if let Some(through) = through {
                best = best.max(through);
            }
        }
        if best >= upper || (!waiting && !on_cycle) {
            return Ok(Valued::Value(relative_byte(best, settled)?));
        }
        Ok(if waiting {
            Valued::Waiting
        } else {
            Valued::Deferred
        })
    }

    /// The game and rules the table was built for.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Slices held: the table values the positions of slices `0..slices()`.
    #[must_use]
    pub fn slices(&self) -> usize {
        self.slices.len()
    }

    /// Positions held, in every slice.
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.slices.iter().map(|slice| slice.len() as u64).sum()
    }

    /// The memory the table takes, in bytes (a byte a position).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.slices.iter().map(|slice| slice.len()).sum()
    }

    /// The value to MAX of `game`'s position when the table holds it. Cheap: one index
    /// computed, one byte read.
    #[inline]
    pub fn probe<G: Endgame>(&self, game: &G) -> Option<i32> {
        let (slice, index) = game.position_index(self.slices.len())?;
        let relative = i32::from(*self.slices.get(slice)?.get(as_index(index))?);
        let mover = game.to_move();
        Some(seen_by(relative, mover) + game.settled_value())
    }

    /// Writes the table: a header (a magic line, the id, the slices' lengths) and then the
    /// values, a byte a position.
    ///
    /// # Errors
    /// What writing failed with.
    pub fn write_to(&self, mut writer: impl Write) -> io::Result<()> {
        writeln!(writer, "{MAGIC}")?;
        writeln!(writer, "{}", self.id)?;
        let lengths: Vec<String> = self.slices.iter().map(|s| s.len().to_string()).collect();
        writeln!(writer, "{}", lengths.join(" "))?;
        for slice in &self.slices {
            let bytes: Vec<u8> = slice.iter().map(|&value| value.to_le_bytes()[0]).collect();
            writer.write_all(&bytes)?;
        }
        writer.flush()
    }

    /// Reads a table [`write_to`](Self::write_to) wrote, checking that it was built for
    /// `id` ([`Endgame::endgame_id`] of the game that will probe it).
    ///
    /// # Errors
    /// [`EndgameError::Format`] when it is not a table or is for another game, and
    /// [`EndgameError::Io`] when reading fails.
    pub fn read_from(reader: impl Read, id: &str) -> Result<EndgameTable, EndgameError> {
        let mut reader = io::BufReader::new(reader);
        let mut line = |what: &str| -> Result<String, EndgameError> {
            let mut bytes = Vec::new();
            let mut byte = [0_u8];
            loop {
                if reader.read(&mut byte)? == 0 || byte[0] == b'\n' {
                    break;
                }
                bytes.push(byte[0]);
                if bytes.len() > 4096 {
                    break;
                }
            }
            String::from_utf8(bytes).map_err(|_| {
                EndgameError::Format(format!("not an endgame table: its {what} is not text"))
            })
        };
        if line("first line")? != MAGIC {
            return Err(EndgameError::Format(
                "not an endgame table written by gametree (its first line is wrong)".into(),
            ));
        }
        let found = line("id")?;
        if found != id {
            return Err(EndgameError::Format(format!(
                "the table is for `{found}`, not `{id}`"
            )));
        }
        let lengths = line("list of slices")?;
        let mut slices = Vec::new();
        for (slice, length) in lengths.split_whitespace().enumerate() {
            let positions: u64 = length.parse().map_err(|_| {
                EndgameError::Format(format!("slice {slice}'s length `{length}` is not a number"))
            })?;
            if positions > MAX_SLICE_POSITIONS {
                return Err(EndgameError::TooLarge { slice, positions });
            }
            let mut bytes = vec![0_u8; as_index(positions)];
            reader.read_exact(&mut bytes).map_err(|error| {
                if error.kind() == io::ErrorKind::UnexpectedEof {
                    EndgameError::Format(format!("the table ends inside slice {slice}"))
                } else {
                    EndgameError::Io(error)
                }
            })?;
            let values: Vec<i8> = bytes
                .into_iter()
                .map(|byte| i8::from_le_bytes([byte]))
                .collect();
            if values.iter().any(|&value| i32::from(value) < LEAST_VALUE) {
                return Err(EndgameError::Format(format!(
                    "slice {slice} holds a position that was never valued"
                )));
            }
            slices.push(values.into_boxed_slice());
        }
        let mut rest = [0_u8];
        if reader.read(&mut rest)? != 0 {
            return Err(EndgameError::Format(
                "the table goes on past its last slice".into(),
            ));
        }
        Ok(EndgameTable {
            id: id.to_string(),
            slices,
        })
    }
}

/// The first line of a saved table.
const MAGIC: &str = "gametree endgame table 1";

/// What [`EndgameTable::value_position`] found.
enum Valued {
    Value(i8),
    /// Successors in the slice were pushed onto the stack: value them first.
    Waiting,
    /// A successor waits on a cycle: try again in the next pass.
    Deferred,
}

/// A slice index as a `usize`: slices were allocated, so their indices fit.
#[allow(clippy::cast_possible_truncation)]
fn as_index(index: u64) -> usize {
    index as usize
}

/// A score less the settled score, as the byte a table keeps.
fn relative_byte(score: i32, settled: i32) -> Result<i8, EndgameError> {
    let relative = score.saturating_sub(settled);
    if relative < LEAST_VALUE || relative > i32::from(i8::MAX) {
        return Err(EndgameError::Game(format!(
            "a value of {relative} does not fit a table's byte ({LEAST_VALUE} to {})",
            i8::MAX
        )));
    }
    Ok(i8::try_from(relative).expect("checked above"))
}
