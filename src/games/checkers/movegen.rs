//! Move generation for English draughts on bitboards, and perft (the count of leaf nodes of
//! the legal-move tree, as in Aart Bik's checkers perft and OEIS A133046).
//!
//! Captures are compulsory and a capture sequence must be completed, but any sequence may
//! be chosen, not necessarily the longest; every distinct sequence of jumps is a distinct
//! move. A man that reaches the far row is crowned and its move ends there, even in the
//! middle of a capture sequence. A captured piece cannot be jumped twice; the piece that
//! moves leaves its square at once, so a king may come back to it.

use super::board::{
    BLACK_BACK_ROW, Board, Color, Move, Position, WHITE_BACK_ROW, from_squares, shift,
};

/// The side to move as a type, so that move generation is compiled once per colour with
/// its directions and crowning row as constants.
pub(crate) trait Side {
    /// The colour.
    const COLOR: Color;
    /// The board deltas of a man's two forward directions.
    const FORWARD: [i32; 2];
    /// The two directions only kings move in.
    const BACKWARD: [i32; 2];
    /// The row where this side's men are crowned.
    const CROWNING_ROW: Board;
    /// The other side.
    type Opponent: Side;

    /// This side's pieces and the opponent's.
    fn pieces(position: &Position) -> (Board, Board);
}

/// Black to move: men go down the board (+4, +5).
pub(crate) struct BlackToMove;
/// White to move: men go up the board (−5, −4).
pub(crate) struct WhiteToMove;

impl Side for BlackToMove {
    const COLOR: Color = Color::Black;
    const FORWARD: [i32; 2] = [4, 5];
    const BACKWARD: [i32; 2] = [-5, -4];
    const CROWNING_ROW: Board = from_squares(WHITE_BACK_ROW);
    type Opponent = WhiteToMove;

    #[inline(always)]
    fn pieces(position: &Position) -> (Board, Board) {
        (position.black, position.white)
    }
}

impl Side for WhiteToMove {
    const COLOR: Color = Color::White;
    const FORWARD: [i32; 2] = [-5, -4];
    const BACKWARD: [i32; 2] = [4, 5];
    const CROWNING_ROW: Board = from_squares(BLACK_BACK_ROW);
    type Opponent = BlackToMove;

    #[inline(always)]
    fn pieces(position: &Position) -> (Board, Board) {
        (position.white, position.black)
    }
}

/// The two-bit code of a direction in [`Move::directions`] (see `Direction`).
#[inline(always)]
const fn direction_code(delta: i32) -> u32 {
    match delta {
        -5 => 0,
        -4 => 1,
        4 => 2,
        _ => 3,
    }
}

/// Squares of `pieces` that can jump an `opponent` piece `delta`-wards onto an empty square.
#[inline(always)]
fn jumpers(pieces: Board, opponent: Board, empty: Board, delta: i32) -> Board {
    shift(shift(empty, -delta) & opponent, -delta) & pieces
}

/// The pieces of side `S` that can capture.
#[inline(always)]
fn capturers<S: Side>(position: &Position) -> Board {
    let (own, opponent) = S::pieces(position);
    let empty = position.empty_board();
    let [first, second] = S::FORWARD;
    let mut found = jumpers(own, opponent, empty, first) | jumpers(own, opponent, empty, second);
    let own_kings = own & position.kings;
    if own_kings != 0 {
        let [third, fourth] = S::BACKWARD;
        found |= jumpers(own_kings, opponent, empty, third)
            | jumpers(own_kings, opponent, empty, fourth);
    }
    found
}

/// The number of steps (non-capturing moves) of side `S`, to move or not.
#[inline(always)]
fn step_count<S: Side>(position: &Position) -> u32 {
    let (own, _) = S::pieces(position);
    let empty = position.empty_board();
    let [first, second] = S::FORWARD;
    let mut count =
        (shift(own, first) & empty).count_ones() + (shift(own, second) & empty).count_ones();
    let own_kings = own & position.kings;
    if own_kings != 0 {
        let [third, fourth] = S::BACKWARD;
        count += (shift(own_kings, third) & empty).count_ones()
            + (shift(own_kings, fourth) & empty).count_ones();
    }
    count
}

