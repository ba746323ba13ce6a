//! Checkers endgame databases through the generic retrograde analysis
//! ([`crate::search::retrograde`]): win, draw or loss for every position of up to a few
//! pieces, built once and read by the search at its leaves ([`super::Checkers::with_endgame`]).
//!
//! [`EndgameBoard`] is checkers as a database sees it: values +1 (Black wins), 0 and −1, no
//! draw rules (a position where neither side can force a win is a draw however long play
//! goes on, the endless value of the retrograde fixed point). Positions are laid out in
//! *slices* by material — an unordered pair of (men, kings) counts, one for each side — in
//! an order every move respects: fewer pieces first (a capture goes back), then fewer men
//! (a crowning goes back). Within a slice a position is seen from the side to move, turned
//! round when White is to move (the board is symmetric under the half turn with colours
//! swapped), and numbered by the squares of the mover's men (squares 1–28), the opponent's
//! men (5–32), then the mover's and the opponent's kings on the squares the men left free.
//! Two men's sets may overlap; those numbers are holes, set up as another position of the
//! slice and never read.

use std::sync::Arc;

use crate::game::{Game, Player};
use crate::search::retrograde::{Endgame, EndgameTable};
use crate::search::solver::{Outlook, Solvable};
use crate::search::transposition::PositionKey;

use super::board::{Bitboard, Color, Move, Position};

/// The most pieces a database may hold: up to 6 pieces take 2.7 GB (up to 5: 151 MB).
pub const MOST_ENDGAME_PIECES: usize = 6;

/// The id a database of up to `pieces` pieces is saved under ([`Endgame::endgame_id`]):
/// what a saved file's header is checked against.
fn id_of(pieces: usize) -> String {
    format!("checkers english pieces={pieces} no-draw-rules")
}

/// One side's material: men and kings.
type Material = (usize, usize);

/// A slice: the two sides' material, the smaller first, and the positions' count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slice {
    first: Material,
    second: Material,
    /// Positions with `first` to move (then those with `second` to move, when they differ).
    first_len: u64,
    second_len: u64,
}

/// n choose k for n ≤ 32, k ≤ [`MOST_ENDGAME_PIECES`].
static CHOOSE: [[u64; MOST_ENDGAME_PIECES + 1]; 33] = {
    let mut table = [[0; MOST_ENDGAME_PIECES + 1]; 33];
    let mut n = 0;
    while n <= 32 {
        let mut k = 0;
        while k <= MOST_ENDGAME_PIECES {
            table[n][k] = choose_slowly(n, k);
            k += 1;
        }
        n += 1;
    }
    table
};

/// n choose k (n ≤ 32, k ≤ [`MOST_ENDGAME_PIECES`]), from the table.
#[inline]
fn choose(n: usize, k: usize) -> u64 {
    CHOOSE[n][k]
}

/// n choose k, 0 when k > n.
const fn choose_slowly(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let mut result: u64 = 1;
    let mut i = 0;
    while i < k {
        result = result * (n - i) as u64 / (i + 1) as u64;
        i += 1;
    }
    result
}

/// The rank of the set `squares` (bits 0..) among sets of its size, in colex order.
fn rank(mut squares: u32) -> u64 {
    let mut total = 0;
    let mut count = 0;
    while squares != 0 {
        let place = squares.trailing_zeros() as usize;
        squares &= squares - 1;
        count += 1;
        total += choose(place, count);
    }
    total
}

/// The set of `size` places of rank `index` ([`rank`]'s inverse).
fn unrank(mut index: u64, size: usize) -> u32 {
    let mut squares = 0;
    for count in (1..=size).rev() {
        // The largest place p with choose(p, count) <= index.
        let mut place = count - 1;
        while choose(place + 1, count) <= index {
            place += 1;
        }
        index -= choose(place, count);
        squares |= 1 << place;
    }
    squares
}

