//! The computer's search for `checkers best` and `checkers play`: iterative deepening by
//! alpha-beta or by Slagle's m&n alpha-beta, to a depth or for a time, with the settings of
//! the command line and of a `--params` file.

use std::f64::consts::LN_2;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use serde_json::Value as Json;

use gametree::games::checkers::endgame::CheckersEndgame;
use gametree::games::checkers::{
    Checkers, Evaluation, EvaluationWeights, LearnedWeights, Move, PdnGame,
};
use gametree::{
    Exponents, FloatValued, GameClock, Iteration, Player, SearchOptions, SharedTableSearch, Slagle,
    StopReason, StopSignal, TableSearch, TableStats, TranspositionTable, iterative_deepening,
    iterative_deepening_with_table, mn_alphabeta_depth_quiescent, parallel_deepening,
};

use gametree::experiment::SlagleParameters;
use gametree::search::shared_table::SharedTable;

use gametree::search::mcts::{Budget, Mcts, MctsOptions, Proven};

pub use crate::cli::engine::Engine as EngineName;
use crate::cli::{CliError, limits};

/// The deepest search the commands accept: a bound on the recursion and far beyond what
/// finishes (each ply multiplies the work by two or three).
pub const MAX_SEARCH_DEPTH: u32 = 64;

/// Quiescence plies when `--quiescence` is not given: in self-play over the 156 ballots
/// (both colours, `examples/checkers_selfplay.rs`) it scored 0.62–0.70 against no
/// quiescence at depths 4 to 10 for 3–10% more positions; a cap of 4 did as well as 16,
/// and 64 played the very games of 16.
pub const DEFAULT_QUIESCENCE_PLIES: u32 = 16;

/// The search settings shared by `best` and `play`.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Search this many plies (default 12 when neither --time nor --max-nodes is given).
    #[arg(long, conflicts_with_all = ["time", "max_nodes"])]
    pub depth: Option<u32>,
    /// Deepen until this many seconds have passed; the iteration under way is abandoned
    /// (alphabeta) or not started (m-and-n, which cannot stop inside an iteration).
    #[arg(long, conflicts_with = "max_nodes")]
    pub time: Option<f64>,
    /// alphabeta: deepen until this many positions have been visited (with --threads, by
    /// the calling thread); the iteration under way is abandoned. The same budget plays the
    /// same move on any machine, where a time limit does not.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// The search: McCarthy's alpha-beta with iterative deepening, or Slagle's m&n
    /// alpha-beta deepened one ply at a time [default: alphabeta, or m-and-n when --params
    /// is a parameter file of `gametree experiment`]
    #[arg(long, value_enum)]
    pub algorithm: Option<Algorithm>,
    /// m&n: MAX (Black) backs up its m best successors (default 2).
    #[arg(long)]
    pub m: Option<usize>,
    /// m&n: MIN (White) backs up its n best successors (default 2).
    #[arg(long)]
    pub n: Option<usize>,
    /// m&n: Slagle's x in a₁ + 2^(x − (a₁ − a₂)·y) (default 3; values are hundredths of a man).
    #[arg(long, allow_hyphen_values = true)]
    pub x: Option<f64>,
    /// m&n: Slagle's y > 0 (default 0.1).
    #[arg(long, allow_hyphen_values = true)]
    pub y: Option<f64>,
    /// m&n: Slagle's r in b₁ − 2^(r − (b₂ − b₁)·s) (default 3).
    #[arg(long, allow_hyphen_values = true)]
    pub r: Option<f64>,
    /// m&n: Slagle's s > 0 (default 0.1).
    #[arg(long, allow_hyphen_values = true)]
    pub s: Option<f64>,
    /// The transposition table's size in MiB for alphabeta (0: no table; at most three
    /// quarters of the memory available). Its key does not hold the draw rules' history, as
    /// in most game programs.
    #[arg(long, default_value_t = 16)]
    pub table_mib: usize,
    /// A JSON file of settings: the `parameters.json` that `gametree experiment slagle`
    /// writes (the learned 2&2 functions), or m&n's m, n, x, y, r, s, exponents per depth and
    /// evaluation weights (see docs/checkers.md); options on the command line win over the
    /// file.
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// The search that chooses the move: iterative deepening (`--algorithm`) or Monte Carlo
    /// tree search with random playouts to the end of the game
    #[arg(long, value_enum, default_value = "alphabeta")]
    pub engine: EngineName,
    /// mcts: playouts per move [default: 100000 unless --time is given]
    #[arg(long, value_name = "N", conflicts_with = "time")]
    pub playouts: Option<u64>,
    /// mcts: the seed of the random playouts (the same seed and playouts, the same move)
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Quiescence: the most plies searched past the depth while the side to move must
    /// capture (0: none; at most 64) [default: 16]
    #[arg(long, value_name = "PLIES")]
    pub quiescence: Option<u32>,
    /// alphabeta: order moves by the history heuristic too (moves that cut off the search
    /// elsewhere first)
    #[arg(long)]
    pub history: bool,
    /// alphabeta: principal variation search (each position's moves after the first
    /// searched in a null window first; the same values)
    #[arg(long)]
    pub pvs: bool,
    /// alphabeta: late move reductions (in a quiet position, the moves after the first
    /// three searched a ply shallower first; may change the value)
    #[arg(long)]
    pub lmr: bool,
    /// alphabeta: a capture answering a capture costs no ply (the recapture extension; may
    /// change the value)
    #[arg(long)]
    pub extend_recaptures: bool,
    /// alphabeta: verified pruning (a quiet position whose evaluation is 28 points beyond
    /// its bound is cut when a search 4 plies shallower agrees; may change the value)
    #[arg(long)]
    pub verified_pruning: bool,
    /// alphabeta: search threads sharing the transposition table (Lazy SMP); the move and
    /// value of a depth then vary from run to run with the threads' timing, so one thread
    /// is the default [default: 1; at most four per core]
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// The evaluation: `learned` (fourteen features and square tables weighted by phase,
    /// fitted to game results: data/checkers/learned-weights.txt), `network` (the same
    /// with a hidden layer of 32 units: data/checkers/learned-weights-network.txt),
    /// `samuel` (a few hand-set terms, what Slagle's experiment used), or a weights file
    /// that `gametree checkers learn` wrote [default: samuel]
    #[arg(long, value_name = "NAME|FILE")]
    pub eval: Option<String>,
    /// alphabeta: build the endgame databases of up to N pieces before searching (N from 2
    /// to 6; up to 4 take 14 s on 2 cores, up to 5 151 MB and 2 minutes) and read them at the
    /// leaves
    #[arg(long, value_name = "N", conflicts_with = "endgame")]
    pub endgame_pieces: Option<usize>,
    /// alphabeta: read the endgame databases from FILE (`gametree checkers endgame --output`)
    #[arg(long, value_name = "FILE")]
    pub endgame: Option<PathBuf>,
}

