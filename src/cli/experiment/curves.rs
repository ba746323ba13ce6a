//! `gametree experiment curves DIR`: the cost–strength matches of a checkers result
//! directory (issue 15): players of each backing-up rule at several depths against one
//! reference player, and the attribution matches, with the charts and tables the report
//! reads. Resumable and sharded like the experiment's own matches.

use std::collections::HashSet;
use std::fs;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use gametree::experiment::{
    CurvePlayer, CurveRecord, CurvesText, Family, LearningSample, LevelFunctions, Opening, Pairing,
    PairingSummary, ResultsDir, Rule, RuleBook, SlagleParameters, compare_families_by_dmax,
    curve_game_specs, curves_answer, curves_colour_note, curves_conclusion, curves_markdown,
    draw_curve_charts, play_curve_game, signed_elo, summarize_pairing,
};

use super::{CliError, JSON_OUTPUT, Ordering, lock_dir, progress, read_config, shard_of, usage};
use crate::cli::output::outln;
use crate::cli::{Outcome, cpu_time, limits};

/// The result files of the curves.
pub(super) const CURVES_CONFIG: &str = "curves-config.json";
pub(super) const CURVES_GAMES: &str = "curves.jsonl";
pub(super) const CURVES_SUMMARY: &str = "curves.json";

/// The deepest a curve player may search: depth 12 of 2&2 already takes minutes a move.
const MAX_CURVE_DEPTH: u32 = 12;

/// Arguments of `gametree experiment curves`.
#[derive(Args, Debug)]
pub(super) struct CurvesArgs {
    /// A checkers result directory of `gametree experiment slagle` whose learning is
    /// finished (config.json, parameters.json and samples.jsonl); the games and charts are
    /// written into it.
    dir: PathBuf,
    /// The player every curve player meets: RULE@DEPTH. Default 1-1@D (the run's D)
    #[arg(long, value_name = "RULE@DEPTH")]
    reference: Option<String>,
    /// The rules that get a curve beside 1&1, comma separated: slagle, shifted, offset,
    /// tie-break
    #[arg(long, value_delimiter = ',', default_value = "slagle,shifted")]
    rules: Vec<String>,
    /// The depths of the 2&2 curves, FROM-TO. Default 4 to D + 2
    #[arg(long, value_name = "FROM-TO")]
    depths: Option<String>,
    /// The depths of the 1&1 curve, FROM-TO. Default 4 to D + 3
    #[arg(long, value_name = "FROM-TO")]
    one_one_depths: Option<String>,
    /// Leave out the attribution matches at depth D (tie-break vs 1&1, offset vs 1&1,
    /// shifted vs offset, Slagle's vs tie-break)
    #[arg(long)]
    no_attribution: bool,
    /// Use only the first K openings of the run. Default all
    #[arg(long)]
    opening_count: Option<usize>,
    /// Worker threads (default: every core)
    #[arg(long)]
    jobs: Option<usize>,
    /// Play only the K-th of N slices of each match's games (default: a Slurm array
    /// task's or a Kubernetes Indexed Job's slice, as `experiment slagle --shard`)
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Print one JSON object with the summaries at the end instead of the lines
    #[arg(long)]
    json: bool,
}

/// What the curves of a directory were asked for: a rerun must ask for the same.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct CurvesConfig {
    /// The player every curve player meets.
    pub reference: CurvePlayer,
    /// Every match, in the order played: the curves by depth, then the attribution.
    pub pairings: Vec<Pairing>,
    /// The openings played (the first K of the run's).
    pub openings: usize,
    /// The move ordering of every player.
    pub ordering: String,
}

fn parse_player(text: &str) -> Result<CurvePlayer, CliError> {
    let bad = || {
        usage(format!(
            "--reference {text}: expected RULE@DEPTH, RULE one of 1-1, tie-break, offset, \
             slagle, shifted, e.g. 1-1@6"
        ))
    };
    let (rule, depth) = text.split_once('@').ok_or_else(bad)?;
    let rule = Rule::from_name(rule.trim()).ok_or_else(bad)?;
    let depth: u32 = depth.trim().parse().map_err(|_| bad())?;
    check_depth(depth, "--reference")?;
    Ok(CurvePlayer { rule, depth })
}

