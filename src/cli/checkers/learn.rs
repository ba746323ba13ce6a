//! `gametree checkers learn`: fits the learned evaluation's weights to the results of
//! games (logistic regression, "Texel tuning": [`gametree::learning`]) and writes them in
//! the text format `--eval FILE` reads.

use std::path::{Path, PathBuf};

use serde_json::{Value as Json, json};

use gametree::games::checkers::features::{FEATURE_COUNT, PHASE_PIECES, features};
use gametree::games::checkers::network::{NETWORK_INPUTS, UNITS, sparse_inputs};
use gametree::games::checkers::{
    EvaluationWeights, GameResult, LearnedWeights, Network, Position, read_pdn,
};
use gametree::learning::network::{
    NetworkFit, NetworkFitOptions, NetworkSamples, SparseRows, fit_network, network_log_loss,
};
use gametree::learning::{
    Samples, draw_log_loss, fit_logistic_with_ridges, fit_with_draws, logistic,
};

use crate::cli::output::outln;
use crate::cli::{CliError, Outcome, limits, progress};

/// The ridge penalty of the fit: enough to keep a feature the games never vary at 0,
/// far too little to pull the others.
const RIDGE: f64 = 1e-7;
/// The ridge penalty of the square tables: a man's squares sum to the man count (a king's
/// to the king count), so without it the fit could move any amount between a piece's
/// weight and its squares'; with it the piece keeps the mean and a square only what it
/// adds. Small beside a square column's curvature (about 0.01 to 0.05 a sample), so a
/// square the games say something about keeps its weight. On the 3,120 games of round 3's
/// fit the held-out loss was 0.46916, 0.46925, 0.46953 and 0.47045 at 10⁻⁴, 10⁻³, 3·10⁻³
/// and 10⁻²: 10⁻³ gives smoother tables for next to nothing.
pub const SQUARE_RIDGE: f64 = 1e-3;

/// `--square-ridge` and `--score-weight`: a number from 0 to 1.
///
/// # Errors
/// A message naming the text when it is not such a number.
pub fn parse_fraction(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|fraction| (0.0..=1.0).contains(fraction))
        .ok_or_else(|| format!("{text:?} is not a number from 0 to 1"))
}
/// The most plies a game may have: far beyond the 300-ply adjudication of the match
/// harness, a bound on a malformed file.
const MOST_PLIES: usize = 10_000;

/// One game: where it started, its moves and its result from Black's side (1, ½, 0), and
/// the search's value (from Black's side) of the position before each move where the record
/// has one (`checkers selfplay` keeps them; other records have none).
struct ScoredGame {
    start: Position,
    moves: Vec<gametree::games::checkers::Move>,
    black_score: f64,
    search_values: Vec<Option<i32>>,
}

fn usage(message: impl Into<String>) -> CliError {
    CliError::Usage(message.into())
}

fn black_score(result: GameResult) -> Option<f64> {
    match result {
        GameResult::BlackWins => Some(1.0),
        GameResult::WhiteWins => Some(0.0),
        GameResult::Draw => Some(0.5),
        GameResult::Unfinished => None,
    }
}

