//! The match of section 8 (seed 003): "the game of checkers will be used to compare the
//! performance of 2&2 alpha beta with that of 1&1 alpha beta". Every opening is played
//! twice, colours reversed, at equal depth and at equal cost (nodes per move).

use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::elo::{EloEstimate, MatchScore};
use super::positions::Opening;
use crate::game::Game;
use crate::games::checkers::{Checkers, Color, GameResult, Move, PdnGame, write_pdn};
use crate::search::deepening::{SearchOptions, iterative_deepening};
use crate::search::float_valued::FloatValued;
use crate::search::m_and_n::{MnOrdering, Slagle, mn_alphabeta_depth_ordered};

/// Which of the two matches a game belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MatchKind {
    /// Both sides search D plies: 2&2 alpha-beta against 1&1 alpha-beta.
    EqualDepth,
    /// 2&2 searches D plies; before each 1&1 move, 2&2 searches the same position (its
    /// move is not played) and 1&1 deepens iteratively (depth 1, 2, …, no reordering) until
    /// it has visited as many positions as that search did, then plays the move of its
    /// deepest completed iteration: equal nodes on every move, not just on average.
    EqualCost,
    /// 2&2 searches D plies; 1&1 searches the fixed depth (D + 1 or more) whose cost on the
    /// typical positions is nearest to 2&2's at D: equal cost on average, with every node
    /// of 1&1 spent on a search it completes.
    EqualCostDepth,
}

impl MatchKind {
    /// Every kind, in the order the games are numbered.
    pub const ALL: [MatchKind; 3] = [
        MatchKind::EqualDepth,
        MatchKind::EqualCost,
        MatchKind::EqualCostDepth,
    ];

    /// `equal depth`, `equal cost` (nodes on every move) or `equal cost, 1&1 deeper`.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            MatchKind::EqualDepth => "equal depth",
            MatchKind::EqualCost => "equal cost",
            MatchKind::EqualCostDepth => "equal cost, 1&1 deeper",
        }
    }

    /// The name of the PDN file of the match's games.
    #[must_use]
    pub fn pdn_file(self) -> &'static str {
        match self {
            MatchKind::EqualDepth => "games-equal-depth.pdn",
            MatchKind::EqualCost => "games-equal-cost.pdn",
            MatchKind::EqualCostDepth => "games-equal-cost-deeper.pdn",
        }
    }
}

/// How the match games are searched.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchSetup {
    /// D: the plies 2&2 searches, and 1&1 at equal depth.
    pub depth: u32,
    /// The plies 1&1 searches in the [`MatchKind::EqualCostDepth`] match.
    pub deeper_depth: u32,
    /// Plies after the opening at which an unfinished game is scored a draw (the draw
    /// rules end nearly every game long before).
    pub max_plies: u32,
    /// Quiescence for both players: plies searched past the depth where the position is
    /// not quiet (0: none, as in the runs before it existed).
    #[serde(default)]
    pub quiescence_plies: u32,
    /// The evaluation of both players (checkers).
    #[serde(default)]
    pub evaluation: super::ExperimentEvaluation,
    /// Whether both players order the successors below the root (killers and the history
    /// heuristic, [`MnOrdering::KILLERS_AND_HISTORY`]) — 1&1's iterative deepening at
    /// equal cost included — instead of searching them in the game's order as Slagle's
    /// procedure does. It changes no move at a fixed depth, only the positions examined,
    /// and so the budget of the equal-cost match: the fair baseline of issue 15.
    #[serde(default)]
    pub ordered: bool,
}

/// The deepest iteration 1&1 may reach in the equal-cost match; the node budget stops it
/// long before, except in endings with few moves.
pub const BUDGET_MAX_DEPTH: u32 = 64;

/// One game of the experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// The game's number among all games of both matches (the key of its result).
    pub index: usize,
    /// Its match.
    pub kind: MatchKind,
    /// The index of its opening.
    pub opening: usize,
    /// Whether 2&2 plays Black (moves first after the opening's own moves).
    pub two_two_black: bool,
}

