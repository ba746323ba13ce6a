//! The board features of the learned evaluation ([`super::LearnedWeights`]): what a
//! checkers player looks at, each counted for Black less the same count for White, so
//! that the evaluation is from Black's side and a position seen with colours reversed
//! has every feature negated.
//!
//! Samuel's program (1959) chose among 38 such terms; these are the classic ones the
//! checkers literature names (material, back rank, centre, mobility, runaway men, trapped
//! kings, threatened pieces, the tempo of the man structure), computed with a few shifts
//! and masks of the internal board.

use super::board::{
    BLACK_BACK_ROW, Board, Color, Position, VALID, WHITE_BACK_ROW, from_squares, shift,
};

/// How many features there are.
pub const FEATURE_COUNT: usize = 14;

/// The name of each feature, as the weights file spells it.
pub const FEATURE_NAMES: [&str; FEATURE_COUNT] = [
    "man",
    "king",
    "back_row_guard",
    "bridge",
    "centre_men",
    "centre_kings",
    "advancement",
    "mobility",
    "runaway_men",
    "trapped_kings",
    "edge_men",
    "edge_kings",
    "threatened",
    "to_move",
];

/// How many square features there are: a man on each of the 28 squares from its own back
/// row to the row before its crowning row, and a king on each of the 32, both counted from
/// the side's own view (its back row squares 1–4), so that one table serves both colours.
pub const SQUARE_FEATURE_COUNT: usize = MAN_SQUARES + 32;

/// The squares a man can stand on, from its own view: 1–28.
const MAN_SQUARES: usize = 28;

/// The name of square feature `index` (below [`SQUARE_FEATURE_COUNT`]) as the weights file
/// spells it: `man_on_S` or `king_on_S`, S the square from the side's own view.
#[must_use]
pub fn square_feature_name(index: usize) -> String {
    if index < MAN_SQUARES {
        format!("man_on_{}", index + 1)
    } else {
        format!("king_on_{}", index - MAN_SQUARES + 1)
    }
}

/// The index of the square feature named `name` ([`square_feature_name`]), if any.
#[must_use]
pub fn square_feature_index(name: &str) -> Option<usize> {
    let (offset, count, square) = if let Some(square) = name.strip_prefix("man_on_") {
        (0, MAN_SQUARES, square)
    } else {
        (MAN_SQUARES, 32, name.strip_prefix("king_on_")?)
    };
    if square.starts_with('0') {
        return None;
    }
    let square: usize = square.parse().ok()?;
    (1..=count).contains(&square).then(|| offset + square - 1)
}

/// Calls `visit(index, sign)` for every piece on the board: `index` its square feature,
/// `sign` +1 for Black's, −1 for White's. A man is never on its crowning row, so its index
/// stays below 28.
#[inline]
pub fn for_each_square_feature(position: &Position, mut visit: impl FnMut(usize, i32)) {
    for (color, sign) in [(Color::Black, 1), (Color::White, -1)] {
        let own = super::board::to_squares(position.board(color));
        let kings = super::board::to_squares(position.kings);
        // White's square s is square 33 − s from its own view: the bits reversed.
        let (own, kings) = match color {
            Color::Black => (own, kings),
            Color::White => (own.reverse_bits(), kings.reverse_bits()),
        };
        let mut men = own & !kings;
        while men != 0 {
            let square = men.trailing_zeros() as usize;
            men &= men - 1;
            visit(square.min(MAN_SQUARES - 1), sign);
        }
        let mut own_kings = own & kings;
        while own_kings != 0 {
            let square = own_kings.trailing_zeros() as usize;
            own_kings &= own_kings - 1;
            visit(MAN_SQUARES + square, sign);
        }
    }
}

/// The square features of `position`: for each, Black's pieces there (from Black's view)
/// less White's (from White's).
#[must_use]
pub fn square_features(position: &Position) -> [i32; SQUARE_FEATURE_COUNT] {
    let mut values = [0; SQUARE_FEATURE_COUNT];
    for_each_square_feature(position, |index, sign| values[index] += sign);
    values
}

/// The kinds of neighbour a man's pattern features look at, each a diagonal step (on the
/// internal board, for Black; White's are the same steps negated, the board turned round)
/// and what stands there: one of the side's own men ahead of it (each pair counted once,
/// from the man behind), an enemy piece ahead of it, or an enemy piece behind it.
const PATTERN_KINDS: [(i32, Neighbour); 6] = [
    (4, Neighbour::OwnMan),
    (5, Neighbour::OwnMan),
    (4, Neighbour::Enemy),
    (5, Neighbour::Enemy),
    (-4, Neighbour::Enemy),
    (-5, Neighbour::Enemy),
];