/// The squares of `within` (a square bitboard) in order, `places` picked by bit (bit i:
/// the i-th square of `within`).
fn spread(places: u32, within: Bitboard) -> Bitboard {
    let mut result = 0;
    let mut left = within;
    let mut bit = 0;
    while left != 0 {
        let square = left & left.wrapping_neg();
        left &= left - 1;
        if places & (1 << bit) != 0 {
            result |= square;
        }
        bit += 1;
    }
    result
}

/// [`spread`]'s inverse: which places of `within` the squares `chosen` (all in `within`)
/// are: each one's place is the count of `within`'s squares below it.
#[inline]
fn gather(chosen: Bitboard, within: Bitboard) -> u32 {
    let mut result = 0;
    let mut left = chosen;
    while left != 0 {
        let square = left & left.wrapping_neg();
        left &= left - 1;
        result |= 1 << (within & (square - 1)).count_ones();
    }
    result
}

/// Squares a mover's (Black's) men may stand on: 1–28.
const MOVER_MEN_SQUARES: Bitboard = 0x0FFF_FFFF;
/// Squares the opponent's (White's) men may stand on: 5–32.
const OPPONENT_MEN_SQUARES: Bitboard = 0xFFFF_FFF0;

/// Positions with `mover` to move against `opponent`.
fn part_len(mover: Material, opponent: Material) -> u64 {
    let men = mover.0 + opponent.0;
    choose(28, mover.0)
        * choose(28, opponent.0)
        * choose(32 - men, mover.1)
        * choose(32 - men - mover.1, opponent.1)
}

/// Every slice of databases of up to `pieces` pieces, in build order.
fn slices(pieces: usize) -> Vec<Slice> {
    let mut found = Vec::new();
    for total in 2..=pieces {
        for men in 0..=total {
            let mut here = Vec::new();
            for first_pieces in 1..total {
                let second_pieces = total - first_pieces;
                for first_men in 0..=first_pieces {
                    let second_men = men.wrapping_sub(first_men);
                    if second_men > second_pieces {
                        continue;
                    }
                    let first = (first_men, first_pieces - first_men);
                    let second = (second_men, second_pieces - second_men);
                    if first > second {
                        continue;
                    }
                    let first_len = part_len(first, second);
                    let second_len = if first == second {
                        0
                    } else {
                        part_len(second, first)
                    };
                    here.push(Slice {
                        first,
                        second,
                        first_len,
                        second_len,
                    });
                }
            }
            found.extend(here);
        }
    }
    found
}

/// Checkers as the endgame database sees it (see the [module documentation](self)).
#[derive(Clone, Debug)]
pub struct EndgameBoard {
    position: Position,
    history: Vec<Position>,
    pieces: usize,
    slices: Arc<Vec<Slice>>,
    /// The slice of each (mover's men, mover's kings, opponent's men, opponent's kings),
    /// at `material_key`; `u32::MAX` for none.
    slice_of: Arc<Vec<u32>>,
}

/// Where `slice_of` keeps the slice of this material.
fn material_key(mover: Material, opponent: Material) -> usize {
    let side = MOST_ENDGAME_PIECES + 1;
    ((mover.0 * side + mover.1) * side + opponent.0) * side + opponent.1
}

impl EndgameBoard {
    /// A board for databases of up to `pieces` pieces (2 to [`MOST_ENDGAME_PIECES`]).
    ///
    /// # Panics
    /// When `pieces` is outside 2 to [`MOST_ENDGAME_PIECES`].
    #[must_use]
    pub fn new(pieces: usize) -> EndgameBoard {
        assert!(
            (2..=MOST_ENDGAME_PIECES).contains(&pieces),
            "endgame databases hold 2 to {MOST_ENDGAME_PIECES} pieces"
        );
        let slices = slices(pieces);
        let side = MOST_ENDGAME_PIECES + 1;
        let mut slice_of = vec![u32::MAX; side.pow(4)];
        for (index, slice) in slices.iter().enumerate() {
            let index = u32::try_from(index).expect("invariant: few slices");
            slice_of[material_key(slice.first, slice.second)] = index;
            slice_of[material_key(slice.second, slice.first)] = index;
        }
        EndgameBoard {
            position: Position::initial(),
            history: Vec::new(),
            pieces,
            slices: Arc::new(slices),
            slice_of: Arc::new(slice_of),
        }
    }