/// The games of a JSON-lines match record (`examples/checkers_match.rs`: `moves` from
/// the start, `result`) or a PDN file; unfinished games are left out.
fn read_games(path: &Path) -> Result<Vec<ScoredGame>, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| usage(format!("cannot read {}: {error}", path.display())))?;
    let name = path.display();
    if text.trim_start().starts_with('{') {
        let mut games = Vec::new();
        for (number, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let place = format!("{name}:{}", number + 1);
            let record: Json = serde_json::from_str(line)
                .map_err(|error| usage(format!("{place}: not JSON: {error}")))?;
            let start = match record.get("fen").and_then(Json::as_str) {
                Some(fen) => Position::from_fen(fen)
                    .map_err(|error| usage(format!("{place}: fen: {error}")))?,
                None => Position::initial(),
            };
            let result = record
                .get("result")
                .and_then(Json::as_str)
                .ok_or_else(|| usage(format!("{place}: no \"result\"")))?;
            let result = match result {
                "1-0" => GameResult::BlackWins,
                "0-1" => GameResult::WhiteWins,
                "1/2-1/2" => GameResult::Draw,
                "*" => GameResult::Unfinished,
                other => return Err(usage(format!("{place}: unknown result {other:?}"))),
            };
            let texts = record
                .get("moves")
                .and_then(Json::as_array)
                .ok_or_else(|| usage(format!("{place}: no \"moves\" list")))?;
            if texts.len() > MOST_PLIES {
                return Err(usage(format!("{place}: more than {MOST_PLIES} moves")));
            }
            let mut position = start;
            let mut moves = Vec::with_capacity(texts.len());
            for (ply, text) in texts.iter().enumerate() {
                let text = text
                    .as_str()
                    .ok_or_else(|| usage(format!("{place}: move {} is not a string", ply + 1)))?;
                let mv = position
                    .parse_move(text)
                    .map_err(|error| usage(format!("{place}: move {} {text}: {error}", ply + 1)))?;
                position = position.play(mv);
                moves.push(mv);
            }
            let search_values = match record.get("scores") {
                None | Some(Json::Null) => Vec::new(),
                Some(Json::Array(values)) if values.len() == moves.len() => values
                    .iter()
                    .map(|value| value.as_i64().and_then(|value| i32::try_from(value).ok()))
                    .collect(),
                Some(_) => {
                    return Err(usage(format!(
                        "{place}: \"scores\" is not a list of one value (or null) a move"
                    )));
                }
            };
            if let Some(black_score) = black_score(result) {
                games.push(ScoredGame {
                    start,
                    moves,
                    black_score,
                    search_values,
                });
            }
        }
        Ok(games)
    } else {
        let games = read_pdn(&text).map_err(|error| usage(format!("{name}: {error}")))?;
        Ok(games
            .into_iter()
            .filter_map(|game| {
                black_score(game.result).map(|black_score| ScoredGame {
                    start: game.start,
                    moves: game.moves,
                    black_score,
                    search_values: Vec::new(),
                })
            })
            .collect())
    }
}

/// The positions of `games` the evaluation is asked about — quiet ones (no capture to
/// make: the search evaluates only those), from ply `skip_plies` on — with the game's
/// result: for the learned features and, to compare, for the Samuel evaluation alone.
struct PositionSets {
    /// The training positions, each with its target: the result, or the result blended
    /// with the search's value (`--score-weight`).
    training: Samples,
    /// The held-out positions with their results: what every fit is judged by.
    held_out: Samples,
    /// The held-out positions with their targets, for the final fit to every game.
    held_out_targets: Samples,
    samuel_training: Samples,
    samuel_held_out: Samples,
}

/// How far `--score-weight` moves a position's target from its game's result towards what
/// the search said of it: `weight` × logistic(`logits_per_point` × value) + (1 − `weight`)
/// × result.
#[derive(Clone, Copy, Debug)]
struct ScoreBlend {
    weight: f64,
    logits_per_point: f64,
}

impl ScoreBlend {
    fn target(self, result: f64, search_value: Option<i32>) -> f64 {
        match search_value {
            Some(value) if self.weight > 0.0 => {
                let predicted = logistic(self.logits_per_point * f64::from(value));
                self.weight * predicted + (1.0 - self.weight) * result
            }
            _ => result,
        }
    }
}

/// Whether the position before move `ply` is one a fit takes: quiet (no capture to make:
/// the search evaluates only those) and from ply `skip_plies` on (past the ballot's).
fn is_fitted(ply: usize, position: &Position, skip_plies: usize) -> bool {
    ply >= skip_plies && !position.has_capture()
}

/// The search values the blend reads them with: how many logits of the result one point of
/// a search value is worth, fitted (logistic regression through the origin) to the quiet
/// positions that have a value below [`DECIDED_VALUE`]; `None` when there are fewer than
/// 100 such positions.
fn logits_per_point(games: &[ScoredGame], skip_plies: usize) -> Option<f64> {
    let mut samples = Samples::new(1);
    for game in games {
        let mut position = game.start;
        for (ply, &mv) in game.moves.iter().enumerate() {
            if is_fitted(ply, &position, skip_plies)
                && let Some(value) = game.search_values.get(ply).copied().flatten()
                && value.abs() < DECIDED_VALUE
            {
                samples.push(&[f64::from(value) / 100.0], game.black_score);
            }
            position = position.play(mv);
        }
    }
    (samples.len() >= 100).then(|| fit_logistic_with_ridges(&samples, &[RIDGE]).weights[0] / 100.0)
}

