//! `gametree experiment ...`: Slagle's proposed experiment (seed 003, section 8) on every
//! core, with progress bars and result files that a rerun continues from.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use clap::{Args, Subcommand};
use indicatif::ProgressBar;
use rayon::prelude::*;

use gametree::experiment::{
    Calibration, CheckersExperiment, ColourSplit, DeepValue, EXPERIMENT_FORMAT, EngineStrength,
    Estimate, ExperimentConfig, ExperimentEvaluation, ExperimentGame, FitRow, GameRecord, GameSpec,
    GradingResults, KalahConfig, KalahExperiment, KalahOpening, KalahPosition, KalahReportInput,
    LearningSample, MatchKind, MatchSetup, MatchSummary, Opening, PositionGrades, ResultsDir,
    RunLog, SamplingConfig, Searcher, SlagleParameters, as_stored, colour_split,
    compare_families_by_dmax, draw_fit_chart, draw_grading_charts, exact_move_values,
    fit_backing_up, fits_csv, functions_so_far, game_specs, grade_move, grading_csv,
    kalah_report_markdown, matches_csv, paired_csv, paired_differences, position_kind,
    report_markdown, summarize, summarize_grades, typical_positions, typical_positions_by_stratum,
};
use gametree::games::checkers::{Position, read_pdn, write_pdn};
use gametree::games::kalah::{Kalah, KalahRules};
use gametree::search::retrograde::EndgameTable;
use gametree::{Exponents, SolveOptions, Solver};

use super::output::outln;
use super::{CliError, Outcome, limits};

/// Set by `--json`: the lines that say how the run goes are left out, and one JSON object
/// with the results is printed at the end.
static JSON_OUTPUT: AtomicBool = AtomicBool::new(false);

/// `outln!` for the lines of a run, which `--json` leaves out.
macro_rules! say {
    ($($argument:tt)*) => {
        if JSON_OUTPUT.load(Ordering::Relaxed) {
            Ok(())
        } else {
            outln!($($argument)*)
        }
    };
}

mod curves;

/// The deepest D accepted: depth 12 already takes hours per position set on a laptop.
const MAX_DEPTH: u32 = 16;

/// Arguments of `gametree experiment`.
#[derive(Args, Debug)]
pub struct ExperimentArgs {
    #[command(subcommand)]
    command: ExperimentCommand,
}

#[derive(Subcommand, Debug)]
enum ExperimentCommand {
    /// Learn the 2&2 backing-up functions on checkers (or Kalah, --game kalah, where every
    /// move is also graded against perfect play) and play 2&2 against 1&1 alpha-beta
    /// (Slagle 1963, section 8), writing every result to --out as it is finished.
    #[command(after_help = "Examples:\n  \
        $ gametree experiment slagle --quick --out /tmp/gametree-slagle-quick --quiet | grep games:\n  \
        games: 36 in this run, 36 already finished, 0 to play\n  \
        $ gametree experiment slagle --depth 1\n  \
        gametree: --depth 1: D must be from 2 (one function, dmax 0) to 16\n  \
        $ gametree experiment slagle --game kalah --quick --out /tmp/gametree-kalah-help --quiet | grep '^grading: [0-9]'\n  \
        grading: 12 positions with 11 to 20 seeds in the houses, depths 1 to 6\n\
        \n\
        Rerunning the same command continues where the last run stopped; docs/experiment.md\n\
        shows the full run, shards and merging.")]
    Slagle(SlagleArgs),
    /// Combine result directories of shards (--shard K/N) into one.
    #[command(after_help = "Example:\n  \
        $ gametree experiment merge /tmp/gametree-slagle-quick --out /tmp/gametree-slagle-merged | head -1\n  \
        merged 36 games from 1 directories into /tmp/gametree-slagle-merged")]
    Merge {
        /// The shards' result directories.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Where the combined results go (may be one of the shards).
        #[arg(long)]
        out: PathBuf,
        /// Print one JSON object with the merged results instead of the lines.
        #[arg(long)]
        json: bool,
    },
    /// Play the cost-strength matches of a checkers result directory: players of each
    /// backing-up rule (1&1, Slagle's, the shifted and offset families, tie-breaking) at
    /// several depths against one reference player, and the attribution matches; the
    /// report then shows the curves.
    #[command(after_help = "Example:\n  \
        $ gametree experiment curves /tmp/gametree-slagle-quick --depths 2-3 --one-one-depths 2-4 --opening-count 2 --jobs 2 | tail -1\n  \
        slagle@4 vs tie-break@4: 1/2/1 (4 games), +0 Elo [-297, +297], 560 positions and [..] s a move\n\
        \n\
        Rerunning the same command continues where the last run stopped; docs/experiment.md\n\
        shows the full run.")]
    Curves(curves::CurvesArgs),
    /// Write the report (Markdown) of a result directory: to standard output, or to a file
    /// with --output.
    #[command(after_help = "Examples:\n  \
        $ gametree experiment report results/slagle | head -1\n  \
        # Slagle's proposed experiment: 2&2 alpha-beta against 1&1 alpha-beta at checkers\n  \
        $ gametree experiment report results/kalah-slagle | head -1\n  \
        # Slagle's experiment on Kalah(6, 4): 2&2 against 1&1 alpha-beta, every move graded\n  \
        $ gametree experiment report /tmp/gametree-slagle-quick --output /tmp/gametree-slagle-quick/report.md\n  \
        wrote /tmp/gametree-slagle-quick/report.md")]
    Report {
        /// The result directory.
        dir: PathBuf,
        /// Write the report to this file (its links to the charts are made relative to
        /// it) instead of standard output.
        #[arg(long)]
        output: Option<PathBuf>,
    },
}

/// The games the experiment runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum GameArg {
    /// Slagle's own choice: checkers from the ACF three-move ballots
    Checkers,
    /// Kalah(h, s) under Irving's rules (Slagle and Dixon 1970), every move also graded
    /// against perfect play
    Kalah,
}