    /// The same board at `position`.
    #[must_use]
    pub fn at(&self, position: Position) -> EndgameBoard {
        EndgameBoard {
            position,
            history: Vec::new(),
            pieces: self.pieces,
            slices: Arc::clone(&self.slices),
            slice_of: Arc::clone(&self.slice_of),
        }
    }

    /// The position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The slices of these databases: what [`EndgameTable::build`] is given.
    #[must_use]
    pub fn slice_count(&self) -> usize {
        self.slices.len()
    }

    /// The most pieces.
    #[must_use]
    pub fn pieces(&self) -> usize {
        self.pieces
    }

    /// The slice and index of `position`, or `None` when it has more pieces than the
    /// databases or a side without a piece.
    #[must_use]
    pub fn index_of(&self, position: &Position) -> Option<(usize, u64)> {
        // Most positions a search asks about hold too many pieces: say so before anything.
        let occupied = position.pieces(Color::Black) | position.pieces(Color::White);
        if occupied.count_ones() as usize > self.pieces {
            return None;
        }
        let position = match position.side_to_move() {
            Color::Black => *position,
            Color::White => position.turned_round(),
        };
        let mover_men = position.men(Color::Black);
        let mover_kings = position.kings(Color::Black);
        let opponent_men = position.men(Color::White);
        let opponent_kings = position.kings(Color::White);
        let mover = (
            mover_men.count_ones() as usize,
            mover_kings.count_ones() as usize,
        );
        let opponent = (
            opponent_men.count_ones() as usize,
            opponent_kings.count_ones() as usize,
        );
        let total = mover.0 + mover.1 + opponent.0 + opponent.1;
        if total > self.pieces || mover.0 + mover.1 == 0 || opponent.0 + opponent.1 == 0 {
            return None;
        }
        let slice = self.slice_of[material_key(mover, opponent)];
        if slice == u32::MAX {
            return None;
        }
        let slice = slice as usize;
        let offset = if mover == self.slices[slice].first {
            0
        } else {
            self.slices[slice].first_len
        };
        let men_free = !(mover_men | opponent_men);
        let kings_free = men_free & !mover_kings;
        let mut index = rank(gather(mover_men, MOVER_MEN_SQUARES));
        index = index * choose(28, opponent.0) + rank(gather(opponent_men, OPPONENT_MEN_SQUARES));
        index = index * choose(32 - mover.0 - opponent.0, mover.1)
            + rank(gather(mover_kings, men_free));
        index = index * choose(32 - mover.0 - opponent.0 - mover.1, opponent.1)
            + rank(gather(opponent_kings, kings_free));
        Some((slice, offset + index))
    }

    /// The position of `index` in `slice`, Black to move; `None` for a hole.
    fn position_at(&self, slice: usize, index: u64) -> Option<Position> {
        let slice = self.slices[slice];
        let (mover, opponent, mut index) = if index < slice.first_len {
            (slice.first, slice.second, index)
        } else {
            (slice.second, slice.first, index - slice.first_len)
        };
        let men = mover.0 + opponent.0;
        let opponent_kings_count = choose(32 - men - mover.1, opponent.1);
        let opponent_kings_rank = index % opponent_kings_count;
        index /= opponent_kings_count;
        let mover_kings_count = choose(32 - men, mover.1);
        let mover_kings_rank = index % mover_kings_count;
        index /= mover_kings_count;
        let opponent_men_count = choose(28, opponent.0);
        let opponent_men_rank = index % opponent_men_count;
        let mover_men_rank = index / opponent_men_count;
        let mover_men = spread(unrank(mover_men_rank, mover.0), MOVER_MEN_SQUARES);
        let opponent_men = spread(unrank(opponent_men_rank, opponent.0), OPPONENT_MEN_SQUARES);
        if mover_men & opponent_men != 0 {
            return None;
        }
        let men_free = !(mover_men | opponent_men);
        let mover_kings = spread(unrank(mover_kings_rank, mover.1), men_free);
        let opponent_kings = spread(
            unrank(opponent_kings_rank, opponent.1),
            men_free & !mover_kings,
        );
        Position::from_bitboards(
            mover_men | mover_kings,
            opponent_men | opponent_kings,
            mover_kings | opponent_kings,
            Color::Black,
        )
        .ok()
    }