impl SearchArgs {
    /// Plain iterative deepening alpha-beta to `depth` plies or for `time` seconds, as the
    /// command line's defaults give it, for the callers that are not a command line (the web
    /// server, the engine protocol).
    pub fn alphabeta(
        depth: Option<u32>,
        time: Option<f64>,
        table_mib: usize,
        quiescence: Option<u32>,
    ) -> SearchArgs {
        SearchArgs {
            depth,
            time,
            max_nodes: None,
            algorithm: None,
            m: None,
            n: None,
            x: None,
            y: None,
            r: None,
            s: None,
            table_mib,
            params: None,
            engine: EngineName::Alphabeta,
            playouts: None,
            seed: None,
            quiescence,
            history: false,
            pvs: false,
            lmr: false,
            extend_recaptures: false,
            verified_pruning: false,
            threads: None,
            eval: None,
            endgame_pieces: None,
            endgame: None,
        }
    }
}

/// The search algorithms of the checkers commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Algorithm {
    /// Iterative deepening alpha-beta with principal line first and killers.
    Alphabeta,
    /// Slagle's m&n alpha-beta, one search per depth.
    #[value(name = "m-and-n")]
    MAndN,
}

impl Algorithm {
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Alphabeta => "alphabeta",
            Algorithm::MAndN => "m-and-n",
        }
    }
}

/// How far to search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    Depth(u32),
    Time(Duration),
    /// A budget of positions visited (alpha-beta only).
    Nodes(u64),
    /// A game clock: the move's time is what it allots, and no depth begins after half.
    Clock(GameClock),
}

impl Limit {
    /// The deepest depth, the hard time limit and the soft one (no new depth after it).
    fn bounds(self) -> (u32, Option<Duration>, Option<Duration>) {
        match self {
            Limit::Depth(depth) => (depth, None, None),
            Limit::Time(time) => (MAX_SEARCH_DEPTH, Some(time), None),
            Limit::Nodes(_) => (MAX_SEARCH_DEPTH, None, None),
            Limit::Clock(clock) => {
                let (hard, soft) = clock.time_limits();
                (MAX_SEARCH_DEPTH, Some(hard), Some(soft))
            }
        }
    }
}