fn check_depth(depth: u32, flag: &str) -> Result<(), CliError> {
    if (1..=MAX_CURVE_DEPTH).contains(&depth) {
        Ok(())
    } else {
        Err(usage(format!(
            "{flag}: depth {depth} is not from 1 to {MAX_CURVE_DEPTH}"
        )))
    }
}

fn parse_range(text: Option<&str>, flag: &str, default: (u32, u32)) -> Result<Vec<u32>, CliError> {
    let Some(text) = text else {
        return Ok((default.0..=default.1).collect());
    };
    let bad = || usage(format!("{flag} {text}: expected FROM-TO, e.g. 4-8"));
    let (from, to) = match text.split_once('-') {
        Some((from, to)) => (
            from.trim().parse().map_err(|_| bad())?,
            to.trim().parse().map_err(|_| bad())?,
        ),
        None => {
            let depth: u32 = text.trim().parse().map_err(|_| bad())?;
            (depth, depth)
        }
    };
    if from > to {
        return Err(bad());
    }
    check_depth(from, flag)?;
    check_depth(to, flag)?;
    Ok((from..=to).collect())
}

/// The matches asked for: each curve player against the reference (the reference itself
/// left out: it scores ½ against itself by definition), then the attribution matches.
fn pairings(
    reference: CurvePlayer,
    rules: &[Rule],
    depths: &[u32],
    one_one_depths: &[u32],
    attribution_depth: Option<u32>,
) -> Vec<Pairing> {
    let mut players: Vec<CurvePlayer> = one_one_depths
        .iter()
        .map(|&depth| CurvePlayer {
            rule: Rule::OneOne,
            depth,
        })
        .collect();
    for &rule in rules {
        players.extend(depths.iter().map(|&depth| CurvePlayer { rule, depth }));
    }
    // Cheap matches first, so that an interrupted run has whole matches of every rule.
    players.sort_by_key(|player| (player.depth, player.rule));
    let mut list: Vec<Pairing> = players
        .into_iter()
        .filter(|&player| player != reference)
        .map(|first| Pairing {
            first,
            second: reference,
        })
        .collect();
    if let Some(depth) = attribution_depth {
        let at = |rule| CurvePlayer { rule, depth };
        for (first, second) in [
            (Rule::TieBreak, Rule::OneOne),
            (Rule::Offset, Rule::OneOne),
            (Rule::Shifted, Rule::Offset),
            (Rule::Slagle, Rule::TieBreak),
        ] {
            let pairing = Pairing {
                first: at(first),
                second: at(second),
            };
            if !list.contains(&pairing) {
                list.push(pairing);
            }
        }
    }
    list
}

/// The functions of every rule: Slagle's as learned, the offset and shifted families
/// fitted to the run's samples at each dmax.
pub(super) fn rule_book(results: &ResultsDir) -> Result<RuleBook, CliError> {
    let text = fs::read_to_string(results.file("parameters.json")).map_err(|error| {
        usage(format!(
            "{}: {error} (the learning of `experiment slagle` is not finished)",
            results.file("parameters.json").display()
        ))
    })?;
    let slagle = SlagleParameters::from_json(&text)
        .and_then(|parameters| parameters.to_slagle())
        .map_err(|error| usage(error.to_string()))?;
    let samples: Vec<LearningSample> = results.read_jsonl("samples.jsonl").map_err(usage)?;
    let comparisons = compare_families_by_dmax(&samples);
    let family = |family: Family| -> Result<LevelFunctions, CliError> {
        let fits: Vec<_> = comparisons
            .iter()
            .filter_map(|(dmax, fits)| {
                fits.iter()
                    .find(|comparison| comparison.fit.family == family)
                    .map(|comparison| (*dmax, comparison.fit))
            })
            .collect();
        if fits.is_empty() {
            return Err(usage(format!(
                "{}: no learning samples to fit the {} family to",
                results.file("samples.jsonl").display(),
                family.label()
            )));
        }
        Ok(LevelFunctions::from_fits(&fits))
    };
    Ok(RuleBook {
        slagle,
        offset: family(Family::Offset)?,
        shifted: family(Family::Shifted)?,
    })
}

