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
    Calibration, DeepValue, EXPERIMENT_FORMAT, ExperimentConfig, FitRow, GameRecord, GameSpec,
    LearningSample, MatchKind, MatchSetup, MatchSummary, Opening, ResultsDir, RunLog,
    SamplingConfig, SlagleParameters, as_stored, deep_value, draw_fit_chart, fit_backing_up,
    fits_csv, functions_so_far, game_specs, learning_sample, matches_csv, one_and_one, play_game,
    position_kind, positions_from_fen_lines, positions_to_fen_lines, report_markdown,
    sampling_game, summarize, typical_positions,
};
use gametree::games::checkers::{Position, read_pdn, write_pdn};
use gametree::{Exponents, mn_alphabeta_depth};

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
    /// Learn the 2&2 backing-up functions on checkers and play 2&2 against 1&1 alpha-beta
    /// (Slagle 1963, section 8), writing every result to --out as it is finished.
    #[command(after_help = "Examples:\n  \
        $ gametree experiment slagle --quick --out /tmp/gametree-slagle-quick --quiet | grep games:\n  \
        games: 36 in this run, 36 already finished, 0 to play\n  \
        $ gametree experiment slagle --depth 1\n  \
        gametree: --depth 1: D must be from 2 (one function, dmax 0) to 16\n\
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
    /// Write the report (Markdown) of a result directory: to standard output, or to a file
    /// with --output.
    #[command(after_help = "Examples:\n  \
        $ gametree experiment report results/slagle | head -1\n  \
        # Slagle's proposed experiment: 2&2 alpha-beta against 1&1 alpha-beta at checkers\n  \
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

#[derive(Args, Debug)]
struct SlagleArgs {
    /// D: the full search depth (Slagle's 8); functions are learned for dmax 0..D-2.
    /// Default 6, 4 with --quick.
    #[arg(long)]
    depth: Option<u32>,
    /// Typical positions to learn from. Default 20000, 400 with --quick.
    #[arg(long)]
    positions: Option<usize>,
    /// A PDN file of openings (default: the 156 ACF three-move ballots).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Use only the first K openings. Default all, 6 with --quick.
    #[arg(long)]
    opening_count: Option<usize>,
    /// Worker threads (default: every core).
    #[arg(long)]
    jobs: Option<usize>,
    /// The result directory.
    #[arg(long, default_value = "results/slagle")]
    out: PathBuf,
    /// Seed of the self-play games that supply the typical positions.
    #[arg(long, default_value_t = 1963)]
    seed: u64,
    /// A small configuration (D = 4, 400 positions, 6 openings) that finishes in seconds
    /// and writes every artefact.
    #[arg(long)]
    quick: bool,
    /// Play only the K-th of N slices of the games (learning is done in full).
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Hold the fit to Slagle's monotonicity condition y·2^x·ln 2 ≤ 1.
    #[arg(long)]
    monotone: bool,
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
}

/// Runs a `gametree experiment` subcommand.
pub fn run(args: ExperimentArgs) -> Result<Outcome, CliError> {
    match args.command {
        ExperimentCommand::Slagle(args) => {
            JSON_OUTPUT.store(args.json, Ordering::Relaxed);
            run_slagle(&args)?;
            print_json_summary(&args.out)?;
            Ok(Outcome::Found)
        }
        ExperimentCommand::Merge { dirs, out, json } => {
            JSON_OUTPUT.store(json, Ordering::Relaxed);
            run_merge(&dirs, &out)?;
            print_json_summary(&out)?;
            Ok(Outcome::Found)
        }
        ExperimentCommand::Report { dir, output } => run_report(&dir, output.as_deref()),
    }
}

