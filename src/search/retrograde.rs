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
use std::sync::atomic::{AtomicI8, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use memmap2::MmapMut;

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
///
/// While it is built the bytes are atomics, so that threads can value a slice together
/// ([`build_parallel`](Self::build_parallel)); a built table keeps them in one block of
/// plain bytes, which on Linux asks for transparent huge pages: a probe is a random read
/// in a table of up to gigabytes, and with 2 MiB pages it seldom misses the processor's
/// address translation cache (measured here: random reads in 1.25 GB, 56 ns against 80 ns).
pub struct EndgameTable {
    id: String,
    /// The slices being built; empty once built.
    slices: Vec<Box<[AtomicI8]>>,
    /// The built table.
    values: Values,
}

/// A built table's bytes: every slice, one after another.
struct Values {
    bytes: MmapMut,
    /// Where each slice starts in `bytes`, and the end of the last one.
    starts: Vec<usize>,
}

impl Values {
    /// Room for slices of `lengths` positions, zeroed.
    fn with_lengths(lengths: &[usize]) -> io::Result<Values> {
        let mut starts = Vec::with_capacity(lengths.len() + 1);
        let mut total = 0_usize;
        starts.push(0);
        for &length in lengths {
            total = total.checked_add(length).ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::OutOfMemory,
                    "the table does not fit in memory",
                )
            })?;
            starts.push(total);
        }
        let bytes = crate::search::huge_page_map(total)?;
        Ok(Values { bytes, starts })
    }

    fn total(&self) -> usize {
        self.starts.last().copied().unwrap_or(0)
    }

    /// The byte of position `index` of `slice`, if the table holds it.
    #[inline]
    fn get(&self, slice: usize, index: u64) -> Option<i8> {
        let start = *self.starts.get(slice)?;
        let end = *self.starts.get(slice + 1)?;
        let index = usize::try_from(index).ok()?;
        if index >= end - start {
            return None;
        }
        Some(i8::from_le_bytes([self.bytes[start + index]]))
    }
}

impl fmt::Debug for EndgameTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EndgameTable")
            .field("id", &self.id)
            .field("slices", &self.slices())
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