/// The openings of a run, as its config names them.
fn run_openings(
    results: &ResultsDir,
    config: &gametree::experiment::ExperimentConfig,
) -> Result<Vec<Opening>, CliError> {
    let all = if config.openings_source == "the ACF three-move ballots" {
        Opening::ballots()
    } else {
        let text = fs::read_to_string(&config.openings_source).map_err(|error| {
            usage(format!(
                "{}: the run's openings file {}: {error}",
                results.root().display(),
                config.openings_source
            ))
        })?;
        Opening::from_pdn(&text)
            .map_err(|error| usage(format!("{}: {error}", config.openings_source)))?
    };
    let openings: Vec<Opening> = all.into_iter().take(config.openings.len()).collect();
    let names: Vec<&String> = openings.iter().map(|opening| &opening.name).collect();
    if names.len() != config.openings.len()
        || names.iter().zip(&config.openings).any(|(a, b)| *a != b)
    {
        return Err(usage(format!(
            "{}: the openings of config.json are not those of {}",
            results.root().display(),
            config.openings_source
        )));
    }
    Ok(openings)
}

pub(super) fn run_curves(args: &CurvesArgs) -> Result<Outcome, CliError> {
    JSON_OUTPUT.store(args.json, Ordering::Relaxed);
    let results = ResultsDir::new(&args.dir);
    let config = read_config(&results)?;
    if config.kalah.is_some() {
        return Err(usage(format!(
            "{}: the curves are played at checkers; this is a Kalah run",
            args.dir.display()
        )));
    }
    let depth = config.depth;
    let reference = match &args.reference {
        Some(text) => parse_player(text)?,
        None => {
            check_depth(depth, "the run's D (the default reference)")?;
            CurvePlayer {
                rule: Rule::OneOne,
                depth,
            }
        }
    };
    let mut rules = Vec::new();
    for name in &args.rules {
        let rule = Rule::from_name(name.trim())
            .filter(|&rule| rule != Rule::OneOne)
            .ok_or_else(|| {
                usage(format!(
                    "--rules {name}: expected slagle, shifted, offset or tie-break"
                ))
            })?;
        if !rules.contains(&rule) {
            rules.push(rule);
        }
    }
    let deepest = |extra: u32| (depth + extra).min(MAX_CURVE_DEPTH);
    let depths = parse_range(
        args.depths.as_deref(),
        "--depths",
        (4.min(depth), deepest(2)),
    )?;
    let one_one_depths = parse_range(
        args.one_one_depths.as_deref(),
        "--one-one-depths",
        (4.min(depth), deepest(3)),
    )?;
    let pairings = pairings(
        reference,
        &rules,
        &depths,
        &one_one_depths,
        (!args.no_attribution).then_some(depth),
    );
    let mut openings = run_openings(&results, &config)?;
    if let Some(count) = args.opening_count {
        if count == 0 || count > openings.len() {
            return Err(usage(format!(
                "--opening-count {count}: the run has {} openings",
                openings.len()
            )));
        }
        openings.truncate(count);
    }
    let book = rule_book(&results)?;
    let jobs = match args.jobs {
        Some(jobs) => limits::check_jobs(jobs)?,
        None => limits::cores(),
    };
    let shard = shard_of(args.shard.as_deref())?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|error| usage(format!("--jobs {jobs}: {error}")))?;
    let asked = CurvesConfig {
        reference,
        pairings: pairings.clone(),
        openings: openings.len(),
        ordering: "killers and history below the root".to_string(),
    };
    let _lock = lock_dir(&args.dir)?;
    // A later run may add matches (more depths, another rule) to the same curves; the
    // reference, the openings and the ordering stay those of the first.
    let curves_config = match results
        .read_json::<CurvesConfig>(CURVES_CONFIG)
        .map_err(usage)?
    {
        Some(old)
            if (old.reference, old.openings, &old.ordering)
                != (asked.reference, asked.openings, &asked.ordering) =>
        {
            return Err(usage(format!(
                "{} holds curves against another reference or on other openings (see its \
                 {CURVES_CONFIG}); rerun with the same --reference and --opening-count",
                args.dir.display()
            )));
        }
        Some(mut old) => {
            let before = old.pairings.len();
            for pairing in &pairings {
                if !old.pairings.contains(pairing) {
                    old.pairings.push(*pairing);
                }
            }
            if old.pairings.len() > before {
                results.write_json(CURVES_CONFIG, &old).map_err(usage)?;
            }
            old
        }
        None => {
            results.write_json(CURVES_CONFIG, &asked).map_err(usage)?;
            asked
        }
    };
    say!(
        "cost and strength: {} matches against {} of {} games each (quiescence {}), {jobs} thread{}, results in {}",
        pairings.len(),
        reference.label(),
        2 * openings.len(),
        config.quiescence_plies,
        if jobs == 1 { "" } else { "s" },
        args.dir.display()
    )?;
    let done: Vec<CurveRecord> = results.read_jsonl(CURVES_GAMES).map_err(usage)?;
    let finished: HashSet<String> = done.iter().map(|record| record.key.clone()).collect();
    let appender = results.appender(CURVES_GAMES).map_err(usage)?;
    let clock = if cfg!(unix) {
        cpu_time::thread_cpu_time as fn() -> Option<std::time::Duration>
    } else {
        || None
    };
    let setup = (config.quiescence_plies, config.max_plies, config.evaluation);
    for pairing in &pairings {
        let specs: Vec<_> = curve_game_specs(&[*pairing], openings.len())
            .into_iter()
            .enumerate()
            // A shard takes whole openings (both colours), so that each shard's games
            // are colour-balanced.
            .filter(|(index, _)| shard.is_none_or(|(k, n)| (index / 2) % n == k - 1))
            .map(|(_, spec)| spec)
            .filter(|spec| !finished.contains(&spec.key()))
            .collect();
        if specs.is_empty() {
            continue;
        }
        let started = Instant::now();
        let bar = progress(specs.len(), &pairing.key());
        let played: Result<Vec<()>, String> = pool.install(|| {
            specs
                .par_iter()
                .map(|spec| {
                    let record =
                        play_curve_game(spec, &openings[spec.opening], &book, setup, clock);
                    appender.append(&record)?;
                    bar.inc(1);
                    Ok(())
                })
                .collect()
        });
        bar.finish_and_clear();
        played.map_err(usage)?;
        say!(
            "{}: {} games in {:.0} s",
            pairing.key(),
            specs.len(),
            started.elapsed().as_secs_f64()
        )?;
    }
    let summaries = write_curve_outputs(&results, &curves_config)?;
    if JSON_OUTPUT.load(Ordering::Relaxed) {
        let document = serde_json::json!({
            "results": args.dir.display().to_string(),
            "config": curves_config,
            "pairings": summaries,
        });
        outln!("{document}")?;
    } else {
        for summary in &summaries {
            say!("{}", summary_line(summary))?;
        }
    }
    Ok(Outcome::Found)
}