/// Everything a search needs, checked, and the transposition table kept from one search
/// to the next.
#[derive(Debug)]
pub struct Engine {
    pub limit: Limit,
    pub algorithm: Algorithm,
    pub slagle: Option<Slagle>,
    pub evaluation: Evaluation,
    /// Endgame databases read at the leaves (`--endgame-pieces`, `--endgame`).
    pub endgame: Option<CheckersEndgame>,
    pub table: Option<TranspositionTable<Move, i32>>,
    /// With more than one thread, the table they share (instead of `table`) and how many.
    pub shared_table: Option<(SharedTable, usize)>,
    /// Quiescence plies past the horizon.
    pub quiescence: u32,
    /// `--engine mcts`: the search, kept from move to move, and its budget.
    pub mcts: Option<(Box<Mcts<Checkers>>, Budget)>,
    /// Raised by another thread to stop the search (`gametree serve` when the page gives
    /// up on an answer): alpha-beta abandons the depth under way, m&n starts no other.
    pub stop: Option<StopSignal>,
    /// Order moves by the history heuristic too (alphabeta).
    pub history: bool,
    /// Principal variation search (alphabeta).
    pub pvs: bool,
    /// Late move reductions (alphabeta).
    pub lmr: bool,
    /// The recapture extension (alphabeta).
    pub extend_recaptures: bool,
    /// Verified pruning with its default settings (alphabeta).
    pub verified_pruning: bool,
}

/// One completed depth.
#[derive(Clone, Debug)]
pub struct IterationReport {
    pub depth: u32,
    /// From Black's side. Integral for alpha-beta; m&n backs up real numbers.
    pub value: f64,
    /// The principal line (alpha-beta), or just the move chosen (m&n, which keeps no line).
    pub principal_line: Vec<Move>,
    pub best_move: Option<Move>,
    pub nodes: u64,
    pub elapsed: Duration,
}

impl IterationReport {
    /// The report of an alpha-beta iteration.
    fn of(iteration: &Iteration<Move, i32>) -> Self {
        IterationReport {
            depth: iteration.depth,
            value: f64::from(iteration.value),
            principal_line: iteration.principal_line.clone(),
            best_move: iteration.best_move,
            nodes: iteration.stats.nodes,
            elapsed: iteration.stats.elapsed,
        }
    }
}

/// A whole search.
#[derive(Clone, Debug)]
pub struct SearchReport {
    pub iterations: Vec<IterationReport>,
    /// What the transposition table did, when one was used.
    pub table: Option<TableStats>,
    pub best_move: Option<Move>,
    /// The depth the budget cut short, when it found a better move than the last
    /// completed depth's and that move is `best_move` (`DeepeningResult::partial`): its
    /// value is a bound (at least it for Black to move, at most for White).
    pub partial: Option<IterationReport>,
    pub stop: &'static str,
    pub nodes: u64,
    pub elapsed: Duration,
    /// `--engine mcts`: the playouts run.
    pub playouts: Option<u64>,
}

impl SearchReport {
    /// The depth whose move is played: the one the budget cut short when it found a better
    /// move ([`Self::partial`]), else the last one completed.
    pub fn deciding(&self) -> Option<&IterationReport> {
        self.partial.as_ref().or(self.iterations.last())
    }

    /// The effective branching factor: the d-th root of the nodes of the whole search to
    /// depth d (what a uniform tree with the same work would branch).
    pub fn effective_branching_factor(&self) -> Option<f64> {
        let depth = self.iterations.last()?.depth;
        (depth > 0 && self.nodes > 0).then(|| (self.nodes as f64).powf(1.0 / f64::from(depth)))
    }
}

/// Nodes per second, 0 when no time was measured.
pub fn nodes_per_second(nodes: u64, elapsed: Duration) -> f64 {
    let seconds = elapsed.as_secs_f64();
    if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    }
}

fn usage(message: impl Into<String>) -> CliError {
    CliError::Usage(message.into())
}

/// The evaluation `--eval` names (`samuel`, `learned`, `network` or a weights file), with the Samuel
/// weights of a `--params` file, which only `samuel` takes.
fn evaluation(
    eval: Option<&str>,
    samuel_weights: Option<EvaluationWeights>,
) -> Result<Evaluation, CliError> {
    match eval {
        None | Some("samuel") => Ok(Evaluation::Samuel(samuel_weights.unwrap_or_default())),
        Some(_) if samuel_weights.is_some() => Err(usage(
            "--params weights set the samuel evaluation: they do not apply to --eval learned, network or a weights file",
        )),
        Some("learned") => Ok(Evaluation::Learned(LearnedWeights::shipped())),
        Some("network") => Ok(Evaluation::Learned(LearnedWeights::shipped_network())),
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|error| usage(format!("cannot read {path}: {error}")))?;
            let weights =
                LearnedWeights::parse(&text).map_err(|error| usage(format!("{path}: {error}")))?;
            Ok(Evaluation::Learned(weights))
        }
    }
}