/// Every game of both matches, numbered: for each match, for each opening, 2&2 as Black
/// then 2&2 as White.
#[must_use]
pub fn game_specs(openings: usize) -> Vec<GameSpec> {
    let mut specs = Vec::with_capacity(4 * openings);
    for kind in MatchKind::ALL {
        for opening in 0..openings {
            for two_two_black in [true, false] {
                specs.push(GameSpec {
                    index: specs.len(),
                    kind,
                    opening,
                    two_two_black,
                });
            }
        }
    }
    specs
}

/// What one side did over a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SideStats {
    /// Moves searched.
    pub moves: u64,
    /// Positions visited over all its searches.
    pub nodes: u64,
    /// Wall-clock seconds over all its searches.
    pub seconds: f64,
    /// Sum over its moves of the depth searched (for 1&1 at equal cost, the deepest
    /// completed iteration).
    pub depth_sum: u64,
}

impl SideStats {
    pub(crate) fn add(&mut self, nodes: u64, seconds: f64, depth: u32) {
        self.moves += 1;
        self.nodes += nodes;
        self.seconds += seconds;
        self.depth_sum += u64::from(depth);
    }

    /// Means a move searched: positions, milliseconds and depth (0 for no move).
    #[must_use]
    pub fn per_move(&self) -> (f64, f64, f64) {
        let moves = self.moves.max(1) as f64;
        (
            self.nodes as f64 / moves,
            1000.0 * self.seconds / moves,
            self.depth_sum as f64 / moves,
        )
    }

    pub(crate) fn merge(&mut self, other: &SideStats) {
        self.moves += other.moves;
        self.nodes += other.nodes;
        self.seconds += other.seconds;
        self.depth_sum += other.depth_sum;
    }
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// [`GameSpec::index`].
    pub index: usize,
    /// Its match.
    pub kind: MatchKind,
    /// The index of its opening.
    pub opening: usize,
    /// Whether 2&2 played Black.
    pub two_two_black: bool,
    /// The PDN result token: `1-0` Black won, `0-1` White won, `1/2-1/2`.
    pub result: String,
    /// 2&2's points: 1, ½ or 0.
    pub two_two_points: f64,
    /// Plies played after the opening.
    pub plies: u32,
    /// Why the game ended: `no legal move`, `draw rule` or `ply limit`.
    pub termination: String,
    /// What 2&2 alpha-beta did.
    pub two_two: SideStats,
    /// What 1&1 alpha-beta did.
    pub one_one: SideStats,
    /// The game in PDN, the opening moves included (on Kalah: one line, see
    /// [`super::KalahExperiment`]'s `play_game`).
    pub pdn: String,
    /// 2&2's final margin (its store less the other's) on games that have one (Kalah);
    /// absent for checkers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<i32>,
}

