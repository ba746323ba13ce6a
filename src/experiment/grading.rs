//! Grading every move against perfect play (issue 16, part 4): on positions a solver can
//! value exactly, each move a depth-limited player chooses is compared with the best move.
//! Matches say which player wins; this says how much each move gives away, and how often
//! none is.

use serde::{Deserialize, Serialize};

use crate::game::{Evaluate, Game, Player};
use crate::search::float_valued::FloatValued;
use crate::search::m_and_n::{Slagle, mn_alphabeta_depth};
use crate::search::solver::{Solvable, Solver};

/// The two-sided 95% quantile of the normal distribution.
const Z_95: f64 = 1.959_963_984_540_054;

/// The players graded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Searcher {
    /// Ordinary alpha-beta: m&n alpha-beta with m = n = 1.
    #[serde(rename = "1&1")]
    OneAndOne,
    /// Slagle's 2&2 alpha-beta with the learned functions.
    #[serde(rename = "2&2")]
    TwoAndTwo,
}

impl Searcher {
    /// `1&1` or `2&2`.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Searcher::OneAndOne => "1&1",
            Searcher::TwoAndTwo => "2&2",
        }
    }
}

/// The exact value of every move at `game`, from the side of the player to move, in the
/// order of [`Game::successors`] ([`Solver::analyze`]), and the positions the solver
/// visited. Empty when the position is terminal.
pub fn exact_move_values<G: Solvable>(
    solver: &mut Solver<G>,
    game: &mut G,
) -> (Vec<(G::Move, i32)>, u64) {
    let analysis = solver.analyze(game);
    let nodes = analysis
        .iter()
        .map(|(_, solution)| solution.stats.nodes)
        .sum();
    (
        analysis
            .into_iter()
            .map(|(mv, solution)| (mv, solution.score))
            .collect(),
        nodes,
    )
}

/// One player's move at one depth, graded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveGrade {
    /// Who chose it.
    pub searcher: Searcher,
    /// The plies searched.
    pub depth: u32,
    /// The move chosen, by its place among the successors (from 0).
    pub chosen: usize,
    /// Its exact value, from the side of the player to move.
    pub value: i32,
    /// The exact value of the best move, from the same side.
    pub best: i32,
    /// Positions the search visited.
    pub nodes: u64,
}

impl MoveGrade {
    /// What the move gives away against perfect play: best − value (≥ 0), in the units
    /// of the game's value (on Kalah, final margin: a seed that changes sides counts 2).
    #[must_use]
    pub fn loss(&self) -> i32 {
        self.best - self.value
    }

    /// Whether the move keeps the position's exact value.
    #[must_use]
    pub fn keeps_value(&self) -> bool {
        self.value == self.best
    }

    /// Whether the move keeps the position's game-theoretic outcome (a win a win, a draw
    /// a draw): what a match scores, where a smaller winning margin costs nothing.
    #[must_use]
    pub fn keeps_outcome(&self) -> bool {
        self.value.signum() == self.best.signum()
    }
}

/// The move m&n alpha-beta with `functions` chooses at `game` searching `depth` plies,
/// graded against `exact` (from [`exact_move_values`] at the same position).
///
/// # Panics
/// If `game` has no move, or `exact` does not hold the chosen move.
pub fn grade_move<G>(
    game: G,
    searcher: Searcher,
    functions: &Slagle,
    depth: u32,
    exact: &[(G::Move, i32)],
) -> MoveGrade
where
    G: Game<Value = i32> + Evaluate,
    G::Move: PartialEq,
{
    let found = mn_alphabeta_depth(&mut FloatValued(game), functions, depth.max(1));
    let mv = found
        .best_move
        .expect("invariant: a graded position has moves");
    let chosen = exact
        .iter()
        .position(|(candidate, _)| *candidate == mv)
        .expect("invariant: the exact values cover every move");
    MoveGrade {
        searcher,
        depth,
        chosen,
        value: exact[chosen].1,
        best: exact
            .iter()
            .map(|&(_, value)| value)
            .max()
            .expect("invariant: at least one move"),
        nodes: found.stats.nodes,
    }
}