fn usage(message: impl Into<String>) -> CliError {
    CliError::Usage(message.into())
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
    let jobs = match args.jobs {
        Some(jobs) => limits::check_jobs(jobs)?,
        None => limits::cores(),
    };
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
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|error| usage(format!("--jobs {jobs}: {error}")))?;
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
    };
    // Everything is checked: only now is the directory made (and locked).
    let made = !args.out.exists();
    fs::create_dir_all(&args.out)
        .map_err(|error| usage(format!("--out {}: {error}", args.out.display())))?;
    let lock = lock_dir(&args.out);
    let dir = ResultsDir::new(&args.out);
    let started = lock.and_then(|lock| {
        match dir
            .read_json::<ExperimentConfig>("config.json")
            .map_err(usage)?
        {
            Some(old) if old != config => {
                return Err(usage(format!(
                    "{} holds a run with another configuration (see its config.json); \
                     rerun with the same options or choose another --out",
                    args.out.display()
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
                let _ = fs::remove_dir_all(&args.out);
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
        "Slagle's experiment: D = {depth}, {positions} positions, {} openings, {jobs} thread{}, results in {}",
        openings.len(),
        if jobs == 1 { "" } else { "s" },
        args.out.display()
    )?;
    pool.install(|| pipeline(&dir, &config, &openings, shard, &mut clock))?;
    Ok(Outcome::Found)
}

fn pipeline(
    dir: &ResultsDir,
    config: &ExperimentConfig,
    openings: &[Opening],
    shard: Option<(usize, usize)>,
    clock: &mut Clock<'_>,
) -> Result<(), CliError> {
    let positions = typical_positions_phase(dir, config, openings, clock)?;
    let deep = deep_values_phase(dir, config, &positions, clock)?;
    let parameters = learning_phase(dir, config, &positions, &deep, clock)?;
    let functions = parameters
        .to_slagle()
        .map_err(|error| usage(error.to_string()))?;
    let calibration = calibration_phase(dir, config, &positions, &functions, clock)?;
    let setup = MatchSetup {
        depth: config.depth,
        deeper_depth: calibration.deeper_depth,
        max_plies: config.max_plies,
    };
    matches_phase(dir, openings, &functions, &setup, shard, clock)?;
    write_match_outputs(dir, openings.len())?;
    say!(
        "done: results in {}; `gametree experiment report {}` prints the report",
        dir.root().display(),
        dir.root().display()
    )?;
    Ok(())
}

fn typical_positions_phase(
    dir: &ResultsDir,
    config: &ExperimentConfig,
    openings: &[Opening],
    clock: &mut Clock<'_>,
) -> Result<Vec<Position>, CliError> {
    if let Ok(text) = fs::read_to_string(dir.file("positions.fen")) {
        let positions = positions_from_fen_lines(&text)
            .map_err(|error| usage(format!("{}: {error}", dir.file("positions.fen").display())))?;
        say!(
            "typical positions: {} read from positions.fen",
            positions.len()
        )?;
        return Ok(positions);
    }
    let started = Instant::now();
    let bar = progress(config.positions, "typical positions");
    let max_games = (config.positions as u64).saturating_mul(4).max(1000);
    let mut found = 0;
    let positions = typical_positions(config.positions, max_games, |games| {
        let batch: Vec<Vec<Position>> = games
            .into_par_iter()
            .map(|index| sampling_game(openings, config.seed, index, &config.sampling))
            .collect();
        found += batch.iter().map(Vec::len).sum::<usize>();
        bar.set_position(found.min(config.positions) as u64);
        batch
    });
    bar.finish_and_clear();
    dir.write_text("positions.fen", &positions_to_fen_lines(&positions))
        .map_err(usage)?;
    say!(
        "typical positions: {} (distinct) written to positions.fen",
        positions.len()
    )?;
    clock.record("1 typical positions", started)?;
    Ok(positions)
}

fn deep_values_phase(
    dir: &ResultsDir,
    config: &ExperimentConfig,
    positions: &[Position],
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
                let (value, nodes) = deep_value(&positions[index], config.depth);
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

fn learning_phase(
    dir: &ResultsDir,
    config: &ExperimentConfig,
    positions: &[Position],
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
                    let (fresh, _) =
                        learning_sample(index, &positions[index], deep[index], dmax, &functions)?;
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

fn calibration_phase(
    dir: &ResultsDir,
    config: &ExperimentConfig,
    positions: &[Position],
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
    let chosen: Vec<&Position> = positions.iter().step_by(step).take(count).collect();
    let bar = progress(chosen.len(), "calibration");
    let one_and_one = one_and_one();
    let nodes: Vec<(u64, u64)> = chosen
        .par_iter()
        .map(|position| {
            let mut game = gametree::search::float_valued::FloatValued(
                gametree::Checkers::from_position(**position),
            );
            let two = mn_alphabeta_depth(&mut game, functions, config.depth)
                .stats
                .nodes;
            let one = mn_alphabeta_depth(&mut game, &one_and_one, config.depth)
                .stats
                .nodes;
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
            .map(|position| {
                let mut game = gametree::search::float_valued::FloatValued(
                    gametree::Checkers::from_position(**position),
                );
                mn_alphabeta_depth(&mut game, &one_and_one, depth)
                    .stats
                    .nodes
            })
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

fn matches_phase(
    dir: &ResultsDir,
    openings: &[Opening],
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
            let record = play_game(spec, &openings[spec.opening], functions, setup);
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
    outln!("{document}")
}

/// The match tables and PDN files from `games.jsonl`.
fn write_match_outputs(dir: &ResultsDir, openings: usize) -> Result<Vec<MatchSummary>, CliError> {
    let mut records: Vec<GameRecord> = dir.read_jsonl("games.jsonl").map_err(usage)?;
    records.sort_by_key(|record| record.index);
    records.dedup_by_key(|record| record.index);
    let summaries: Vec<MatchSummary> = MatchKind::ALL
        .iter()
        .map(|&kind| summarize(kind, &records))
        .collect();
    for kind in MatchKind::ALL {
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
            ))
        )?;
    }
    Ok(summaries)
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
const LEARNING_FILES: [&str; 7] = [
    "positions.fen",
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
            if name.starts_with("fit-dmax-") && name.ends_with(".svg") {
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
    write_match_outputs(&target, config.openings.len())?;
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
    let text = report_markdown(&gametree::experiment::ReportInput {
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
