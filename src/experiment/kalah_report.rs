//! The grading's tables and charts, and the written report of a run on Kalah (needs the
//! default `cli` feature).

use std::fmt::Write as _;
use std::path::Path;

use plotters::prelude::*;
use serde::{Deserialize, Serialize};

use super::grading::{Estimate, GradeSummary, PairedDifference, Searcher};
use super::matches::{GameRecord, MatchKind, MatchSummary};
use super::parameters::SlagleParameters;
use super::report::{duration_text, elo_text};
use super::results::{Calibration, ExperimentConfig, FitRow, RunLog};

/// `grading.json`: every (player, depth) summary and the paired differences.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GradingResults {
    /// By player, then depth.
    pub summaries: Vec<GradeSummary>,
    /// 1&1 less 2&2, by depth.
    pub paired: Vec<PairedDifference>,
}

/// `grading.csv`: one row per player and depth.
#[must_use]
pub fn grading_csv(summaries: &[GradeSummary]) -> String {
    let mut text = String::from(
        "player,depth,positions,keeps_value,keeps_low,keeps_high,keeps_outcome,outcome_low,outcome_high,mean_loss,loss_low,loss_high,nodes_per_move\n",
    );
    for summary in summaries {
        let _ = writeln!(
            text,
            "{},{},{},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.1}",
            summary.searcher.label(),
            summary.depth,
            summary.positions,
            summary.keeps_value.value,
            summary.keeps_value.low,
            summary.keeps_value.high,
            summary.keeps_outcome.value,
            summary.keeps_outcome.low,
            summary.keeps_outcome.high,
            summary.mean_loss.value,
            summary.mean_loss.low,
            summary.mean_loss.high,
            summary.nodes_per_move
        );
    }
    text
}

/// `grading-paired.csv`: one row per depth.
#[must_use]
pub fn paired_csv(paired: &[PairedDifference]) -> String {
    let mut text =
        String::from("depth,loss_1and1_minus_2and2,low,high,keeps_2and2_minus_1and1,low,high\n");
    for row in paired {
        let _ = writeln!(
            text,
            "{},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4}",
            row.depth,
            row.loss.value,
            row.loss.low,
            row.loss.high,
            row.keeps_value.value,
            row.keeps_value.low,
            row.keeps_value.high
        );
    }
    text
}

/// Draws `grading-loss.svg` (mean loss a move) and `grading-share.svg` (share of moves
/// that keep the value) in `dir`: each player's depths as a line against nodes a move
/// (logarithmic), with 95% intervals as error bars and each point labelled with its depth.
///
/// # Errors
/// plotters' message when a file cannot be drawn.
pub fn draw_grading_charts(dir: &Path, summaries: &[GradeSummary]) -> Result<(), String> {
    draw_grading_chart(
        &dir.join("grading-loss.svg"),
        summaries,
        "mean loss a move against perfect play (final margin)",
        |summary| summary.mean_loss,
    )?;
    draw_grading_chart(
        &dir.join("grading-share.svg"),
        summaries,
        "share of moves that keep the exact value",
        |summary| summary.keeps_value,
    )
}