#[derive(Args, Debug)]
struct SlagleArgs {
    /// The game.
    #[arg(long, value_enum, default_value_t = GameArg::Checkers)]
    game: GameArg,
    /// Kalah: houses a side, 1 to 6.
    #[arg(long)]
    houses: Option<usize>,
    /// Kalah: seeds a house at the start, 1 to 20.
    #[arg(long)]
    seeds: Option<u8>,
    /// Kalah: random moves from the start that make an opening. Default 4.
    #[arg(long)]
    opening_plies: Option<usize>,
    /// Kalah: positions whose every move is graded against perfect play. Default 200,
    /// 12 with --quick.
    #[arg(long)]
    grading_positions: Option<usize>,
    /// Kalah: the most seeds a graded position has left in its houses. Default 30, 20
    /// with --quick.
    #[arg(long)]
    grading_max_seeds: Option<u32>,
    /// Kalah: the seeds of the solver's endgame table (graded positions have more).
    /// Default 14, 10 with --quick.
    #[arg(long)]
    endgame_seeds: Option<u32>,
    /// Kalah: graded depths are 1 to this. Default D + 2.
    #[arg(long)]
    grading_depth: Option<u32>,
    /// D: the full search depth (Slagle's 8); functions are learned for dmax 0..D-2.
    /// Default 6, 4 with --quick.
    #[arg(long)]
    depth: Option<u32>,
    /// Typical positions to learn from. Default 20000, 400 with --quick.
    #[arg(long)]
    positions: Option<usize>,
    /// A PDN file of openings (default: the 156 ACF three-move ballots; checkers only).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Use only the first K openings. Default all (checkers) or 40 (Kalah), 6 with --quick.
    #[arg(long)]
    opening_count: Option<usize>,
    /// Worker threads (default: every core).
    #[arg(long)]
    jobs: Option<usize>,
    /// The result directory.
    /// Default: results/slagle, results/kalah-slagle with --game kalah.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Seed of the self-play games that supply the typical positions.
    #[arg(long, default_value_t = 1963)]
    seed: u64,
    /// A small configuration (D = 4, 400 positions, 6 openings) that finishes in seconds
    /// and writes every artefact.
    #[arg(long)]
    quick: bool,
    /// Play only the K-th of N slices of the games (learning is done in full). Default: the
    /// slice a Slurm job array (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN,
    /// SLURM_ARRAY_TASK_COUNT) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX, with
    /// JOB_COMPLETIONS set to the job's completions) gives the process; else all of them.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Hold the fit to Slagle's monotonicity condition y·2^x·ln 2 ≤ 1.
    #[arg(long)]
    monotone: bool,
    /// Checkers: the evaluation of every search (samuel, the default, as the runs in
    /// results/ were made; or learned, the evaluation `gametree checkers` plays with)
    #[arg(long = "eval", value_enum, default_value_t, value_name = "EVAL")]
    evaluation: ExperimentEvaluation,
    /// Checkers: both match players (and the calibration) order their moves with killers
    /// and the history heuristic below the root, 1&1's iterative deepening at equal cost
    /// too; no move at a fixed depth changes, only the positions examined
    #[arg(long)]
    ordered: bool,
    /// Checkers: sample the typical positions in these shares, in percent, of openings (20
    /// pieces or more), middle games (12 to 19) and endgames (11 or fewer), e.g. 30,30,40;
    /// default as self-play gives them
    #[arg(long, value_name = "O,M,E")]
    phase_shares: Option<String>,
    /// Typical positions searched by 2&2 and 1&1 at depth D to compare their costs.
    /// Default 200.
    #[arg(long)]
    calibration: Option<usize>,
    /// Print one JSON object with the results (configuration, learned functions, fits,
    /// calibration, matches) at the end, instead of the lines that follow the run.
    #[arg(long)]
    json: bool,
    /// Plies after the opening at which a match game is scored a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: u32,
    /// Checkers: quiescence in every search of the run (deep values, learning, calibration,
    /// both players): at most this many plies past the depth while a capture is forced (0,
    /// the default, none, as the runs in results/ were made; at most 64)
    #[arg(long, default_value_t = 0, value_name = "PLIES")]
    quiescence: u32,
}

impl SlagleArgs {
    /// `--out`, or the default directory of the game.
    fn out(&self) -> PathBuf {
        self.out.clone().unwrap_or_else(|| {
            PathBuf::from(match self.game {
                GameArg::Checkers => "results/slagle",
                GameArg::Kalah => "results/kalah-slagle",
            })
        })
    }
}

/// Runs a `gametree experiment` subcommand.
pub fn run(args: ExperimentArgs) -> Result<Outcome, CliError> {
    match args.command {
        ExperimentCommand::Slagle(args) => {
            JSON_OUTPUT.store(args.json, Ordering::Relaxed);
            run_slagle(&args)?;
            print_json_summary(&args.out())?;
            Ok(Outcome::Found)
        }
        ExperimentCommand::Merge { dirs, out, json } => {
            JSON_OUTPUT.store(json, Ordering::Relaxed);
            run_merge(&dirs, &out)?;
            print_json_summary(&out)?;
            Ok(Outcome::Found)
        }
        ExperimentCommand::Curves(args) => curves::run_curves(&args),
        ExperimentCommand::Report { dir, output } => run_report(&dir, output.as_deref()),
    }
}

fn usage(message: impl Into<String>) -> CliError {
    CliError::Usage(message.into())
}