/// Plays one game: the opening, then 2&2 alpha-beta with `functions` against 1&1
/// alpha-beta as `spec` says, until the rules end it or `setup.max_plies` plies have gone.
/// Deterministic: the searches depend on node counts, never on the clock.
#[must_use]
pub fn play_game(
    spec: &GameSpec,
    opening: &Opening,
    functions: &Slagle,
    setup: &MatchSetup,
) -> GameRecord {
    // 1&1 as an instance of the m&n procedure: ordinary alpha-beta searched by the same
    // code as 2&2, so that nodes and times compare like with like.
    let one_and_one = Slagle::one_and_one();
    let quiet = setup.quiescence_plies;
    let ordering = MnOrdering::both(setup.ordered);
    let search = |game: &mut FloatValued<crate::Checkers>, functions: &Slagle, depth: u32| {
        mn_alphabeta_depth_ordered(game, functions, depth, quiet, ordering)
    };
    let mut game = FloatValued(setup.evaluation.apply(opening.game()));
    let (mut two_two, mut one_one) = (SideStats::default(), SideStats::default());
    let two_two_color = if spec.two_two_black {
        Color::Black
    } else {
        Color::White
    };
    let outcome = play_out(&mut game, setup.max_plies, |game, to_move| {
        let mut started = Instant::now();
        let two_two_to_move = to_move == two_two_color;
        let (mv, nodes, depth) = if two_two_to_move {
            let found = search(game, functions, setup.depth);
            (found.best_move, found.stats.nodes, setup.depth)
        } else {
            match spec.kind {
                MatchKind::EqualDepth => {
                    let found = search(game, &one_and_one, setup.depth);
                    (found.best_move, found.stats.nodes, setup.depth)
                }
                MatchKind::EqualCost => {
                    // What 2&2 would spend here is 1&1's budget; the shadow search is not
                    // counted as either side's cost or time.
                    let shadow = search(game, functions, setup.depth);
                    started = Instant::now();
                    let options = SearchOptions {
                        max_nodes: Some(shadow.stats.nodes.max(1)),
                        quiescence_plies: quiet,
                        use_killers: setup.ordered,
                        use_history: setup.ordered,
                        ..SearchOptions::plain()
                    };
                    let found =
                        iterative_deepening(&mut game.0, BUDGET_MAX_DEPTH, &options, |_| {});
                    (found.best_move, found.stats.nodes, found.depth)
                }
                MatchKind::EqualCostDepth => {
                    let found = search(game, &one_and_one, setup.deeper_depth);
                    (found.best_move, found.stats.nodes, setup.deeper_depth)
                }
            }
        };
        let seconds = started.elapsed().as_secs_f64();
        if two_two_to_move {
            two_two.add(nodes, seconds, depth);
        } else {
            one_one.add(nodes, seconds, depth);
        }
        mv.expect("invariant: a game that is not over has a move to play")
    });
    let two_two_name = format!("2&2 alpha-beta, depth {}", setup.depth);
    let one_one_name = match spec.kind {
        MatchKind::EqualDepth => format!("1&1 alpha-beta, depth {}", setup.depth),
        MatchKind::EqualCost => "1&1 alpha-beta, 2&2's nodes a move".to_string(),
        MatchKind::EqualCostDepth => format!("1&1 alpha-beta, depth {}", setup.deeper_depth),
    };
    let (black, white) = if spec.two_two_black {
        (two_two_name, one_one_name)
    } else {
        (one_one_name, two_two_name)
    };
    let pdn = game_pdn(
        opening,
        &outcome,
        &[
            (
                "Event",
                &format!("Slagle's experiment, {}", spec.kind.label()),
            ),
            ("Black", &black),
            ("White", &white),
            ("Round", &(spec.index + 1).to_string()),
            ("Opening", &opening.name),
        ],
    );
    GameRecord {
        index: spec.index,
        kind: spec.kind,
        opening: spec.opening,
        two_two_black: spec.two_two_black,
        result: outcome.result.token().to_string(),
        two_two_points: points(outcome.result, spec.two_two_black),
        plies: outcome.plies(),
        termination: outcome.termination.to_string(),
        two_two,
        one_one,
        pdn,
        margin: None,
    }
}

/// How a game between two searchers went after its opening.
pub(crate) struct Outcome {
    /// The moves played after the opening.
    pub(crate) moves: Vec<Move>,
    /// The result (a draw when the ply limit ended it).
    pub(crate) result: GameResult,
    /// Why it ended: `no legal move`, `draw rule` or `ply limit`.
    pub(crate) termination: &'static str,
}

impl Outcome {
    /// The plies played after the opening.
    pub(crate) fn plies(&self) -> u32 {
        u32::try_from(self.moves.len()).unwrap_or(u32::MAX)
    }
}

/// Plays `game` on until the rules end it or `max_plies` plies have gone, each move the one
/// `choose` makes for the colour to move (the position marked as the root of the
/// repetition history before each search): the loop of every match game.
pub(crate) fn play_out(
    game: &mut FloatValued<Checkers>,
    max_plies: u32,
    mut choose: impl FnMut(&mut FloatValued<Checkers>, Color) -> Move,
) -> Outcome {
    let mut moves = Vec::new();
    for _ in 0..max_plies {
        if let Some(result) = game.0.result() {
            let termination = if result == GameResult::Draw {
                "draw rule"
            } else {
                "no legal move"
            };
            return Outcome {
                moves,
                result,
                termination,
            };
        }
        game.0.mark_root();
        let to_move = game.0.position().side_to_move();
        let mv = choose(game, to_move);
        game.update(mv);
        moves.push(mv);
    }
    Outcome {
        moves,
        result: GameResult::Draw,
        termination: "ply limit",
    }
}