/// The settings of a `--params` file.
#[derive(Debug, Default)]
struct Params {
    /// The backing-up functions of a parameter file written by `gametree experiment`.
    learned: Option<Slagle>,
    m: Option<usize>,
    n: Option<usize>,
    x: Option<f64>,
    y: Option<f64>,
    r: Option<f64>,
    s: Option<f64>,
    /// (depth below, x, y) for MAX.
    max_at: Vec<(u32, f64, f64)>,
    /// (depth below, r, s) for MIN.
    min_at: Vec<(u32, f64, f64)>,
    weights: Option<EvaluationWeights>,
}

fn number(json: &Json, what: &str) -> Result<f64, String> {
    json.as_f64()
        .filter(|value| value.is_finite())
        .ok_or_else(|| format!("{what} must be a number"))
}

fn count(json: &Json, what: &str) -> Result<usize, String> {
    json.as_u64()
        .and_then(|value| usize::try_from(value).ok())
        .filter(|&value| value >= 1)
        .ok_or_else(|| format!("{what} must be a whole number of at least 1"))
}

fn integer(json: &Json, what: &str) -> Result<i32, String> {
    json.as_i64()
        .and_then(|value| i32::try_from(value).ok())
        .ok_or_else(|| format!("{what} must be a whole number"))
}

/// `[{"depth_below": 1, "x": 2.5, "y": 0.2}, ...]`, with `first`/`second` the names of
/// the two exponents.
fn per_depth(
    json: &Json,
    what: &str,
    first: &str,
    second: &str,
) -> Result<Vec<(u32, f64, f64)>, String> {
    let entries = json
        .as_array()
        .ok_or_else(|| format!("{what} must be a list"))?;
    let mut found = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        let place = format!("{what}[{index}]");
        let object = entry
            .as_object()
            .ok_or_else(|| format!("{place} must be an object"))?;
        if let Some(unknown) = object
            .keys()
            .find(|key| ![first, second, "depth_below"].contains(&key.as_str()))
        {
            return Err(format!("{place}: unknown key {unknown:?}"));
        }
        let get = |key: &str| {
            object
                .get(key)
                .ok_or_else(|| format!("{place}: missing {key:?}"))
        };
        let depth = get("depth_below")?
            .as_u64()
            .and_then(|depth| u32::try_from(depth).ok())
            .filter(|&depth| depth <= MAX_SEARCH_DEPTH)
            .ok_or_else(|| {
                format!("{place}.depth_below must be a whole number up to {MAX_SEARCH_DEPTH}")
            })?;
        found.push((
            depth,
            number(get(first)?, &format!("{place}.{first}"))?,
            number(get(second)?, &format!("{place}.{second}"))?,
        ));
    }
    Ok(found)
}

fn weights(json: &Json) -> Result<EvaluationWeights, String> {
    let object = json
        .as_object()
        .ok_or_else(|| "weights must be an object".to_string())?;
    let mut weights = EvaluationWeights::default();
    for (key, value) in object {
        let what = format!("weights.{key}");
        let slot = match key.as_str() {
            "man" => &mut weights.man,
            "king" => &mut weights.king,
            "advancement" => &mut weights.advancement,
            "back_row_guard" => &mut weights.back_row_guard,
            "centre_control" => &mut weights.centre_control,
            "mobility" => &mut weights.mobility,
            _ => return Err(format!("unknown key {what:?}")),
        };
        *slot = integer(value, &what)?;
    }
    Ok(weights)
}

/// Reads a `--params` file; every error names the file and what is wrong.
fn read_params(path: &Path) -> Result<Params, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| usage(format!("cannot read {}: {error}", path.display())))?;
    let json: Json = serde_json::from_str(&text)
        .map_err(|error| usage(format!("{}: invalid JSON: {error}", path.display())))?;
    if json.get("format").is_some() {
        // The experiment's own format, with its own checks.
        let learned = SlagleParameters::from_json(&text)
            .and_then(|parameters| parameters.to_slagle())
            .map_err(|error| usage(format!("{}: {error}", path.display())))?;
        return Ok(Params {
            learned: Some(learned),
            ..Params::default()
        });
    }
    parse_params(&json).map_err(|reason| usage(format!("{}: {reason}", path.display())))
}