/// `--phase-shares O,M,E`: three whole percentages that add up to 100.
fn parse_phase_shares(text: &str) -> Result<[u32; 3], CliError> {
    let bad = || {
        usage(format!(
            "--phase-shares {text}: expected three whole percentages adding up to 100 \
             (openings, middle games, endgames), e.g. 30,30,40"
        ))
    };
    let shares: Vec<u32> = text
        .split(',')
        .map(|part| part.trim().parse::<u32>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    match shares[..] {
        [opening, middle, end] if opening + middle + end == 100 => Ok([opening, middle, end]),
        _ => Err(bad()),
    }
}

/// The quota of typical positions of each phase: the shares of `count`, the endgames
/// taking what rounding leaves.
fn phase_quotas(count: usize, shares: [u32; 3]) -> [usize; 3] {
    let opening = count * shares[0] as usize / 100;
    let middle = count * shares[1] as usize / 100;
    [opening, middle, count - opening - middle]
}

/// `K/N` with 1 ≤ K ≤ N.
fn parse_shard(text: &str) -> Result<(usize, usize), CliError> {
    let bad = || {
        usage(format!(
            "--shard {text}: expected K/N with 1 ≤ K ≤ N, e.g. 2/4"
        ))
    };
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let k: usize = k.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// A shard `(K, N)` and the variable that gave its index.
type ScheduledShard = ((usize, usize), &'static str);

/// The shard a cluster scheduler gives this process, from its environment (`variable`
/// reads one): a Slurm job array's task among its tasks, or a Kubernetes Indexed Job's
/// completion index among its completions (Kubernetes does not put the completions in the
/// environment: the Job's manifest sets `JOB_COMPLETIONS` beside `spec.completions`).
/// `None` outside a job array; an error when the variables are half set or inconsistent, so
/// that a misconfigured array does not silently play every game in every task.
fn shard_from_environment(
    variable: impl Fn(&str) -> Option<String>,
) -> Result<Option<ScheduledShard>, CliError> {
    let number = |name: &str| -> Result<Option<usize>, CliError> {
        variable(name)
            .map(|text| {
                text.trim()
                    .parse::<usize>()
                    .map_err(|_| usage(format!("{name}={text:?} is not a whole number")))
            })
            .transpose()
    };
    if let Some(task) = number("SLURM_ARRAY_TASK_ID")? {
        let count = number("SLURM_ARRAY_TASK_COUNT")?.ok_or_else(|| {
            usage("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not: give --shard K/N")
        })?;
        let first = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let k = task.checked_sub(first).map_or(0, |offset| offset + 1);
        if count == 0 || k == 0 || k > count {
            return Err(usage(format!(
                "the Slurm array task {task} (first {first}, {count} tasks) is not one of \
                 {count} consecutive tasks: use --array=0-{} (no step), or give --shard K/N",
                count.saturating_sub(1)
            )));
        }
        return Ok(Some(((k, count), "SLURM_ARRAY_TASK_ID")));
    }
    if let Some(index) = number("JOB_COMPLETION_INDEX")? {
        let count = number("JOB_COMPLETIONS")?.ok_or_else(|| {
            usage(
                "JOB_COMPLETION_INDEX is set but JOB_COMPLETIONS is not: set it in the Job's \
                 manifest to spec.completions, or give --shard K/N",
            )
        })?;
        if index >= count {
            return Err(usage(format!(
                "JOB_COMPLETION_INDEX={index} is not below JOB_COMPLETIONS={count}"
            )));
        }
        return Ok(Some(((index + 1, count), "JOB_COMPLETION_INDEX")));
    }
    Ok(None)
}

/// `--shard` if given, else the scheduler's, else none; says where a scheduler's came from.
fn shard(args: &SlagleArgs) -> Result<Option<(usize, usize)>, CliError> {
    shard_of(args.shard.as_deref())
}

/// [`shard`] from the text of `--shard`, if given.
fn shard_of(text: Option<&str>) -> Result<Option<(usize, usize)>, CliError> {
    if let Some(text) = text {
        return parse_shard(text).map(Some);
    }
    let found = shard_from_environment(|name| std::env::var(name).ok())?;
    if let Some(((k, n), source)) = found {
        say!("shard {k}/{n} from {source}")?;
    }
    Ok(found.map(|(shard, _)| shard))
}

fn progress(length: usize, prefix: &str) -> ProgressBar {
    super::progress::bar(length as u64, prefix)
}

/// The name of the lock file a run holds in its result directory.
const LOCK_FILE: &str = ".gametree.lock";

/// The lock on a result directory, held as long as this value lives (the operating system
/// releases it when the process ends, however it ends).
struct DirLock {
    _file: fs::File,
}

/// Takes the lock of `dir` (made first if need be), or says which process holds it: two
/// runs on one directory would append the same records twice.
fn lock_dir(dir: &Path) -> Result<DirLock, CliError> {
    use std::io::{Read as _, Seek as _, Write as _};
    let path = dir.join(LOCK_FILE);
    let failed = |error: std::io::Error| usage(format!("{}: {error}", path.display()));
    let mut file = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(failed)?;
    match file.try_lock() {
        Ok(()) => {
            file.set_len(0).map_err(failed)?;
            file.rewind().map_err(failed)?;
            writeln!(file, "{}", std::process::id()).map_err(failed)?;
            Ok(DirLock { _file: file })
        }
        Err(fs::TryLockError::WouldBlock) => {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            let holder = holder.trim();
            Err(usage(format!(
                "{} is in use by another gametree run{}; wait for it to finish or choose \
                 another directory",
                dir.display(),
                if holder.is_empty() {
                    String::new()
                } else {
                    format!(" (process {holder})")
                }
            )))
        }
        Err(fs::TryLockError::Error(error)) => Err(failed(error)),
    }
}

/// Bytes a run holds per typical position at depth D, a generous estimate: the position
/// and its copies (the list, the set that keeps them distinct, the FEN text), its deep
/// value, and a learning sample for each of the D − 1 dmax (kept in a map and a list).
fn bytes_per_position(depth: u32) -> u64 {
    let position = std::mem::size_of::<Position>() as u64;
    let sample = std::mem::size_of::<LearningSample>() as u64;
    4 * position + 64 + 16 + u64::from(depth - 1) * 3 * sample
}

/// Adds the time of a phase to the run log and writes it.
struct Clock<'a> {
    dir: &'a ResultsDir,
    log: RunLog,
}

impl Clock<'_> {
    fn record(&mut self, phase: &str, started: Instant) -> Result<(), CliError> {
        *self.log.seconds.entry(phase.to_string()).or_insert(0.0) +=
            started.elapsed().as_secs_f64();
        self.dir.write_json("run.json", &self.log).map_err(usage)
    }
}

fn machine_name() -> String {
    fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|line| line.starts_with("model name"))
                .and_then(|line| line.split_once(':'))
                .map(|(_, name)| name.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

fn run_slagle(args: &SlagleArgs) -> Result<Outcome, CliError> {
    let depth = args.depth.unwrap_or(if args.quick { 4 } else { 6 });
    if !(2..=MAX_DEPTH).contains(&depth) {
        return Err(usage(format!(
            "--depth {depth}: D must be from 2 (one function, dmax 0) to {MAX_DEPTH}"
        )));
    }
    let positions = args
        .positions
        .unwrap_or(if args.quick { 400 } else { 20_000 });
    if positions == 0 {
        return Err(usage(
            "--positions 0: at least one typical position is needed",
        ));
    }
    limits::check_memory(
        &format!("--positions {positions}"),
        &format!("the typical positions and their samples at depth {depth}"),
        (positions as u64).saturating_mul(bytes_per_position(depth)),
        4096 * limits::MIB,
    )?;
    if args.quiescence > 64 {
        return Err(usage(format!(
            "--quiescence {}: at most 64 plies past the depth",
            args.quiescence
        )));
    }
    if args.game == GameArg::Kalah {
        if args.quiescence != 0 {
            return Err(usage(
                "--quiescence applies to checkers: every Kalah position is quiet",
            ));
        }
        if !args.evaluation.is_samuel() {
            return Err(usage("--eval applies to checkers"));
        }
        if args.ordered {
            return Err(usage("--ordered applies to checkers"));
        }
        if args.phase_shares.is_some() {
            return Err(usage("--phase-shares applies to checkers"));
        }
        return run_slagle_kalah(args, depth, positions);
    }
    for (given, flag) in [
        (args.houses.is_some(), "--houses"),
        (args.seeds.is_some(), "--seeds"),
        (args.opening_plies.is_some(), "--opening-plies"),
        (args.grading_positions.is_some(), "--grading-positions"),
        (args.grading_max_seeds.is_some(), "--grading-max-seeds"),
        (args.endgame_seeds.is_some(), "--endgame-seeds"),
        (args.grading_depth.is_some(), "--grading-depth"),
    ] {
        if given {
            return Err(usage(format!("{flag} is for --game kalah")));
        }
    }
    let (source, mut openings) = match &args.openings {
        Some(path) => {
            let text = fs::read_to_string(path)
                .map_err(|error| usage(format!("--openings {}: {error}", path.display())))?;
            let openings = Opening::from_pdn(&text)
                .map_err(|error| usage(format!("--openings {}: {error}", path.display())))?;
            (path.display().to_string(), openings)
        }
        None => ("the ACF three-move ballots".to_string(), Opening::ballots()),
    };
    let opening_count = args.opening_count.or(args.quick.then_some(6));
    if let Some(count) = opening_count {
        if count == 0 {
            return Err(usage("--opening-count 0: at least one opening is needed"));
        }
        openings.truncate(count);
    }
    if openings.is_empty() {
        return Err(usage("the openings file holds no game"));
    }
    if let Some(opening) = openings
        .iter()
        .find(|opening| opening.game().result().is_some())
    {
        return Err(usage(format!("opening {} ends the game", opening.name)));
    }
    let config = ExperimentConfig {
        format: EXPERIMENT_FORMAT.to_string(),
        depth,
        positions,
        seed: args.seed,
        openings_source: source,
        openings: openings
            .iter()
            .map(|opening| opening.name.clone())
            .collect(),
        sampling: SamplingConfig::default(),
        monotone: args.monotone,
        calibration_positions: args
            .calibration
            .unwrap_or(if args.quick { 50 } else { 200 })
            .min(positions),
        max_plies: args.max_plies,
        quiescence_plies: args.quiescence,
        evaluation: args.evaluation,
        ordered: args.ordered,
        phase_shares: args
            .phase_shares
            .as_deref()
            .map(parse_phase_shares)
            .transpose()?,
        kalah: None,
    };
    run_game(
        args,
        &CheckersExperiment {
            quiescence_plies: config.quiescence_plies,
            evaluation: config.evaluation,
            ordered: config.ordered,
        },
        &openings,
        &config,
        |_, _, _, _| Ok(()),
    )
}

/// `--game kalah`: Kalah(h, s) from openings of random moves, with the moves graded.
fn run_slagle_kalah(args: &SlagleArgs, depth: u32, positions: usize) -> Result<Outcome, CliError> {
    if let Some(path) = &args.openings {
        return Err(usage(format!(
            "--openings {}: a PDN file is for checkers; Kalah's openings are --opening-plies random moves",
            path.display()
        )));
    }
    let houses = args.houses.unwrap_or(6);
    let seeds = args.seeds.unwrap_or(4);
    let experiment = KalahExperiment {
        houses,
        seeds,
        rules: KalahRules::irving(),
    };
    Kalah::new(houses, seeds, experiment.rules)
        .map_err(|error| usage(format!("--houses {houses} --seeds {seeds}: {error}")))?;
    let opening_plies = args.opening_plies.unwrap_or(4);
    if opening_plies > 20 {
        return Err(usage(format!(
            "--opening-plies {opening_plies}: at most 20 (an opening leaves the game to the players)"
        )));
    }
    let count = args
        .opening_count
        .unwrap_or(if args.quick { 6 } else { 40 });
    if count == 0 {
        return Err(usage("--opening-count 0: at least one opening is needed"));
    }
    if count > 10_000 {
        return Err(usage(format!("--opening-count {count}: at most 10000")));
    }
    let openings = experiment.openings(count, opening_plies, args.seed);
    if openings.len() < count {
        return Err(usage(format!(
            "--opening-count {count}: only {} distinct openings of {opening_plies} plies were found",
            openings.len()
        )));
    }
    let grading_positions = args
        .grading_positions
        .unwrap_or(if args.quick { 12 } else { 200 });
    if grading_positions > 100_000 {
        return Err(usage(format!(
            "--grading-positions {grading_positions}: at most 100000"
        )));
    }
    let endgame_seeds = args
        .endgame_seeds
        .unwrap_or(if args.quick { 10 } else { 14 });
    if endgame_seeds > 16 {
        return Err(usage(format!(
            "--endgame-seeds {endgame_seeds}: at most 16 (the table of 16 seeds already takes minutes)"
        )));
    }
    let grading_max_seeds = args
        .grading_max_seeds
        .unwrap_or(if args.quick { 20 } else { 30 });
    if grading_max_seeds <= endgame_seeds || grading_max_seeds > 36 {
        return Err(usage(format!(
            "--grading-max-seeds {grading_max_seeds}: from --endgame-seeds + 1 ({}) to 36 (more \
             and the exact values take minutes a position)",
            endgame_seeds + 1
        )));
    }
    let grading_depth = args.grading_depth.unwrap_or(depth + 2);
    if !(1..=MAX_DEPTH).contains(&grading_depth) {
        return Err(usage(format!(
            "--grading-depth {grading_depth}: from 1 to {MAX_DEPTH}"
        )));
    }
    let config = ExperimentConfig {
        format: EXPERIMENT_FORMAT.to_string(),
        depth,
        positions,
        seed: args.seed,
        openings_source: format!(
            "{opening_plies} random moves from the start, seed {}",
            args.seed
        ),
        openings: openings
            .iter()
            .map(|opening| opening.name.clone())
            .collect(),
        sampling: KalahExperiment::sampling(),
        monotone: args.monotone,
        calibration_positions: args
            .calibration
            .unwrap_or(if args.quick { 50 } else { 200 })
            .min(positions),
        max_plies: args.max_plies,
        quiescence_plies: 0,
        evaluation: ExperimentEvaluation::Samuel,
        ordered: false,
        phase_shares: None,
        kalah: Some(KalahConfig {
            houses,
            seeds,
            rules: "irving".to_string(),
            opening_plies,
            grading_positions,
            grading_max_seeds,
            endgame_seeds,
            grading_depth,
        }),
    };
    run_game(
        args,
        &experiment,
        &openings,
        &config,
        |dir, openings, functions, clock| {
            grading_phase(dir, &experiment, &config, openings, functions, clock)
        },
    )
}

/// The part of a stage that happens between the calibration and the matches (the grading
/// of moves on Kalah).
type ExtraPhase<'a, E> = dyn Fn(
        &ResultsDir,
        &[<E as ExperimentGame>::Opening],
        &gametree::Slagle,
        &mut Clock<'_>,
    ) -> Result<(), CliError>
    + Sync
    + 'a;

/// Makes and locks the result directory and runs the pipeline on `game`.
fn run_game<E: ExperimentGame>(
    args: &SlagleArgs,
    game: &E,
    openings: &[E::Opening],
    config: &ExperimentConfig,
    extra: impl Fn(
        &ResultsDir,
        &[E::Opening],
        &gametree::Slagle,
        &mut Clock<'_>,
    ) -> Result<(), CliError>
    + Sync,
) -> Result<Outcome, CliError> {
    let (depth, positions) = (config.depth, config.positions);
    let jobs = match args.jobs {
        Some(jobs) => limits::check_jobs(jobs)?,
        None => limits::cores(),
    };
    let shard = shard(args)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|error| usage(format!("--jobs {jobs}: {error}")))?;
    let config = config.clone();
    // Everything is checked: only now is the directory made (and locked).
    let out = args.out();
    let made = !out.exists();
    fs::create_dir_all(&out).map_err(|error| usage(format!("--out {}: {error}", out.display())))?;
    let lock = lock_dir(&out);
    let dir = ResultsDir::new(&out);
    let started = lock.and_then(|lock| {
        match dir
            .read_json::<ExperimentConfig>("config.json")
            .map_err(usage)?
        {
            Some(old) if old != config => {
                return Err(usage(format!(
                    "{} holds a run with another configuration (see its config.json); \
                     rerun with the same options or choose another --out",
                    out.display()
                )));
            }
            Some(_) => {}
            None => dir.write_json("config.json", &config).map_err(usage)?,
        }
        Ok(lock)
    });
    let _lock = match started {
        Ok(lock) => lock,
        Err(error) => {
            // A failed start leaves nothing behind that a rerun would trip over.
            if made {
                let _ = fs::remove_dir_all(&out);
            }
            return Err(error);
        }
    };
    let mut log: RunLog = dir
        .read_json("run.json")
        .map_err(usage)?
        .unwrap_or_default();
    log.machine = machine_name();
    log.cores = limits::cores();
    log.jobs = jobs;
    log.invocations += 1;
    let mut clock = Clock { dir: &dir, log };
    say!(
        "Slagle's experiment{}: D = {depth}, {positions} positions, {} openings, {jobs} thread{}, results in {}",
        config.kalah.as_ref().map_or(String::new(), |kalah| format!(
            " on Kalah({}, {})",
            kalah.houses, kalah.seeds
        )),
        openings.len(),
        if jobs == 1 { "" } else { "s" },
        out.display()
    )?;
    pool.install(|| pipeline(game, &dir, &config, openings, shard, &mut clock, &extra))?;
    Ok(Outcome::Found)
}

