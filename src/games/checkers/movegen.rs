//! Move generation for English draughts on bitboards, and perft (the count of leaf nodes of
//! the legal-move tree, as in Aart Bik's checkers perft and OEIS A133046).
//!
//! Captures are compulsory and a capture sequence must be completed, but any sequence may
//! be chosen, not necessarily the longest; every distinct sequence of jumps is a distinct
//! move. A man that reaches the far row is crowned and its move ends there, even in the
//! middle of a capture sequence. A captured piece cannot be jumped twice; the piece that
//! moves leaves its square at once, so a king may come back to it.

use super::board::{
    BLACK_BACK_ROW, Bitboard, Color, Direction, Move, NEIGHBOUR, NO_SQUARE, Position,
    WHITE_BACK_ROW, step,
};

/// The directions a man of `color` moves in: down the board for Black, up for White.
#[inline(always)]
fn forward(color: Color) -> [Direction; 2] {
    match color {
        Color::Black => [Direction::DownLeft, Direction::DownRight],
        Color::White => [Direction::UpLeft, Direction::UpRight],
    }
}

/// The directions only kings move in.
#[inline(always)]
fn backward(color: Color) -> [Direction; 2] {
    forward(color.opponent())
}

/// The row where `color`'s men are crowned.
#[inline(always)]
fn crowning_row(color: Color) -> Bitboard {
    match color {
        Color::Black => WHITE_BACK_ROW,
        Color::White => BLACK_BACK_ROW,
    }
}

/// Squares of `pieces` that can jump an `opponent` piece in `direction` onto an empty
/// square.
#[inline(always)]
fn jumpers(pieces: Bitboard, opponent: Bitboard, empty: Bitboard, direction: Direction) -> Bitboard {
    let back = direction.opposite();
    step(step(empty, back) & opponent, back) & pieces
}

impl Position {
    /// The squares of the side to move's pieces, of its kings, of the opponent's pieces.
    #[inline(always)]
    fn sides(&self) -> (Bitboard, Bitboard, Bitboard) {
        match self.side {
            Color::Black => (self.black, self.black & self.kings, self.white),
            Color::White => (self.white, self.white & self.kings, self.black),
        }
    }

    /// Whether the side to move has a capture (and so must capture).
    #[must_use]
    #[inline]
    pub fn has_capture(&self) -> bool {
        let (own, own_kings, opponent) = self.sides();
        let empty = self.empty();
        let [first, second] = forward(self.side);
        let [third, fourth] = backward(self.side);
        jumpers(own, opponent, empty, first)
            | jumpers(own, opponent, empty, second)
            | jumpers(own_kings, opponent, empty, third)
            | jumpers(own_kings, opponent, empty, fourth)
            != 0
    }

    /// The number of non-capturing moves `color` would have if it were to move (its
    /// mobility; the legal moves of the side to move when it has no capture).
    #[must_use]
    #[inline]
    pub fn step_count(&self, color: Color) -> u32 {
        let own = self.pieces(color);
        let own_kings = own & self.kings;
        let empty = self.empty();
        let [first, second] = forward(color);
        let [third, fourth] = backward(color);
        (step(own, first) & empty).count_ones()
            + (step(own, second) & empty).count_ones()
            + (step(own_kings, third) & empty).count_ones()
            + (step(own_kings, fourth) & empty).count_ones()
    }

    /// Whether the side to move has any legal move (a side without one has lost).
    #[must_use]
    #[inline]
    pub fn has_legal_move(&self) -> bool {
        self.step_count(self.side) > 0 || self.has_capture()
    }

    /// The number of legal moves, counted without building them (perft's bulk count).
    #[must_use]
    pub fn count_moves(&self) -> u64 {
        if self.has_capture() {
            let mut count = 0u64;
            self.for_each_capture(|_| count += 1);
            count
        } else {
            u64::from(self.step_count(self.side))
        }
    }

    /// Appends the legal moves to `moves`: all capture sequences if there is a capture,
    /// otherwise all steps. Order: captures by starting square, then direction (up-left,
    /// up-right, down-left, down-right) at each jump; steps by direction, then by
    /// destination square.
    pub fn legal_moves(&self, moves: &mut Vec<Move>) {
        if self.has_capture() {
            self.for_each_capture(|mv| moves.push(mv));
        } else {
            self.push_steps(moves);
        }
    }

    fn push_steps(&self, moves: &mut Vec<Move>) {
        let (own, own_kings, _) = self.sides();
        let empty = self.empty();
        let crown = crowning_row(self.side);
        let [first, second] = forward(self.side);
        let [third, fourth] = backward(self.side);
        for (pieces, direction) in [
            (own, first),
            (own, second),
            (own_kings, third),
            (own_kings, fourth),
        ] {
            let mut targets = step(pieces, direction) & empty;
            let back = direction.opposite() as usize;
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let from = NEIGHBOUR[back][to as usize];
                let crowns = own_kings & (1 << from) == 0 && crown & (1 << to) != 0;
                moves.push(Move {
                    from,
                    to,
                    jumps: 0,
                    crowns,
                    directions: 0,
                    captured: 0,
                    captured_kings: 0,
                });
            }
        }
    }

    /// Calls `visit` with every capture sequence of the side to move.
    #[inline]
    fn for_each_capture(&self, mut visit: impl FnMut(Move)) {
        let (own, own_kings, opponent) = self.sides();
        let mut pieces = own;
        while pieces != 0 {
            let from = pieces.trailing_zeros() as u8;
            pieces &= pieces - 1;
            let king = own_kings & (1 << from) != 0;
            // The moving piece leaves its square at once.
            let empty = self.empty() | (1 << from);
            let mut search = CaptureSearch {
                from,
                king,
                color: self.side,
                kings: self.kings,
                visit: &mut visit,
            };
            search.extend(from, opponent, empty, 0, 0, 0);
        }
    }
}