/// The number of legal moves of side `S` to move.
#[inline(always)]
fn count_moves<S: Side>(position: &Position) -> u64 {
    let capturers = capturers::<S>(position);
    if capturers == 0 {
        return u64::from(step_count::<S>(position));
    }
    let (own, opponent) = S::pieces(position);
    let empty = position.empty_board();
    let men = own & !position.kings;
    let [first, second] = S::FORWARD;
    let mut count = count_man_sequences::<S>(jump(men, opponent, empty, first), opponent, empty)
        + count_man_sequences::<S>(jump(men, opponent, empty, second), opponent, empty);
    let kings = capturers & position.kings;
    if kings != 0 {
        for_each_capture::<S>(position, kings, |_| count += 1);
    }
    count
}

/// Where the pieces of `pieces` land jumping an `opponent` piece `delta`-wards onto an
/// empty square (one bit per jump: a shift moves each bit to a distinct place).
#[inline(always)]
fn jump(pieces: Board, opponent: Board, empty: Board, delta: i32) -> Board {
    shift(shift(pieces, delta) & opponent, delta) & empty
}

/// The number of complete capture sequences of men that have just landed on the squares
/// of `landed`, one bit per sequence, counted for all of them at once.
///
/// A man only ever moves forward, so the squares it left and the pieces it took are all
/// behind it: every sequence can be continued against the board as it was before the move,
/// and bitboards carry many sequences in parallel.
#[inline(always)]
fn count_man_sequences<S: Side>(landed: Board, opponent: Board, empty: Board) -> u64 {
    let going = landed & !S::CROWNING_ROW;
    let [first, second] = S::FORWARD;
    let continuing =
        jumpers(going, opponent, empty, first) | jumpers(going, opponent, empty, second);
    if continuing == 0 {
        return u64::from(landed.count_ones());
    }
    u64::from((landed & !continuing).count_ones())
        + count_longer_man_sequences::<S>(jump(continuing, opponent, empty, first), opponent, empty)
        + count_longer_man_sequences::<S>(
            jump(continuing, opponent, empty, second),
            opponent,
            empty,
        )
}

/// [`count_man_sequences`] past the first jump, where most sequences have ended.
fn count_longer_man_sequences<S: Side>(landed: Board, opponent: Board, empty: Board) -> u64 {
    if landed == 0 {
        0
    } else {
        count_man_sequences::<S>(landed, opponent, empty)
    }
}

/// Appends the legal moves of side `S` to move.
#[inline(always)]
fn generate<S: Side>(position: &Position, moves: &mut Vec<Move>) {
    for_each_move::<S>(position, |mv| moves.push(mv));
}

/// Calls `visit` with each legal move of side `S` to move, in the order documented at
/// [`Position::legal_moves`].
#[inline(always)]
fn for_each_move<S: Side>(position: &Position, mut visit: impl FnMut(Move)) {
    let capturers = capturers::<S>(position);
    if capturers != 0 {
        for_each_capture::<S>(position, capturers, visit);
        return;
    }
    let (own, _) = S::pieces(position);
    let own_kings = own & position.kings;
    let empty = position.empty_board();
    let [first, second] = S::FORWARD;
    let [third, fourth] = S::BACKWARD;
    for (pieces, delta) in [
        (own, first),
        (own, second),
        (own_kings, third),
        (own_kings, fourth),
    ] {
        let mut targets = shift(pieces, delta) & empty;
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            let from = (i32::from(to) - delta) as u8;
            let crowns = own_kings & (1 << from) == 0 && S::CROWNING_ROW & (1 << to) != 0;
            visit(Move {
                from,
                to,
                jumps: 0,
                crowns,
                directions: 0,
                captured: 0,
            });
        }
    }
}