/// A search value this large (in evaluation points, a man being 100) says the game is
/// decided (the endgame databases' wins, a win found by search): left out of the fit of
/// [`logits_per_point`], which it would only steepen.
const DECIDED_VALUE: i32 = 2_000;

/// Every fifth game goes to the held-out sets.
fn samples_of(
    games: &[ScoredGame],
    skip_plies: usize,
    layout: Layout,
    blend: ScoreBlend,
) -> PositionSets {
    let columns = layout.column_count();
    let mut sets = PositionSets {
        training: Samples::new(columns),
        held_out: Samples::new(columns),
        held_out_targets: Samples::new(columns),
        samuel_training: Samples::new(1),
        samuel_held_out: Samples::new(1),
    };
    let samuel_weights = EvaluationWeights::default();
    let mut plain = [0.0; 2 * FEATURE_COUNT];
    let mut squares = [0.0; LearnedWeights::COLUMNS_WITH_SQUARES];
    let mut patterns = [0.0; LearnedWeights::COLUMNS_WITH_PATTERNS];
    for (index, game) in games.iter().enumerate() {
        let mut position = game.start;
        for (ply, &mv) in game.moves.iter().enumerate() {
            if is_fitted(ply, &position, skip_plies) {
                let features = features(&position);
                let columns = layout.columns(&position, &mut plain, &mut squares, &mut patterns);
                // The draw margin's covariate: the share of the pieces gone.
                let gone = 1.0 - f64::from(features.phase) / f64::from(PHASE_PIECES);
                let samuel = [f64::from(samuel_weights.evaluate(&position)) / 100.0];
                let target = blend.target(
                    game.black_score,
                    game.search_values.get(ply).copied().flatten(),
                );
                if index % 5 == 4 {
                    sets.held_out
                        .push_with_draw_covariate(columns, game.black_score, gone);
                    sets.held_out_targets
                        .push_with_draw_covariate(columns, target, gone);
                    sets.samuel_held_out
                        .push_with_draw_covariate(&samuel, game.black_score, gone);
                } else {
                    sets.training
                        .push_with_draw_covariate(columns, target, gone);
                    sets.samuel_training
                        .push_with_draw_covariate(&samuel, game.black_score, gone);
                }
            }
            position = position.play(mv);
        }
    }
    sets
}

/// The positions of a fit with a hidden layer, as [`samples_of`] picks them: the linear
/// columns with the targets (the results for the held-out set), and the network's inputs.
struct NetworkSet {
    linear: Samples,
    as_it_stands: SparseRows,
    turned: SparseRows,
}

impl NetworkSet {
    fn new(columns: usize) -> NetworkSet {
        NetworkSet {
            linear: Samples::new(columns),
            as_it_stands: SparseRows::new(),
            turned: SparseRows::new(),
        }
    }

    fn samples(&self) -> NetworkSamples<'_> {
        NetworkSamples {
            linear: &self.linear,
            as_it_stands: &self.as_it_stands,
            turned: &self.turned,
        }
    }
}

/// The training, validation and held-out sets of a fit with a hidden layer: every fifth
/// game held out (`index % 5 == 4`, as [`samples_of`] holds out), and of the others every
/// fifth (`index % 5 == 3`) for the validation that stops the fit.
fn network_sets(
    games: &[ScoredGame],
    skip_plies: usize,
    layout: Layout,
    blend: ScoreBlend,
) -> [NetworkSet; 3] {
    let mut sets = [0, 1, 2].map(|_| NetworkSet::new(layout.column_count()));
    let mut plain = [0.0; 2 * FEATURE_COUNT];
    let mut squares = [0.0; LearnedWeights::COLUMNS_WITH_SQUARES];
    let mut patterns = [0.0; LearnedWeights::COLUMNS_WITH_PATTERNS];
    for (index, game) in games.iter().enumerate() {
        let (set, target_is_result) = match index % 5 {
            4 => (&mut sets[2], true),
            3 => (&mut sets[1], false),
            _ => (&mut sets[0], false),
        };
        let mut position = game.start;
        for (ply, &mv) in game.moves.iter().enumerate() {
            if is_fitted(ply, &position, skip_plies) {
                let columns = layout.columns(&position, &mut plain, &mut squares, &mut patterns);
                let target = if target_is_result {
                    game.black_score
                } else {
                    blend.target(
                        game.black_score,
                        game.search_values.get(ply).copied().flatten(),
                    )
                };
                set.linear.push(columns, target);
                let [as_it_stands, turned] = sparse_inputs(&position);
                set.as_it_stands.push(&as_it_stands);
                set.turned.push(&turned);
            }
            position = position.play(mv);
        }
    }
    sets
}

