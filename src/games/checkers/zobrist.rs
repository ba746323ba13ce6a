//! Zobrist hashing of checkers positions (A. L. Zobrist, "A New Hashing Method with
//! Application for Game Playing", 1970): one random 64-bit number per (colour, kind,
//! square) and one for White to move, xor-ed together. A move changes a few of them, so
//! [`super::Checkers`] keeps the key up to date as it plays and takes back moves.

use super::board::{Board, Color, Move, Position, VALID};

/// SplitMix64, a fixed generator: the keys are the same on every machine and every run.
const fn split_mix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Rows of [`PIECE_KEYS`]: black man, black king, white man, white king.
const KINDS: usize = 4;
/// [`Board`] bits 0–34 (the ghost bits get keys too; no piece ever stands on them).
const BITS: usize = 35;

/// The key of each kind of piece on each [`Board`] bit.
static PIECE_KEYS: [[u64; BITS]; KINDS] = {
    let mut keys = [[0; BITS]; KINDS];
    let mut state = 0x00C4_EC4E_5D4A_F75Bu64;
    let mut kind = 0;
    while kind < KINDS {
        let mut bit = 0;
        while bit < BITS {
            state = state.wrapping_add(1);
            keys[kind][bit] = split_mix(state.wrapping_mul(0x2545_F491_4F6C_DD1D));
            bit += 1;
        }
        kind += 1;
    }
    keys
};

/// Xor-ed in when White is to move.
const WHITE_TO_MOVE: u64 = split_mix(0x5EED_0FC0_FFEE);

/// The row of [`PIECE_KEYS`] for a piece.
#[inline(always)]
const fn kind(color: Color, king: bool) -> usize {
    match (color, king) {
        (Color::Black, false) => 0,
        (Color::Black, true) => 1,
        (Color::White, false) => 2,
        (Color::White, true) => 3,
    }
}

/// The xor of the keys of `kind` on every bit of `board`.
#[inline]
fn keys_of(kind: usize, mut board: Board) -> u64 {
    let mut key = 0;
    while board != 0 {
        key ^= PIECE_KEYS[kind][board.trailing_zeros() as usize];
        board &= board - 1;
    }
    key
}

impl Position {
    /// The Zobrist key of the position: the pieces on their squares and the side to move.
    /// Positions that differ have different keys except with probability about 2⁻⁶⁴ per
    /// pair; the draw rules' history (moves without a capture, earlier positions) is not in
    /// the key.
    ///
    /// # Example
    /// ```
    /// use gametree::games::checkers::Position;
    ///
    /// let start = Position::initial();
    /// // 11-15 22-18 15-22 ... any two move orders reaching one position reach one key.
    /// let a = start.play(start.parse_move("9-13")?);
    /// let a = a.play(a.parse_move("22-18")?);
    /// let a = a.play(a.parse_move("10-14")?);
    /// let b = start.play(start.parse_move("10-14")?);
    /// let b = b.play(b.parse_move("22-18")?);
    /// let b = b.play(b.parse_move("9-13")?);
    /// assert_eq!(a.hash(), b.hash());
    /// assert_ne!(a.hash(), start.hash());
    /// # Ok::<(), gametree::games::checkers::MoveError>(())
    /// ```
    #[must_use]
    pub fn hash(&self) -> u64 {
        let side = match self.side {
            Color::Black => 0,
            Color::White => WHITE_TO_MOVE,
        };
        side ^ keys_of(kind(Color::Black, false), self.black & !self.kings & VALID)
            ^ keys_of(kind(Color::Black, true), self.black & self.kings)
            ^ keys_of(kind(Color::White, false), self.white & !self.kings & VALID)
            ^ keys_of(kind(Color::White, true), self.white & self.kings)
    }

    /// The key of the position after `mv` (a legal move of this position), from this
    /// position's key `hash`: the moving piece leaves its square and arrives (crowned or
    /// not), the captured pieces go, the turn passes. A handful of xors instead of
    /// [`Position::hash`]'s walk over every piece.
    #[must_use]
    #[inline]
    pub(crate) fn hash_after(&self, mv: Move, hash: u64) -> u64 {
        let mover = self.side;
        let was_king = self.kings & (1 << mv.from) != 0;
        let mut next = hash ^ WHITE_TO_MOVE;
        next ^= PIECE_KEYS[kind(mover, was_king)][usize::from(mv.from)];
        next ^= PIECE_KEYS[kind(mover, was_king || mv.crowns)][usize::from(mv.to)];
        if mv.captured != 0 {
            let opponent = mover.opponent();
            next ^= keys_of(kind(opponent, false), mv.captured & !self.kings);
            next ^= keys_of(kind(opponent, true), mv.captured & self.kings);
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_key_differs_from_every_other() {
        let mut all: Vec<u64> = PIECE_KEYS.iter().flatten().copied().collect();
        all.push(WHITE_TO_MOVE);
        let count = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), count);
    }

    #[test]
    fn the_incremental_key_equals_the_key_from_scratch_along_pseudo_random_games() {
        let mut moves = Vec::new();
        let mut state = 7u64;
        for _game in 0..200 {
            let mut position = Position::initial();
            let mut hash = position.hash();
            for _ply in 0..120 {
                moves.clear();
                position.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                state = split_mix(state);
                let mv = moves[(state % moves.len() as u64) as usize];
                hash = position.hash_after(mv, hash);
                position = position.play(mv);
                assert_eq!(hash, position.hash(), "after {mv}");
            }
        }
    }

    #[test]
    fn the_side_to_move_is_in_the_key() {
        let black = Position::from_fen("B:W18:B14").expect("valid");
        let white = Position::from_fen("W:W18:B14").expect("valid");
        assert_ne!(black.hash(), white.hash());
    }
}