    /// A position of `slice` to stand in for a hole: the men's squares of the hole moved
    /// apart, the opponent's to the far end of the board.
    fn stand_in(&self, slice: usize) -> Position {
        let slice = self.slices[slice];
        let (mover, opponent) = (slice.first, slice.second);
        let take = |from: Bitboard, count: usize, reversed: bool| {
            let mut chosen: Bitboard = 0;
            for step in 0..32 {
                if chosen.count_ones() as usize == count {
                    break;
                }
                let square = if reversed { 31 - step } else { step };
                if from & (1 << square) != 0 {
                    chosen |= 1 << square;
                }
            }
            chosen
        };
        let mover_men = take(MOVER_MEN_SQUARES, mover.0, false);
        let opponent_men = take(OPPONENT_MEN_SQUARES & !mover_men, opponent.0, true);
        let free = !(mover_men | opponent_men);
        let mover_kings = take(free, mover.1, false);
        let opponent_kings = take(free & !mover_kings, opponent.1, true);
        Position::from_bitboards(
            mover_men | mover_kings,
            opponent_men | opponent_kings,
            mover_kings | opponent_kings,
            Color::Black,
        )
        .expect("invariant: the stand-in of a slice is a valid position")
    }
}

impl Game for EndgameBoard {
    type Move = Move;
    type Value = i32;

    fn to_move(&self) -> Player {
        super::player_of(self.position.side_to_move())
    }

    fn successors(&self, moves: &mut Vec<Move>) {
        self.position.legal_moves(moves);
    }

    fn is_terminal(&self) -> bool {
        !self.position.has_legal_move()
    }

    /// At the end (no move): a loss for the side to move. +1, 0, −1 from Black's side.
    fn value(&self) -> i32 {
        if self.position.has_legal_move() {
            0
        } else {
            match self.position.side_to_move() {
                Color::Black => -1,
                Color::White => 1,
            }
        }
    }

    fn update(&mut self, mv: Move) {
        self.history.push(self.position);
        self.position = self.position.play(mv);
    }

    fn revert(&mut self, _mv: Move) {
        self.position = self
            .history
            .pop()
            .expect("invariant: revert follows an update");
    }
}

impl PositionKey for EndgameBoard {
    fn hash_key(&self) -> u64 {
        self.position.hash()
    }
}

impl Solvable for EndgameBoard {
    type Candidates = ();

    /// The end of the game, or a value between a loss and a win: the bound the retrograde
    /// passes need to value a position with a winning move before its other moves.
    fn outlook(&self, _after_search_move: bool) -> Outlook<()> {
        if self.is_terminal() {
            return Outlook::Known(self.value());
        }
        Outlook::Search {
            lower: -1,
            upper: 1,
            candidates: (),
        }
    }
}

impl Endgame for EndgameBoard {
    fn endgame_id(&self) -> String {
        id_of(self.pieces)
    }

    fn slice_len(&self, slice: usize) -> u64 {
        self.slices
            .get(slice)
            .map_or(0, |slice| slice.first_len + slice.second_len)
    }

    fn set_position(&mut self, slice: usize, index: u64) {
        self.position = self
            .position_at(slice, index)
            .unwrap_or_else(|| self.stand_in(slice));
        self.history.clear();
    }

    fn position_index(&self, slices: usize) -> Option<(usize, u64)> {
        self.index_of(&self.position)
            .filter(|&(slice, _)| slice < slices)
    }
}