/// A fit with a hidden layer: its weights, the validation loss of the epoch kept, the
/// held-out loss.
struct HiddenFit {
    weights: LearnedWeights,
    fit: NetworkFit,
    held_out_log_loss: f64,
    /// The seed of the fit kept.
    seed: u64,
    /// The validation loss of each seed's fit, seed 1 first.
    restart_losses: Vec<f64>,
}

impl HiddenFit {
    /// Which fit was kept and how it stopped, for the table and the weights file's
    /// comment: "epoch 14 of 17 kept", or after restarts "seed 3 of 5 and its epoch 15 of
    /// 18 kept".
    fn kept(&self) -> String {
        let epoch = format!(
            "epoch {} of {} kept",
            self.fit.best_epoch + 1,
            self.fit.validation_losses.len()
        );
        match self.restart_losses.len() {
            1 => epoch,
            restarts => format!("seed {} of {restarts} and its {epoch}", self.seed),
        }
    }
}

/// Fits the linear part and the hidden layer together ([`fit_network`]: Adam, the epoch
/// with the lowest loss on the validation games kept), from seeds 1 to `restarts`,
/// keeping the seed whose fit has the lowest validation loss (the held-out games judge
/// only the fit kept), and writes the weights at `points_per_logit` points a logit (the
/// linear fit's scale).
fn fit_hidden_layer(
    games: &[ScoredGame],
    skip_plies: usize,
    (layout, blend): (Layout, ScoreBlend),
    points_per_logit: f64,
    restarts: u64,
) -> Result<HiddenFit, CliError> {
    let [training, validation, held_out] = network_sets(games, skip_plies, layout, blend);
    if validation.linear.is_empty() || held_out.linear.is_empty() {
        return Err(usage(
            "--hidden needs at least five games: every fifth validates the fit, every fifth \
             judges it",
        ));
    }
    let mut options = NetworkFitOptions {
        units: UNITS,
        inputs: NETWORK_INPUTS,
        ..NetworkFitOptions::default()
    };
    let bar = progress::bar(
        options.max_epochs as u64 * restarts,
        "fitting the hidden layer",
    );
    let mut restart_losses = Vec::new();
    let mut kept: Option<(NetworkFit, u64)> = None;
    for seed in 1..=restarts {
        options.seed = seed;
        let fit = fit_network(
            training.samples(),
            validation.samples(),
            &options,
            |_, _| {
                bar.inc(1);
            },
        );
        let loss = fit.validation_loss();
        restart_losses.push(loss);
        if kept
            .as_ref()
            .is_none_or(|(best, _)| loss < best.validation_loss())
        {
            kept = Some((fit, seed));
        }
    }
    bar.finish_and_clear();
    let (fit, seed) = kept.expect("invariant: at least one restart");
    let held_out_log_loss = network_log_loss(&fit, held_out.samples());
    let network = Network::from_logits(&fit.input, &fit.bias, &fit.output, points_per_logit)
        .map_err(|error| usage(format!("the fitted network: {error}")))?;
    let weights = LearnedWeights::from_logit_weights(&fit.linear, points_per_logit)
        .with_network(Some(network));
    Ok(HiddenFit {
        weights,
        fit,
        held_out_log_loss,
        seed,
        restart_losses,
    })
}

/// Which weights a fit has: the features alone, with the square tables, or with the
/// square tables and the patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    Features,
    Squares,
    Patterns,
}