/// Calls `visit` with every capture sequence of side `S` to move, starting from each piece
/// of `capturers` in square order.
#[inline(always)]
fn for_each_capture<S: Side>(
    position: &Position,
    mut capturers: Board,
    mut visit: impl FnMut(Move),
) {
    let (_, opponent) = S::pieces(position);
    while capturers != 0 {
        let from = capturers.trailing_zeros() as u8;
        capturers &= capturers - 1;
        // The moving piece leaves its square at once.
        let empty = position.empty_board() | (1 << from);
        let start = Sequence {
            from,
            square: from,
            opponent,
            empty,
            captured: 0,
            jumps: 0,
            directions: 0,
        };
        if position.kings & (1 << from) != 0 {
            extend::<S, true>(start, &mut visit);
        } else {
            extend::<S, false>(start, &mut visit);
        }
    }
}

/// A capture sequence under way.
#[derive(Clone, Copy)]
struct Sequence {
    from: u8,
    square: u8,
    opponent: Board,
    empty: Board,
    captured: Board,
    jumps: u8,
    directions: u32,
}

/// Extends `sequence` by every possible jump (a king in four directions, a man in its two
/// forward ones), depth first; a sequence ends when no jump is left, or, for a man, when it
/// is crowned. A captured piece stays on its square until the move ends, so it can be
/// neither jumped again nor landed on.
fn extend<S: Side, const KING: bool>(sequence: Sequence, visit: &mut impl FnMut(Move)) {
    let deltas: &[i32] = if KING { &[-5, -4, 4, 5] } else { &S::FORWARD };
    let mut extended = false;
    let here = 1u64 << sequence.square;
    for &delta in deltas {
        let over = shift(here, delta) & sequence.opponent;
        if over == 0 {
            continue;
        }
        let landing = shift(over, delta) & sequence.empty;
        if landing == 0 {
            continue;
        }
        extended = true;
        let next = Sequence {
            from: sequence.from,
            square: landing.trailing_zeros() as u8,
            opponent: sequence.opponent & !over,
            empty: (sequence.empty | here) & !landing,
            captured: sequence.captured | over,
            jumps: sequence.jumps + 1,
            directions: sequence.directions
                | (direction_code(delta) << (2 * u32::from(sequence.jumps))),
        };
        if !KING && S::CROWNING_ROW & landing != 0 {
            visit(finish(next, true));
        } else if can_jump::<S, KING>(landing, next.opponent, next.empty) {
            extend::<S, KING>(next, visit);
        } else {
            // Most sequences end here: no call to find that out.
            visit(finish(next, false));
        }
    }
    if !extended && sequence.jumps > 0 {
        visit(finish(sequence, false));
    }
}

/// Whether a piece on `here` (a king if `KING`) can jump an `opponent` piece.
#[inline(always)]
fn can_jump<S: Side, const KING: bool>(here: Board, opponent: Board, empty: Board) -> bool {
    let [first, second] = S::FORWARD;
    let mut found = jump(here, opponent, empty, first) | jump(here, opponent, empty, second);
    if KING {
        let [third, fourth] = S::BACKWARD;
        found |= jump(here, opponent, empty, third) | jump(here, opponent, empty, fourth);
    }
    found != 0
}

#[inline(always)]
fn finish(sequence: Sequence, crowns: bool) -> Move {
    Move {
        from: sequence.from,
        to: sequence.square,
        jumps: sequence.jumps,
        crowns,
        directions: sequence.directions,
        captured: sequence.captured,
    }
}

impl Position {
    /// Whether the side to move has a capture (and so must capture).
    #[must_use]
    #[inline]
    pub fn has_capture(&self) -> bool {
        self.can_capture(self.side)
    }

    /// Whether the side not to move could capture if it were its turn (a threat the side
    /// to move must answer).
    #[must_use]
    #[inline]
    pub fn threatens_capture(&self) -> bool {
        self.can_capture(self.side.opponent())
    }

