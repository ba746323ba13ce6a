//! What the experiment needs of a game (seed 003, section 8, on any two-player game with an
//! evaluation): typical positions, their deep values, their two best successors, the cost
//! of a search, and a match game. The pipeline of `gametree experiment slagle` is written
//! against [`ExperimentGame`]; [`CheckersExperiment`] is Slagle's own choice and
//! [`super::KalahExperiment`] the game Slagle and Dixon (CACM 13(3), 1970) reported on.

use std::hash::Hash;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::matches::{self, GameRecord, GameSpec, MatchSetup};
use super::positions::{self, Opening, SamplingConfig};
use crate::game::{Evaluate, Game, Player};
use crate::games::checkers::{Checkers, Evaluation, LearnedWeights, Position};
use crate::search::Window;
use crate::search::deepening::depth_limited_value_quiescent;
use crate::search::float_valued::FloatValued;
use crate::search::m_and_n::{
    MnOrdering, Slagle, mn_alphabeta_depth_ordered, mn_alphabeta_value_depth_quiescent,
};

/// A game the experiment can be run on. The learning, the fits and the match bookkeeping
/// are the pipeline's; the game says how its positions are sampled, stored and searched.
pub trait ExperimentGame: Sync {
    /// A typical position as stored (distinct positions are kept once).
    type Position: Clone + Eq + Hash + Send + Sync;
    /// Where a match game starts from.
    type Opening: Sync;

    /// The game's name, as `--game` spells it.
    fn name(&self) -> &'static str;
    /// The name of the file of typical positions in a result directory.
    fn positions_file(&self) -> &'static str;
    /// The positions as text, one a line.
    fn positions_to_lines(&self, positions: &[Self::Position]) -> String;
    /// Positions from the text of [`ExperimentGame::positions_to_lines`].
    ///
    /// # Errors
    /// The line number and the reason for the first line that is not a position.
    fn positions_from_lines(&self, text: &str) -> Result<Vec<Self::Position>, String>;
    /// The positions with at least two moves of self-play game number `game_index`
    /// under `seed`, reproducibly (see [`positions::sampling_game`]).
    fn sampling_game(
        &self,
        openings: &[Self::Opening],
        seed: u64,
        game_index: u64,
        config: &SamplingConfig,
    ) -> Vec<Self::Position>;
    /// Slagle's v⁽ᵏ⁾: the 1&1 alpha-beta value at `depth`, from the side to move, and the
    /// positions visited.
    fn deep_value(&self, position: &Self::Position, depth: u32) -> (f64, u64);
    /// The two best successor values from the side to move, each searched `dmax` deeper
    /// by m&n alpha-beta with `functions`, and the positions visited.
    fn two_best_successors(
        &self,
        position: &Self::Position,
        dmax: u32,
        functions: &Slagle,
    ) -> Option<((f64, f64), u64)>;
    /// Positions an m&n alpha-beta search of `depth` with `functions` visits from
    /// `position` (the calibration of the equal-cost match).
    fn search_nodes(&self, position: &Self::Position, functions: &Slagle, depth: u32) -> u64;
    /// The stratum of a position for sampling in stated proportions
    /// ([`super::positions::typical_positions_by_stratum`]): checkers' game phase. The
    /// default puts every position in one.
    fn stratum(&self, position: &Self::Position) -> usize {
        let _ = position;
        0
    }
    /// One match game, as [`matches::play_game`] plays checkers.
    fn play_game(
        &self,
        spec: &GameSpec,
        opening: &Self::Opening,
        functions: &Slagle,
        setup: &MatchSetup,
    ) -> GameRecord;
}

/// `value` (MAX's side) from the side of `player`.
fn for_player(player: Player, value: f64) -> f64 {
    match player {
        Player::Max => value,
        Player::Min => -value,
    }
}

/// [`ExperimentGame::deep_value`] for any game with an evaluation: 1&1 alpha-beta
/// `depth` plies deep (and on past it for at most `quiescence_plies` plies where the
/// position is not quiet), the value from the side of the player to move.
pub fn deep_value_in<G>(game: &mut G, depth: u32, quiescence_plies: u32) -> (f64, u64)
where
    G: Game<Value = i32> + Evaluate,
{
    let mover = game.to_move();
    let result = depth_limited_value_quiescent(game, depth, Window::full(), quiescence_plies);
    (
        for_player(mover, f64::from(result.value)),
        result.stats.nodes,
    )
}

/// [`ExperimentGame::two_best_successors`] for any game with an evaluation (sections 8.1
/// and 8.2). A successor that cannot be among the two best is searched in a window that
/// only proves it (fail-soft). Values are taken from the side of the player to move at the
/// position, whoever moves at the successor (in Kalah the mover may move again).
/// `None` when the position has fewer than two successors.
pub fn two_best_successors_in<G>(
    game: G,
    dmax: u32,
    functions: &Slagle,
    quiescence_plies: u32,
) -> Option<((f64, f64), u64)>
where
    G: Game<Value = i32> + Evaluate,
{
    let side = game.to_move();
    let mut game = FloatValued(game);
    let mut moves = Vec::new();
    game.successors(&mut moves);
    if moves.len() < 2 {
        return None;
    }
    let (mut best, mut second) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    let mut nodes = 0;
    for mv in moves {
        // Only a value above the second best so far matters: from the mover's side the
        // window is (second, ∞).
        let window = match side {
            Player::Max => Window::new(second, f64::INFINITY),
            Player::Min => Window::new(f64::NEG_INFINITY, -second),
        };
        game.update(mv);
        let result = mn_alphabeta_value_depth_quiescent(
            &mut game,
            functions,
            window,
            dmax,
            quiescence_plies,
        );
        game.revert(mv);
        nodes += result.stats.nodes;
        let value = for_player(side, result.value);
        if value > best {
            second = best;
            best = value;
        } else if value > second {
            second = value;
        }
    }
    Some(((best, second), nodes))
}