impl Layout {
    /// The columns of `position` in this layout, in whichever of the three arrays it
    /// takes (on the stack: a fit reads hundreds of thousands of positions).
    fn columns<'a>(
        self,
        position: &Position,
        plain: &'a mut [f64; 2 * FEATURE_COUNT],
        squares: &'a mut [f64; LearnedWeights::COLUMNS_WITH_SQUARES],
        patterns: &'a mut [f64; LearnedWeights::COLUMNS_WITH_PATTERNS],
    ) -> &'a [f64] {
        match self {
            Layout::Features => {
                *plain = LearnedWeights::columns(&features(position));
                plain
            }
            Layout::Squares => {
                *squares = LearnedWeights::columns_with_squares(position);
                squares
            }
            Layout::Patterns => {
                *patterns = LearnedWeights::columns_with_patterns(position);
                patterns
            }
        }
    }

    /// The layout `--squares` and `--patterns` ask for (`--patterns` requires `--squares`).
    fn of(squares: bool, patterns: bool) -> Layout {
        match (squares, patterns) {
            (_, true) => Layout::Patterns,
            (true, false) => Layout::Squares,
            (false, false) => Layout::Features,
        }
    }

    /// How many columns (weights to fit) a position has.
    fn column_count(self) -> usize {
        match self {
            Layout::Features => 2 * FEATURE_COUNT,
            Layout::Squares => LearnedWeights::COLUMNS_WITH_SQUARES,
            Layout::Patterns => LearnedWeights::COLUMNS_WITH_PATTERNS,
        }
    }

    /// The flags that ask for it, as the weights file's comment names them.
    fn flags(self, square_ridge: f64) -> String {
        match self {
            Layout::Patterns => format!(" --squares --patterns --square-ridge {square_ridge}"),
            Layout::Squares => format!(" --squares --square-ridge {square_ridge}"),
            Layout::Features => String::new(),
        }
    }

    /// The columns [`ridges`] gives `square_ridge`: the square tables' and the patterns'.
    fn table_columns(self) -> Option<[std::ops::Range<usize>; 2]> {
        match self {
            Layout::Features => None,
            Layout::Squares => Some(LearnedWeights::SQUARE_COLUMNS),
            Layout::Patterns => Some(LearnedWeights::PATTERN_LAYOUT_TABLE_COLUMNS),
        }
    }
}

/// How `checkers learn` models a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Model {
    /// A draw margin that grows as pieces leave the board (Rao and Kupper): the weights
    /// measure the advantage, the margin how drawish the phase is.
    Draws,
    /// Plain logistic regression, a draw counted as half a win.
    Logistic,
}

/// A fit, whichever the model: advantage weights, the training and held-out losses.
struct Fitted {
    weights: Vec<f64>,
    log_loss: f64,
    held_out_log_loss: f64,
    margin: Option<[f64; 2]>,
    steps: usize,
}

/// The ridge of each of `columns` columns laid out as `layout`: `square_ridge` on the
/// square tables' and the patterns' columns, [`RIDGE`] on the others.
fn ridges(layout: Layout, columns: usize, square_ridge: f64) -> Vec<f64> {
    let mut ridges = vec![RIDGE; columns];
    for range in layout.table_columns().into_iter().flatten() {
        ridges[range].fill(square_ridge);
    }
    ridges
}

/// Fits `model` to `training`, measures it on `held_out` (results), then fits it again to
/// `training` and `rest` together (the held-out positions with the targets the training
/// ones have) for the weights to keep.
fn fit_model(
    model: Model,
    training: &Samples,
    (held_out, rest): (&Samples, &Samples),
    (layout, square_ridge): (Layout, f64),
) -> Fitted {
    match model {
        Model::Logistic => {
            let ridges = ridges(layout, training.columns(), square_ridge);
            let partial = fit_logistic_with_ridges(training, &ridges);
            let held_out_log_loss = held_out.log_loss(&partial.weights);
            let fit = fit_logistic_with_ridges(&joined(training, rest), &ridges);
            Fitted {
                weights: fit.weights,
                log_loss: fit.log_loss,
                held_out_log_loss,
                margin: None,
                steps: fit.steps,
            }
        }
        Model::Draws => {
            let partial = fit_with_draws(training, RIDGE);
            let held_out_log_loss = draw_log_loss(held_out, &partial.weights, partial.margin);
            let fit = fit_with_draws(&joined(training, rest), RIDGE);
            Fitted {
                weights: fit.weights,
                log_loss: fit.log_loss,
                held_out_log_loss,
                margin: Some(fit.margin),
                steps: fit.steps,
            }
        }
    }
}