    /// Whether `color` would have a capture if it were to move.
    #[inline]
    fn can_capture(&self, color: Color) -> bool {
        match color {
            Color::Black => capturers::<BlackToMove>(self) != 0,
            Color::White => capturers::<WhiteToMove>(self) != 0,
        }
    }

    /// The number of non-capturing moves `color` would have if it were to move (its
    /// mobility; the legal moves of the side to move when it has no capture).
    #[must_use]
    #[inline]
    pub fn step_count(&self, color: Color) -> u32 {
        match color {
            Color::Black => step_count::<BlackToMove>(self),
            Color::White => step_count::<WhiteToMove>(self),
        }
    }

    /// Whether the side to move has any legal move (a side without one has lost).
    #[must_use]
    #[inline]
    pub fn has_legal_move(&self) -> bool {
        self.step_count(self.side) > 0 || self.has_capture()
    }

    /// The number of legal moves, counted without building a list (perft's bulk count).
    #[must_use]
    pub fn count_moves(&self) -> u64 {
        match self.side {
            Color::Black => count_moves::<BlackToMove>(self),
            Color::White => count_moves::<WhiteToMove>(self),
        }
    }

    /// Appends the legal moves to `moves`: all capture sequences if there is a capture,
    /// otherwise all steps. Order: captures by starting square, then by direction
    /// (up-left, up-right, down-left, down-right) at each jump; steps by direction
    /// (forward ones first), then by destination square.
    pub fn legal_moves(&self, moves: &mut Vec<Move>) {
        match self.side {
            Color::Black => generate::<BlackToMove>(self, moves),
            Color::White => generate::<WhiteToMove>(self, moves),
        }
    }

    /// [`Position::play`] for a side known at compile time.
    #[inline(always)]
    fn play_as<S: Side>(&self, mv: Move) -> Position {
        let moved = (1u64 << mv.from) ^ (1u64 << mv.to);
        let mut next = *self;
        match S::COLOR {
            Color::Black => {
                next.black ^= moved;
                next.white &= !mv.captured;
            }
            Color::White => {
                next.white ^= moved;
                next.black &= !mv.captured;
            }
        }
        next.kings &= !mv.captured;
        if self.kings & (1 << mv.from) != 0 {
            next.kings ^= moved;
        } else if mv.crowns {
            next.kings |= 1 << mv.to;
        }
        next.side = S::Opponent::COLOR;
        next
    }
}

/// Perft: the number of leaf nodes of the legal-move tree `depth` plies deep from
/// `position` (1 at depth 0). A position without legal moves at a depth above 0 has no
/// leaves below it.
///
/// Bulk counting: the last ply is counted, not played. Positions are copied (copy-make) and
/// moves are visited as they are generated, so the walk allocates nothing at all. The
/// recursion is `depth` frames deep; depth is limited in practice by time (perft 20 would
/// take days), not by the stack.
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
    match (depth, position.side) {
        (0, _) => 1,
        (_, Color::Black) => perft_side::<BlackToMove>(position, depth),
        (_, Color::White) => perft_side::<WhiteToMove>(position, depth),
    }
}

/// Perft below a position of side `S` to move, `depth ≥ 1`. Moves are visited as they are
/// generated, so no move list is stored at all.
fn perft_side<S: Side>(position: &Position, depth: u32) -> u64 {
    if depth == 1 {
        return count_moves::<S>(position);
    }
    let mut leaves = 0;
    for_each_move::<S>(position, |mv| {
        leaves += perft_side::<S::Opponent>(&position.play_as::<S>(mv), depth - 1);
    });
    leaves
}

/// Perft split by the first move ("divide"): each legal move with the perft of `depth - 1`
/// below it, in generation order. Their sum is `perft(position, depth)` for `depth ≥ 1`.
#[must_use]
pub fn perft_divide(position: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let below = depth.saturating_sub(1);
    moves
        .into_iter()
        .map(|mv| (mv, perft(&position.play(mv), below)))
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