/// What stands on a neighbouring square in a pattern feature.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Neighbour {
    OwnMan,
    Enemy,
}

/// How many pattern features there are: for each square a man can stand on (from its own
/// side's view) and each kind of neighbour, whether it is there. They
/// see what one square at a time cannot: a man backed by another, two men facing each
/// other, a man with an enemy behind it.
pub const PATTERN_FEATURE_COUNT: usize = PATTERN_KINDS.len() * MAN_SQUARES;

/// The square (1–32) one step `delta` from `square` (1–32) on the internal board, if on it.
fn neighbour_square(square: usize, delta: i32) -> Option<usize> {
    let bit = super::board::bit_of(u8::try_from(square - 1).ok()?);
    let board = shift(1 << bit, delta) & VALID;
    (board != 0).then(|| usize::from(super::board::index_of(board.trailing_zeros() as u8)) + 1)
}

/// The name of pattern feature `index` (below [`PATTERN_FEATURE_COUNT`]) as the weights
/// file spells it: `man_S_own_T` or `man_S_enemy_T`, a man on S with the side's own man or an
/// enemy piece on T, both from the side's own view; `None` where the pattern cannot occur
/// (T off the board, or the side's own man on its crowning row).
#[must_use]
pub fn pattern_feature_name(index: usize) -> Option<String> {
    let (kind, square) = (index / MAN_SQUARES, index % MAN_SQUARES + 1);
    let (delta, neighbour) = *PATTERN_KINDS.get(kind)?;
    let other = neighbour_square(square, delta)?;
    if neighbour == Neighbour::OwnMan && other > MAN_SQUARES {
        // A man there would have been crowned.
        return None;
    }
    let what = match neighbour {
        Neighbour::OwnMan => "own",
        Neighbour::Enemy => "enemy",
    };
    Some(format!("man_{square}_{what}_{other}"))
}

/// The index of the pattern feature named `name` ([`pattern_feature_name`]), if any.
#[must_use]
pub fn pattern_feature_index(name: &str) -> Option<usize> {
    if !name.starts_with("man_") || name.starts_with("man_on_") {
        return None;
    }
    (0..PATTERN_FEATURE_COUNT).find(|&index| pattern_feature_name(index).as_deref() == Some(name))
}

/// Calls `visit(index, sign)` for every pattern on the board: `index` its pattern feature,
/// `sign` +1 for Black's, −1 for White's.
#[inline]
pub fn for_each_pattern_feature(position: &Position, mut visit: impl FnMut(usize, i32)) {
    let (black, white, kings) = (position.black, position.white, position.kings);
    for (color, sign) in [(Color::Black, 1), (Color::White, -1)] {
        let (own, enemy) = match color {
            Color::Black => (black, white),
            Color::White => (white, black),
        };
        let men = own & !kings;
        for (kind, &(delta, neighbour)) in PATTERN_KINDS.iter().enumerate() {
            let there = match neighbour {
                Neighbour::OwnMan => men,
                Neighbour::Enemy => enemy,
            };
            // The men whose neighbour one step `delta` away (turned round for White) holds
            // `there`: `there` stepped back by `delta` onto them.
            let step = match color {
                Color::Black => -delta,
                Color::White => delta,
            };
            let found = super::board::to_squares(men & shift(there, step));
            // White's square s is square 33 − s from its own view: the bits reversed.
            let mut found = match color {
                Color::Black => found,
                Color::White => found.reverse_bits(),
            };
            while found != 0 {
                let square = found.trailing_zeros() as usize;
                found &= found - 1;
                visit(kind * MAN_SQUARES + square.min(MAN_SQUARES - 1), sign);
            }
        }
    }
}

/// The pattern features of `position`: for each, Black's (from Black's view) less White's
/// (from White's).
#[must_use]
pub fn pattern_features(position: &Position) -> [i32; PATTERN_FEATURE_COUNT] {
    let mut values = [0; PATTERN_FEATURE_COUNT];
    for_each_pattern_feature(position, |index, sign| values[index] += sign);
    values
}

/// The most pieces a side can have; the phase runs from this many pieces on the board
/// (opening) down to none.
pub const PHASE_PIECES: i32 = 24;