fn parse_params(json: &Json) -> Result<Params, String> {
    let object = json
        .as_object()
        .ok_or_else(|| "the settings must be a JSON object".to_string())?;
    let mut params = Params::default();
    for (key, value) in object {
        match key.as_str() {
            "m" => params.m = Some(count(value, "m")?),
            "n" => params.n = Some(count(value, "n")?),
            "x" => params.x = Some(number(value, "x")?),
            "y" => params.y = Some(number(value, "y")?),
            "r" => params.r = Some(number(value, "r")?),
            "s" => params.s = Some(number(value, "s")?),
            "max_at" => params.max_at = per_depth(value, "max_at", "x", "y")?,
            "min_at" => params.min_at = per_depth(value, "min_at", "r", "s")?,
            "weights" => params.weights = Some(weights(value)?),
            _ => return Err(format!("unknown key {key:?}")),
        }
    }
    Ok(params)
}

impl Engine {
    /// The engine the command line asks for.
    pub fn from_args(args: &SearchArgs) -> Result<Engine, CliError> {
        if args.engine == EngineName::Mcts {
            return Engine::mcts_from_args(args);
        }
        if args.playouts.is_some() || args.seed.is_some() {
            return Err(usage("--playouts and --seed apply to --engine mcts"));
        }
        if args.max_nodes == Some(0) {
            return Err(usage(
                "--max-nodes 0: the search needs to visit at least one position",
            ));
        }
        let limit = match (args.depth, args.time, args.max_nodes) {
            (Some(depth), None, None) => {
                if depth == 0 || depth > MAX_SEARCH_DEPTH {
                    return Err(usage(format!(
                        "--depth must be between 1 and {MAX_SEARCH_DEPTH}, not {depth}"
                    )));
                }
                Limit::Depth(depth)
            }
            (None, Some(seconds), None) => {
                if !(seconds.is_finite() && seconds > 0.0 && seconds <= 1e6) {
                    return Err(usage(format!(
                        "--time {seconds}: expected a number of seconds above 0 and at most 1000000"
                    )));
                }
                Limit::Time(Duration::from_secs_f64(seconds))
            }
            (None, None, Some(nodes)) => Limit::Nodes(nodes),
            (None, None, None) => Limit::Depth(12),
            _ => return Err(usage("give one of --depth, --time and --max-nodes")),
        };
        let params = match &args.params {
            Some(path) => read_params(path)?,
            None => Params::default(),
        };
        let flags = [args.m.is_some(), args.n.is_some()]
            .into_iter()
            .chain([args.x, args.y, args.r, args.s].iter().map(Option::is_some))
            .any(|given| given);
        let algorithm = match (args.algorithm, &params.learned) {
            (Some(Algorithm::Alphabeta), Some(_)) => {
                return Err(usage(
                    "--params holds learned m&n functions: they apply to --algorithm m-and-n",
                ));
            }
            (Some(algorithm), _) => algorithm,
            (None, Some(_)) => Algorithm::MAndN,
            (None, None) => Algorithm::Alphabeta,
        };
        let slagle = match algorithm {
            Algorithm::Alphabeta => {
                if flags {
                    return Err(usage(
                        "--m, --n, --x, --y, --r and --s apply to --algorithm m-and-n",
                    ));
                }
                None
            }
            Algorithm::MAndN => Some(slagle(args, &params)?),
        };
        if args.table_mib > 0 {
            limits::check_table_mib(args.table_mib)?;
        }
        let quiescence = match args.quiescence {
            Some(plies) if plies > MAX_SEARCH_DEPTH => {
                return Err(usage(format!(
                    "--quiescence must be between 0 and {MAX_SEARCH_DEPTH}, not {plies}"
                )));
            }
            Some(plies) => plies,
            None => DEFAULT_QUIESCENCE_PLIES,
        };
        let threads = limits::check_threads(args.threads.unwrap_or(1))?;
        if threads > 1 && algorithm != Algorithm::Alphabeta {
            return Err(usage("--threads applies to --algorithm alphabeta"));
        }
        if args.pvs && algorithm != Algorithm::Alphabeta {
            return Err(usage("--pvs applies to --algorithm alphabeta"));
        }
        if args.lmr && algorithm != Algorithm::Alphabeta {
            return Err(usage("--lmr applies to --algorithm alphabeta"));
        }
        if args.extend_recaptures && algorithm != Algorithm::Alphabeta {
            return Err(usage(
                "--extend-recaptures applies to --algorithm alphabeta",
            ));
        }
        if args.verified_pruning && algorithm != Algorithm::Alphabeta {
            return Err(usage("--verified-pruning applies to --algorithm alphabeta"));
        }
        if args.max_nodes.is_some() && algorithm != Algorithm::Alphabeta {
            return Err(usage(
                "--max-nodes applies to --algorithm alphabeta (m&n cannot stop inside a depth)",
            ));
        }
        if threads > 1 && args.table_mib == 0 {
            return Err(usage(
                "--threads above 1 share the transposition table: give --table-mib above 0",
            ));
        }
        let with_table = algorithm == Algorithm::Alphabeta && args.table_mib > 0;
        let table =
            (with_table && threads == 1).then(|| TranspositionTable::with_mib(args.table_mib));
        let shared_table = (with_table && threads > 1).then(|| {
            (
                SharedTable::growing(args.table_mib << 20, args.table_mib << 20),
                threads,
            )
        });
        let evaluation = evaluation(args.eval.as_deref(), params.weights)?;
        let endgame = match (&args.endgame, args.endgame_pieces) {
            (Some(path), _) => Some(super::endgame_cli::read(path)?),
            (None, Some(pieces)) => Some(super::endgame_cli::build(pieces)?.0),
            (None, None) => None,
        };
        Ok(Engine {
            limit,
            algorithm,
            slagle,
            evaluation,
            endgame,
            table,
            shared_table,
            quiescence,
            mcts: None,
            stop: None,
            history: args.history,
            pvs: args.pvs,
            lmr: args.lmr,
            extend_recaptures: args.extend_recaptures,
            verified_pruning: args.verified_pruning,
        })
    }