/// The points of the side that played Black (`black`) or White: 1, ½ or 0.
pub(crate) fn points(result: GameResult, black: bool) -> f64 {
    match (result, black) {
        (GameResult::BlackWins, true) | (GameResult::WhiteWins, false) => 1.0,
        (GameResult::BlackWins, false) | (GameResult::WhiteWins, true) => 0.0,
        _ => 0.5,
    }
}

/// The game in PDN: the opening's moves then the outcome's, `tags` in their order and the
/// termination last.
pub(crate) fn game_pdn(opening: &Opening, outcome: &Outcome, tags: &[(&str, &str)]) -> String {
    let mut pdn = PdnGame::new(opening.start);
    for (name, value) in tags {
        pdn.set_tag(name, value);
    }
    pdn.set_tag("Termination", outcome.termination);
    pdn.moves = opening
        .moves
        .iter()
        .copied()
        .chain(outcome.moves.iter().copied())
        .collect();
    pdn.set_result(outcome.result);
    write_pdn(&[pdn])
}

/// The result of one match, from 2&2's side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchSummary {
    /// Which match.
    pub kind: MatchKind,
    /// 2&2's wins, draws and losses.
    pub score: MatchScore,
    /// 2&2's points per game.
    pub points_per_game: Option<f64>,
    /// 2&2's Elo advantage over 1&1, with its 95% interval.
    pub elo: Option<EloEstimate>,
    /// 2&2's searches over all games.
    pub two_two: SideStats,
    /// 1&1's searches over all games.
    pub one_one: SideStats,
    /// Games that reached the ply limit (scored as draws).
    pub ply_limit_games: u32,
}

/// Sums up the games of `kind` among `records`.
#[must_use]
pub fn summarize(kind: MatchKind, records: &[GameRecord]) -> MatchSummary {
    let mut score = MatchScore::default();
    let (mut two_two, mut one_one) = (SideStats::default(), SideStats::default());
    let mut ply_limit_games = 0;
    for record in records.iter().filter(|record| record.kind == kind) {
        score.record(record.two_two_points);
        if record.termination == "ply limit" {
            ply_limit_games += 1;
        }
        two_two.merge(&record.two_two);
        one_one.merge(&record.one_one);
    }
    MatchSummary {
        kind,
        score,
        points_per_game: score.score(),
        elo: score.elo(),
        two_two,
        one_one,
        ply_limit_games,
    }
}

/// One match split by 2&2's colour, with a paired test over the openings: each opening is
/// played once with 2&2 as Black and once as White, so the difference of its two scores
/// on the same opening measures the colour effect with the opening held fixed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColourSplit {
    /// Which match.
    pub kind: MatchKind,
    /// 2&2's results as Black.
    pub as_black: MatchScore,
    /// 2&2's results as White.
    pub as_white: MatchScore,
    /// Openings with both games played.
    pub pairs: u32,
    /// The mean over those openings of 2&2's points as Black less its points as White.
    pub mean_difference: f64,
    /// That mean over its standard error (`None` when every difference is the same).
    pub z: Option<f64>,
}