/// A graded position: its exact move values and every player's move at every depth.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionGrades {
    /// The position's index in the grading set.
    pub position: usize,
    /// The exact value of each move, in successor order, from the side to move.
    pub exact: Vec<i32>,
    /// Positions the solver visited for them.
    pub solver_nodes: u64,
    /// Seconds the solver took.
    pub solver_seconds: f64,
    /// The graded moves.
    pub grades: Vec<MoveGrade>,
}

/// A proportion with its 95% Wilson interval, or a mean with its 95% normal interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The proportion or mean.
    pub value: f64,
    /// The lower end of the 95% interval.
    pub low: f64,
    /// The upper end of the 95% interval.
    pub high: f64,
}

impl Estimate {
    /// The mean of `samples` with mean ± 1.96·s/√n (the normal approximation over
    /// independent positions; s the sample standard deviation).
    #[must_use]
    pub fn mean(samples: &[f64]) -> Estimate {
        let n = samples.len() as f64;
        if samples.is_empty() {
            return Estimate {
                value: f64::NAN,
                low: f64::NAN,
                high: f64::NAN,
            };
        }
        let mean = samples.iter().sum::<f64>() / n;
        let variance = if samples.len() > 1 {
            samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)
        } else {
            0.0
        };
        let half = Z_95 * (variance / n).sqrt();
        Estimate {
            value: mean,
            low: mean - half,
            high: mean + half,
        }
    }

    /// `successes` out of `trials` with the Wilson score interval (which, unlike the
    /// normal approximation, stays inside [0, 1] for a share near 0 or 1).
    #[must_use]
    pub fn proportion(successes: usize, trials: usize) -> Estimate {
        if trials == 0 {
            return Estimate::mean(&[]);
        }
        let n = trials as f64;
        let p = successes as f64 / n;
        let z2 = Z_95 * Z_95;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z_95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
        Estimate {
            value: p,
            // Exact at the ends, where rounding would leave 0.9999999999999999.
            low: if successes == 0 {
                0.0
            } else {
                (centre - half).max(0.0)
            },
            high: if successes == trials {
                1.0
            } else {
                (centre + half).min(1.0)
            },
        }
    }
}

/// One player at one depth over the graded positions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GradeSummary {
    /// The player.
    pub searcher: Searcher,
    /// The plies searched.
    pub depth: u32,
    /// Positions graded.
    pub positions: usize,
    /// The share of moves that keep the exact value.
    pub keeps_value: Estimate,
    /// The share of moves that keep the outcome (win, draw or loss).
    pub keeps_outcome: Estimate,
    /// The mean loss per move against perfect play.
    pub mean_loss: Estimate,
    /// Mean positions visited per move.
    pub nodes_per_move: f64,
}

/// 1&1 less 2&2 at one depth, position by position (paired, so the positions' own
/// difficulty cancels).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairedDifference {
    /// The plies searched.
    pub depth: u32,
    /// 1&1's loss less 2&2's, per position: positive when 2&2 loses less.
    pub loss: Estimate,
    /// 2&2's share of value-keeping moves less 1&1's: positive when 2&2 keeps more.
    pub keeps_value: Estimate,
}

fn grades_of(
    records: &[PositionGrades],
    searcher: Searcher,
    depth: u32,
) -> impl Iterator<Item = &MoveGrade> {
    records.iter().flat_map(move |record| {
        record
            .grades
            .iter()
            .filter(move |grade| grade.searcher == searcher && grade.depth == depth)
    })
}

