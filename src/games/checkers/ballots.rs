//! The ACF three-move ballots: the 156 openings of the tournament deck, shipped as the PDN
//! file `data/checkers/three_move_ballots.pdn` and read by the same PDN reader as any game.
//!
//! Source: the ACF numbered list of 174 three-move openings as carried by the CheckerBoard
//! program (`three_move_table`, with the barred ones marked) and the Milhouse engine
//! (`acf-openings.c`, losing ones marked), which agree move for move; the 18 barred
//! openings are left out, leaving 156 (144 crossboard and 12 later mail-play additions).

use super::board::{Move, Position};
use super::pdn::read_pdn;

/// The ballot file, compiled in.
const BALLOTS_PDN: &str = include_str!("../../../data/checkers/three_move_ballots.pdn");

/// One three-move ballot: Black's first move, White's reply, Black's second move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ballot {
    /// The ACF number (1–174; the barred numbers are not in the deck).
    pub number: u16,
    /// The three moves from the initial position.
    pub moves: [Move; 3],
}

impl Ballot {
    /// The position after the three moves, White to move.
    #[must_use]
    pub fn position(&self) -> Position {
        self.moves
            .iter()
            .fold(Position::initial(), |position, &mv| position.play(mv))
    }
}

impl std::fmt::Display for Ballot {
    /// `9-13 21-17 5-9`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} {}", self.moves[0], self.moves[1], self.moves[2])
    }
}

/// The 156 ACF three-move ballots, in ACF order.
///
/// # Example
/// ```
/// use gametree::games::checkers::three_move_ballots;
///
/// let ballots = three_move_ballots();
/// assert_eq!(ballots.len(), 156);
/// assert_eq!(ballots[0].to_string(), "9-13 21-17 5-9");
/// ```
#[must_use]
pub fn three_move_ballots() -> Vec<Ballot> {
    read_pdn(BALLOTS_PDN)
        .expect("invariant: the shipped ballot file is valid PDN (tested)")
        .into_iter()
        .map(|game| {
            let number = game
                .tag("Ballot")
                .and_then(|number| number.parse().ok())
                .expect("invariant: every shipped ballot has a numeric Ballot tag (tested)");
            let moves = game
                .moves
                .as_slice()
                .try_into()
                .expect("invariant: every shipped ballot has three moves (tested)");
            Ballot { number, moves }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deck_has_156_distinct_legal_openings() {
        // 156: the ACF tournament deck (174 numbered ballots less 18 barred).
        let ballots = three_move_ballots();
        assert_eq!(ballots.len(), 156);
        let mut texts: Vec<String> = ballots.iter().map(ToString::to_string).collect();
        texts.sort();
        texts.dedup();
        assert_eq!(texts.len(), 156);
        // Numbers ascend, skip exactly the barred ones, and stay within 1-174.
        let numbers: Vec<u16> = ballots.iter().map(|ballot| ballot.number).collect();
        let barred = [
            3, 13, 26, 35, 44, 45, 48, 52, 77, 88, 94, 109, 114, 137, 145, 156, 168, 171,
        ];
        let expected: Vec<u16> = (1..=174).filter(|n| !barred.contains(n)).collect();
        assert_eq!(numbers, expected);
    }
}