/// A successor as [`EndgameTable::value_position`] reads it: its value through the move
/// when known at once, or where to read it.
#[derive(Clone, Copy)]
enum Through {
    Known(i32),
    /// In the table: slice, index, and what to add to the byte (its settled score) and
    /// whether to negate, for the score to the position's mover.
    Entry {
        slice: usize,
        index: u64,
        settled: i32,
        same_mover: bool,
    },
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
        let mut table = EndgameTable::empty(game.endgame_id(), slices)?;
        let mut valued = 0;
        for slice in 0..slices {
            valued += table.add_slice(game, slice)?;
            table.value_slice(game, slice, |table, game, next| {
                table.value_pass(game, slice, next)
            })?;
            progress(BuildProgress {
                slice,
                slices,
                positions: valued,
                elapsed: started.elapsed(),
            });
        }
        table.freeze()
    }

    /// [`build`](Self::build) on `threads` threads, each with its own copy of `game`: the
    /// first pass over each slice is shared out in blocks of positions; a position that
    /// waits on one another thread is valuing is left for the next pass, which is done on
    /// one thread. The table is the same as [`build`](Self::build)'s.
    ///
    /// # Errors
    /// As [`build`](Self::build).
    pub fn build_parallel<G: Endgame + Clone + Send>(
        game: &G,
        slices: usize,
        threads: usize,
        progress: impl FnMut(BuildProgress),
    ) -> Result<EndgameTable, EndgameError> {
        EndgameTable::resume_parallel(game, slices, threads, None, progress, |_| Ok(()))
    }

    /// [`build_parallel`](Self::build_parallel) that can be stopped and resumed: a table of
    /// slices `0..k` is itself a table (a probe beyond it finds nothing), so `checkpoint`
    /// is given the table after each slice to save when it likes ([`write_to`](Self::write_to)
    /// writes the slices done), and a later build given what was saved (`done`, read back
    /// with [`read_from`](Self::read_from)) values only the slices after it. The table is
    /// the same as one built at once.
    ///
    /// # Errors
    /// As [`build`](Self::build); [`EndgameError::Format`] when `done` is for another game
    /// or its slices are not the game's; what `checkpoint` fails with.
    pub fn resume_parallel<G: Endgame + Clone + Send>(
        game: &G,
        slices: usize,
        threads: usize,
        done: Option<EndgameTable>,
        mut progress: impl FnMut(BuildProgress),
        mut checkpoint: impl FnMut(&EndgameTable) -> Result<(), EndgameError>,
    ) -> Result<EndgameTable, EndgameError> {
        let started = Instant::now();
        let mut board = game.clone();
        let mut table = match done {
            Some(done) => done.thaw(game, slices)?,
            None => EndgameTable::empty(game.endgame_id(), slices)?,
        };
        let mut valued: u64 = table.slices.iter().map(|slice| slice.len() as u64).sum();
        let threads = threads.max(1);
        for slice in table.slices.len()..slices {
            valued += table.add_slice(&board, slice)?;
            let mut first_pass = true;
            table.value_slice(&mut board, slice, |table, board, next| {
                if !std::mem::take(&mut first_pass) || threads == 1 {
                    return table.value_pass(board, slice, next);
                }
                let table = &*table;
                std::thread::scope(|scope| {
                    let workers: Vec<_> = (0..threads)
                        .map(|_| {
                            let mut board = board.clone();
                            scope.spawn(move || table.value_pass(&mut board, slice, next))
                        })
                        .collect();
                    let mut total = PassCounts::default();
                    for worker in workers {
                        let counts = worker
                            .join()
                            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
                        total.valued += counts.valued;
                        total.deferred += counts.deferred;
                    }
                    Ok(total)
                })
            })?;
            progress(BuildProgress {
                slice,
                slices,
                positions: valued,
                elapsed: started.elapsed(),
            });
            checkpoint(&table)?;
        }
        table.freeze()
    }

    fn empty(id: String, slices: usize) -> Result<EndgameTable, EndgameError> {
        Ok(EndgameTable {
            id,
            slices: Vec::with_capacity(slices),
            values: Values::with_lengths(&[])?,
        })
    }

    /// Moves the built slices into one block of plain bytes, slice by slice (so that the
    /// memory taken grows by one slice at most).
    fn freeze(mut self) -> Result<EndgameTable, EndgameError> {
        let lengths: Vec<usize> = self.slices.iter().map(|slice| slice.len()).collect();
        let mut values = Values::with_lengths(&lengths)?;
        let slices = std::mem::take(&mut self.slices);
        for (slice, start) in slices.into_iter().zip(values.starts.clone()) {
            let target = &mut values.bytes[start..start + slice.len()];
            for (byte, value) in target.iter_mut().zip(slice.iter()) {
                *byte = value.load(Ordering::Relaxed).to_le_bytes()[0];
            }
        }
        self.values = values;
        Ok(self)
    }

    /// A saved table's slices made into slices being built, after checking that they are
    /// the first slices of `game`'s table of `slices` slices.
    fn thaw<G: Endgame>(self, game: &G, slices: usize) -> Result<EndgameTable, EndgameError> {
        same_id(&self.id, &game.endgame_id())?;
        let done = self.slices();
        if done > slices {
            return Err(EndgameError::Format(format!(
                "the table holds {done} slices, more than the {slices} being built"
            )));
        }
        let mut thawed = EndgameTable::empty(self.id, slices)?;
        for slice in 0..done {
            let (start, end) = (self.values.starts[slice], self.values.starts[slice + 1]);
            if game.slice_len(slice) != (end - start) as u64 {
                return Err(EndgameError::Format(format!(
                    "slice {slice} holds {} positions, not the game's {}",
                    end - start,
                    game.slice_len(slice)
                )));
            }
            thawed.slices.push(
                self.values.bytes[start..end]
                    .iter()
                    .map(|&byte| AtomicI8::new(i8::from_le_bytes([byte])))
                    .collect(),
            );
        }
        Ok(thawed)
    }

    /// The number of positions of each slice held, built or being built.
    fn slice_lengths(&self) -> Vec<usize> {
        if self.slices.is_empty() {
            self.values
                .starts
                .windows(2)
                .map(|bounds| bounds[1] - bounds[0])
                .collect()
        } else {
            self.slices.iter().map(|slice| slice.len()).collect()
        }
    }

    /// Allocates slice `slice`, every position not valued yet; returns its positions.
    fn add_slice<G: Endgame>(&mut self, game: &G, slice: usize) -> Result<u64, EndgameError> {
        let positions = game.slice_len(slice);
        if positions > MAX_SLICE_POSITIONS {
            return Err(EndgameError::TooLarge { slice, positions });
        }
        let len =
            usize::try_from(positions).map_err(|_| EndgameError::TooLarge { slice, positions })?;
        self.slices
            .push((0..len).map(|_| AtomicI8::new(UNKNOWN)).collect());
        Ok(positions)
    }

    /// The byte of position `index` of `slice`.
    #[inline]
    fn byte(&self, slice: usize, index: u64) -> i8 {
        self.slices[slice][as_index(index)].load(Ordering::Relaxed)
    }

    #[inline]
    fn set_byte(&self, slice: usize, index: u64, value: i8) {
        self.slices[slice][as_index(index)].store(value, Ordering::Relaxed);
    }

    /// Values slice `slice` (the last of `self.slices`), pass after pass (`pass` is given
    /// the next-block counter to share out the positions) until a pass values nothing new;
    /// then what is left waits on a cycle and takes the game's endless value.
    fn value_slice<G: Endgame>(
        &mut self,
        game: &mut G,
        slice: usize,
        mut pass: impl FnMut(&mut Self, &mut G, &AtomicU64) -> Result<PassCounts, EndgameError>,
    ) -> Result<(), EndgameError> {
        let len = self.slices[slice].len() as u64;
        loop {
            let counts = pass(self, game, &AtomicU64::new(0))?;
            if counts.deferred == 0 {
                return Ok(());
            }
            let last_pass = counts.valued == 0;
            for index in 0..len {
                if self.byte(slice, index) != DEFERRED {
                    continue;
                }
                let value = if last_pass {
                    game.set_position(slice, index);
                    let settled = seen_by(game.settled_value(), game.to_move());
                    relative_byte(game.endless_value(), settled)?
                } else {
                    UNKNOWN
                };
                self.set_byte(slice, index, value);
            }
            if last_pass {
                return Ok(());
            }
        }
    }

    /// One pass over the positions of `slice` not valued yet, in blocks taken from `next`
    /// (shared with the other threads of the pass), each valued depth-first.
    fn value_pass<G: Endgame>(
        &self,
        game: &mut G,
        slice: usize,
        next: &AtomicU64,
    ) -> Result<PassCounts, EndgameError> {
        const BLOCK: u64 = 1 << 12;
        let len = self.slices[slice].len() as u64;
        let mut moves = Vec::new();
        let mut successors = Vec::new();
        let mut stack: Vec<u64> = Vec::new();
        let mut counts = PassCounts::default();
        loop {
            let first = next.fetch_add(BLOCK, Ordering::Relaxed);
            if first >= len {
                return Ok(counts);
            }
            for root in first..(first + BLOCK).min(len) {
                if self.byte(slice, root) != UNKNOWN {
                    continue;
                }
                stack.push(root);
                while let Some(&index) = stack.last() {
                    let current = self.byte(slice, index);
                    if current != UNKNOWN && current != IN_PROGRESS {
                        // Pushed twice (two moves lead to it) and valued since.
                        stack.pop();
                        continue;
                    }
                    let valued = self.value_position(
                        game,
                        slice,
                        index,
                        &mut moves,
                        &mut successors,
                        &mut stack,
                    )?;
                    match valued {
                        Valued::Value(value) => {
                            self.set_byte(slice, index, value);
                            counts.valued += 1;
                            stack.pop();
                        }
                        Valued::Deferred => {
                            self.set_byte(slice, index, DEFERRED);
                            counts.deferred += 1;
                            stack.pop();
                        }
                        Valued::Waiting => self.set_byte(slice, index, IN_PROGRESS),
                    }
                }
            }
        }
    }

    /// Values position `index` of `slice` from its successors, or pushes the successors in
    /// the same slice that are not valued yet onto `stack` and says it waits on them.
    ///
    /// Every successor is located first and its byte read after: the reads, most of them
    /// misses in a large table, then go to memory together instead of one after another.
    fn value_position<G: Endgame>(
        &self,
        game: &mut G,
        slice: usize,
        index: u64,
        moves: &mut Vec<G::Move>,
        successors: &mut Vec<Through>,
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
            Outlook::Search { lower, upper, .. } => match mover {
                Player::Max => upper,
                Player::Min => lower.saturating_neg(),
            },
        };
        moves.clear();
        game.successors(moves);
        if moves.is_empty() {
            return Err(EndgameError::Game(format!(
                "position {index} of slice {slice} is in play but has no moves"
            )));
        }
        let slices = self.slices.len();
        successors.clear();
        for &mv in moves.iter() {
            game.update(mv);
            let through = if game.is_terminal() {
                Ok(Through::Known(seen_by(game.value(), mover)))
            } else {
                match game.position_index(slices) {
                    Some((child_slice, _)) if child_slice > slice => {
                        Err(EndgameError::Game(format!(
                            "a move from position {index} of slice {slice} leads to slice \
                             {child_slice}"
                        )))
                    }
                    Some((child_slice, child_index)) => {
                        let child_mover = game.to_move();
                        Ok(Through::Entry {
                            slice: child_slice,
                            index: child_index,
                            settled: seen_by(game.settled_value(), child_mover),
                            same_mover: child_mover == mover,
                        })
                    }
                    None => Err(EndgameError::Game(format!(
                        "a move from position {index} of slice {slice} leads out of every slice"
                    ))),
                }
            };
            game.revert(mv);
            successors.push(through?);
        }
        let mut best = i32::MIN;
        let mut waiting = false;
        let mut on_cycle = false;
        for through in successors.iter() {
            let score = match *through {
                Through::Known(score) => score,
                Through::Entry {
                    slice: child_slice,
                    index: child_index,
                    settled: child_settled,
                    same_mover,
                } => match self.byte(child_slice, child_index) {
                    UNKNOWN => {
                        stack.push(child_index);
                        waiting = true;
                        continue;
                    }
                    IN_PROGRESS | DEFERRED => {
                        on_cycle = true;
                        continue;
                    }
                    value => {
                        let score = i32::from(value) + child_settled;
                        if same_mover { score } else { -score }
                    }
                },
            };
            best = best.max(score);
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

    /// Slices held: the table values the positions of slices `0..slices()` (while it is
    /// built, as a checkpoint sees it: the slices done).
    #[must_use]
    pub fn slices(&self) -> usize {
        if self.slices.is_empty() {
            self.values.starts.len() - 1
        } else {
            self.slices.len()
        }
    }

    /// Positions held, in every slice.
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.memory_bytes() as u64
    }

    /// The memory the table takes, in bytes (a byte a position).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.slice_lengths().iter().sum()
    }

    /// The byte of position `index` of `slice`: the score to the player to move less that
    /// player's settled score; `None` outside the table. What a game reads when it values
    /// positions it has not set up ([`probe`](Self::probe) reads the current one).
    #[inline]
    #[must_use]
    pub fn relative_score(&self, slice: usize, index: u64) -> Option<i32> {
        self.values.get(slice, index).map(i32::from)
    }

    /// The value to MAX of `game`'s position when the table holds it. Cheap: one index
    /// computed, one byte read.
    #[inline]
    pub fn probe<G: Endgame>(&self, game: &G) -> Option<i32> {
        let (slice, index) = game.position_index(self.slices())?;
        let relative = i32::from(self.values.get(slice, index)?);
        let mover = game.to_move();
        Some(seen_by(relative, mover) + game.settled_value())
    }

    /// Writes the table: a header (a magic line, the id, the slices' lengths) and then the
    /// values, a byte a position. Given a table being built (a
    /// [`resume_parallel`](Self::resume_parallel) checkpoint), it writes the slices done.
    ///
    /// # Errors
    /// What writing failed with.
    pub fn write_to(&self, mut writer: impl Write) -> io::Result<()> {
        writeln!(writer, "{MAGIC}")?;
        writeln!(writer, "{}", self.id)?;
        let lengths: Vec<String> = self
            .slice_lengths()
            .iter()
            .map(ToString::to_string)
            .collect();
        writeln!(writer, "{}", lengths.join(" "))?;
        if self.slices.is_empty() {
            writer.write_all(&self.values.bytes[..self.values.total()])?;
        } else {
            let mut buffer = Vec::with_capacity(1 << 16);
            for slice in &self.slices {
                for chunk in slice.chunks(1 << 16) {
                    buffer.clear();
                    buffer.extend(
                        chunk
                            .iter()
                            .map(|value| value.load(Ordering::Relaxed).to_le_bytes()[0]),
                    );
                    writer.write_all(&buffer)?;
                }
            }
        }
        writer.flush()
    }

    /// The id a saved table was built for ([`Endgame::endgame_id`]), read from its header:
    /// for a program that finds which game's table a file holds before reading it with
    /// [`read_from`](Self::read_from).
    ///
    /// # Errors
    /// [`EndgameError::Format`] when it is not a table, [`EndgameError::Io`] when reading
    /// fails.
    pub fn saved_id(mut reader: impl Read) -> Result<String, EndgameError> {
        header_id(&mut reader)
    }

    /// Reads a table [`write_to`](Self::write_to) wrote, checking that it was built for
    /// `id` ([`Endgame::endgame_id`] of the game that will probe it).
    ///
    /// # Errors
    /// [`EndgameError::Format`] when it is not a table or is for another game, and
    /// [`EndgameError::Io`] when reading fails.
    pub fn read_from(reader: impl Read, id: &str) -> Result<EndgameTable, EndgameError> {
        let mut reader = io::BufReader::new(reader);
        same_id(&header_id(&mut reader)?, id)?;
        let lengths = header_line(&mut reader, "list of slices")?;
        let mut positions_of = Vec::new();
        for (slice, length) in lengths.split_whitespace().enumerate() {
            let positions: u64 = length.parse().map_err(|_| {
                EndgameError::Format(format!("slice {slice}'s length `{length}` is not a number"))
            })?;
            if positions > MAX_SLICE_POSITIONS {
                return Err(EndgameError::TooLarge { slice, positions });
            }
            positions_of.push(as_index(positions));
        }
        let mut values = Values::with_lengths(&positions_of)?;
        for slice in 0..positions_of.len() {
            let (start, end) = (values.starts[slice], values.starts[slice + 1]);
            let bytes = &mut values.bytes[start..end];
            reader.read_exact(bytes).map_err(|error| {
                if error.kind() == io::ErrorKind::UnexpectedEof {
                    EndgameError::Format(format!("the table ends inside slice {slice}"))
                } else {
                    EndgameError::Io(error)
                }
            })?;
            if bytes
                .iter()
                .any(|&byte| i32::from(i8::from_le_bytes([byte])) < LEAST_VALUE)
            {
                return Err(EndgameError::Format(format!(
                    "slice {slice} holds a position that was never valued"
                )));
            }
        }
        let mut rest = [0_u8];
        if reader.read(&mut rest)? != 0 {
            return Err(EndgameError::Format(
                "the table goes on past its last slice".into(),
            ));
        }
        Ok(EndgameTable {
            id: id.to_string(),
            slices: Vec::new(),
            values,
        })
    }
}

