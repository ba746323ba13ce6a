//! Match statistics: the score, and the Elo difference it implies with a 95% confidence
//! interval (the logistic Elo model, as chess and checkers rating lists use it).

use serde::{Deserialize, Serialize};

/// The two-sided 95% quantile of the normal distribution.
const Z_95: f64 = 1.959_963_984_540_054;
/// What each tail of a two-sided 95% interval leaves out.
const TAIL_95: f64 = 0.025;

/// Wins, draws and losses of one side of a match, and what they say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MatchScore {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// The Elo difference a score implies and its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EloEstimate {
    /// The difference, in Elo points (±∞ for a score of 1 or 0).
    pub elo: f64,
    /// The lower end of the 95% interval.
    pub low: f64,
    /// The upper end of the 95% interval.
    pub high: f64,
}

/// The Elo difference at which the stronger side is expected to score `score` (a fraction
/// of the points): 400·log₁₀(score / (1 − score)).
///
/// # Example
/// ```
/// use gametree::experiment::elo_difference;
/// // Scoring three points in four is 400·log₁₀ 3 ≈ 190.85 Elo.
/// assert!((elo_difference(0.75) - 190.848_501_887_865).abs() < 1e-9);
/// assert_eq!(elo_difference(0.5), 0.0);
/// ```
#[must_use]
pub fn elo_difference(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        400.0 * (score / (1.0 - score)).log10()
    }
}

impl MatchScore {
    /// Counts one game in which this side scored `points`: 1 a win, 0 a loss, anything
    /// else (½) a draw.
    pub fn record(&mut self, points: f64) {
        if points == 1.0 {
            self.wins += 1;
        } else if points == 0.0 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Games played.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw ½.
    #[must_use]
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The score, points per game; `None` before any game.
    #[must_use]
    pub fn score(&self) -> Option<f64> {
        (self.games() > 0).then(|| self.points() / f64::from(self.games()))
    }

    /// The Elo difference and its 95% confidence interval: the mean score per game with
    /// its standard error from the games' own variance (each game 1, ½ or 0), the normal
    /// approximation p ± 1.96·σ/√n, each end turned into Elo. Games are taken as
    /// independent (the pairing of colours is not used). `None` before any game.
    ///
    /// Where every game had one result (all won, all drawn or all lost) the games show no
    /// variance, and the normal approximation would give an interval of width zero, as if
    /// a handful of games proved the score exact. Then the chance `q` of any other result
    /// in a game is bounded as Clopper and Pearson bound a proportion seen zero times in n
    /// trials (1 − q = 0.025^(1/n), the 97.5% one-sided bound), and the interval takes
    /// the score as far as such results can move it: all won, [1 − q, 1]; all lost,
    /// [0, q]; all drawn, ½ ± q/2.
    #[must_use]
    pub fn elo(&self) -> Option<EloEstimate> {
        let score = self.score()?;
        let games = f64::from(self.games());
        let variance = (f64::from(self.wins) * (1.0 - score).powi(2)
            + f64::from(self.draws) * (0.5 - score).powi(2)
            + f64::from(self.losses) * score.powi(2))
            / games;
        let (low, high) = if variance > 0.0 {
            let margin = Z_95 * (variance / games).sqrt();
            (score - margin, score + margin)
        } else {
            let other = 1.0 - TAIL_95.powf(games.recip());
            let reach = if score == 0.5 { other / 2.0 } else { other };
            ((score - reach).max(0.0), (score + reach).min(1.0))
        };
        Some(EloEstimate {
            elo: elo_difference(score),
            low: elo_difference(low),
            high: elo_difference(high),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_score_is_zero_elo_with_a_symmetric_interval() {
        // 10 wins, 10 losses: p = ½, σ = ½, σ/√20 = 0.1118, p ± 0.2191 = 0.2809..0.7191;
        // 400·log₁₀(0.7191/0.2809) = 163.3.
        let score = MatchScore {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        let elo = score.elo().expect("games");
        assert_eq!(elo.elo, 0.0);
        assert!((elo.high - 163.3).abs() < 0.1, "{elo:?}");
        assert!((elo.low + elo.high).abs() < 1e-9);
    }

    /// The estimate of a match of `wins`, `draws` and `losses`.
    fn estimate(wins: u32, draws: u32, losses: u32) -> EloEstimate {
        MatchScore {
            wins,
            draws,
            losses,
        }
        .elo()
        .expect("games")
    }

    #[test]
    fn one_result_in_every_game_still_has_an_interval() {
        // 2 wins of 2: 1 − q = 0.025^(1/2) = 0.1581, 400·log₁₀(0.1581/0.8419) = −290.5;
        // the upper end of a perfect score is unbounded.
        let won = estimate(2, 0, 0);
        assert_eq!(won.elo, f64::INFINITY);
        assert!((won.low + 290.5).abs() < 0.1, "{won:?}");
        assert_eq!(won.high, f64::INFINITY);
        // 30 losses: q = 1 − 0.025^(1/30) = 0.1157, 400·log₁₀(0.1157/0.8843) = −353.3.
        let lost = estimate(0, 0, 30);
        assert_eq!(lost.low, f64::NEG_INFINITY);
        assert!((lost.high + 353.3).abs() < 0.1, "{lost:?}");
        // 30 draws: ½ ± 0.0578, 400·log₁₀(0.5578/0.4422) = 40.4 either way.
        let drawn = estimate(0, 30, 0);
        assert_eq!(drawn.elo, 0.0);
        assert!((drawn.high - 40.4).abs() < 0.1, "{drawn:?}");
        assert!((drawn.low + drawn.high).abs() < 1e-9, "{drawn:?}");
    }

    #[test]
    fn draws_narrow_the_interval_and_count_half() {
        // 3 wins, 10 draws, 1 loss: 8 points in 14 games, p = 4/7.
        let score = MatchScore {
            wins: 3,
            draws: 10,
            losses: 1,
        };
        assert_eq!(score.points(), 8.0);
        let elo = score.elo().expect("games");
        // 400·log₁₀(4/3) = 49.97
        assert!((elo.elo - 49.975).abs() < 0.01, "{elo:?}");
        // variance = (3·(3/7)² + 10·(1/14)² + 1·(4/7)²)/14 = 0.06633; 1.96·√(v/14) = 0.1349;
        // p ± 0.1349 = 0.4365..0.7063 → 400·log₁₀(0.7063/0.2937) = 152.5 and
        // 400·log₁₀(0.4365/0.5635) = −44.3.
        assert!((elo.high - 152.46).abs() < 0.01, "{elo:?}");
        assert!((elo.low + 44.35).abs() < 0.01, "{elo:?}");
    }

    #[test]
    fn a_clean_sweep_is_infinite_and_no_games_is_no_estimate() {
        let sweep = MatchScore {
            wins: 4,
            draws: 0,
            losses: 0,
        };
        assert_eq!(sweep.elo().map(|elo| elo.elo), Some(f64::INFINITY));
        let none = MatchScore {
            wins: 0,
            draws: 0,
            losses: 0,
        };
        assert_eq!(none.elo(), None);
    }
}