    /// `--engine mcts`: a budget of playouts or time, a seed; the depth-first search's
    /// settings do not apply.
    fn mcts_from_args(args: &SearchArgs) -> Result<Engine, CliError> {
        let depth_first = args.depth.is_some()
            || args.algorithm.is_some()
            || args.params.is_some()
            || args.quiescence.is_some()
            || args.threads.is_some()
            || args.eval.is_some()
            || args.endgame.is_some()
            || args.endgame_pieces.is_some()
            || args.pvs
            || args.lmr
            || args.extend_recaptures
            || args.verified_pruning
            || args.max_nodes.is_some()
            || [args.m.is_some(), args.n.is_some()]
                .into_iter()
                .chain([args.x, args.y, args.r, args.s].iter().map(Option::is_some))
                .any(|given| given);
        if depth_first {
            return Err(usage(
                "--depth, --max-nodes, --algorithm, --params, --eval, --endgame, --endgame-pieces, --quiescence, --threads, --pvs, --lmr, --extend-recaptures, --verified-pruning, --m, --n, --x, --y, --r and --s do not apply to --engine mcts (its budget is --playouts or --time)",
            ));
        }
        if args.playouts == Some(0) {
            return Err(usage("--playouts 0: the search needs at least one playout"));
        }
        let budget = match args.time {
            Some(seconds) => {
                if !(seconds.is_finite() && seconds > 0.0 && seconds <= 1e6) {
                    return Err(usage(format!(
                        "--time {seconds}: expected a number of seconds above 0 and at most 1000000"
                    )));
                }
                Budget::Time(Duration::from_secs_f64(seconds))
            }
            None => Budget::Playouts(
                args.playouts
                    .unwrap_or(crate::cli::engine::DEFAULT_PLAYOUTS),
            ),
        };
        let options = MctsOptions {
            seed: args.seed.unwrap_or(0),
            ..MctsOptions::default()
        };
        Ok(Engine {
            limit: match budget {
                Budget::Time(time) => Limit::Time(time),
                Budget::Playouts(_) => Limit::Depth(0),
            },
            algorithm: Algorithm::Alphabeta,
            slagle: None,
            evaluation: Evaluation::default(),
            endgame: None,
            table: None,
            shared_table: None,
            quiescence: 0,
            mcts: Some((Box::new(Mcts::new(options)), budget)),
            stop: None,
            history: false,
            pvs: false,
            lmr: false,
            extend_recaptures: false,
            verified_pruning: false,
        })
    }

    /// The game at the end of `so_far`, with this engine's evaluation and databases.
    pub fn game(&self, so_far: &PdnGame) -> Checkers {
        let game = Checkers::from_pdn(so_far).with_evaluation(self.evaluation.clone());
        match &self.endgame {
            Some(endgame) => game.with_endgame(endgame.clone()),
            None => game,
        }
    }