fn model_name(model: Model) -> &'static str {
    match model {
        Model::Draws => "draws",
        Model::Logistic => "logistic",
    }
}

fn joined(first: &Samples, second: &Samples) -> Samples {
    let mut all = first.clone();
    for index in 0..second.len() {
        let (row, result, covariate) = second.sample(index);
        all.push_with_draw_covariate(row, result, covariate);
    }
    all
}

/// How many positions of `games` a fit takes: the quiet ones from ply `skip_plies` on, as
/// [`samples_of`] picks them.
fn fitted_positions(games: &[ScoredGame], skip_plies: usize) -> u64 {
    let mut count = 0;
    for game in games {
        let mut position = game.start;
        for (ply, &mv) in game.moves.iter().enumerate() {
            if is_fitted(ply, &position, skip_plies) {
                count += 1;
            }
            position = position.play(mv);
        }
    }
    count
}

/// The memory a fit of `positions` positions of `columns` columns takes at most: the
/// positions are held as rows of numbers in the training and held-out sets (the held-out
/// fifth twice, with results and with targets), then all of them again joined for the
/// final fit: 2.2 copies; 2.25 with a little slack (measured: 6,942,708 KiB, 7.11 GB, at most for
/// 822,829 positions of 484 columns, 2.23 copies of 3.19 GB).
fn fit_bytes(positions: u64, columns: usize) -> u64 {
    let copy = positions
        .saturating_mul(columns as u64)
        .saturating_mul(std::mem::size_of::<f64>() as u64);
    copy.saturating_mul(9) / 4
}

/// What `checkers learn` fits, and to which positions.
pub struct FitOptions {
    /// The plies left out at the start of each game (the ballot's).
    pub skip_plies: usize,
    /// How a draw enters the fit.
    pub model: Model,
    /// Whether to fit the square tables too.
    pub squares: bool,
    /// Whether to fit the patterns too (with the square tables).
    pub patterns: bool,
    /// The ridge penalty on the square tables.
    pub square_ridge: f64,
    /// How much of a position's target is the search's value of it instead of the game's
    /// result (0: the result alone).
    pub score_weight: f64,
    /// Whether to fit a hidden layer too, with the linear weights.
    pub hidden: bool,
    /// How many times to fit the hidden layer, from seeds 1 to this, keeping the fit
    /// with the lowest validation loss (at least 1).
    pub restarts: u64,
}