/// Refuses a table built for `found` where one for `id` is wanted.
fn same_id(found: &str, id: &str) -> Result<(), EndgameError> {
    if found == id {
        return Ok(());
    }
    Err(EndgameError::Format(format!(
        "the table is for `{found}`, not `{id}`"
    )))
}

/// The first line of a saved table.
const MAGIC: &str = "gametree endgame table 1";

/// The id in the header of a saved table (its second line, after [`MAGIC`]), the reader
/// left just after it.
fn header_id(reader: &mut impl Read) -> Result<String, EndgameError> {
    if header_line(reader, "first line")? != MAGIC {
        return Err(EndgameError::Format(
            "not an endgame table written by gametree (its first line is wrong)".into(),
        ));
    }
    header_line(reader, "id")
}

/// One line of a saved table's header, read a byte at a time so that the values after the
/// header stay in the reader; at most 4096 bytes.
fn header_line(reader: &mut impl Read, what: &str) -> Result<String, EndgameError> {
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
    String::from_utf8(bytes)
        .map_err(|_| EndgameError::Format(format!("not an endgame table: its {what} is not text")))
}

/// What one pass valued and left for the next.
#[derive(Clone, Copy, Debug, Default)]
struct PassCounts {
    valued: u64,
    deferred: u64,
}

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