    /// The search's name as `best` prints it.
    pub fn name(&self) -> &'static str {
        if self.mcts.is_some() {
            "mcts"
        } else {
            self.algorithm.name()
        }
    }

    /// Tells a Monte Carlo search which move was played, so it keeps that subtree.
    pub fn played(&mut self, mv: Move) {
        if let Some((search, _)) = &mut self.mcts {
            search.advance(mv);
        }
    }

    /// Searches `game` (whose root is marked here) and reports each depth to
    /// `on_iteration` as it completes.
    pub fn search(
        &mut self,
        game: &mut Checkers,
        mut on_iteration: impl FnMut(&IterationReport),
    ) -> SearchReport {
        game.mark_root();
        if let Some((search, budget)) = &mut self.mcts {
            let result = search.search(game, *budget);
            let stop = if result.moves.iter().any(|m| m.proven == Some(Proven::Win))
                || (!result.moves.is_empty() && result.moves.iter().all(|m| m.proven.is_some()))
            {
                "game decided"
            } else if matches!(budget, Budget::Time(_)) {
                "time limit"
            } else {
                "playouts done"
            };
            let report = SearchReport {
                iterations: Vec::new(),
                table: None,
                best_move: result.best_move,
                partial: None,
                stop,
                nodes: result.stats.nodes,
                elapsed: result.stats.elapsed,
                playouts: Some(result.playouts),
            };
            return report;
        }
        match (&self.slagle, self.algorithm) {
            (Some(slagle), Algorithm::MAndN) => self.search_m_and_n(game, slagle, on_iteration),
            _ => {
                let (max_depth, time_limit, new_depth_limit) = self.limit.bounds();
                let options = SearchOptions {
                    time_limit,
                    new_depth_limit,
                    max_nodes: match self.limit {
                        Limit::Nodes(nodes) => Some(nodes),
                        _ => None,
                    },
                    quiescence_plies: self.quiescence,
                    stop: self.stop.clone(),
                    use_history: self.history,
                    use_pvs: self.pvs,
                    late_move_reductions: self.lmr,
                    extend_recaptures: self.extend_recaptures,
                    verified_pruning: self
                        .verified_pruning
                        .then(gametree::VerifiedPruning::default),
                    ..SearchOptions::default()
                };
                let mut iterations = Vec::new();
                let mut record = |iteration: &Iteration<Move, i32>| {
                    let report = IterationReport::of(iteration);
                    on_iteration(&report);
                    iterations.push(report);
                };
                let (result, table) = match (&mut self.table, &self.shared_table) {
                    (_, Some((table, threads))) => {
                        let mut search = SharedTableSearch::new(table)
                            .with_distance(Checkers::distance_adjustment());
                        let result = parallel_deepening(
                            game,
                            max_depth,
                            &options,
                            *threads,
                            &mut search,
                            &mut record,
                        );
                        (result, Some(search.stats))
                    }
                    (Some(table), None) => {
                        let mut search =
                            TableSearch::new(table).with_distance(Checkers::distance_adjustment());
                        let result = iterative_deepening_with_table(
                            game,
                            max_depth,
                            &options,
                            &mut search,
                            &mut record,
                        );
                        (result, Some(search.stats))
                    }
                    (None, None) => (
                        iterative_deepening(game, max_depth, &options, &mut record),
                        None,
                    ),
                };
                SearchReport {
                    table,
                    iterations,
                    best_move: result.best_move,
                    partial: result.partial.as_ref().map(IterationReport::of),
                    stop: stop_name(result.stop),
                    nodes: result.stats.nodes,
                    elapsed: result.stats.elapsed,
                    playouts: None,
                }
            }
        }
    }

    /// m&n alpha-beta at depths 1, 2, …: it keeps no line and cannot stop inside a search,
    /// so with a time limit a depth is only started when the last one, times the growth
    /// seen so far, fits in the time left.
    fn search_m_and_n(
        &self,
        game: &mut Checkers,
        slagle: &Slagle,
        mut on_iteration: impl FnMut(&IterationReport),
    ) -> SearchReport {
        let started = Instant::now();
        // m&n already begins a depth only when it is expected to fit.
        let (max_depth, time_limit, _) = self.limit.bounds();
        let mut floated = FloatValued(game.clone());
        let mut iterations: Vec<IterationReport> = Vec::new();
        let mut nodes = 0;
        let mut stop = "depth reached";
        let mut fallback = Vec::new();
        gametree::Game::successors(game, &mut fallback);
        for depth in 1..=max_depth {
            if depth > 1 && self.stop.as_ref().is_some_and(StopSignal::is_stopped) {
                stop = "stopped";
                break;
            }
            if let (Some(limit), Some(last)) = (time_limit, iterations.last()) {
                let growth = match iterations.len() {
                    1 => 3.0,
                    length => {
                        let before = iterations[length - 2].elapsed.as_secs_f64().max(1e-6);
                        (last.elapsed.as_secs_f64() / before).clamp(1.0, 20.0)
                    }
                };
                let expected = last.elapsed.mul_f64(growth);
                if started.elapsed() + expected > limit {
                    stop = "time limit";
                    break;
                }
            }
            let result = mn_alphabeta_depth_quiescent(&mut floated, slagle, depth, self.quiescence);
            nodes += result.stats.nodes;
            let report = IterationReport {
                depth,
                value: result.value,
                principal_line: result.best_move.into_iter().collect(),
                best_move: result.best_move,
                nodes: result.stats.nodes,
                elapsed: result.stats.elapsed,
            };
            on_iteration(&report);
            let decided = result.value.abs() >= f64::from(gametree::games::checkers::WIN_VALUE / 2);
            iterations.push(report);
            if decided {
                stop = "game decided";
                break;
            }
        }
        SearchReport {
            table: None,
            best_move: iterations
                .last()
                .and_then(|iteration| iteration.best_move)
                .or(fallback.first().copied()),
            partial: None,
            iterations,
            stop,
            nodes,
            elapsed: started.elapsed(),
            playouts: None,
        }
    }
}

