//! `gametree experiment`: a tiny configuration end to end, resuming, shards and merge,
//! determinism, and bad input.

mod common;

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use common::{assert_usage_error, assert_usage_error_of, gametree, success_stdout};

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("gametree-experiment-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("temporary directory");
    dir
}

/// The tiny configuration: D = 3 (functions for dmax 0 and 1), 40 positions, 2 openings
/// (12 games in all: 2 openings, 2 colours, 3 matches).
fn tiny(out: &Path, extra: &[&str]) -> String {
    let out = out.to_str().expect("UTF-8 path");
    let mut args = tiny_args(out);
    args.extend_from_slice(extra);
    success_stdout(&gametree(&args))
}

/// The arguments of [`tiny`] without extras.
fn tiny_args(out: &str) -> Vec<&str> {
    vec![
        "experiment",
        "slagle",
        "--depth",
        "3",
        "--positions",
        "40",
        "--opening-count",
        "2",
        "--calibration",
        "10",
        "--max-plies",
        "80",
        "--out",
        out,
    ]
}

fn game_lines(dir: &Path) -> Vec<serde_json::Value> {
    fs::read_to_string(dir.join("games.jsonl"))
        .expect("games.jsonl")
        .lines()
        .map(|line| serde_json::from_str(line).expect("one record a line"))
        .collect()
}