/// The board's features and its phase (how many pieces stand on it, at most
/// [`PHASE_PIECES`]): the learned evaluation blends an opening weight and an endgame weight
/// of each feature by the phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Black's count less White's, in the order of [`FEATURE_NAMES`].
    pub values: [i32; FEATURE_COUNT],
    /// The pieces on the board, both colours, capped at [`PHASE_PIECES`].
    pub phase: i32,
}

/// The eight central squares 10, 11, 14, 15, 18, 19, 22, 23.
const CENTRE: Board = from_squares(
    (1 << 9) | (1 << 10) | (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18) | (1 << 21) | (1 << 22),
);

/// The side squares 4, 5, 12, 13, 20, 21, 28, 29, where a piece has two neighbours, not
/// four.
const EDGE: Board = from_squares(
    (1 << 3) | (1 << 4) | (1 << 11) | (1 << 12) | (1 << 19) | (1 << 20) | (1 << 27) | (1 << 28),
);

/// Black's bridge, men on 1 and 3: two back-rank men that keep White's men from crowning
/// for a long time. White's is 30 and 32.
const BLACK_BRIDGE: Board = from_squares((1 << 0) | (1 << 2));
const WHITE_BRIDGE: Board = from_squares((1 << 29) | (1 << 31));

/// The row (0 for squares 1–4) and column (0–7) of square index `index`.
const fn row_and_column(index: u32) -> (i32, i32) {
    let row = (index / 4) as i32;
    let place = (index % 4) as i32;
    let column = if row % 2 == 0 {
        2 * place + 1
    } else {
        2 * place
    };
    (row, column)
}

/// For each square index, the squares a Black man there could ever reach going down the
/// board (its forward cone), as a [`Board`]; White's cone of square `i` is Black's of
/// `31 − i` turned round.
const fn black_cones() -> [Board; 32] {
    let mut cones = [0; 32];
    let mut from = 0;
    while from < 32 {
        let (row, column) = row_and_column(from);
        let mut squares: u32 = 0;
        let mut to = 0;
        while to < 32 {
            let (to_row, to_column) = row_and_column(to);
            let ahead = to_row - row;
            let aside = if to_column > column {
                to_column - column
            } else {
                column - to_column
            };
            if ahead > 0 && aside <= ahead {
                squares |= 1 << to;
            }
            to += 1;
        }
        cones[from as usize] = from_squares(squares);
        from += 1;
    }
    cones
}

static BLACK_CONES: [Board; 32] = black_cones();

/// The squares of a [`Board`] turned round (square s to 33 − s): White's view as Black's.
fn turned(board: Board) -> Board {
    let squares = super::board::to_squares(board);
    from_squares(squares.reverse_bits())
}

/// The side's men whose forward cone holds no opponent piece: nothing stands between them
/// and a crown (the opponent's kings may still come back to stop them).
fn runaway_men(men: Board, opponent: Board, color: Color) -> u32 {
    let (men, opponent) = match color {
        Color::Black => (men, opponent),
        Color::White => (turned(men), turned(opponent)),
    };
    let mut count = 0;
    let mut left = super::board::to_squares(men);
    while left != 0 {
        let index = left.trailing_zeros() as usize;
        left &= left - 1;
        if BLACK_CONES[index] & opponent == 0 {
            count += 1;
        }
    }
    count
}

/// Kings of `kings` with no empty square next to them.
fn trapped(kings: Board, empty: Board) -> u32 {
    let mut free = 0;
    for delta in [-5, -4, 4, 5] {
        free |= shift(empty, -delta);
    }
    (kings & !free & VALID).count_ones()
}

/// The pieces of `own` that an opponent piece could jump now were it the opponent's move:
/// a piece with an opponent that may move towards it on one side and an empty square on
/// the other.
fn threatened(
    own: Board,
    opponent: Board,
    opponent_kings: Board,
    empty: Board,
    color: Color,
) -> u32 {
    // The opponent's men move up the board when `color` is Black (White's men), down when
    // it is White.
    let (men_directions, king_directions) = match color {
        Color::Black => ([-5, -4], [4, 5]),
        Color::White => ([4, 5], [-5, -4]),
    };
    let mut victims = 0;
    for delta in men_directions {
        victims |= shift(opponent, delta) & own & shift(empty, -delta);
    }
    for delta in king_directions {
        victims |= shift(opponent_kings, delta) & own & shift(empty, -delta);
    }
    (victims & VALID).count_ones()
}