fn pipeline<E: ExperimentGame>(
    game: &E,
    dir: &ResultsDir,
    config: &ExperimentConfig,
    openings: &[E::Opening],
    shard: Option<(usize, usize)>,
    clock: &mut Clock<'_>,
    extra: &ExtraPhase<'_, E>,
) -> Result<(), CliError> {
    let positions = typical_positions_phase(game, dir, config, openings, clock)?;
    let deep = deep_values_phase(game, dir, config, &positions, clock)?;
    let parameters = learning_phase(game, dir, config, &positions, &deep, clock)?;
    let functions = parameters
        .to_slagle()
        .map_err(|error| usage(error.to_string()))?;
    let calibration = calibration_phase(game, dir, config, &positions, &functions, clock)?;
    extra(dir, openings, &functions, clock)?;
    let setup = MatchSetup {
        depth: config.depth,
        deeper_depth: calibration.deeper_depth,
        max_plies: config.max_plies,
        quiescence_plies: config.quiescence_plies,
        evaluation: config.evaluation,
        ordered: config.ordered,
    };
    matches_phase(game, dir, openings, &functions, &setup, shard, clock)?;
    write_match_outputs(dir, config)?;
    say!(
        "done: results in {}; `gametree experiment report {}` prints the report",
        dir.root().display(),
        dir.root().display()
    )?;
    Ok(())
}

fn typical_positions_phase<E: ExperimentGame>(
    game: &E,
    dir: &ResultsDir,
    config: &ExperimentConfig,
    openings: &[E::Opening],
    clock: &mut Clock<'_>,
) -> Result<Vec<E::Position>, CliError> {
    let file = game.positions_file();
    if let Ok(text) = fs::read_to_string(dir.file(file)) {
        let positions = game
            .positions_from_lines(&text)
            .map_err(|error| usage(format!("{}: {error}", dir.file(file).display())))?;
        say!("typical positions: {} read from {file}", positions.len())?;
        return Ok(positions);
    }
    let started = Instant::now();
    let bar = progress(config.positions, "typical positions");
    let max_games = (config.positions as u64).saturating_mul(4).max(1000);
    let mut found = 0;
    let play = |games: std::ops::Range<u64>| {
        let batch: Vec<Vec<E::Position>> = games
            .into_par_iter()
            .map(|index| game.sampling_game(openings, config.seed, index, &config.sampling))
            .collect();
        found += batch.iter().map(Vec::len).sum::<usize>();
        bar.set_position(found.min(config.positions) as u64);
        batch
    };
    let positions = match config.phase_shares {
        Some(shares) => typical_positions_by_stratum(
            &phase_quotas(config.positions, shares),
            max_games,
            |position| game.stratum(position),
            play,
        ),
        None => typical_positions(config.positions, max_games, play),
    };
    bar.finish_and_clear();
    dir.write_text(file, &game.positions_to_lines(&positions))
        .map_err(usage)?;
    say!(
        "typical positions: {} (distinct) written to {file}",
        positions.len()
    )?;
    clock.record("1 typical positions", started)?;
    Ok(positions)
}