fn stop_name(stop: StopReason) -> &'static str {
    match stop {
        StopReason::DepthReached => "depth reached",
        StopReason::TreeExhausted => "tree exhausted",
        StopReason::NodeBudget => "node budget",
        StopReason::TimeLimit => "time limit",
        StopReason::Stopped => "stopped",
    }
}

/// Slagle's backing-up functions from the flags, else the file, else the defaults (2, 2,
/// 3, 0.1, 3, 0.1: values are hundredths of a man, so a near-best successor's bonus halves
/// every tenth of a man it falls behind); a warning when they are not monotone.
fn slagle(args: &SearchArgs, params: &Params) -> Result<Slagle, CliError> {
    let error = |error: gametree::BackingUpError| usage(error.to_string());
    if let Some(learned) = &params.learned {
        if [args.x, args.y, args.r, args.s].iter().any(Option::is_some)
            || args.m.is_some()
            || args.n.is_some()
        {
            return Err(usage(
                "--m, --n, --x, --y, --r and --s cannot change the learned functions of --params",
            ));
        }
        return Ok(learned.clone());
    }
    let m = args.m.or(params.m).unwrap_or(2);
    let n = args.n.or(params.n).unwrap_or(2);
    let max = Exponents::new(
        args.x.or(params.x).unwrap_or(3.0),
        args.y.or(params.y).unwrap_or(0.1),
    )
    .map_err(error)?;
    let min = Exponents::new(
        args.r.or(params.r).unwrap_or(3.0),
        args.s.or(params.s).unwrap_or(0.1),
    )
    .map_err(error)?;
    let mut slagle = Slagle::new(m, n, max, min).map_err(error)?;
    for &(depth, x, y) in &params.max_at {
        slagle = slagle.with_max_at(depth, Exponents::new(x, y).map_err(error)?);
    }
    for &(depth, r, s) in &params.min_at {
        slagle = slagle.with_min_at(depth, Exponents::new(r, s).map_err(error)?);
    }
    for (player, depth) in slagle.monotonicity_violations() {
        let (count, exponents) = match player {
            Player::Max => (m, slagle.exponents(player, depth)),
            Player::Min => (n, slagle.exponents(player, depth)),
        };
        let product = (count - 1) as f64 * exponents.slope * exponents.shift.exp2() * LN_2;
        let at = depth.map_or(String::new(), |depth| format!(" at depth below {depth}"));
        eprintln!(
            "gametree: warning: {player}'s backing-up function{at} is not monotone: \
             (count − 1)·slope·2^shift·ln 2 = {product:.3} > 1 (Slagle's theorem)"
        );
    }
    Ok(slagle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_params_file_sets_exponents_per_depth_and_weights() {
        let json: Json = serde_json::from_str(
            r#"{"m": 3, "x": 2.5, "max_at": [{"depth_below": 1, "x": 1, "y": 0.5}],
                "weights": {"king": 170}}"#,
        )
        .expect("valid JSON");
        let params = parse_params(&json).expect("valid settings");
        assert_eq!((params.m, params.x), (Some(3), Some(2.5)));
        assert_eq!(params.max_at, vec![(1, 1.0, 0.5)]);
        assert_eq!(params.weights.map(|weights| weights.king), Some(170));
    }

    #[test]
    fn unknown_keys_and_bad_numbers_are_named() {
        for (text, expected) in [
            (r#"{"q": 1}"#, "unknown key \"q\""),
            (r#"{"m": 0}"#, "m must be a whole number of at least 1"),
            (
                r#"{"weights": {"queen": 1}}"#,
                "unknown key \"weights.queen\"",
            ),
            (
                r#"{"min_at": [{"depth_below": 1, "r": 1}]}"#,
                "min_at[0]: missing \"s\"",
            ),
        ] {
            let json: Json = serde_json::from_str(text).expect("valid JSON");
            assert_eq!(
                parse_params(&json).err().as_deref(),
                Some(expected),
                "{text}"
            );
        }
    }
}