/// One side's counts, in the order of [`FEATURE_NAMES`].
fn side(position: &Position, color: Color) -> [i32; FEATURE_COUNT] {
    let own = position.board(color);
    let opponent = position.board(color.opponent());
    let kings = own & position.kings;
    let men = own & !position.kings;
    let empty = position.empty_board();
    let (back_row, bridge) = match color {
        Color::Black => (from_squares(BLACK_BACK_ROW), BLACK_BRIDGE),
        Color::White => (from_squares(WHITE_BACK_ROW), WHITE_BRIDGE),
    };
    let advancement: i32 = (0..8u32)
        .map(|row| {
            let on_row = from_squares(0xF << (4 * row));
            let rows_ahead = match color {
                Color::Black => row,
                Color::White => 7 - row,
            };
            (men & on_row).count_ones() as i32 * rows_ahead as i32
        })
        .sum();
    let count = |board: Board| board.count_ones() as i32;
    [
        count(men),
        count(kings),
        count(men & back_row),
        i32::from(men & bridge == bridge),
        count(men & CENTRE),
        count(kings & CENTRE),
        advancement,
        position.step_count(color) as i32,
        runaway_men(men, opponent, color) as i32,
        trapped(kings, empty) as i32,
        count(men & EDGE),
        count(kings & EDGE),
        threatened(own, opponent, opponent & position.kings, empty, color) as i32,
        i32::from(position.side_to_move() == color),
    ]
}