/// `slagle@6 vs 1-1@6: 170/60/82 (312 games), +43 Elo [+16, +70], 17810 positions and 0.0123 s a move`.
fn summary_line(summary: &PairingSummary) -> String {
    let score = summary.score;
    let elo = summary.elo.map_or("no Elo".to_string(), |elo| {
        format!(
            "{} Elo [{}, {}]",
            signed_elo(elo.elo),
            signed_elo(elo.low),
            signed_elo(elo.high)
        )
    });
    format!(
        "{} vs {}: {}/{}/{} ({} games), {elo}, {:.0} positions and {:.4} s a move",
        summary.first.key(),
        summary.second.key(),
        score.wins,
        score.draws,
        score.losses,
        score.games(),
        summary.nodes_per_move(),
        summary.milliseconds_per_move() / 1000.0
    )
}

/// `experiment merge`: the curves of the shards (the same curves asked for in each, their
/// games together), when they have any.
pub(super) fn merge_curves(inputs: &[ResultsDir], target: &ResultsDir) -> Result<(), CliError> {
    let mut config: Option<CurvesConfig> = None;
    let mut games: std::collections::BTreeMap<String, CurveRecord> =
        std::collections::BTreeMap::new();
    for input in inputs {
        let Some(found) = input
            .read_json::<CurvesConfig>(CURVES_CONFIG)
            .map_err(usage)?
        else {
            continue;
        };
        if let Some(first) = &config
            && *first != found
        {
            return Err(usage(format!(
                "{}: other curves than the first shard's (see {CURVES_CONFIG})",
                input.root().display()
            )));
        }
        config = Some(found);
        for record in input
            .read_jsonl::<CurveRecord>(CURVES_GAMES)
            .map_err(usage)?
        {
            if let Some(old) = games.get(&record.key)
                && old.pdn != record.pdn
            {
                return Err(usage(format!(
                    "curves game {} differs between shards",
                    record.key
                )));
            }
            games.entry(record.key.clone()).or_insert(record);
        }
    }
    let Some(config) = config else {
        return Ok(());
    };
    let mut lines = String::new();
    for record in games.values() {
        lines.push_str(&serde_json::to_string(record).map_err(|error| usage(error.to_string()))?);
        lines.push('\n');
    }
    target.write_text(CURVES_GAMES, &lines).map_err(usage)?;
    target.write_json(CURVES_CONFIG, &config).map_err(usage)?;
    say!("merged {} curves games", games.len())?;
    write_curve_outputs(target, &config)?;
    Ok(())
}