/// A built database and the board that reads it: what a [`super::Checkers`] game probes.
#[derive(Clone, Debug)]
pub struct CheckersEndgame {
    table: Arc<EndgameTable>,
    board: EndgameBoard,
}

/// Win, draw or loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndgameValue {
    /// Black wins with best play.
    BlackWins,
    /// Neither side can force a win.
    Draw,
    /// White wins with best play.
    WhiteWins,
}

impl CheckersEndgame {
    /// Builds the databases of up to `pieces` pieces on `threads` threads, calling
    /// `progress` after each slice.
    ///
    /// # Errors
    /// What [`EndgameTable::build_parallel`] fails with (memory).
    pub fn build(
        pieces: usize,
        threads: usize,
        progress: impl FnMut(crate::search::retrograde::BuildProgress),
    ) -> Result<CheckersEndgame, crate::search::retrograde::EndgameError> {
        CheckersEndgame::resume(pieces, threads, None, progress, |_| Ok(()))
    }

    /// [`build`](Self::build) resumed from the slices `done` holds (a checkpoint saved by
    /// an earlier build, read with [`EndgameTable::read_from`] and the board's
    /// [`endgame_id`](crate::search::retrograde::Endgame::endgame_id)), giving `checkpoint` the table after each slice
    /// ([`EndgameTable::resume_parallel`]): the 6-piece databases take over an hour here.
    ///
    /// # Errors
    /// What [`EndgameTable::resume_parallel`] fails with.
    pub fn resume(
        pieces: usize,
        threads: usize,
        done: Option<EndgameTable>,
        progress: impl FnMut(crate::search::retrograde::BuildProgress),
        checkpoint: impl FnMut(&EndgameTable) -> Result<(), crate::search::retrograde::EndgameError>,
    ) -> Result<CheckersEndgame, crate::search::retrograde::EndgameError> {
        let board = EndgameBoard::new(pieces);
        let table = EndgameTable::resume_parallel(
            &board,
            board.slice_count(),
            threads,
            done,
            progress,
            checkpoint,
        )?;
        Ok(CheckersEndgame {
            table: Arc::new(table),
            board,
        })
    }

    /// Databases read back from what [`EndgameTable::write_to`] wrote for `pieces` pieces.
    ///
    /// # Errors
    /// [`crate::search::retrograde::EndgameError`] when it is not such a table.
    pub fn read_from(
        reader: impl std::io::Read,
        pieces: usize,
    ) -> Result<CheckersEndgame, crate::search::retrograde::EndgameError> {
        let board = EndgameBoard::new(pieces);
        let table = EndgameTable::read_from(reader, &board.endgame_id())?;
        Ok(CheckersEndgame {
            table: Arc::new(table),
            board,
        })
    }

    /// Databases read from a file [`EndgameTable::write_to`] wrote (`gametree checkers
    /// endgame --output`), of however many pieces its header names: a program that plays
    /// with them need not know how they were built.
    ///
    /// # Errors
    /// [`crate::search::retrograde::EndgameError`] when the file cannot be read or is not
    /// a checkers database.
    pub fn read_file(
        path: &std::path::Path,
    ) -> Result<CheckersEndgame, crate::search::retrograde::EndgameError> {
        use crate::search::retrograde::EndgameError;
        use std::io::Seek;
        let mut file = std::fs::File::open(path)?;
        let id = EndgameTable::saved_id(std::io::BufReader::new(&mut file))?;
        let pieces = (2..=MOST_ENDGAME_PIECES)
            .find(|&pieces| id_of(pieces) == id)
            .ok_or_else(|| {
                EndgameError::Format(format!(
                    "the table is for `{id}`, not a checkers endgame database"
                ))
            })?;
        file.rewind()?;
        CheckersEndgame::read_from(file, pieces)
    }

    /// The table.
    #[must_use]
    pub fn table(&self) -> &EndgameTable {
        &self.table
    }

    /// The most pieces held.
    #[must_use]
    pub fn pieces(&self) -> usize {
        self.board.pieces
    }