/// [`ColourSplit`] of the games of `kind` among `records`.
#[must_use]
pub fn colour_split(kind: MatchKind, records: &[GameRecord]) -> ColourSplit {
    let (mut as_black, mut as_white) = (MatchScore::default(), MatchScore::default());
    let mut by_opening: std::collections::BTreeMap<usize, (Option<f64>, Option<f64>)> =
        std::collections::BTreeMap::new();
    for record in records.iter().filter(|record| record.kind == kind) {
        if record.two_two_black {
            as_black.record(record.two_two_points);
        } else {
            as_white.record(record.two_two_points);
        }
        let pair = by_opening.entry(record.opening).or_default();
        if record.two_two_black {
            pair.0 = Some(record.two_two_points);
        } else {
            pair.1 = Some(record.two_two_points);
        }
    }
    let differences: Vec<f64> = by_opening
        .values()
        .filter_map(|pair| match pair {
            (Some(black), Some(white)) => Some(black - white),
            _ => None,
        })
        .collect();
    let count = differences.len() as f64;
    let mean_difference = if differences.is_empty() {
        0.0
    } else {
        differences.iter().sum::<f64>() / count
    };
    let z = (differences.len() >= 2)
        .then(|| {
            let variance = differences
                .iter()
                .map(|d| (d - mean_difference).powi(2))
                .sum::<f64>()
                / (count - 1.0);
            let error = (variance / count).sqrt();
            (error > 0.0).then(|| mean_difference / error)
        })
        .flatten();
    ColourSplit {
        kind,
        as_black,
        as_white,
        pairs: u32::try_from(differences.len()).unwrap_or(u32::MAX),
        mean_difference,
        z,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::m_and_n::Exponents;

    fn record(opening: usize, two_two_black: bool, two_two_points: f64) -> GameRecord {
        GameRecord {
            index: 0,
            kind: MatchKind::EqualDepth,
            opening,
            two_two_black,
            result: String::new(),
            two_two_points,
            plies: 0,
            termination: String::new(),
            two_two: SideStats::default(),
            one_one: SideStats::default(),
            pdn: String::new(),
            margin: None,
        }
    }

    #[test]
    fn the_colour_split_pairs_each_openings_two_games() {
        // Three openings: 2&2 wins all as Black; as White it wins, draws and loses.
        let records = [
            record(0, true, 1.0),
            record(0, false, 1.0),
            record(1, true, 1.0),
            record(1, false, 0.5),
            record(2, true, 1.0),
            record(2, false, 0.0),
            // An opening with one game only is left out of the pairs.
            record(3, true, 0.0),
        ];
        let split = colour_split(MatchKind::EqualDepth, &records);
        assert_eq!((split.as_black.wins, split.as_black.losses), (3, 1));
        assert_eq!(
            (
                split.as_white.wins,
                split.as_white.draws,
                split.as_white.losses
            ),
            (1, 1, 1)
        );
        assert_eq!(split.pairs, 3);
        // Differences 0, ½, 1: mean ½, standard deviation ½, standard error ½/√3.
        assert!((split.mean_difference - 0.5).abs() < 1e-12);
        assert!((split.z.expect("differences vary") - 3f64.sqrt()).abs() < 1e-12);
        let other = colour_split(MatchKind::EqualCost, &records);
        assert_eq!((other.pairs, other.z), (0, None));
    }

    #[test]
    fn every_opening_is_played_twice_with_colours_reversed_in_each_match() {
        let specs = game_specs(3);
        assert_eq!(specs.len(), 18);
        assert!(
            specs
                .iter()
                .enumerate()
                .all(|(index, spec)| spec.index == index)
        );
        for kind in MatchKind::ALL {
            for opening in 0..3 {
                let colours: Vec<bool> = specs
                    .iter()
                    .filter(|spec| spec.kind == kind && spec.opening == opening)
                    .map(|spec| spec.two_two_black)
                    .collect();
                assert_eq!(colours, [true, false]);
            }
        }
    }

    #[test]
    fn a_short_game_is_deterministic_and_its_pdn_replays() {
        let opening = &Opening::ballots()[0];
        let functions = super::super::learning::functions_so_far(&[(
            0,
            Exponents::new(1.0, 0.1).expect("valid"),
        )]);
        let setup = MatchSetup {
            depth: 2,
            deeper_depth: 3,
            max_plies: 16,
            quiescence_plies: 0,
            evaluation: crate::experiment::ExperimentEvaluation::Samuel,
            ordered: false,
        };
        for kind in MatchKind::ALL {
            let spec = GameSpec {
                index: 0,
                kind,
                opening: 0,
                two_two_black: false,
            };
            let first = play_game(&spec, opening, &functions, &setup);
            let second = play_game(&spec, opening, &functions, &setup);
            assert_eq!(
                (first.pdn.clone(), first.two_two.nodes),
                (second.pdn, second.two_two.nodes)
            );
            assert_eq!(first.plies, 16);
            assert_eq!(first.termination, "ply limit");
            assert_eq!(first.two_two.moves + first.one_one.moves, 16);
            let games = crate::games::checkers::read_pdn(&first.pdn).expect("valid PDN");
            assert_eq!(games[0].moves.len(), 19);
        }
    }
}