fn deep_values_phase<E: ExperimentGame>(
    game: &E,
    dir: &ResultsDir,
    config: &ExperimentConfig,
    positions: &[E::Position],
    clock: &mut Clock<'_>,
) -> Result<Vec<f64>, CliError> {
    let started = Instant::now();
    let done: Vec<DeepValue> = dir.read_jsonl("deep-values.jsonl").map_err(usage)?;
    let mut values = vec![f64::NAN; positions.len()];
    for record in &done {
        if let Some(value) = values.get_mut(record.position) {
            *value = record.value;
        }
    }
    let missing: Vec<usize> = (0..positions.len())
        .filter(|&index| values[index].is_nan())
        .collect();
    if !missing.is_empty() {
        let appender = dir.appender("deep-values.jsonl").map_err(usage)?;
        let bar = progress(missing.len(), &format!("v at depth {}", config.depth));
        let computed: Result<Vec<(usize, f64)>, String> = missing
            .par_iter()
            .map(|&index| {
                let (value, nodes) = game.deep_value(&positions[index], config.depth);
                appender.append(&DeepValue {
                    position: index,
                    value,
                    nodes,
                })?;
                bar.inc(1);
                Ok((index, value))
            })
            .collect();
        bar.finish_and_clear();
        for (index, value) in computed.map_err(usage)? {
            values[index] = value;
        }
        clock.record("2 deep values", started)?;
    }
    say!(
        "deep values: {} positions at depth {} ({} from an earlier run)",
        positions.len(),
        config.depth,
        positions.len() - missing.len()
    )?;
    Ok(values)
}

fn learning_phase<E: ExperimentGame>(
    game: &E,
    dir: &ResultsDir,
    config: &ExperimentConfig,
    positions: &[E::Position],
    deep: &[f64],
    clock: &mut Clock<'_>,
) -> Result<SlagleParameters, CliError> {
    let started = Instant::now();
    let done: Vec<LearningSample> = dir.read_jsonl("samples.jsonl").map_err(usage)?;
    let mut by_dmax: BTreeMap<u32, HashMap<usize, LearningSample>> = BTreeMap::new();
    for sample in done {
        by_dmax
            .entry(sample.dmax)
            .or_default()
            .insert(sample.position, sample);
    }
    let appender = dir.appender("samples.jsonl").map_err(usage)?;
    let mut fitted: Vec<(u32, Exponents)> = Vec::new();
    let mut rows = Vec::new();
    let mut computed_any = false;
    for dmax in 0..=config.depth - 2 {
        let functions = functions_so_far(&fitted);
        let samples = by_dmax.entry(dmax).or_default();
        let missing: Vec<usize> = (0..positions.len())
            .filter(|index| !samples.contains_key(index))
            .collect();
        if !missing.is_empty() {
            computed_any = true;
            let bar = progress(missing.len(), &format!("learning dmax {dmax}"));
            let computed: Result<Vec<LearningSample>, String> = missing
                .par_iter()
                .filter_map(|&index| {
                    let ((best, second), _) =
                        game.two_best_successors(&positions[index], dmax, &functions)?;
                    let fresh = LearningSample {
                        position: index,
                        dmax,
                        best,
                        second,
                        deep: deep[index],
                    };
                    bar.inc(1);
                    Some(as_stored(&fresh).and_then(|sample| {
                        appender.append(&sample)?;
                        Ok(sample)
                    }))
                })
                .collect();
            bar.finish_and_clear();
            for sample in computed.map_err(usage)? {
                samples.insert(sample.position, sample);
            }
        }
        let mut ordered: Vec<LearningSample> = samples.values().copied().collect();
        ordered.sort_by_key(|sample| sample.position);
        let observations: Vec<_> = ordered
            .iter()
            .filter(|sample| !sample.is_decided())
            .map(LearningSample::observation)
            .collect();
        let decided = ordered.len() - observations.len();
        let fit = fit_backing_up(&observations, config.monotone).ok_or_else(|| {
            usage(format!(
                "dmax {dmax}: every sample is a decided game; nothing to fit (use more positions)"
            ))
        })?;
        let row = FitRow::new(dmax, position_kind(config.depth, dmax), fit, decided);
        say!(
            "dmax {dmax} ({} positions): {} = {:.3}, {} = {:.4}; RMS {:.2} (1&1: {:.2}) over {} samples",
            row.kind,
            if row.kind == "MAX" { "x" } else { "r" },
            fit.shift,
            if row.kind == "MAX" { "y" } else { "s" },
            fit.slope,
            fit.rms_error,
            fit.rms_error_minimax,
            fit.samples
        )?;
        draw_fit_chart(&dir.file(&format!("fit-dmax-{dmax}.svg")), &row, &ordered)
            .map_err(usage)?;
        fitted.push((
            dmax,
            Exponents::new(fit.shift, fit.slope).map_err(|error| usage(error.to_string()))?,
        ));
        rows.push(row);
        let parameters = SlagleParameters::symmetric(&fitted);
        dir.write_text("parameters.json", &parameters.to_json())
            .map_err(usage)?;
        dir.write_json("fits.json", &rows).map_err(usage)?;
        dir.write_text("fits.csv", &fits_csv(&rows))
            .map_err(usage)?;
    }
    if computed_any {
        clock.record("3 learning", started)?;
    }
    Ok(SlagleParameters::symmetric(&fitted))
}

fn calibration_phase<E: ExperimentGame>(
    game: &E,
    dir: &ResultsDir,
    config: &ExperimentConfig,
    positions: &[E::Position],
    functions: &gametree::Slagle,
    clock: &mut Clock<'_>,
) -> Result<Calibration, CliError> {
    if let Some(calibration) = dir
        .read_json::<Calibration>("calibration.json")
        .map_err(usage)?
    {
        return Ok(calibration);
    }
    let started = Instant::now();
    let count = config.calibration_positions.min(positions.len()).max(1);
    // Evenly spread over the positions, so the sample covers openings and endings.
    let step = (positions.len() / count).max(1);
    let chosen: Vec<&E::Position> = positions.iter().step_by(step).take(count).collect();
    let bar = progress(chosen.len(), "calibration");
    let one_and_one = gametree::Slagle::one_and_one();
    let nodes: Vec<(u64, u64)> = chosen
        .par_iter()
        .map(|position| {
            let two = game.search_nodes(position, functions, config.depth);
            let one = game.search_nodes(position, &one_and_one, config.depth);
            bar.inc(1);
            (two, one)
        })
        .collect();
    bar.finish_and_clear();
    let searches = nodes.len() as f64;
    let two_two_mean_nodes = nodes.iter().map(|n| n.0 as f64).sum::<f64>() / searches;
    let one_one_mean_nodes = nodes.iter().map(|n| n.1 as f64).sum::<f64>() / searches;
    // 1&1 one ply deeper at a time, until it costs more than 2&2 at D.
    let mut deeper = Vec::new();
    let mut deeper_depth = config.depth + 1;
    let mut nearest = f64::INFINITY;
    for depth in config.depth + 1..=config.depth + 4 {
        let total: u64 = chosen
            .par_iter()
            .map(|position| game.search_nodes(position, &one_and_one, depth))
            .sum();
        let mean = total as f64 / searches;
        deeper.push((depth, mean));
        let distance = (mean / two_two_mean_nodes).ln().abs();
        if distance < nearest {
            nearest = distance;
            deeper_depth = depth;
        }
        if mean >= two_two_mean_nodes {
            break;
        }
    }
    let calibration = Calibration {
        positions: nodes.len(),
        two_two_mean_nodes,
        one_one_mean_nodes,
        one_one_deeper_mean_nodes: deeper,
        deeper_depth,
    };
    dir.write_json("calibration.json", &calibration)
        .map_err(usage)?;
    say!(
        "calibration: at depth {} 2&2 visits {:.0} positions per search, 1&1 {:.0}; \
         1&1 costs about as much at depth {}",
        config.depth,
        two_two_mean_nodes,
        one_one_mean_nodes,
        calibration.deeper_depth
    )?;
    clock.record("4 calibration", started)?;
    Ok(calibration)
}