/// The depth-first walk of one piece's capture sequences.
struct CaptureSearch<'a, F: FnMut(Move)> {
    from: u8,
    king: bool,
    color: Color,
    kings: Bitboard,
    visit: &'a mut F,
}

impl<F: FnMut(Move)> CaptureSearch<'_, F> {
    /// Extends a sequence that has reached `square` having captured `captured` with
    /// `jumps` jumps in `directions`. A sequence ends when no jump is left; a man's ends
    /// when it is crowned.
    fn extend(
        &mut self,
        square: u8,
        opponent: Bitboard,
        empty: Bitboard,
        captured: Bitboard,
        jumps: u8,
        directions: u32,
    ) {
        let allowed: &[Direction] = if self.king {
            &Direction::ALL
        } else {
            match self.color {
                Color::Black => &[Direction::DownLeft, Direction::DownRight],
                Color::White => &[Direction::UpLeft, Direction::UpRight],
            }
        };
        let mut extended = false;
        for &direction in allowed {
            let over = NEIGHBOUR[direction as usize][square as usize];
            if over == NO_SQUARE || opponent & (1 << over) == 0 {
                continue;
            }
            let landing = NEIGHBOUR[direction as usize][over as usize];
            if landing == NO_SQUARE || empty & (1 << landing) == 0 {
                continue;
            }
            extended = true;
            let directions = directions | ((direction as u32) << (2 * u32::from(jumps)));
            let captured = captured | (1 << over);
            let jumps = jumps + 1;
            // The captured piece stays on its square (it cannot be jumped again, and no
            // jump can land on it); the piece moves on from `landing`.
            let empty = (empty | (1 << square)) & !(1 << landing);
            if !self.king && crowning_row(self.color) & (1 << landing) != 0 {
                let mv = self.finish(landing, captured, jumps, directions, true);
                (self.visit)(mv);
            } else {
                self.extend(landing, opponent & !(1 << over), empty, captured, jumps, directions);
            }
        }
        if !extended && jumps > 0 {
            let mv = self.finish(square, captured, jumps, directions, false);
            (self.visit)(mv);
        }
    }

    fn finish(&self, to: u8, captured: Bitboard, jumps: u8, directions: u32, crowns: bool) -> Move {
        Move {
            from: self.from,
            to,
            jumps,
            crowns,
            directions,
            captured,
            captured_kings: captured & self.kings,
        }
    }
}

/// Perft: the number of leaf nodes of the legal-move tree `depth` plies deep from
/// `position` (1 at depth 0). A position without legal moves at a depth above 0 has no
/// leaves below it.
///
/// Bulk counting: the last ply is counted, not played. Move lists live in buffers made once
/// per call, one per ply, and positions are copied, so the walk allocates nothing per node.
/// The recursion is `depth` frames deep; depth is limited in practice by time (perft 20
/// would take hours), not by the stack.
///
/// # Example
/// ```
/// use gametree::games::checkers::{Position, perft};
///
/// // OEIS A133046: 7, 49, 302 ...
/// assert_eq!(perft(&Position::initial(), 3), 302);
/// ```
#[must_use]
pub fn perft(position: &Position, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    perft_with(position, depth, &mut buffers)
}

fn perft_with(position: &Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    match depth {
        0 => 1,
        1 => position.count_moves(),
        _ => {
            let (moves, deeper) = buffers
                .split_first_mut()
                .expect("invariant: one buffer per ply");
            moves.clear();
            position.legal_moves(moves);
            let mut leaves = 0;
            for &mv in moves.iter() {
                leaves += perft_with(&position.play(mv), depth - 1, deeper);
            }
            leaves
        }
    }
}

/// Perft split by the first move ("divide"): each legal move with the perft of `depth - 1`
/// below it, in generation order. Their sum is `perft(position, depth)` for `depth ≥ 1`.
#[must_use]
pub fn perft_divide(position: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let below = depth.saturating_sub(1);
    let mut buffers: Vec<Vec<Move>> = (0..below).map(|_| Vec::with_capacity(64)).collect();
    moves
        .into_iter()
        .map(|mv| (mv, perft_with(&position.play(mv), below, &mut buffers)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves_of(position: &Position) -> Vec<String> {
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        moves.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn black_has_seven_opening_moves() {
        let mut moves = moves_of(&Position::initial());
        moves.sort();
        assert_eq!(
            moves,
            ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]
        );
    }

    #[test]
    fn perft_counts_match_oeis_a133046_through_depth_six() {
        // OEIS A133046 (Aart Bik's checkers perft), depths 1-6.
        let expected = [7, 49, 302, 1469, 7361, 36768];
        for (depth, &count) in (1..).zip(expected.iter()) {
            assert_eq!(perft(&Position::initial(), depth), count, "depth {depth}");
        }
    }

    #[test]
    fn bulk_count_equals_the_number_of_generated_moves() {
        let position = Position::initial();
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        for &mv in &moves {
            let next = position.play(mv);
            let mut replies = Vec::new();
            next.legal_moves(&mut replies);
            assert_eq!(next.count_moves(), replies.len() as u64);
        }
    }
}