/// Runs `checkers learn`.
pub fn run(
    files: &[PathBuf],
    out: Option<&Path>,
    options: &FitOptions,
    json_output: bool,
) -> Result<Outcome, CliError> {
    let &FitOptions {
        skip_plies,
        model,
        squares,
        patterns,
        square_ridge,
        score_weight,
        hidden,
        restarts,
    } = options;
    if files.is_empty() {
        return Err(usage("give at least one game file (JSON lines or PDN)"));
    }
    if score_weight > 0.0 && model == Model::Draws {
        return Err(usage(
            "--score-weight fits with --model logistic only (the draw model needs each \
             position's target to be a win, a draw or a loss)",
        ));
    }
    if hidden && model == Model::Draws {
        return Err(usage("--hidden fits with --model logistic only"));
    }
    if squares && model == Model::Draws {
        return Err(usage(
            "--squares fits with --model logistic only (the draw model's Hessian by \
             differences would take 150 passes over the positions a step)",
        ));
    }
    let layout = Layout::of(squares, patterns);
    let bar = progress::bar(files.len() as u64, "reading games");
    let mut games = Vec::new();
    for file in files {
        games.extend(read_games(file)?);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let logits_per_point = if score_weight > 0.0 {
        Some(logits_per_point(&games, skip_plies).ok_or_else(|| {
            usage(
                "--score-weight: fewer than 100 positions with a search value in these games \
                 (`checkers selfplay` records them)",
            )
        })?)
    } else {
        None
    };
    let blend = ScoreBlend {
        weight: score_weight,
        logits_per_point: logits_per_point.unwrap_or(0.0),
    };
    let fitted = fitted_positions(&games, skip_plies);
    limits::check_memory(
        "the game files",
        &format!(
            "a fit of {fitted} positions with {} weights each",
            layout.column_count()
        ),
        fit_bytes(fitted, layout.column_count()),
        8192 * limits::MIB,
    )?;
    let PositionSets {
        training,
        held_out,
        held_out_targets,
        samuel_training,
        samuel_held_out,
    } = samples_of(&games, skip_plies, layout, blend);
    if training.len() < 100 * training.columns() {
        return Err(usage(format!(
            "{} positions from {} games are too few to fit {} weights (at least {})",
            training.len(),
            games.len(),
            training.columns(),
            100 * training.columns()
        )));
    }
    let spinner = progress::spinner("fitting");
    // The held-out loss of weights fitted without those games, then the weights of a fit
    // to every game.
    let fit = fit_model(
        model,
        &training,
        (&held_out, &held_out_targets),
        (layout, square_ridge),
    );
    let held_out_loss = fit.held_out_log_loss;
    let positions = training.len() + held_out.len();
    spinner.finish_and_clear();
    // Samuel's evaluation is one column: no tables to penalise.
    let samuel_loss = fit_model(
        model,
        &samuel_training,
        (&samuel_held_out, &samuel_held_out),
        (Layout::Features, square_ridge),
    )
    .held_out_log_loss;
    let man_logit = fit.weights[0];
    if man_logit <= 0.0 {
        return Err(usage(
            "in these games a man more does not win more often: no scale for the weights",
        ));
    }
    // A man in the opening is worth 100 points, as in the Samuel evaluation.
    let points_per_logit = 100.0 / man_logit;
    let weights = LearnedWeights::from_logit_weights(&fit.weights, points_per_logit);
    // A hidden-layer fit builds sets of its own (with validation games): the linear fit's
    // go first, so that the two never take memory together.
    drop((
        training,
        held_out,
        held_out_targets,
        samuel_training,
        samuel_held_out,
    ));
    let hidden_fit = if hidden {
        Some(fit_hidden_layer(
            &games,
            skip_plies,
            (layout, blend),
            points_per_logit,
            restarts,
        )?)
    } else {
        None
    };
    let hidden_text = match &hidden_fit {
        Some(hidden) => format!(
            "\nWith a hidden layer of {UNITS} units fitted together with the linear weights (--hidden: Adam,\n\
             {} by the loss on every fifth training game, {:.5}): {:.5} held out.\n\
             The linear weights here are that fit's.",
            hidden.kept(),
            hidden.fit.validation_loss(),
            hidden.held_out_log_loss
        ),
        None => String::new(),
    };
    let weights = hidden_fit
        .as_ref()
        .map_or(weights, |hidden| hidden.weights.clone());
    let model_text = match fit.margin {
        Some([constant, slope]) => format!(
            "the draw-margin model (Rao-Kupper): margin exp({constant:.4} + {slope:.4} x share of pieces gone) logits"
        ),
        None => "logistic regression, a draw half a win".to_string(),
    };
    let (score_flag, targets) = match logits_per_point {
        Some(logits) => (
            format!(" --score-weight {score_weight}"),
            format!(
                "the results blended with the search's values ({score_weight} of each target \
                 logistic({:.3} logits a man x the value))",
                100.0 * logits
            ),
        ),
        None => (String::new(), "the results".to_string()),
    };
    let comment = format!(
        "gametree checkers learned evaluation: `gametree checkers learn --model {}{}{score_flag}{}` on {} games,\n\
         {positions} quiet positions (from ply {skip_plies} on), fitted to {targets} (Texel tuning) by\n\
         {model_text}.\n\
         Mean log loss {:.5} (training), {held_out_loss:.5} on every fifth game held out (fitted without it);\n\
         Samuel's evaluation fitted alike: {samuel_loss:.5} held out. {points_per_logit:.1} points a logit.{hidden_text}",
        model_name(model),
        layout.flags(square_ridge),
        match (hidden, restarts) {
            (false, _) => String::new(),
            (true, 1) => " --hidden".to_string(),
            (true, restarts) => format!(" --hidden --restarts {restarts}"),
        },
        games.len(),
        fit.log_loss,
    );
    let text = weights.to_text(&comment);
    if let Some(out) = out {
        std::fs::write(out, &text)
            .map_err(|error| usage(format!("cannot write {}: {error}", out.display())))?;
    }
    if json_output {
        let named: serde_json::Map<String, Json> = weights
            .named()
            .map(|(name, opening, endgame)| (name, json!({"opening": opening, "endgame": endgame})))
            .collect();
        outln!(
            "{}",
            json!({
                "games": games.len(),
                "positions": positions,
                "log_loss": fit.log_loss,
                "held_out_log_loss": held_out_loss,
                "samuel_log_loss": samuel_loss,
                "points_per_logit": points_per_logit,
                "model": model_name(model),
                "draw_margin": fit.margin,
                "score_weight": score_weight,
                "search_logits_per_man": logits_per_point.map(|logits| 100.0 * logits),
                "newton_steps": fit.steps,
                "hidden": hidden_fit.as_ref().map(|hidden| json!({
                    "units": UNITS,
                    "held_out_log_loss": hidden.held_out_log_loss,
                    "validation_log_losses": hidden.fit.validation_losses,
                    "epoch_kept": hidden.fit.best_epoch + 1,
                    "seed_kept": hidden.seed,
                    "restart_validation_log_losses": hidden.restart_losses,
                })),
                "weights": named,
            })
        )?;
    } else {
        outln!("games            {}", games.len())?;
        outln!("positions        {}", positions)?;
        outln!("log loss         {:.5}", fit.log_loss)?;
        outln!("held out         {held_out_loss:.5}")?;
        outln!("samuel held out  {samuel_loss:.5}")?;
        if let Some([constant, slope]) = fit.margin {
            outln!("draw margin      exp({constant:.4} + {slope:.4} gone)")?;
        }
        outln!("points a logit   {points_per_logit:.1}")?;
        if let Some(hidden) = &hidden_fit {
            outln!(
                "hidden held out  {:.5} ({UNITS} units; {}, validation {:.5})",
                hidden.held_out_log_loss,
                hidden.kept(),
                hidden.fit.validation_loss()
            )?;
        }
        if let Some(logits) = logits_per_point {
            outln!(
                "score weight     {score_weight} (search values: {:.3} logits a man)",
                100.0 * logits
            )?;
        }
        outln!("{:<16} {:>7} {:>7}", "feature", "opening", "endgame")?;
        for (name, opening, endgame) in weights.named() {
            outln!("{name:<16} {opening:>7} {endgame:>7}")?;
        }
        if let Some(out) = out {
            outln!("weights written to {}", out.display())?;
        }
    }
    Ok(Outcome::Found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memory_estimate_covers_the_measured_fit() {
        // `checkers learn --squares --patterns` on rounds 0–5 (822,829 positions) took
        // 6,942,708 KiB at most (GNU time's maximum resident set, 2026-11-29).
        let estimate = fit_bytes(822_829, Layout::Patterns.column_count());
        // 2 phases × (14 features + 60 square features + 6 × 28 patterns).
        assert_eq!(Layout::Patterns.column_count(), 484);
        assert!(estimate >= 6_942_708 * 1024, "{estimate}");
        assert!(estimate < 2 * 6_942_708 * 1024, "{estimate}");
        // No overflow, however many positions: the check refuses them.
        assert!(fit_bytes(u64::MAX, 484) >= u64::MAX / 5);
    }

    #[test]
    fn the_positions_counted_are_those_the_fit_takes() {
        let games = read_games(Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/results/checkers-match/pvs-vs-none-0.05s.jsonl"
        )))
        .expect("a shipped game file");
        let sets = samples_of(
            &games,
            6,
            Layout::Features,
            ScoreBlend {
                weight: 0.0,
                logits_per_point: 0.0,
            },
        );
        let fitted = fitted_positions(&games, 6);
        // The file's 312 games of about 140 plies: some tens of thousands of positions.
        assert!(fitted > 10_000, "{fitted}");
        assert_eq!(fitted, (sets.training.len() + sets.held_out.len()) as u64);
    }
}