/// Kalah: the graded positions (one from each self-play game under another seed, with
/// more seeds in the houses than the endgame table holds and at most
/// `grading_max_seeds`), the exact value of each of their moves, and the move each
/// player chooses at each depth, graded; then the summaries and charts.
fn grading_phase(
    dir: &ResultsDir,
    experiment: &KalahExperiment,
    config: &ExperimentConfig,
    openings: &[KalahOpening],
    functions: &gametree::Slagle,
    clock: &mut Clock<'_>,
) -> Result<(), CliError> {
    let Some(kalah) = &config.kalah else {
        return Ok(());
    };
    let started = Instant::now();
    let file = "grading-positions.txt";
    let positions = if let Ok(text) = fs::read_to_string(dir.file(file)) {
        experiment
            .positions_from_lines(&text)
            .map_err(|error| usage(format!("{}: {error}", dir.file(file).display())))?
    } else {
        // Another stream of self-play games than the learning's, one position from each,
        // so that the graded positions are independent of each other and of the fit.
        let seed = config.seed ^ 0x0067_7261_6469_6e67; // "grading"
        let in_range = |position: &KalahPosition| {
            (kalah.endgame_seeds + 1..=kalah.grading_max_seeds)
                .contains(&position.seeds_in_houses())
        };
        let max_games = (kalah.grading_positions as u64).saturating_mul(20).max(100);
        let positions = typical_positions(kalah.grading_positions, max_games, |games| {
            games
                .into_par_iter()
                .map(|index| {
                    let candidates: Vec<KalahPosition> = experiment
                        .sampling_game(openings, seed, index, &config.sampling)
                        .into_iter()
                        .filter(in_range)
                        .collect();
                    if candidates.is_empty() {
                        return Vec::new();
                    }
                    let mut random = gametree::random::SplitMix64::with_stream(seed, index);
                    vec![candidates[random.index(candidates.len())].clone()]
                })
                .collect()
        });
        dir.write_text(file, &experiment.positions_to_lines(&positions))
            .map_err(usage)?;
        positions
    };
    let done: Vec<PositionGrades> = dir.read_jsonl("grades.jsonl").map_err(usage)?;
    let finished: HashSet<usize> = done.iter().map(|record| record.position).collect();
    let missing: Vec<usize> = (0..positions.len())
        .filter(|index| !finished.contains(index))
        .collect();
    if !missing.is_empty() {
        let table_started = Instant::now();
        let mut board = Kalah::new(experiment.houses, 1, experiment.rules)
            .map_err(|error| usage(error.to_string()))?;
        let table = std::sync::Arc::new(
            EndgameTable::build(&mut board, kalah.endgame_seeds as usize, |_| {})
                .map_err(|error| usage(format!("endgame table: {error}")))?,
        );
        say!(
            "grading: endgame table of {} seeds built in {:.1} s",
            kalah.endgame_seeds,
            table_started.elapsed().as_secs_f64()
        )?;
        let appender = dir.appender("grades.jsonl").map_err(usage)?;
        let bar = progress(missing.len(), "grading");
        let one_and_one = gametree::Slagle::one_and_one();
        let graded: Result<Vec<()>, String> = missing
            .par_iter()
            .map(|&index| {
                let plain = positions[index].game(experiment.rules);
                let mut exact_game = plain
                    .clone()
                    .with_endgame(std::sync::Arc::clone(&table))
                    .map_err(|error| error.to_string())?;
                let solving = Instant::now();
                let mut solver = Solver::new(SolveOptions::default());
                let (exact, solver_nodes) = exact_move_values(&mut solver, &mut exact_game);
                let solver_seconds = solving.elapsed().as_secs_f64();
                let mut grades = Vec::new();
                for depth in 1..=kalah.grading_depth {
                    for (searcher, functions) in [
                        (Searcher::OneAndOne, &one_and_one),
                        (Searcher::TwoAndTwo, functions),
                    ] {
                        grades.push(grade_move(
                            plain.clone(),
                            searcher,
                            functions,
                            depth,
                            &exact,
                        ));
                    }
                }
                appender.append(&PositionGrades {
                    position: index,
                    exact: exact.iter().map(|&(_, value)| value).collect(),
                    solver_nodes,
                    solver_seconds,
                    grades,
                })?;
                bar.inc(1);
                Ok(())
            })
            .collect();
        bar.finish_and_clear();
        graded.map_err(usage)?;
        clock.record("4b grading", started)?;
    }
    let mut records: Vec<PositionGrades> = dir.read_jsonl("grades.jsonl").map_err(usage)?;
    records.sort_by_key(|record| record.position);
    records.dedup_by_key(|record| record.position);
    let summaries = summarize_grades(&records);
    let paired = paired_differences(&records);
    dir.write_json(
        "grading.json",
        &GradingResults {
            summaries: summaries.clone(),
            paired: paired.clone(),
        },
    )
    .map_err(usage)?;
    dir.write_text("grading.csv", &grading_csv(&summaries))
        .map_err(usage)?;
    dir.write_text("grading-paired.csv", &paired_csv(&paired))
        .map_err(usage)?;
    draw_grading_charts(dir.root(), &summaries).map_err(usage)?;
    say!(
        "grading: {} positions with {} to {} seeds in the houses, depths 1 to {}",
        records.len(),
        kalah.endgame_seeds + 1,
        kalah.grading_max_seeds,
        kalah.grading_depth
    )?;
    for summary in &summaries {
        say!(
            "  {} depth {}: keeps the value {:.1}% [{:.1}, {:.1}], loses {:.2} [{:.2}, {:.2}] a move, {:.0} nodes a move",
            summary.searcher.label(),
            summary.depth,
            100.0 * summary.keeps_value.value,
            100.0 * summary.keeps_value.low,
            100.0 * summary.keeps_value.high,
            summary.mean_loss.value,
            summary.mean_loss.low,
            summary.mean_loss.high,
            summary.nodes_per_move
        )?;
    }
    Ok(())
}

fn matches_phase<E: ExperimentGame>(
    game: &E,
    dir: &ResultsDir,
    openings: &[E::Opening],
    functions: &gametree::Slagle,
    setup: &MatchSetup,
    shard: Option<(usize, usize)>,
    clock: &mut Clock<'_>,
) -> Result<(), CliError> {
    let started = Instant::now();
    let done: Vec<GameRecord> = dir.read_jsonl("games.jsonl").map_err(usage)?;
    let finished: HashSet<usize> = done.iter().map(|record| record.index).collect();
    let specs: Vec<GameSpec> = game_specs(openings.len())
        .into_iter()
        .filter(|spec| shard.is_none_or(|(k, n)| spec.index % n == k - 1))
        .collect();
    let to_play: Vec<&GameSpec> = specs
        .iter()
        .filter(|spec| !finished.contains(&spec.index))
        .collect();
    say!(
        "games: {} in this run{}, {} already finished, {} to play",
        specs.len(),
        shard.map_or(String::new(), |(k, n)| format!(" (shard {k}/{n})")),
        specs.len() - to_play.len(),
        to_play.len()
    )?;
    if to_play.is_empty() {
        return Ok(());
    }
    let appender = dir.appender("games.jsonl").map_err(usage)?;
    let bar = progress(to_play.len(), "games");
    let played: Result<Vec<()>, String> = to_play
        .par_iter()
        .map(|spec| {
            let record = game.play_game(spec, &openings[spec.opening], functions, setup);
            appender.append(&record)?;
            bar.inc(1);
            Ok(())
        })
        .collect();
    bar.finish_and_clear();
    played.map_err(usage)?;
    if let Some((k, n)) = shard {
        let label = format!("{k}/{n}");
        if !clock.log.shards.contains(&label) {
            clock.log.shards.push(label);
        }
    }
    clock.record("5 matches", started)
}

