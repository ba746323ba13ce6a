//! The learning by game phase (issue 15, "colour and phase"): do the families fit the same
//! way in the opening, the middle game and the endgame? The typical positions are split by
//! the pieces on the board and the three families of [`super::families`] fitted to each
//! phase's samples at each dmax.

use serde::{Deserialize, Serialize};

use super::families::{FamilyComparison, compare_families, observations_by_dmax};
use super::learning::LearningSample;

/// A phase of a checkers game, by the pieces left on the board (24 at the start).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// 20 pieces or more.
    Opening,
    /// 12 to 19 pieces.
    MiddleGame,
    /// 11 pieces or fewer.
    Endgame,
}

impl Phase {
    /// Every phase, in the order of a game.
    pub const ALL: [Phase; 3] = [Phase::Opening, Phase::MiddleGame, Phase::Endgame];

    /// The phase of a position with `pieces` on the board.
    #[must_use]
    pub fn of_pieces(pieces: u32) -> Phase {
        match pieces {
            20.. => Phase::Opening,
            12..=19 => Phase::MiddleGame,
            _ => Phase::Endgame,
        }
    }

    /// The phase of `position`.
    #[must_use]
    pub fn of_position(position: &crate::games::checkers::Position) -> Phase {
        Phase::of_pieces(position.piece_count())
    }

    /// Its place in [`Phase::ALL`].
    #[must_use]
    pub fn index(self) -> usize {
        self as usize
    }

    /// `opening (20+ pieces)`, `middle game (12–19)` or `endgame (≤ 11)`.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Phase::Opening => "opening (20+ pieces)",
            Phase::MiddleGame => "middle game (12–19)",
            Phase::Endgame => "endgame (≤ 11)",
        }
    }
}

/// The families fitted to the samples of one phase at one dmax.
#[derive(Clone, Debug, PartialEq)]
pub struct PhaseFits {
    /// The phase.
    pub phase: Phase,
    /// The dmax.
    pub dmax: u32,
    /// Samples fitted (decided positions left out).
    pub samples: usize,
    /// The mean of v − a₂ over them.
    pub mean_excess: f64,
    /// Offset, Slagle's and the shifted family, as [`compare_families`] gives them.
    pub families: Vec<FamilyComparison>,
}

/// How many of the typical positions (`pieces`: the pieces of each) fall in each phase.
#[must_use]
pub fn phase_counts(pieces: &[u32]) -> Vec<(Phase, usize)> {
    Phase::ALL
        .iter()
        .map(|&phase| {
            let count = pieces
                .iter()
                .filter(|&&count| Phase::of_pieces(count) == phase)
                .count();
            (phase, count)
        })
        .collect()
}

/// The families fitted by phase and dmax: the samples of the positions of each phase
/// (`pieces[sample.position]`), decided ones left out, in the order of the positions (so
/// that the held-out split is by position). Phases with fewer than 10 samples at a dmax
/// are left out.
#[must_use]
pub fn phase_fits(samples: &[LearningSample], pieces: &[u32]) -> Vec<PhaseFits> {
    let mut fits = Vec::new();
    for phase in Phase::ALL {
        let of_phase = |sample: &LearningSample| {
            pieces
                .get(sample.position)
                .is_some_and(|&count| Phase::of_pieces(count) == phase)
        };
        for (dmax, observations) in observations_by_dmax(samples, of_phase) {
            if observations.len() < 10 {
                continue;
            }
            let mean_excess = observations
                .iter()
                .map(|observation| observation.excess)
                .sum::<f64>()
                / observations.len() as f64;
            fits.push(PhaseFits {
                phase,
                dmax,
                samples: observations.len(),
                mean_excess,
                families: compare_families(&observations),
            });
        }
    }
    fits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_split_by_pieces_and_fit_each_its_own_samples() {
        assert_eq!(Phase::of_pieces(24), Phase::Opening);
        assert_eq!(Phase::of_pieces(20), Phase::Opening);
        assert_eq!(Phase::of_pieces(19), Phase::MiddleGame);
        assert_eq!(Phase::of_pieces(12), Phase::MiddleGame);
        assert_eq!(Phase::of_pieces(11), Phase::Endgame);
        // Thirty positions: ten of each phase; endgame samples sit 20 below a₂, others 5 above.
        let pieces: Vec<u32> = (0..30).map(|index| [22, 15, 6][index / 10]).collect();
        let samples: Vec<LearningSample> = (0..30)
            .map(|position| LearningSample {
                position,
                dmax: 0,
                best: 100.0,
                second: 100.0 - position as f64,
                deep: if position >= 20 { 80.0 } else { 105.0 },
            })
            .collect();
        assert_eq!(
            phase_counts(&pieces),
            [
                (Phase::Opening, 10),
                (Phase::MiddleGame, 10),
                (Phase::Endgame, 10)
            ]
        );
        let fits = phase_fits(&samples, &pieces);
        assert_eq!(fits.len(), 3);
        assert!(fits.iter().all(|fit| fit.samples == 10));
        assert_eq!(fits[2].phase, Phase::Endgame);
        assert!((fits[2].mean_excess + 20.0).abs() < 1e-12);
        assert!((fits[0].mean_excess - 5.0).abs() < 1e-12);
    }
}