fn draw_grading_chart(
    path: &Path,
    summaries: &[GradeSummary],
    label: &str,
    measure: impl Fn(&GradeSummary) -> Estimate,
) -> Result<(), String> {
    if summaries.is_empty() {
        return Ok(());
    }
    let nodes = |summary: &GradeSummary| summary.nodes_per_move.max(1.0);
    let x_low = summaries.iter().map(nodes).fold(f64::INFINITY, f64::min) / 1.5;
    let x_high = summaries.iter().map(nodes).fold(0.0, f64::max) * 1.5;
    let finite = |value: f64| if value.is_finite() { value } else { 0.0 };
    let y_low = summaries
        .iter()
        .map(|summary| finite(measure(summary).low))
        .fold(f64::INFINITY, f64::min)
        .min(0.0);
    let y_high = summaries
        .iter()
        .map(|summary| finite(measure(summary).high))
        .fold(0.0, f64::max)
        * 1.08
        + 1e-9;
    let draw = || -> Result<(), Box<dyn std::error::Error>> {
        let root = SVGBackend::new(path, (720, 440)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("{label}, by depth"), ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d((x_low..x_high).log_scale(), y_low..y_high)?;
        chart
            .configure_mesh()
            .x_desc("positions visited a move (logarithmic)")
            .y_desc(label)
            .draw()?;
        for (searcher, colour) in [
            (Searcher::OneAndOne, RGBColor(31, 119, 180)),
            (Searcher::TwoAndTwo, RGBColor(214, 39, 40)),
        ] {
            let rows: Vec<&GradeSummary> = summaries
                .iter()
                .filter(|summary| summary.searcher == searcher)
                .collect();
            chart
                .draw_series(LineSeries::new(
                    rows.iter().map(|row| (nodes(row), measure(row).value)),
                    colour.stroke_width(2),
                ))?
                .label(format!("{} alpha-beta", searcher.label()))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
            chart.draw_series(rows.iter().map(|row| {
                // The 95% interval as a vertical bar through the point.
                let estimate = measure(row);
                PathElement::new(
                    vec![
                        (nodes(row), finite(estimate.low)),
                        (nodes(row), finite(estimate.high)),
                    ],
                    colour.stroke_width(1),
                )
            }))?;
            chart.draw_series(rows.iter().map(|row| {
                Text::new(
                    format!("{}", row.depth),
                    (nodes(row), measure(row).value),
                    ("sans-serif", 13).into_font().color(&colour),
                )
            }))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()?;
        root.present()?;
        Ok(())
    };
    draw().map_err(|error| format!("{}: {error}", path.display()))
}

/// Everything the report of a run on Kalah is made from.
#[derive(Clone, Debug)]
pub struct KalahReportInput<'a> {
    /// The configuration (with its Kalah part).
    pub config: &'a ExperimentConfig,
    /// The fitted functions, by dmax.
    pub fits: &'a [FitRow],
    /// The parameter file.
    pub parameters: Option<&'a SlagleParameters>,
    /// The equal-cost calibration.
    pub calibration: Option<&'a Calibration>,
    /// The matches.
    pub matches: &'a [MatchSummary],
    /// Every game played.
    pub games: &'a [GameRecord],
    /// The grading, if done.
    pub grading: Option<&'a GradingResults>,
    /// Graded positions, and the solver's mean seconds for all the moves of one.
    pub graded_positions: usize,
    /// The solver's mean seconds a graded position.
    pub solver_seconds: f64,
    /// The machine and times.
    pub run: &'a RunLog,
    /// How the report links to the result directory.
    pub results_link: &'a str,
    /// The result directory as given on the command line.
    pub results_dir: &'a str,
    /// The command that produced the results.
    pub command: &'a str,
    /// `notes.md` of the result directory: the discussion, kept with the results.
    pub notes: Option<&'a str>,
}

/// `1.23 [1.10, 1.35]`, or with `scale` 100 a percentage: `60.1% [57.9, 62.2]`.
fn estimate_text(estimate: Estimate, scale: f64, digits: usize) -> String {
    format!(
        "{:.digits$}{} [{:.digits$}, {:.digits$}]",
        scale * estimate.value,
        if scale == 100.0 { "%" } else { "" },
        scale * estimate.low,
        scale * estimate.high
    )
}

/// The report of a run on Kalah, as Markdown.
#[must_use]
#[allow(clippy::too_many_lines)]
pub fn kalah_report_markdown(input: &KalahReportInput<'_>) -> String {
    let config = input.config;
    let kalah = config
        .kalah
        .clone()
        .unwrap_or_else(|| super::results::KalahConfig {
            houses: 6,
            seeds: 4,
            rules: "irving".to_string(),
            opening_plies: 0,
            grading_positions: 0,
            grading_max_seeds: 0,
            endgame_seeds: 0,
            grading_depth: 0,
        });
    let (h, s) = (kalah.houses, kalah.seeds);
    let link = input.results_link.trim_end_matches('/');
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# Slagle's experiment on Kalah({h}, {s}): 2&2 against 1&1 alpha-beta, every move graded\n\n\
         *Generated by `gametree experiment report {dir}` from the result files in \
         [`{dir}`]({link}/); do not edit by hand.*\n",
        dir = input.results_dir
    );
    let _ = writeln!(
        text,
        "Slagle and Dixon (\"Experiments with the M & N tree-searching program\", CACM 13(3), \
         1970) reported M&N significantly better than ordinary minimaxing at equal depth on \
         Kalah. Kalah can be solved, so here every move the two players make on a fixed set of \
         typical positions is also graded against perfect play: how often it keeps the \
         position's exact value, and how much final margin it gives away.\n\n## Method\n\n\
         1. **Typical positions.** {} distinct positions (pits notation, `positions.txt`) from \
         self-play games out of {} openings of {} random moves from the start (seed {}): each \
         move is looked at {} plies deep by 1&1 alpha-beta with the store difference as \
         evaluation, and the move played is drawn among those within {} (one seed changing \
         sides) of the best. Only positions with two moves or more are kept.\n\
         2. **Learning (Slagle's section 8).** As on checkers: D = {d}; v is the 1&1 value at \
         depth {d}; for dmax = 0 … {last}, a₂ and α are the two best successor values searched \
         dmax deeper by 2&2 with the functions learned so far, all from the side to move; x and \
         y of v = a₂ + 2^(x − (a₂ − α)·y) are fitted by least squares{mono}. Kalah is the same \
         game for both sides, so one fit serves MAX and MIN positions (x = r, y = s). A Kalah \
         move that ends in the mover's store gives another move: the successor's value is then \
         still taken from the side of the player who moved.\n\
         3. **Grading.** {gp} positions from another stream of self-play games, one from each \
         game, drawn among its positions with {lo} to {hi} seeds left in the houses (so the \
         solver, with an endgame table of {t} seeds, values every move of one in about {secs:.2} \
         s, and no graded position is simply looked up in the table). Every move's exact value \
         comes from the solver (`Solver::analyze`). For 1&1 and 2&2 alpha-beta at each depth 1 \
         to {gd}, the move chosen is graded: it *keeps the value* when its exact value equals \
         the best move's, and its *loss* is best − chosen, in final margin (South's store less \
         North's at the end; a seed that changes sides counts 2). Intervals are 95%: Wilson for \
         the share, mean ± 1.96·s/√n over positions for the loss, and for the paired \
         differences (1&1 less 2&2 on the same position).\n\
         4. **Matches.** Each opening is played twice, colours reversed, in three matches as on \
         checkers (equal depth D; equal cost, 1&1 deepening to 2&2's nodes on each move; equal \
         cost, 1&1 at the fixed deeper depth of nearest mean cost). A game is scored by its \
         final margin: win, draw or loss; the mean margin is given with its 95% interval, the \
         score with its Elo interval.\n",
        config.positions,
        config.openings.len(),
        kalah.opening_plies,
        config.seed,
        config.sampling.search_depth,
        config.sampling.margin,
        d = config.depth,
        last = config.depth.saturating_sub(2),
        mono = if config.monotone {
            ", held to Slagle's monotonicity condition"
        } else {
            " with y > 0 (the monotonicity condition is not imposed)"
        },
        gp = input.graded_positions,
        lo = kalah.endgame_seeds + 1,
        hi = kalah.grading_max_seeds,
        t = kalah.endgame_seeds,
        secs = input.solver_seconds,
        gd = kalah.grading_depth,
    );
    text.push_str("## Configuration, machine and time\n\n| | |\n|---|---|\n");
    let _ = writeln!(text, "| command | `{}` |", input.command);
    let _ = writeln!(text, "| board | Kalah({h}, {s}), {} rules |", kalah.rules);
    let _ = writeln!(text, "| D (full depth) | {} |", config.depth);
    let _ = writeln!(text, "| typical positions | {} |", config.positions);
    let _ = writeln!(
        text,
        "| openings | {} ({}) |",
        config.openings.len(),
        config.openings_source
    );
    if let Some(calibration) = input.calibration {
        let _ = writeln!(
            text,
            "| cost on {} typical positions | at depth {} 2&2 visits {:.0} positions per search, 1&1 {:.0}{} |",
            calibration.positions,
            config.depth,
            calibration.two_two_mean_nodes,
            calibration.one_one_mean_nodes,
            calibration
                .one_one_deeper_mean_nodes
                .iter()
                .map(|(depth, nodes)| format!("; 1&1 at depth {depth}: {nodes:.0}"))
                .collect::<String>()
        );
    }
    let run = input.run;
    let _ = writeln!(
        text,
        "| machine | {}, {} cores, {} worker threads |",
        run.machine, run.cores, run.jobs
    );
    for (phase, seconds) in &run.seconds {
        let _ = writeln!(text, "| time: {phase} | {} |", duration_text(*seconds));
    }
    let total: f64 = run.seconds.values().sum();
    let _ = writeln!(text, "| time: total | {} |", duration_text(total));
    text.push_str(
        "\n## The learned functions\n\nOne row per dmax; values in final margin (store difference). \
         *Monotone*: Slagle's condition y·2^x·ln 2 ≤ 1, under which m&n alpha-beta may take every \
         cutoff it takes for 1&1 (it returns the m&n minimax value either way).\n\n\
         | dmax | x (= r) | y (= s) | RMS fit | RMS 1&1 | mean v − a₂ | samples | monotone |\n\
         |---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    for row in input.fits {
        let fit = &row.fit;
        let _ = writeln!(
            text,
            "| {} | {:.3} | {:.4} | {:.3} | {:.3} | {:+.3} | {} | {} |",
            row.dmax,
            fit.shift,
            fit.slope,
            fit.rms_error,
            fit.rms_error_minimax,
            fit.mean_excess,
            fit.samples,
            if fit.monotone { "yes" } else { "no" }
        );
    }
    text.push('\n');
    for row in input.fits {
        let _ = writeln!(
            text,
            "![dmax {d}: v − a₂ against a₂ − α]({link}/fit-dmax-{d}.svg)\n",
            d = row.dmax
        );
    }
    if let Some(grading) = input.grading {
        text.push_str(
            "## Every move graded\n\nPer depth: the share of moves that keep the exact value, \
             the mean loss a move (final margin), positions visited a move, and 1&1 less 2&2 on \
             the same positions (a positive loss difference: 2&2 loses less). 95% intervals in \
             brackets.\n\n\
             | depth | 1&1 keeps | 2&2 keeps | 1&1 loss | 2&2 loss | 1&1 nodes | 2&2 nodes | loss 1&1 − 2&2 | keeps 2&2 − 1&1 |\n\
             |---:|---|---|---|---|---:|---:|---|---|\n",
        );
        let find = |searcher, depth| {
            grading
                .summaries
                .iter()
                .find(|summary| summary.searcher == searcher && summary.depth == depth)
        };
        for paired in &grading.paired {
            let (Some(one), Some(two)) = (
                find(Searcher::OneAndOne, paired.depth),
                find(Searcher::TwoAndTwo, paired.depth),
            ) else {
                continue;
            };
            let _ = writeln!(
                text,
                "| {} | {} | {} | {} | {} | {:.0} | {:.0} | {} | {} |",
                paired.depth,
                estimate_text(one.keeps_value, 100.0, 1),
                estimate_text(two.keeps_value, 100.0, 1),
                estimate_text(one.mean_loss, 1.0, 2),
                estimate_text(two.mean_loss, 1.0, 2),
                one.nodes_per_move,
                two.nodes_per_move,
                estimate_text(paired.loss, 1.0, 2),
                estimate_text(paired.keeps_value, 100.0, 1),
            );
        }
        text.push_str(
            "\nThe share of moves that keep the *outcome* (a won position won, a drawn one \
             drawn), what a match scores:\n\n| depth | 1&1 keeps the outcome | 2&2 keeps the outcome |\n|---:|---|---|\n",
        );
        for paired in &grading.paired {
            if let (Some(one), Some(two)) = (
                find(Searcher::OneAndOne, paired.depth),
                find(Searcher::TwoAndTwo, paired.depth),
            ) {
                let _ = writeln!(
                    text,
                    "| {} | {} | {} |",
                    paired.depth,
                    estimate_text(one.keeps_outcome, 100.0, 1),
                    estimate_text(two.keeps_outcome, 100.0, 1)
                );
            }
        }
        let _ = writeln!(
            text,
            "\n![mean loss a move against nodes a move]({link}/grading-loss.svg)\n\n\
             ![share of moves that keep the value against nodes a move]({link}/grading-share.svg)\n\n\
             The data: [`grades.jsonl`]({link}/grades.jsonl) (each position's exact move values \
             and graded moves), [`grading.csv`]({link}/grading.csv), \
             [`grading-paired.csv`]({link}/grading-paired.csv).\n"
        );
    }
    text.push_str(
        "## The matches\n\nFrom 2&2's side. Nodes are per move searched.\n\n\
         | match | games | wins | draws | losses | score | Elo [95%] | mean margin [95%] | 2&2 nodes/move | 1&1 nodes/move | 1&1 depth |\n\
         |---|---:|---:|---:|---:|---:|---|---|---:|---:|---:|\n",
    );
    for summary in input.matches {
        let (two_nodes, _, _) = summary.two_two.per_move();
        let (one_nodes, _, one_depth) = summary.one_one.per_move();
        let margins: Vec<f64> = input
            .games
            .iter()
            .filter(|game| game.kind == summary.kind)
            .filter_map(|game| game.margin.map(f64::from))
            .collect();
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {:.0} | {:.0} | {:.2} |",
            summary.kind.label(),
            summary.score.games(),
            summary.score.wins,
            summary.score.draws,
            summary.score.losses,
            summary
                .points_per_game
                .map_or("–".to_string(), |p| format!("{p:.3}")),
            elo_text(summary),
            if margins.is_empty() {
                "–".to_string()
            } else {
                estimate_text(Estimate::mean(&margins), 1.0, 2)
            },
            two_nodes,
            one_nodes,
            one_depth
        );
    }
    let _ = writeln!(
        text,
        "\nThe games, one a line (`start`, the houses played 1-based from the mover's left, \
         South's final `margin`): {}.",
        MatchKind::ALL
            .iter()
            .map(|kind| {
                let name = kind.pdn_file().replace(".pdn", ".txt");
                format!("[`{name}`]({link}/{name})")
            })
            .collect::<Vec<_>>()
            .join(", ")
    );
    if let Some(notes) = input.notes {
        let _ = writeln!(text, "\n## Discussion\n\n{}", notes.trim_end());
    }
    if let Some(parameters) = input.parameters {
        let _ = writeln!(
            text,
            "\n## The parameter file\n\n```json\n{}```",
            parameters.to_json()
        );
    }
    text
}