/// With `--json`: the results in `dir` as one object, read back from the files the run
/// wrote (`null` for a file a run has not written yet).
fn print_json_summary(dir: &Path) -> Result<(), CliError> {
    if !JSON_OUTPUT.load(Ordering::Relaxed) {
        return Ok(());
    }
    let results = ResultsDir::new(dir);
    let read = |name: &str| -> Result<serde_json::Value, CliError> {
        Ok(results
            .read_json::<serde_json::Value>(name)
            .map_err(usage)?
            .unwrap_or(serde_json::Value::Null))
    };
    let document = serde_json::json!({
        "results": dir.display().to_string(),
        "config": read("config.json")?,
        "parameters": read("parameters.json")?,
        "fits": read("fits.json")?,
        "calibration": read("calibration.json")?,
        "matches": read("matches.json")?,
    });
    let mut document = document;
    if results.file("grading.json").exists() {
        document["grading"] = read("grading.json")?;
    }
    outln!("{document}")
}

/// The match tables and PDN files from `games.jsonl`.
fn write_match_outputs(
    dir: &ResultsDir,
    config: &ExperimentConfig,
) -> Result<Vec<MatchSummary>, CliError> {
    let openings = config.openings.len();
    let mut records: Vec<GameRecord> = dir.read_jsonl("games.jsonl").map_err(usage)?;
    records.sort_by_key(|record| record.index);
    records.dedup_by_key(|record| record.index);
    let summaries: Vec<MatchSummary> = MatchKind::ALL
        .iter()
        .map(|&kind| summarize(kind, &records))
        .collect();
    for kind in MatchKind::ALL.iter().filter(|_| config.kalah.is_some()) {
        // Kalah's records are one line each; the files keep the names, `.txt` for `.pdn`.
        let name = kind.pdn_file().replace(".pdn", ".txt");
        let lines: String = records
            .iter()
            .filter(|record| record.kind == *kind)
            .map(|record| record.pdn.as_str())
            .collect();
        dir.write_text(&name, &lines).map_err(usage)?;
    }
    for kind in MatchKind::ALL.iter().filter(|_| config.kalah.is_none()) {
        let kind = *kind;
        let name = kind.pdn_file();
        let mut games = Vec::new();
        for record in records.iter().filter(|record| record.kind == kind) {
            games.extend(
                read_pdn(&record.pdn)
                    .map_err(|error| usage(format!("game {}: {error}", record.index + 1)))?,
            );
        }
        dir.write_text(name, &write_pdn(&games)).map_err(usage)?;
    }
    dir.write_json("matches.json", &summaries).map_err(usage)?;
    dir.write_text("matches.csv", &matches_csv(&summaries))
        .map_err(usage)?;
    for summary in &summaries {
        let played = summary.score.games();
        say!(
            "{}: {played}/{} games, 2&2 +{} ={} -{}{}",
            summary.kind.label(),
            2 * openings,
            summary.score.wins,
            summary.score.draws,
            summary.score.losses,
            summary.elo.map_or(String::new(), |elo| format!(
                ", {:+.0} Elo [{:+.0}, {:+.0}]",
                elo.elo, elo.low, elo.high
            )) + &margin_text(&records, summary.kind)
        )?;
    }
    Ok(summaries)
}

/// `, mean margin +3.2 [+1.0, +5.4]`: 2&2's mean final margin in the games of `kind`
/// that have one (Kalah) with its 95% interval; empty when none has.
fn margin_text(records: &[GameRecord], kind: MatchKind) -> String {
    let margins: Vec<f64> = records
        .iter()
        .filter(|record| record.kind == kind)
        .filter_map(|record| record.margin.map(f64::from))
        .collect();
    if margins.is_empty() {
        return String::new();
    }
    let estimate = Estimate::mean(&margins);
    format!(
        ", mean margin {:+.2} [{:+.2}, {:+.2}]",
        estimate.value, estimate.low, estimate.high
    )
}

fn read_config(dir: &ResultsDir) -> Result<ExperimentConfig, CliError> {
    dir.read_json::<ExperimentConfig>("config.json")
        .map_err(usage)?
        .ok_or_else(|| {
            usage(format!(
                "{}: no config.json (not a result directory of `gametree experiment slagle`)",
                dir.root().display()
            ))
        })
}

/// Files a merge copies from the first directory (the learning is the same in every shard).
const LEARNING_FILES: [&str; 13] = [
    "positions.fen",
    "positions.txt",
    "grading-positions.txt",
    "grades.jsonl",
    "grading.json",
    "grading.csv",
    "grading-paired.csv",
    "deep-values.jsonl",
    "samples.jsonl",
    "fits.json",
    "fits.csv",
    "parameters.json",
    "calibration.json",
];

fn run_merge(dirs: &[PathBuf], out: &Path) -> Result<Outcome, CliError> {
    let inputs: Vec<ResultsDir> = dirs.iter().map(ResultsDir::new).collect();
    let config = read_config(&inputs[0])?;
    let parameters = fs::read_to_string(inputs[0].file("parameters.json")).ok();
    let mut games: BTreeMap<usize, GameRecord> = BTreeMap::new();
    let mut log = RunLog::default();
    for input in &inputs {
        if read_config(input)? != config {
            return Err(usage(format!(
                "{}: another configuration than {}",
                input.root().display(),
                inputs[0].root().display()
            )));
        }
        if fs::read_to_string(input.file("parameters.json")).ok() != parameters {
            return Err(usage(format!(
                "{}: other learned parameters than {}",
                input.root().display(),
                inputs[0].root().display()
            )));
        }
        for record in input
            .read_jsonl::<GameRecord>("games.jsonl")
            .map_err(usage)?
        {
            if let Some(old) = games.get(&record.index)
                && old.pdn != record.pdn
            {
                return Err(usage(format!(
                    "game {} differs between shards",
                    record.index + 1
                )));
            }
            games.insert(record.index, record);
        }
        let run: RunLog = input
            .read_json("run.json")
            .map_err(usage)?
            .unwrap_or_default();
        log.machine = run.machine;
        log.cores = run.cores;
        log.jobs = run.jobs;
        log.invocations += run.invocations;
        for (phase, seconds) in run.seconds {
            *log.seconds.entry(phase).or_insert(0.0) += seconds;
        }
        log.shards.extend(run.shards);
    }
    fs::create_dir_all(out).map_err(|error| usage(format!("--out {}: {error}", out.display())))?;
    let _lock = lock_dir(out)?;
    let target = ResultsDir::new(out);
    let same = |a: &Path, b: &Path| fs::canonicalize(a).ok() == fs::canonicalize(b).ok();
    if !same(inputs[0].root(), out) {
        for name in LEARNING_FILES.iter().copied().chain(["config.json"]) {
            if let Ok(text) = fs::read_to_string(inputs[0].file(name)) {
                target.write_text(name, &text).map_err(usage)?;
            }
        }
        for entry in fs::read_dir(inputs[0].root())
            .map_err(|error| usage(error.to_string()))?
            .flatten()
        {
            let name = entry.file_name().to_string_lossy().to_string();
            if (name.starts_with("fit-dmax-") || name.starts_with("grading-"))
                && name.ends_with(".svg")
            {
                fs::copy(entry.path(), target.file(&name))
                    .map_err(|error| usage(format!("{name}: {error}")))?;
            }
        }
    }
    log.shards.sort();
    log.shards.dedup();
    let mut lines = String::new();
    for record in games.values() {
        lines.push_str(&serde_json::to_string(record).map_err(|error| usage(error.to_string()))?);
        lines.push('\n');
    }
    target.write_text("games.jsonl", &lines).map_err(usage)?;
    target.write_json("run.json", &log).map_err(usage)?;
    say!(
        "merged {} games from {} directories into {}",
        games.len(),
        inputs.len(),
        out.display()
    )?;
    write_match_outputs(&target, &config)?;
    curves::merge_curves(&inputs, &target)?;
    Ok(Outcome::Found)
}