    /// The value of `position` with best play, when the databases hold it (few enough
    /// pieces, both sides on the board, the side to move with a move).
    #[must_use]
    #[inline]
    pub fn probe(&self, position: &Position) -> Option<EndgameValue> {
        let (slice, index) = self.board.index_of(position)?;
        let score = self.table.relative_score(slice, index)?;
        // A score to the side to move.
        let black = match position.side_to_move() {
            Color::Black => score,
            Color::White => -score,
        };
        Some(match black.signum() {
            1 => EndgameValue::BlackWins,
            -1 => EndgameValue::WhiteWins,
            _ => EndgameValue::Draw,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_unrank_are_inverse() {
        for size in 0..4 {
            for index in 0..choose(10, size) {
                let set = unrank(index, size);
                assert_eq!(set.count_ones() as usize, size);
                assert_eq!(rank(set), index);
            }
        }
    }

    #[test]
    fn every_position_of_a_slice_indexes_back_to_its_number() {
        let board = EndgameBoard::new(3);
        for slice in 0..board.slice_count() {
            let mut holes = 0;
            for index in 0..board.slice_len(slice) {
                match board.position_at(slice, index) {
                    Some(position) => {
                        assert_eq!(board.index_of(&position), Some((slice, index)));
                        let turned = position.turned_round();
                        assert_eq!(board.index_of(&turned), Some((slice, index)));
                    }
                    None => holes += 1,
                }
            }
            assert!(
                holes * 4 < board.slice_len(slice),
                "slice {slice}: {holes} holes"
            );
        }
    }

    #[test]
    fn moves_stay_in_their_slice_or_go_back() {
        let mut board = EndgameBoard::new(3);
        let mut moves = Vec::new();
        for slice in 0..board.slice_count() {
            for index in (0..board.slice_len(slice)).step_by(7) {
                board.set_position(slice, index);
                moves.clear();
                board.successors(&mut moves);
                for &mv in &moves {
                    let next = board.position.play(mv);
                    if let Some((to, _)) = board.index_of(&next) {
                        assert!(
                            to <= slice,
                            "{} -> {}",
                            board.position.to_fen(),
                            next.to_fen()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_saved_database_reads_back_without_being_told_its_pieces() {
        let built = CheckersEndgame::build(3, 1, |_| {}).expect("3 pieces build");
        let directory =
            std::env::temp_dir().join(format!("gametree-endgame-{}", std::process::id()));
        std::fs::create_dir_all(&directory).expect("a scratch directory");
        let path = directory.join("three.db");
        let mut bytes = Vec::new();
        built
            .table()
            .write_to(&mut bytes)
            .expect("written to memory");
        std::fs::write(&path, &bytes).expect("the file");
        let read = CheckersEndgame::read_file(&path).expect("read back");
        assert_eq!(read.pieces(), 3);
        let saved_id = EndgameTable::saved_id(&bytes[..]).expect("a header");
        assert_eq!(saved_id, "checkers english pieces=3 no-draw-rules");
        for fen in [
            "B:WK1:BK28,K32",
            "W:WK1:BK28,K32",
            "B:W14,K1:BK18",
            "W:W24:B13",
        ] {
            let position = Position::from_fen(fen).expect("a FEN");
            assert_eq!(read.probe(&position), built.probe(&position), "{fen}");
        }
        // Not a database, and a database's header naming no count it can hold.
        std::fs::write(&path, b"hello\nworld\n").expect("the file");
        assert!(CheckersEndgame::read_file(&path).is_err());
        let mut foreign = bytes.clone();
        let count = foreign
            .windows("pieces=3".len())
            .position(|word| word == b"pieces=3")
            .expect("the header names its pieces")
            + "pieces=".len();
        foreign[count] = b'9';
        std::fs::write(&path, &foreign).expect("the file");
        assert!(CheckersEndgame::read_file(&path).is_err());
        assert!(CheckersEndgame::read_file(&directory.join("absent.db")).is_err());
        std::fs::remove_dir_all(&directory).expect("removed");
    }
}