/// The features of `position`: Black's counts less White's.
#[must_use]
pub fn features(position: &Position) -> Features {
    let black = side(position, Color::Black);
    let white = side(position, Color::White);
    let mut values = [0; FEATURE_COUNT];
    for (value, (black, white)) in values.iter_mut().zip(black.iter().zip(white.iter())) {
        *value = black - white;
    }
    let pieces = i32::try_from(position.piece_count()).unwrap_or(PHASE_PIECES);
    Features {
        values,
        phase: pieces.min(PHASE_PIECES),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feature(position: &str, name: &str) -> i32 {
        let position = Position::from_fen(position).expect("valid");
        let index = FEATURE_NAMES
            .iter()
            .position(|&known| known == name)
            .expect("a feature");
        features(&position).values[index]
    }

    #[test]
    fn the_start_is_level_but_for_the_move() {
        let start = features(&Position::initial());
        for (name, value) in FEATURE_NAMES.iter().zip(start.values) {
            let expected = i32::from(*name == "to_move");
            assert_eq!(value, expected, "{name}");
        }
        assert_eq!(start.phase, 24);
    }

    #[test]
    fn colours_reversed_negate_every_feature_square_feature_and_pattern() {
        // Square s mirrors to 33 - s, colours swapped, the other side to move.
        let position = Position::from_fen("B:W22,K30,18,26:B11,3,1,K14,6").expect("valid");
        let mirrored = Position::from_fen("W:W22,30,32,K19,27:B11,K3,15,7").expect("valid");
        let ours = features(&position);
        let theirs = features(&mirrored);
        for ((name, ours), theirs) in FEATURE_NAMES.iter().zip(ours.values).zip(theirs.values) {
            assert_eq!(ours, -theirs, "{name}");
        }
        assert_eq!(ours.phase, theirs.phase);
        let ours = square_features(&position);
        let theirs = square_features(&mirrored);
        for (index, (ours, theirs)) in ours.iter().zip(theirs).enumerate() {
            assert_eq!(*ours, -theirs, "{}", square_feature_name(index));
        }
        assert!(ours.iter().any(|&value| value != 0));
        let ours = pattern_features(&position);
        let theirs = pattern_features(&mirrored);
        for (index, (ours, theirs)) in ours.iter().zip(theirs).enumerate() {
            assert_eq!(*ours, -theirs, "{:?}", pattern_feature_name(index));
        }
        assert!(ours.iter().any(|&value| value != 0));
    }

    #[test]
    fn patterns_count_a_man_with_each_neighbour_their_names_say() {
        // Black men on 9 and 14 (14 is ahead of 9, below it on the page), a White man on 18
        // ahead of 14. White's man on 18 is on 15 from White's view, the Black man on 14
        // (19 from White's view) ahead of it.
        let values = pattern_features(&Position::from_fen("B:W18:B9,14").expect("valid"));
        let named = |name: &str| values[pattern_feature_index(name).expect("a pattern")];
        assert_eq!(named("man_9_own_14"), 1);
        assert_eq!(named("man_14_enemy_18"), 1);
        assert_eq!(named("man_15_enemy_19"), -1);
        assert_eq!(values.iter().map(|value| value.abs()).sum::<i32>(), 3);
        // An enemy behind: a White king on 5 behind the Black man on 9, which sees it as
        // well from 28 (White's view of 5) as a Black piece ahead of nothing: White has no
        // man, so only Black's pattern counts.
        let values = pattern_features(&Position::from_fen("B:WK5:B9").expect("valid"));
        assert_eq!(
            values[pattern_feature_index("man_9_enemy_5").expect("a pattern")],
            1
        );
        assert_eq!(values.iter().map(|value| value.abs()).sum::<i32>(), 1);
    }

    #[test]
    fn pattern_names_read_back_and_only_patterns_that_can_occur_have_one() {
        let mut named = 0;
        for index in 0..PATTERN_FEATURE_COUNT {
            if let Some(name) = pattern_feature_name(index) {
                assert_eq!(pattern_feature_index(&name), Some(index), "{name}");
                named += 1;
            }
        }
        // Of 6 × 28: the edge squares lack a neighbour on one side, the back row behind it,
        // and no man of one's own stands on the crowning row ahead of squares 25–28.
        assert!((100..PATTERN_FEATURE_COUNT).contains(&named), "{named}");
        // Counted by hand: own man ahead 24 × 2 − 6 edge squares = 42; enemy ahead
        // 28 × 2 − 7 = 49; enemy behind 24 × 2 − 6 = 42.
        assert_eq!(named, 42 + 49 + 42);
        for name in [
            "man_25_own_29",
            "man_4_enemy_0",
            "man_9_own_5",
            "man_on_9",
            "man_9_own_13x",
        ] {
            assert_eq!(pattern_feature_index(name), None, "{name}");
        }
    }

    #[test]
    fn square_features_count_each_piece_on_its_own_square() {
        // A Black man on 1 is on its own back row; a White man on 32 too: they cancel.
        let level = square_features(&Position::from_fen("B:W32:B1").expect("valid"));
        assert!(level.iter().all(|&value| value == 0));
        let values = square_features(&Position::from_fen("B:W32,K5:B28,K9").expect("valid"));
        let named = |name: &str| values[square_feature_index(name).expect("a square feature")];
        assert_eq!(named("man_on_28"), 1);
        assert_eq!(named("man_on_1"), -1);
        assert_eq!(named("king_on_9"), 1);
        assert_eq!(named("king_on_28"), -1);
        assert_eq!(values.iter().map(|value| value.abs()).sum::<i32>(), 4);
    }

    #[test]
    fn square_feature_names_read_back() {
        for index in 0..SQUARE_FEATURE_COUNT {
            assert_eq!(
                square_feature_index(&square_feature_name(index)),
                Some(index)
            );
        }
        for name in [
            "man_on_29",
            "man_on_0",
            "king_on_33",
            "king_on_01",
            "man_on_",
            "man",
        ] {
            assert_eq!(square_feature_index(name), None, "{name}");
        }
    }

    #[test]
    fn each_feature_counts_what_its_name_says() {
        // Black men on 1 and 3 form the bridge; on 1 alone they do not.
        assert_eq!(feature("B:W32:B1,3", "bridge"), 1);
        assert_eq!(feature("B:W32:B1,2", "bridge"), 0);
        // Two Black men on the back row against White's one.
        assert_eq!(feature("B:W32:B1,2", "back_row_guard"), 2 - 1);
        // A Black man on 22 with nothing of White's ahead runs to a crown; one with a White
        // man in its cone (on 31) does not.
        assert_eq!(feature("B:WK1:B22", "runaway_men"), 1);
        assert_eq!(feature("B:W31:B22", "runaway_men"), 0);
        // The Black king on 29 is boxed in: its one neighbour, 25, is White's, and 21 behind
        // it too, so it cannot jump.
        assert_eq!(feature("B:W25,21,22:BK29", "trapped_kings"), 1);
        assert_eq!(feature("B:W30:BK29", "trapped_kings"), 0);
        // A White man on 19 threatens the Black man on 15 when 10 is empty (19x10); the
        // White man on 24 keeps Black's 15x24 off.
        assert_eq!(feature("B:W19,24:B15", "threatened"), 1);
        assert_eq!(feature("B:W19,24:B15,10", "threatened"), 0);
        // Side squares.
        assert_eq!(feature("B:W32:B12,13,14", "edge_men"), 2);
        assert_eq!(feature("B:W32:BK12,K13,14", "edge_kings"), 2);
        assert_eq!(feature("B:W32:B14,15", "centre_men"), 2);
        assert_eq!(feature("W:W32:B14", "to_move"), -1);
    }
}