/// `to` relative to the directory `from`, with `/` separators: both are made absolute
/// first.
fn relative_link(from: &Path, to: &Path) -> String {
    let absolute = |path: &Path| {
        fs::canonicalize(path)
            .unwrap_or_else(|_| std::env::current_dir().unwrap_or_default().join(path))
    };
    let (from, to) = (absolute(from), absolute(to));
    let from: Vec<_> = from.components().collect();
    let to: Vec<_> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".to_string(); from.len() - common];
    parts.extend(
        to[common..]
            .iter()
            .map(|part| part.as_os_str().to_string_lossy().to_string()),
    );
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

fn run_report(dir: &Path, output: Option<&Path>) -> Result<Outcome, CliError> {
    let results = ResultsDir::new(dir);
    let config = read_config(&results)?;
    let fits: Vec<FitRow> = results
        .read_json("fits.json")
        .map_err(usage)?
        .unwrap_or_default();
    let parameters = match fs::read_to_string(results.file("parameters.json")) {
        Ok(text) => {
            Some(SlagleParameters::from_json(&text).map_err(|error| usage(error.to_string()))?)
        }
        Err(_) => None,
    };
    let calibration: Option<Calibration> = results.read_json("calibration.json").map_err(usage)?;
    let mut records: Vec<GameRecord> = results.read_jsonl("games.jsonl").map_err(usage)?;
    records.sort_by_key(|record| record.index);
    records.dedup_by_key(|record| record.index);
    let matches: Vec<MatchSummary> = MatchKind::ALL
        .iter()
        .map(|&kind| summarize(kind, &records))
        .collect();
    let run: RunLog = results
        .read_json("run.json")
        .map_err(usage)?
        .unwrap_or_default();
    let notes = fs::read_to_string(results.file("notes.md")).ok();
    let report_dir = output
        .and_then(Path::parent)
        .filter(|parent| !parent.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if output.is_some() {
        fs::create_dir_all(report_dir)
            .map_err(|error| usage(format!("{}: {error}", report_dir.display())))?;
    }
    let link = relative_link(report_dir, dir);
    let mut command = format!(
        "gametree experiment slagle --depth {} --positions {} --seed {} --out {}",
        config.depth,
        config.positions,
        config.seed,
        dir.display()
    );
    if config.openings.len() != 156 || config.openings_source != "the ACF three-move ballots" {
        command.push_str(&format!(" --opening-count {}", config.openings.len()));
    }
    if config.monotone {
        command.push_str(" --monotone");
    }
    if config.calibration_positions != 200.min(config.positions) {
        command.push_str(&format!(" --calibration {}", config.calibration_positions));
    }
    if config.max_plies != 300 {
        command.push_str(&format!(" --max-plies {}", config.max_plies));
    }
    if config.quiescence_plies != 0 {
        command.push_str(&format!(" --quiescence {}", config.quiescence_plies));
    }
    if !config.evaluation.is_samuel() {
        command.push_str(&format!(" --eval {}", config.evaluation.name()));
    }
    if config.ordered {
        command.push_str(" --ordered");
    }
    if let Some([opening, middle, end]) = config.phase_shares {
        command.push_str(&format!(" --phase-shares {opening},{middle},{end}"));
    }
    if let Some(kalah) = &config.kalah {
        command = format!(
            "gametree experiment slagle --game kalah --depth {} --positions {} --seed {} \
             --opening-count {} --grading-positions {} --out {}",
            config.depth,
            config.positions,
            config.seed,
            config.openings.len(),
            kalah.grading_positions,
            dir.display()
        );
        for (flag, value, default) in [
            ("--houses", kalah.houses as u64, 6),
            ("--seeds", u64::from(kalah.seeds), 4),
            ("--opening-plies", kalah.opening_plies as u64, 4),
            (
                "--grading-max-seeds",
                u64::from(kalah.grading_max_seeds),
                30,
            ),
            ("--endgame-seeds", u64::from(kalah.endgame_seeds), 14),
            (
                "--grading-depth",
                u64::from(kalah.grading_depth),
                u64::from(config.depth) + 2,
            ),
        ] {
            if value != default {
                command.push_str(&format!(" {flag} {value}"));
            }
        }
        if config.monotone {
            command.push_str(" --monotone");
        }
        if config.calibration_positions != 200.min(config.positions) {
            command.push_str(&format!(" --calibration {}", config.calibration_positions));
        }
        if config.max_plies != 300 {
            command.push_str(&format!(" --max-plies {}", config.max_plies));
        }
        let grading: Option<GradingResults> = results.read_json("grading.json").map_err(usage)?;
        let mut graded: Vec<PositionGrades> = results.read_jsonl("grades.jsonl").map_err(usage)?;
        graded.sort_by_key(|record| record.position);
        graded.dedup_by_key(|record| record.position);
        let solver_seconds = graded
            .iter()
            .map(|record| record.solver_seconds)
            .sum::<f64>()
            / graded.len().max(1) as f64;
        let text = kalah_report_markdown(&KalahReportInput {
            config: &config,
            fits: &fits,
            parameters: parameters.as_ref(),
            calibration: calibration.as_ref(),
            matches: &matches,
            games: &records,
            grading: grading.as_ref(),
            graded_positions: graded.len(),
            solver_seconds,
            run: &run,
            results_link: &link,
            results_dir: &dir.display().to_string(),
            command: &command,
            notes: notes.as_deref(),
        });
        return write_report(&text, output);
    }
    let samples: Vec<LearningSample> = results.read_jsonl("samples.jsonl").map_err(usage)?;
    let families = compare_families_by_dmax(&samples);
    let colours: Vec<ColourSplit> = MatchKind::ALL
        .iter()
        .map(|&kind| colour_split(kind, &records))
        .collect();
    let curves = curves::report_section(&results, &link)?;
    // The primer's picture and the m&n guide are in the package's docs/: linked when the
    // report is written from the package's root, through that root, so that a report
    // written to target/ links as the one in docs/ does.
    let docs_link = Path::new("docs/images/m-and-n-primer.svg")
        .exists()
        .then(|| format!("{}/docs", relative_link(report_dir, Path::new("."))));
    let pieces: Vec<u32> = match fs::read_to_string(results.file("positions.fen")) {
        Ok(text) => gametree::experiment::positions_from_fen_lines(&text)
            .map_err(|error| {
                usage(format!(
                    "{}: {error}",
                    results.file("positions.fen").display()
                ))
            })?
            .iter()
            .map(Position::piece_count)
            .collect(),
        Err(_) => Vec::new(),
    };
    let phase_counts = gametree::experiment::phase_counts(&pieces);
    let phase_fits = gametree::experiment::phase_fits(&samples, &pieces);
    let engine = EngineStrength::read(&results).map_err(usage)?;
    let text = report_markdown(&gametree::experiment::ReportInput {
        engine: engine.as_ref(),
        phases: (&phase_counts, &phase_fits),
        curves: curves.as_ref(),
        docs_link: docs_link.as_deref(),
        families: &families,
        colours: &colours,
        config: &config,
        fits: &fits,
        parameters: parameters.as_ref(),
        calibration: calibration.as_ref(),
        matches: &matches,
        games_per_match: 2 * config.openings.len(),
        run: &run,
        results_link: &link,
        results_dir: &dir.display().to_string(),
        command: &command,
        notes: notes.as_deref(),
    });
    write_report(&text, output)
}

/// The report to `output`, or to standard output.
fn write_report(text: &str, output: Option<&Path>) -> Result<Outcome, CliError> {
    match output {
        Some(output) => {
            fs::write(output, text)
                .map_err(|error| usage(format!("{}: {error}", output.display())))?;
            outln!("wrote {}", output.display())?;
        }
        None => super::output::write(format_args!("{text}"))?,
    }
    Ok(Outcome::Found)
}