/// [`ExperimentGame::search_nodes`] for any game with an evaluation, its successors in
/// the game's order or as `ordering` says.
pub fn search_nodes_in<G>(
    game: G,
    functions: &Slagle,
    depth: u32,
    quiescence_plies: u32,
    ordering: MnOrdering,
) -> u64
where
    G: Game<Value = i32> + Evaluate,
{
    mn_alphabeta_depth_ordered(
        &mut FloatValued(game),
        functions,
        depth,
        quiescence_plies,
        ordering,
    )
    .stats
    .nodes
}

/// The evaluation every search of a checkers run uses (issue 15, "weak players": the
/// experiment may be run with the strongest evaluation the project has).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum ExperimentEvaluation {
    /// Samuel's few hand-set terms: the default, and what the runs in results/ used
    #[default]
    Samuel,
    /// The learned evaluation of `gametree checkers`, with its shipped weights
    Learned,
}

impl ExperimentEvaluation {
    /// Whether this is the default (such a field is left out of `config.json`).
    #[must_use]
    #[allow(clippy::trivially_copy_pass_by_ref)]
    pub fn is_samuel(&self) -> bool {
        *self == ExperimentEvaluation::Samuel
    }

    /// `samuel` or `learned`, as `--eval` spells it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ExperimentEvaluation::Samuel => "samuel",
            ExperimentEvaluation::Learned => "learned",
        }
    }

    /// `game` evaluating with this evaluation.
    #[must_use]
    pub fn apply(self, game: Checkers) -> Checkers {
        match self {
            ExperimentEvaluation::Samuel => game,
            ExperimentEvaluation::Learned => {
                static SHIPPED: OnceLock<LearnedWeights> = OnceLock::new();
                let weights = SHIPPED.get_or_init(LearnedWeights::shipped).clone();
                game.with_evaluation(Evaluation::Learned(weights))
            }
        }
    }
}

/// Slagle's own game: checkers from the ACF three-move ballots (or a PDN file), positions
/// stored as PDN FEN, the evaluation of [`crate::games::checkers`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckersExperiment {
    /// Quiescence for every search of the experiment (the deep values, the learning, the
    /// calibration and both players of the matches): plies searched past the depth while
    /// a capture is forced; 0, the default, none.
    pub quiescence_plies: u32,
    /// The evaluation of every search.
    pub evaluation: ExperimentEvaluation,
    /// Whether the calibration's searches order moves as the match players do
    /// ([`MatchSetup::ordered`]).
    pub ordered: bool,
}

impl CheckersExperiment {
    /// `position` as a game with the run's evaluation.
    fn game(&self, position: &Position) -> Checkers {
        self.evaluation.apply(Checkers::from_position(*position))
    }
}

impl ExperimentGame for CheckersExperiment {
    type Position = Position;
    type Opening = Opening;

    fn name(&self) -> &'static str {
        "checkers"
    }

    fn positions_file(&self) -> &'static str {
        "positions.fen"
    }

    fn positions_to_lines(&self, positions: &[Position]) -> String {
        positions::positions_to_fen_lines(positions)
    }

    fn positions_from_lines(&self, text: &str) -> Result<Vec<Position>, String> {
        positions::positions_from_fen_lines(text)
    }

    fn sampling_game(
        &self,
        openings: &[Opening],
        seed: u64,
        game_index: u64,
        config: &SamplingConfig,
    ) -> Vec<Position> {
        positions::sampling_game(openings, seed, game_index, config, self.evaluation)
    }

    fn stratum(&self, position: &Position) -> usize {
        super::Phase::of_position(position).index()
    }

    fn deep_value(&self, position: &Position, depth: u32) -> (f64, u64) {
        deep_value_in(&mut self.game(position), depth, self.quiescence_plies)
    }

    fn two_best_successors(
        &self,
        position: &Position,
        dmax: u32,
        functions: &Slagle,
    ) -> Option<((f64, f64), u64)> {
        two_best_successors_in(self.game(position), dmax, functions, self.quiescence_plies)
    }

    fn search_nodes(&self, position: &Position, functions: &Slagle, depth: u32) -> u64 {
        search_nodes_in(
            self.game(position),
            functions,
            depth,
            self.quiescence_plies,
            MnOrdering::both(self.ordered),
        )
    }

    fn play_game(
        &self,
        spec: &GameSpec,
        opening: &Opening,
        functions: &Slagle,
        setup: &MatchSetup,
    ) -> GameRecord {
        matches::play_game(spec, opening, functions, setup)
    }
}