/// The summary of every (player, depth) found in `records`, by player then depth.
#[must_use]
pub fn summarize_grades(records: &[PositionGrades]) -> Vec<GradeSummary> {
    let mut keys: Vec<(Searcher, u32)> = records
        .iter()
        .flat_map(|record| {
            record
                .grades
                .iter()
                .map(|grade| (grade.searcher, grade.depth))
        })
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys.into_iter()
        .map(|(searcher, depth)| {
            let grades: Vec<&MoveGrade> = grades_of(records, searcher, depth).collect();
            let losses: Vec<f64> = grades.iter().map(|grade| f64::from(grade.loss())).collect();
            let keeps = grades.iter().filter(|grade| grade.keeps_value()).count();
            let outcomes = grades.iter().filter(|grade| grade.keeps_outcome()).count();
            GradeSummary {
                searcher,
                depth,
                positions: grades.len(),
                keeps_value: Estimate::proportion(keeps, grades.len()),
                keeps_outcome: Estimate::proportion(outcomes, grades.len()),
                mean_loss: Estimate::mean(&losses),
                nodes_per_move: grades.iter().map(|grade| grade.nodes as f64).sum::<f64>()
                    / grades.len().max(1) as f64,
            }
        })
        .collect()
}

/// 1&1 against 2&2 at each depth both were graded at, position by position.
#[must_use]
pub fn paired_differences(records: &[PositionGrades]) -> Vec<PairedDifference> {
    let mut depths: Vec<u32> = records
        .iter()
        .flat_map(|record| record.grades.iter().map(|grade| grade.depth))
        .collect();
    depths.sort_unstable();
    depths.dedup();
    depths
        .into_iter()
        .filter_map(|depth| {
            let pairs: Vec<(MoveGrade, MoveGrade)> = records
                .iter()
                .filter_map(|record| {
                    let find = |searcher| {
                        record
                            .grades
                            .iter()
                            .find(|grade| grade.searcher == searcher && grade.depth == depth)
                            .copied()
                    };
                    Some((find(Searcher::OneAndOne)?, find(Searcher::TwoAndTwo)?))
                })
                .collect();
            if pairs.is_empty() {
                return None;
            }
            let loss: Vec<f64> = pairs
                .iter()
                .map(|(one, two)| f64::from(one.loss() - two.loss()))
                .collect();
            let keeps: Vec<f64> = pairs
                .iter()
                .map(|(one, two)| {
                    f64::from(u8::from(two.keeps_value())) - f64::from(u8::from(one.keeps_value()))
                })
                .collect();
            Some(PairedDifference {
                depth,
                loss: Estimate::mean(&loss),
                keeps_value: Estimate::mean(&keeps),
            })
        })
        .collect()
}