#[test]
fn the_tiny_mode_writes_every_artefact_and_the_report() {
    let dir = scratch("artefacts");
    let output = tiny(&dir, &[]);
    assert!(output.contains("dmax 1 (MIN positions)"), "{output}");
    for name in [
        "config.json",
        "positions.fen",
        "deep-values.jsonl",
        "samples.jsonl",
        "fits.json",
        "fits.csv",
        "fit-dmax-0.svg",
        "fit-dmax-1.svg",
        "parameters.json",
        "calibration.json",
        "games.jsonl",
        "games-equal-depth.pdn",
        "games-equal-cost.pdn",
        "games-equal-cost-deeper.pdn",
        "matches.json",
        "matches.csv",
        "run.json",
    ] {
        let path = dir.join(name);
        assert!(
            fs::metadata(&path).map(|m| m.len() > 0).unwrap_or(false),
            "{name} missing or empty"
        );
    }
    assert_eq!(
        fs::read_to_string(dir.join("positions.fen"))
            .expect("read")
            .lines()
            .count(),
        40
    );
    assert_eq!(game_lines(&dir).len(), 12);
    let csv = fs::read_to_string(dir.join("fits.csv")).expect("read");
    assert!(
        csv.starts_with("dmax,kind,x_or_r,y_or_s,rms_error"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 3);
    let pdn = fs::read_to_string(dir.join("games-equal-depth.pdn")).expect("read");
    assert_eq!(pdn.matches("[Event ").count(), 4);
    let parameters = fs::read_to_string(dir.join("parameters.json")).expect("read");
    gametree::experiment::SlagleParameters::from_json(&parameters).expect("a valid parameter file");
    // A match of the 1&1 player against an engine, named in engine.json: its score is in
    // the report's threats to validity. A game file that is not one is a usage error.
    fs::write(
        dir.join("engine.json"),
        r#"{"player": "1&1 at depth 2", "engine": "an engine at depth 3", "games": "engine-games.jsonl", "command": "checkers_match"}"#,
    )
    .expect("written");
    fs::write(dir.join("engine-games.jsonl"), "{\"points\": 2}\n").expect("written");
    let refused = gametree(&["experiment", "report", dir.to_str().expect("UTF-8")]);
    assert_eq!(refused.status.code(), Some(2));
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(message.contains("engine-games.jsonl: line 1"), "{message}");
    fs::write(
        dir.join("engine-games.jsonl"),
        ["1.0", "1.0", "1.0", "0.5", "0.0", "0.0"]
            .map(|points| format!("{{\"index\": 0, \"points\": {points}}}\n"))
            .concat(),
    )
    .expect("written");
    let report = dir.join("report.md");
    success_stdout(&gametree(&[
        "experiment",
        "report",
        dir.to_str().expect("UTF-8"),
        "--output",
        report.to_str().expect("UTF-8"),
    ]));
    let text = fs::read_to_string(&report).expect("report written");
    // 3.5 points of 6 is 0.583, and 400·log₁₀(0.583/0.417) = +58 Elo.
    assert!(
        text.contains(
            "1&1 at depth 2 against an engine at depth 3 scored 3/1/2 (W/D/L), 0.583, +58 Elo"
        ),
        "the engine match missing"
    );
    for heading in [
        "## m&n in brief",
        "## Method",
        "## The learned functions",
        "## Three families of backing-up functions",
        "### By game phase",
        "## The matches",
        "## Threats to validity",
        "## Conclusion",
        "## Related work",
    ] {
        assert!(text.contains(heading), "{heading} missing");
    }
    // Every match's row says what matches.json says.
    let matches: Vec<serde_json::Value> =
        serde_json::from_str(&fs::read_to_string(dir.join("matches.json")).expect("read"))
            .expect("JSON");
    assert_eq!(matches.len(), 3);
    for summary in &matches {
        let label = match summary["kind"].as_str().expect("kind") {
            "equal-depth" => "equal depth",
            "equal-cost" => "equal cost",
            _ => "equal cost, 1&1 deeper",
        };
        let score = &summary["score"];
        let (wins, draws, losses) = (&score["wins"], &score["draws"], &score["losses"]);
        let games = ["wins", "draws", "losses"]
            .iter()
            .map(|field| score[field].as_u64().expect("count"))
            .sum::<u64>();
        let row = format!("| {label} | {games} | {wins} | {draws} | {losses} |");
        assert!(text.contains(&row), "{row} missing");
    }
    // Every learned function's row says what fits.json says.
    let fits: Vec<serde_json::Value> =
        serde_json::from_str(&fs::read_to_string(dir.join("fits.json")).expect("read"))
            .expect("JSON");
    assert!(!fits.is_empty());
    for row in &fits {
        let fit = &row["fit"];
        let expected = format!(
            "| {} | {} | {:.3} | {:.4} | {:.2} | {:.2} | {:+.2} | {} | {} |",
            row["dmax"],
            row["kind"].as_str().expect("kind"),
            fit["shift"].as_f64().expect("x"),
            fit["slope"].as_f64().expect("y"),
            fit["rms_error"].as_f64().expect("RMS"),
            fit["rms_error_minimax"].as_f64().expect("RMS 1&1"),
            fit["mean_excess"].as_f64().expect("mean"),
            fit["samples"],
            row["decided"]
        );
        assert!(text.contains(&expected), "{expected} missing");
    }
    // The phases count every typical position once.
    let positions = fs::read_to_string(dir.join("positions.fen"))
        .expect("read")
        .lines()
        .count();
    let shares = text
        .split("The typical positions by the pieces on the board: ")
        .nth(1)
        .and_then(|rest| rest.split(". ").next())
        .expect("the phase shares");
    let counted: usize = shares
        .split(", ")
        .map(|share| {
            share
                .split(' ')
                .rev()
                .nth(1)
                .and_then(|count| count.parse::<usize>().ok())
                .expect("a count before its percentage")
        })
        .sum();
    assert_eq!(counted, positions, "{shares}");
    assert!(
        text.contains("](./fit-dmax-0.svg)"),
        "charts linked beside the report"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_rerun_after_an_interruption_plays_only_the_games_not_yet_finished() {
    let dir = scratch("resume");
    // The "interrupted" run: only the first of two slices of the games.
    let first = tiny(&dir, &["--shard", "1/2"]);
    assert!(
        first.contains("games: 6 in this run (shard 1/2), 0 already finished, 6 to play"),
        "{first}"
    );
    let before = game_lines(&dir);
    let samples_before = fs::read_to_string(dir.join("samples.jsonl")).expect("read");
    // A record cut short, as if the process was killed while writing it.
    let mut partial = fs::read_to_string(dir.join("games.jsonl")).expect("read");
    partial.push_str("{\"index\": 7, \"kind\"");
    fs::write(dir.join("games.jsonl"), partial).expect("write");
    let second = tiny(&dir, &[]);
    assert!(
        second.contains("deep values: 40 positions at depth 3 (40 from an earlier run)"),
        "{second}"
    );
    assert!(
        second.contains("games: 12 in this run, 6 already finished, 6 to play"),
        "{second}"
    );
    let after = game_lines(&dir);
    assert_eq!(after.len(), 12);
    assert_eq!(
        after[..6],
        before[..],
        "finished games are kept as they were, not replayed"
    );
    let indices: HashSet<u64> = after
        .iter()
        .map(|game| game["index"].as_u64().expect("index"))
        .collect();
    assert_eq!(indices.len(), 12);
    assert_eq!(
        fs::read_to_string(dir.join("samples.jsonl")).expect("read"),
        samples_before
    );
    let third = tiny(&dir, &[]);
    assert!(third.contains("12 already finished, 0 to play"), "{third}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn shards_merged_give_the_games_of_one_whole_run() {
    let (one, two, merged, whole) = (
        scratch("shard1"),
        scratch("shard2"),
        scratch("merged"),
        scratch("whole"),
    );
    tiny(&one, &["--shard", "1/2"]);
    tiny(&two, &["--shard", "2/2", "--jobs", "1"]);
    tiny(&whole, &[]);
    let output = success_stdout(&gametree(&[
        "experiment",
        "merge",
        one.to_str().expect("UTF-8"),
        two.to_str().expect("UTF-8"),
        "--out",
        merged.to_str().expect("UTF-8"),
    ]));
    assert!(
        output.contains("merged 12 games from 2 directories"),
        "{output}"
    );
    let pdn = |dir: &Path| fs::read_to_string(dir.join("games-equal-cost.pdn")).expect("read");
    assert_eq!(pdn(&merged), pdn(&whole));
    let matches = |dir: &Path| {
        let value: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(dir.join("matches.json")).expect("read"))
                .expect("JSON");
        value
            .as_array()
            .expect("array")
            .iter()
            .map(|m| m["score"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(matches(&merged), matches(&whole));
    for dir in [one, two, merged, whole] {
        let _ = fs::remove_dir_all(&dir);
    }
}

#[test]
fn learning_is_deterministic_for_a_seed_whatever_the_number_of_threads() {
    let (first, second, other) = (scratch("seed-a"), scratch("seed-b"), scratch("seed-c"));
    tiny(&first, &["--jobs", "1"]);
    tiny(&second, &["--jobs", "2"]);
    tiny(&other, &["--seed", "7"]);
    let read = |dir: &Path, name: &str| fs::read_to_string(dir.join(name)).expect("read");
    for name in [
        "positions.fen",
        "parameters.json",
        "fits.csv",
        "calibration.json",
    ] {
        assert_eq!(read(&first, name), read(&second, name), "{name}");
    }
    assert_ne!(read(&first, "positions.fen"), read(&other, "positions.fen"));
    for dir in [first, second, other] {
        let _ = fs::remove_dir_all(&dir);
    }
}

#[test]
fn bad_input_is_a_one_line_usage_error() {
    assert_usage_error_of(
        &["experiment", "slagle", "--depth", "1"],
        "D must be from 2",
    );
    assert_usage_error_of(
        &["experiment", "slagle", "--positions", "0"],
        "--positions 0",
    );
    assert_usage_error_of(&["experiment", "slagle", "--shard", "3/2"], "--shard 3/2");
    assert_usage_error_of(&["experiment", "slagle", "--shard", "x"], "expected K/N");
    assert_usage_error_of(
        &["experiment", "slagle", "--openings", "no/such/file.pdn"],
        "no/such/file.pdn",
    );
    assert_usage_error_of(&["experiment", "slagle", "--depth", "six"], "six");
    let dir = scratch("bad");
    assert_usage_error_of(
        &["experiment", "report", dir.to_str().expect("UTF-8")],
        "no config.json",
    );
    fs::write(dir.join("openings.pdn"), "1. 11-16 11-15 *").expect("write");
    assert_usage_error_of(
        &[
            "experiment",
            "slagle",
            "--openings",
            dir.join("openings.pdn").to_str().expect("UTF-8"),
        ],
        "openings.pdn",
    );
    let run = dir.join("run");
    tiny(&run, &[]);
    let out = run.to_str().expect("UTF-8");
    assert_usage_error(
        &gametree(&[
            "experiment",
            "slagle",
            "--depth",
            "4",
            "--positions",
            "40",
            "--out",
            out,
        ]),
        "another configuration",
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_run_interrupted_while_learning_ends_with_the_functions_and_games_of_an_uninterrupted_one() {
    let (whole, interrupted) = (scratch("learn-whole"), scratch("learn-cut"));
    tiny(&whole, &[]);
    tiny(&interrupted, &[]);
    // As if killed during dmax 1: all 40 samples of dmax 0 and 10 of dmax 1 were written,
    // nothing after them.
    let samples = fs::read_to_string(interrupted.join("samples.jsonl")).expect("read");
    let kept: String = samples
        .lines()
        .take(50)
        .map(|line| format!("{line}\n"))
        .collect();
    fs::write(interrupted.join("samples.jsonl"), kept).expect("write");
    for name in [
        "parameters.json",
        "fits.json",
        "fits.csv",
        "calibration.json",
        "games.jsonl",
    ] {
        fs::remove_file(interrupted.join(name)).expect("remove");
    }
    let output = tiny(&interrupted, &[]);
    assert!(
        output.contains("0 already finished, 12 to play"),
        "{output}"
    );
    let read = |dir: &Path, name: &str| fs::read_to_string(dir.join(name)).expect("read");
    for name in [
        "parameters.json",
        "fits.csv",
        "games-equal-depth.pdn",
        "games-equal-cost-deeper.pdn",
    ] {
        assert_eq!(read(&whole, name), read(&interrupted, name), "{name}");
    }
    for dir in [whole, interrupted] {
        let _ = fs::remove_dir_all(&dir);
    }
}

#[test]
fn the_kalah_quick_run_grades_every_move_resumes_and_reports() {
    let dir = scratch("kalah");
    let out = dir.to_str().expect("UTF-8 path");
    let args = [
        "experiment",
        "slagle",
        "--game",
        "kalah",
        "--quick",
        "--out",
        out,
    ];
    let output = success_stdout(&gametree(&args));
    assert!(
        output.contains("Slagle's experiment on Kalah(6, 4): D = 4"),
        "{output}"
    );
    assert!(
        output.contains("grading: 12 positions with 11 to 20 seeds in the houses, depths 1 to 6"),
        "{output}"
    );
    for name in [
        "config.json",
        "positions.txt",
        "grading-positions.txt",
        "grades.jsonl",
        "grading.json",
        "grading.csv",
        "grading-paired.csv",
        "grading-loss.svg",
        "grading-share.svg",
        "fit-dmax-2.svg",
        "parameters.json",
        "games-equal-depth.txt",
        "games-equal-cost.txt",
        "games-equal-cost-deeper.txt",
        "matches.json",
    ] {
        assert!(
            fs::metadata(dir.join(name))
                .map(|m| m.len() > 0)
                .unwrap_or(false),
            "{name} missing or empty"
        );
    }
    // Every graded move is one of the position's moves, valued at most the best.
    let grades = fs::read_to_string(dir.join("grades.jsonl")).expect("grades");
    let mut graded = 0;
    for line in grades.lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("a record");
        let exact: Vec<i64> = record["exact"]
            .as_array()
            .expect("exact values")
            .iter()
            .map(|value| value.as_i64().expect("a value"))
            .collect();
        let best = *exact.iter().max().expect("moves");
        for grade in record["grades"].as_array().expect("grades") {
            let chosen = grade["chosen"].as_u64().expect("chosen") as usize;
            assert_eq!(grade["value"].as_i64(), Some(exact[chosen]));
            assert_eq!(grade["best"].as_i64(), Some(best));
            graded += 1;
        }
    }
    assert_eq!(graded, 12 * 6 * 2);
    // Each game has a margin that decides its points.
    for game in game_lines(&dir) {
        let margin = game["margin"].as_i64().expect("a margin");
        let points = game["two_two_points"].as_f64().expect("points");
        assert_eq!(points, [0.0, 0.5, 1.0][(margin.signum() + 1) as usize]);
    }
    let again = success_stdout(&gametree(&args));
    assert!(
        again.contains("games: 36 in this run, 36 already finished, 0 to play"),
        "{again}"
    );
    assert_eq!(
        grades,
        fs::read_to_string(dir.join("grades.jsonl")).expect("grades")
    );
    let report = success_stdout(&gametree(&["experiment", "report", out]));
    assert!(
        report.starts_with("# Slagle's experiment on Kalah(6, 4)"),
        "{report}"
    );
    assert!(report.contains("## Every move graded"), "{report}");
    assert!(
        report.contains("--game kalah --depth 4 --positions 400"),
        "{report}"
    );
    fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn kalah_settings_are_checked_before_anything_runs() {
    assert_usage_error_of(
        &["experiment", "slagle", "--houses", "5"],
        "--houses is for --game kalah",
    );
    assert_usage_error_of(
        &["experiment", "slagle", "--game", "kalah", "--houses", "7"],
        "--houses 7 --seeds 4",
    );
    assert_usage_error_of(
        &[
            "experiment",
            "slagle",
            "--game",
            "kalah",
            "--openings",
            "x.pdn",
        ],
        "--openings x.pdn: a PDN file is for checkers",
    );
    assert_usage_error_of(
        &[
            "experiment",
            "slagle",
            "--game",
            "kalah",
            "--grading-max-seeds",
            "10",
        ],
        "--grading-max-seeds 10",
    );
    assert_usage_error_of(
        &[
            "experiment",
            "slagle",
            "--game",
            "kalah",
            "--endgame-seeds",
            "40",
        ],
        "--endgame-seeds 40",
    );
}

#[test]
fn quiescence_is_part_of_the_configuration_and_of_the_command_the_report_gives() {
    let dir = scratch("quiescence");
    let run = dir.join("run");
    tiny(&run, &["--quiescence", "8"]);
    let config: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(run.join("config.json")).expect("config"))
            .expect("JSON");
    assert_eq!(config["quiescence_plies"], 8);
    let out = run.to_str().expect("UTF-8");
    let report = success_stdout(&gametree(&["experiment", "report", out]));
    assert!(report.contains("--quiescence 8"), "{report}");
    // Without it, the same directory holds another configuration.
    assert_usage_error(&gametree(&tiny_args(out)), "another configuration");
    assert_usage_error_of(
        &["experiment", "slagle", "--quiescence", "65"],
        "--quiescence 65",
    );
    assert_usage_error_of(
        &[
            "experiment",
            "slagle",
            "--game",
            "kalah",
            "--quiescence",
            "4",
        ],
        "applies to checkers",
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn the_evaluation_and_the_ordering_are_part_of_the_configuration_and_change_no_fixed_depth_move() {
    let dir = scratch("evaluation");
    let (plain, ordered, learned) = (dir.join("plain"), dir.join("ordered"), dir.join("learned"));
    tiny(&plain, &[]);
    tiny(&ordered, &["--ordered"]);
    tiny(&learned, &["--eval", "learned", "--ordered"]);
    let config = |run: &Path| -> serde_json::Value {
        serde_json::from_str(&fs::read_to_string(run.join("config.json")).expect("config"))
            .expect("JSON")
    };
    assert!(config(&plain).get("evaluation").is_none() && config(&plain).get("ordered").is_none());
    assert_eq!(config(&ordered)["ordered"], true);
    assert_eq!(config(&learned)["evaluation"], "learned");
    // Ordering changes no move at a fixed depth: the equal-depth and deeper matches play the
    // same games, with fewer positions.
    let games = |run: &Path, kind: &str| -> Vec<(String, u64)> {
        let mut games: Vec<(u64, String, u64)> = game_lines(run)
            .into_iter()
            .filter(|game| game["kind"] == kind)
            .map(|game| {
                (
                    game["index"].as_u64().expect("index"),
                    game["pdn"].as_str().expect("pdn").to_string(),
                    game["two_two"]["nodes"].as_u64().expect("nodes"),
                )
            })
            .collect();
        games.sort();
        games
            .into_iter()
            .map(|(_, pdn, nodes)| (pdn, nodes))
            .collect()
    };
    for kind in ["equal-depth", "equal-cost-depth"] {
        let (before, after) = (games(&plain, kind), games(&ordered, kind));
        assert_eq!(before.len(), 4);
        for ((pdn_before, nodes_before), (pdn_after, nodes_after)) in before.iter().zip(&after) {
            assert_eq!(pdn_before, pdn_after);
            assert!(
                nodes_after <= nodes_before,
                "{nodes_after} > {nodes_before}"
            );
        }
    }
    let report = success_stdout(&gametree(&[
        "experiment",
        "report",
        learned.to_str().expect("UTF-8"),
    ]));
    assert!(report.contains("--eval learned --ordered"), "{report}");
    assert!(report.contains("the learned evaluation of `gametree checkers`"));
    assert_usage_error(
        &gametree(&tiny_args(ordered.to_str().expect("UTF-8"))),
        "another configuration",
    );
    for flag in [&["--eval", "learned"][..], &["--ordered"][..]] {
        let mut args = vec!["experiment", "slagle", "--game", "kalah"];
        args.extend_from_slice(flag);
        assert_usage_error_of(&args, "applies to checkers");
    }
    let _ = fs::remove_dir_all(&dir);
}

/// `gametree ARGS` with these environment variables set (and the schedulers' others unset).
fn gametree_in_environment(args: &[&str], environment: &[(&str, &str)]) -> std::process::Output {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_gametree"));
    command.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    for name in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_MIN",
        "SLURM_ARRAY_TASK_COUNT",
        "JOB_COMPLETION_INDEX",
        "JOB_COMPLETIONS",
    ] {
        command.env_remove(name);
    }
    command.envs(environment.iter().copied());
    command.output().expect("run the gametree binary")
}

#[test]
fn a_slurm_array_task_or_an_indexed_job_pod_plays_its_own_shard() {
    let slurm = scratch("slurm");
    let out = slurm.to_str().expect("UTF-8 path").to_string();
    // `sbatch --array=4-5`: task 5 is the second of two.
    let output = gametree_in_environment(
        &tiny_args(&out),
        &[
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_MIN", "4"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
        ],
    );
    let text = success_stdout(&output);
    assert!(
        text.contains("shard 2/2 from SLURM_ARRAY_TASK_ID"),
        "{text}"
    );
    assert!(text.contains("games: 6 in this run (shard 2/2)"), "{text}");
    let _ = fs::remove_dir_all(&slurm);

    // A Kubernetes Indexed Job of two completions: index 0 is the first shard; --shard wins.
    let pod = scratch("indexed-job");
    let out = pod.to_str().expect("UTF-8 path").to_string();
    let kubernetes = [("JOB_COMPLETION_INDEX", "0"), ("JOB_COMPLETIONS", "2")];
    let text = success_stdout(&gametree_in_environment(&tiny_args(&out), &kubernetes));
    assert!(text.contains("games: 6 in this run (shard 1/2)"), "{text}");
    let mut explicit = tiny_args(&out);
    explicit.extend(["--shard", "2/2"]);
    let text = success_stdout(&gametree_in_environment(&explicit, &kubernetes));
    assert!(
        text.contains("(shard 2/2)") && !text.contains("from JOB_COMPLETION_INDEX"),
        "{text}"
    );
    let _ = fs::remove_dir_all(&pod);
}

#[test]
fn a_half_set_or_inconsistent_scheduler_environment_is_a_usage_error() {
    let scratch = scratch("bad-environment");
    let out = scratch
        .join("run")
        .to_str()
        .expect("UTF-8 path")
        .to_string();
    for (environment, words) in [
        (
            vec![("JOB_COMPLETION_INDEX", "1")],
            "JOB_COMPLETIONS is not",
        ),
        (
            vec![("JOB_COMPLETION_INDEX", "2"), ("JOB_COMPLETIONS", "2")],
            "not below",
        ),
        (
            vec![("SLURM_ARRAY_TASK_ID", "3")],
            "SLURM_ARRAY_TASK_COUNT is not",
        ),
        (
            // `--array=0-6:2`: four tasks 0, 2, 4, 6; task 6 is not the fourth of four.
            vec![
                ("SLURM_ARRAY_TASK_ID", "6"),
                ("SLURM_ARRAY_TASK_MIN", "0"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
            ],
            "consecutive",
        ),
        (vec![("SLURM_ARRAY_TASK_ID", "x")], "not a whole number"),
    ] {
        let output = gametree_in_environment(&tiny_args(&out), &environment);
        assert_eq!(output.status.code(), Some(2), "{environment:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(words), "{environment:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    assert!(
        !Path::new(&out).exists(),
        "nothing is written on a usage error"
    );
    let _ = fs::remove_dir_all(&scratch);
}

#[test]
fn the_documented_sbatch_script_runs_each_array_task_as_its_shard_and_the_shards_merge() {
    let results = scratch("sbatch");
    let binary = Path::new(env!("CARGO_BIN_EXE_gametree"));
    let path = format!(
        "{}:{}",
        binary.parent().expect("a directory").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // The tiny settings in place of D = 8: everything but --out, which the script sets.
    let tiny = tiny_args("unused");
    let settings = tiny[2..tiny.len() - 2].join(" ");
    for task in ["0", "1"] {
        let output = std::process::Command::new("bash")
            .arg("docs/cluster/slagle-d8.sbatch")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("PATH", &path)
            .env("SLURM_ARRAY_TASK_ID", task)
            .env("SLURM_ARRAY_TASK_MIN", "0")
            .env("SLURM_ARRAY_TASK_COUNT", "2")
            .env("SLURM_CPUS_PER_TASK", "1")
            .env("GAMETREE_EXPERIMENT_ARGS", &settings)
            .env("GAMETREE_RESULTS", &results)
            .output()
            .expect("run bash");
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert_eq!(game_lines(&results.join(format!("shard-{task}"))).len(), 6);
    }
    let merged = results.join("merged");
    let output = gametree(&[
        "experiment",
        "merge",
        results.join("shard-0").to_str().expect("UTF-8"),
        results.join("shard-1").to_str().expect("UTF-8"),
        "--out",
        merged.to_str().expect("UTF-8"),
    ]);
    assert!(success_stdout(&output).contains("merged 12 games from 2 directories"));
    // The Job manifest keeps JOB_COMPLETIONS equal to its completions.
    let manifest = fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/cluster/slagle-d8-job.yaml"),
    )
    .expect("the manifest");
    let completions = manifest
        .lines()
        .find_map(|line| line.trim().strip_prefix("completions: "))
        .expect("spec.completions");
    let after = manifest
        .split("name: JOB_COMPLETIONS")
        .nth(1)
        .expect("the variable");
    assert!(
        after.contains(&format!("value: \"{completions}\"")),
        "{manifest}"
    );
    let _ = fs::remove_dir_all(&results);
}

/// `experiment curves DIR` with the tiny run's learning: two depths a curve, one opening.
fn curves(dir: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "experiment",
        "curves",
        dir,
        "--depths",
        "2-3",
        "--one-one-depths",
        "1-4",
        "--opening-count",
        "1",
        "--jobs",
        "2",
    ];
    args.extend_from_slice(extra);
    gametree(&args)
}

#[test]
fn the_cost_strength_matches_resume_and_the_report_shows_every_one() {
    let dir = scratch("curves");
    let run = dir.join("run");
    tiny(&run, &[]);
    let out = run.to_str().expect("UTF-8");
    // Seven matches against 1&1 at depth 3 (the reference, D): 1&1 at depths 1, 2 and 4,
    // Slagle's and the shifted family at 2 and 3; then four attribution matches at D.
    let first = success_stdout(&curves(out, &[]));
    assert!(first.contains("cost and strength: 11 matches against 1&1, depth 3 of 2 games each"));
    let records: Vec<serde_json::Value> = fs::read_to_string(run.join("curves.jsonl"))
        .expect("curves.jsonl")
        .lines()
        .map(|line| serde_json::from_str(line).expect("one record a line"))
        .collect();
    assert_eq!(records.len(), 22);
    let keys: HashSet<&str> = records
        .iter()
        .map(|record| record["key"].as_str().expect("key"))
        .collect();
    assert_eq!(keys.len(), 22);
    assert!(keys.contains("slagle@2 vs 1-1@3 #0 B"));
    assert!(keys.contains("shifted@3 vs offset@3 #0 W"));
    // Every game's moves are counted for both sides.
    for record in &records {
        assert!(record["first_stats"]["moves"].as_u64().expect("moves") > 0);
        assert!(record["second_stats"]["nodes"].as_u64().expect("nodes") > 0);
    }
    assert!(run.join("curve-nodes.svg").exists() && run.join("curve-time.svg").exists());
    // A rerun plays nothing; another reference is refused; more depths extend the curves.
    let again = success_stdout(&curves(out, &[]));
    assert!(!again.contains("games in"));
    assert_usage_error(&curves(out, &["--reference", "1-1@2"]), "another reference");
    let extended = success_stdout(&gametree(&[
        "experiment",
        "curves",
        out,
        "--one-one-depths",
        "5",
        "--depths",
        "2-3",
        "--no-attribution",
        "--opening-count",
        "1",
    ]));
    assert!(
        extended.contains("1-1@5 vs 1-1@3: 2 games in"),
        "{extended}"
    );
    assert_eq!(
        fs::read_to_string(run.join("curves.jsonl"))
            .expect("curves.jsonl")
            .lines()
            .count(),
        24
    );
    let summaries: Vec<serde_json::Value> =
        serde_json::from_str(&fs::read_to_string(run.join("curves.json")).expect("curves.json"))
            .expect("JSON");
    assert_eq!(summaries.len(), 12);
    // The report's table agrees with the games.
    let report = success_stdout(&gametree(&["experiment", "report", out]));
    assert!(report.contains("## Cost and strength"));
    assert!(report.contains("### Attribution"));
    assert!(report.contains("- **Cost and strength** (Elo against 1&1, depth 3"));
    let summaries: Vec<serde_json::Value> =
        serde_json::from_str(&fs::read_to_string(run.join("curves.json")).expect("curves.json"))
            .expect("JSON");
    for summary in &summaries {
        let first = &summary["first"];
        let label = format!(
            "{}, depth {}",
            label_of(first["rule"].as_str().expect("rule")),
            first["depth"]
        );
        let score = &summary["score"];
        let games = ["wins", "draws", "losses"]
            .iter()
            .map(|field| score[field].as_u64().expect("count"))
            .collect::<Vec<_>>();
        let row = format!(
            "| {label} | {} | {}/{}/{} |",
            games.iter().sum::<u64>(),
            games[0],
            games[1],
            games[2]
        );
        // A match against the reference is a row of the curves' table; another (an
        // attribution match) a row naming both players, with the same counts.
        let second = &summary["second"];
        let counts = format!(
            "| {} | {}/{}/{} |",
            games.iter().sum::<u64>(),
            games[0],
            games[1],
            games[2]
        );
        let found = if second["rule"] == "one-one" && second["depth"] == 3 {
            report.contains(&row)
        } else {
            let second_label = format!(
                "{}, depth {}",
                label_of(second["rule"].as_str().expect("rule")),
                second["depth"]
            );
            report.lines().any(|line| {
                line.starts_with(&format!("| {label} vs {second_label} |"))
                    && line.contains(&counts)
            })
        };
        assert!(found, "{row} is not in the report");
    }
    let _ = fs::remove_dir_all(&dir);
}

/// A rule's name in the report, from its name in the JSON files.
fn label_of(rule: &str) -> &'static str {
    match rule {
        "one-one" => "1&1",
        "tie-break" => "2&2 tie-break",
        "offset" => "offset",
        "slagle" => "2&2 Slagle",
        "shifted" => "2&2 shifted",
        other => panic!("unknown rule {other}"),
    }
}

#[test]
fn curves_refuse_bad_input_in_one_line() {
    let dir = scratch("curves-bad");
    let out = dir.to_str().expect("UTF-8");
    assert_usage_error_of(&["experiment", "curves", out], "no config.json");
    let run = dir.join("run");
    tiny(&run, &[]);
    let out = run.to_str().expect("UTF-8");
    for (flag, value, message) in [
        ("--reference", "2-2@6", "expected RULE@DEPTH"),
        ("--reference", "slagle@99", "not from 1 to 12"),
        ("--depths", "5-3", "expected FROM-TO"),
        (
            "--rules",
            "1-1",
            "expected slagle, shifted, offset or tie-break",
        ),
        ("--opening-count", "9", "the run has 2 openings"),
    ] {
        assert_usage_error_of(&["experiment", "curves", out, flag, value], message);
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn curves_played_in_shards_merge_into_the_games_of_one_run() {
    let dir = scratch("curves-shards");
    let whole = dir.join("whole");
    tiny(&whole, &[]);
    let copy = |name: &str| {
        let target = dir.join(name);
        fs::create_dir_all(&target).expect("directory");
        for entry in fs::read_dir(&whole).expect("read").flatten() {
            if entry.file_name() != ".gametree.lock" {
                fs::copy(entry.path(), target.join(entry.file_name())).expect("copy");
            }
        }
        target
    };
    let (first, second) = (copy("shard-1"), copy("shard-2"));
    let args = |out: &Path, shard: Option<&str>| {
        let mut args: Vec<String> = [
            "experiment",
            "curves",
            out.to_str().expect("UTF-8"),
            "--depths",
            "2",
            "--one-one-depths",
            "2",
            "--opening-count",
            "2",
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        if let Some(shard) = shard {
            args.extend(["--shard".to_string(), shard.to_string()]);
        }
        args
    };
    let run = |args: Vec<String>| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        success_stdout(&gametree(&args))
    };
    run(args(&whole, None));
    run(args(&first, Some("1/2")));
    run(args(&second, Some("2/2")));
    let pdns = |run: &Path| -> Vec<(String, String, bool)> {
        let mut games: Vec<(String, String, bool)> = fs::read_to_string(run.join("curves.jsonl"))
            .expect("curves.jsonl")
            .lines()
            .map(|line| {
                let record: serde_json::Value = serde_json::from_str(line).expect("JSON");
                (
                    record["key"].as_str().expect("key").to_string(),
                    record["pdn"].as_str().expect("pdn").to_string(),
                    record["first_black"].as_bool().expect("colour"),
                )
            })
            .collect();
        games.sort();
        games
    };
    // Each shard plays whole openings: as many games with each colour.
    for shard in [&first, &second] {
        let games = pdns(shard);
        let black = games.iter().filter(|(_, _, black)| *black).count();
        assert_eq!(2 * black, games.len(), "{}", shard.display());
    }
    let merged = dir.join("merged");
    success_stdout(&gametree(&[
        "experiment",
        "merge",
        first.to_str().expect("UTF-8"),
        second.to_str().expect("UTF-8"),
        "--out",
        merged.to_str().expect("UTF-8"),
    ]));
    assert_eq!(pdns(&merged), pdns(&whole));
    assert!(merged.join("curves.json").exists());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn typical_positions_come_in_the_phase_shares_asked_for() {
    let dir = scratch("phase-shares");
    let run = dir.join("run");
    tiny(&run, &["--phase-shares", "30,30,40"]);
    // 40 positions: 12 openings (20 pieces or more), 12 middle games, 16 endgames.
    let mut counts = [0usize; 3];
    for line in fs::read_to_string(run.join("positions.fen"))
        .expect("positions")
        .lines()
    {
        let position = gametree::games::checkers::Position::from_fen(line).expect("FEN");
        counts[match position.piece_count() {
            20.. => 0,
            12..=19 => 1,
            _ => 2,
        }] += 1;
    }
    assert_eq!(counts, [12, 12, 16]);
    let out = run.to_str().expect("UTF-8");
    let report = success_stdout(&gametree(&["experiment", "report", out]));
    assert!(report.contains("--phase-shares 30,30,40"));
    assert!(report.contains("30% openings"));
    for (shares, message) in [
        ("30,30", "three whole percentages"),
        ("50,50,10", "adding up to 100"),
    ] {
        assert_usage_error_of(&["experiment", "slagle", "--phase-shares", shares], message);
    }
    assert_usage_error_of(
        &[
            "experiment",
            "slagle",
            "--game",
            "kalah",
            "--phase-shares",
            "30,30,40",
        ],
        "applies to checkers",
    );
    let _ = fs::remove_dir_all(&dir);
}