/// The report's section on cost and strength and its line of the conclusion, when the
/// directory holds curves; `link` is the directory as the report links to it.
pub(super) fn report_section(
    results: &ResultsDir,
    link: &str,
) -> Result<Option<CurvesText>, CliError> {
    let Some(config) = results
        .read_json::<CurvesConfig>(CURVES_CONFIG)
        .map_err(usage)?
    else {
        return Ok(None);
    };
    let summaries = summaries(results, &config)?;
    Ok(Some(CurvesText {
        section: curves_markdown(config.reference, &summaries, link, 2 * config.openings),
        conclusion: curves_conclusion(config.reference, &summaries),
        answer: curves_answer(config.reference, &summaries),
        colour: curves_colour_note(config.reference, &summaries),
    }))
}

/// The summaries of every match asked for with games played, in the order asked.
fn summaries(results: &ResultsDir, config: &CurvesConfig) -> Result<Vec<PairingSummary>, CliError> {
    let mut records: Vec<CurveRecord> = results.read_jsonl(CURVES_GAMES).map_err(usage)?;
    records.sort_by(|a, b| a.key.cmp(&b.key));
    records.dedup_by(|a, b| a.key == b.key);
    Ok(config
        .pairings
        .iter()
        .filter_map(|pairing| summarize_pairing(pairing, &records))
        .collect())
}

/// The summaries of every match asked for with games played, written to curves.json,
/// and the two charts.
pub(super) fn write_curve_outputs(
    results: &ResultsDir,
    config: &CurvesConfig,
) -> Result<Vec<PairingSummary>, CliError> {
    let summaries = summaries(results, config)?;
    results
        .write_json(CURVES_SUMMARY, &summaries)
        .map_err(usage)?;
    draw_curve_charts(results.root(), config.reference, &summaries).map_err(usage)?;
    Ok(summaries)
}