/// `value` (MAX's side) from the side of `player`.
#[must_use]
pub fn for_mover(player: Player, value: i32) -> i32 {
    match player {
        Player::Max => value,
        Player::Min => -value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::functions_so_far;
    use crate::games::kalah::{Kalah, KalahRules, random_position};
    use crate::random::SplitMix64;
    use crate::search::m_and_n::Exponents;
    use crate::search::minimax::minimax;
    use crate::search::solver::SolveOptions;

    /// Random positions of Kalah(3, 2) with at least two moves.
    fn small_positions() -> Vec<Kalah> {
        let mut random = SplitMix64::new(16);
        let mut positions = Vec::new();
        for plies in 0..60 {
            let game = random_position(3, 2, KalahRules::irving(), plies % 8, &mut random);
            let mut moves = Vec::new();
            game.successors(&mut moves);
            if moves.len() >= 2 {
                positions.push(game);
            }
        }
        positions
    }

    #[test]
    fn exact_move_values_agree_with_minimax_on_every_successor_of_small_kalah() {
        for mut game in small_positions() {
            let mut solver = Solver::new(SolveOptions::default());
            let (exact, _) = exact_move_values(&mut solver, &mut game);
            let mover = game.to_move();
            let mut moves = Vec::new();
            game.successors(&mut moves);
            assert_eq!(exact.len(), moves.len());
            for (&mv, &(graded_move, value)) in moves.iter().zip(&exact) {
                assert_eq!(mv, graded_move);
                game.update(mv);
                let brute = minimax(&mut game).value;
                game.revert(mv);
                assert_eq!(value, for_mover(mover, brute), "{game}");
            }
        }
    }

    #[test]
    fn a_move_is_graded_by_the_minimax_values_of_the_moves() {
        let two_and_two = functions_so_far(&[(0, Exponents::new(1.0, 0.5).expect("valid"))]);
        let mut graded = 0;
        for mut game in small_positions() {
            let mover = game.to_move();
            let mut moves = Vec::new();
            game.successors(&mut moves);
            let exact: Vec<(u8, i32)> = moves
                .iter()
                .map(|&mv| {
                    game.update(mv);
                    let value = for_mover(mover, minimax(&mut game).value);
                    game.revert(mv);
                    (mv, value)
                })
                .collect();
            let best = exact.iter().map(|&(_, value)| value).max().expect("moves");
            for depth in 1..=4 {
                for (searcher, functions) in [
                    (Searcher::OneAndOne, &Slagle::one_and_one()),
                    (Searcher::TwoAndTwo, &two_and_two),
                ] {
                    let grade = grade_move(game.clone(), searcher, functions, depth, &exact);
                    let chosen =
                        mn_alphabeta_depth(&mut FloatValued(game.clone()), functions, depth)
                            .best_move
                            .expect("moves");
                    assert_eq!(moves[grade.chosen], chosen);
                    assert_eq!(grade.value, exact[grade.chosen].1);
                    assert_eq!(grade.best, best);
                    assert_eq!(grade.keeps_value(), grade.loss() == 0);
                    assert!(grade.loss() >= 0);
                    graded += 1;
                }
            }
            // Deep enough to see the end of the game, 1&1 alpha-beta plays perfectly.
            let perfect = grade_move(
                game.clone(),
                Searcher::OneAndOne,
                &Slagle::one_and_one(),
                40,
                &exact,
            );
            assert_eq!(perfect.loss(), 0, "{game}");
        }
        assert!(graded > 100);
    }

    #[test]
    fn summaries_count_keeping_moves_and_intervals_hold_the_estimate() {
        let grade = |searcher, value| MoveGrade {
            searcher,
            depth: 2,
            chosen: 0,
            value,
            best: 4,
            nodes: 10,
        };
        let records: Vec<PositionGrades> = (0..10)
            .map(|position| PositionGrades {
                position,
                exact: vec![4],
                solver_nodes: 1,
                solver_seconds: 0.0,
                grades: vec![
                    grade(Searcher::OneAndOne, if position < 4 { 0 } else { 4 }),
                    grade(Searcher::TwoAndTwo, if position < 2 { 2 } else { 4 }),
                ],
            })
            .collect();
        let summaries = summarize_grades(&records);
        assert_eq!(summaries.len(), 2);
        assert_eq!(summaries[0].keeps_value.value, 0.6);
        // 0 against a best of 4 gives away the win; 2 keeps it.
        assert_eq!(summaries[0].keeps_outcome.value, 0.6);
        assert_eq!(summaries[1].keeps_outcome.value, 1.0);
        assert!((summaries[0].mean_loss.value - 1.6).abs() < 1e-12);
        assert!((summaries[1].mean_loss.value - 0.4).abs() < 1e-12);
        for summary in &summaries {
            assert!(summary.keeps_value.low < summary.keeps_value.value);
            assert!(summary.keeps_value.high > summary.keeps_value.value);
            assert!(summary.mean_loss.low < summary.mean_loss.value);
        }
        let paired = paired_differences(&records);
        assert!((paired[0].loss.value - 1.2).abs() < 1e-12);
        assert!((paired[0].keeps_value.value - 0.2).abs() < 1e-12);
        let all = Estimate::proportion(10, 10);
        assert_eq!((all.value, all.high), (1.0, 1.0));
        assert!(all.low > 0.6 && all.low < 0.8);
    }
}
