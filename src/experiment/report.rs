//! Tables, charts and the written report of a run, generated from its result files (needs
//! the default `cli` feature).

use std::fmt::Write as _;
use std::path::Path;

use plotters::prelude::*;

use super::elo::MatchScore;
use super::learning::LearningSample;
use super::matches::{MatchKind, MatchSummary};
use super::parameters::SlagleParameters;
use super::results::{Calibration, ExperimentConfig, FitRow, RunLog};

/// Points of a chart's scatter at most: the data of a dmax is thinned to this many, evenly
/// by position, so the SVG files stay small.
const CHART_POINTS: usize = 1500;
/// Bins of the chart's line of mean excess.
const CHART_BINS: usize = 24;

/// `fits.csv`: one row per dmax.
#[must_use]
pub fn fits_csv(rows: &[FitRow]) -> String {
    let mut text = String::from(
        "dmax,kind,x_or_r,y_or_s,rms_error,rms_error_1and1,mean_excess,samples,decided,monotone\n",
    );
    for row in rows {
        let fit = &row.fit;
        let _ = writeln!(
            text,
            "{},{},{:.6},{:.6},{:.3},{:.3},{:.3},{},{},{}",
            row.dmax,
            row.kind,
            fit.shift,
            fit.slope,
            fit.rms_error,
            fit.rms_error_minimax,
            fit.mean_excess,
            fit.samples,
            row.decided,
            fit.monotone
        );
    }
    text
}

/// `matches.csv`: one row per match, from 2&2's side.
#[must_use]
pub fn matches_csv(summaries: &[MatchSummary]) -> String {
    let mut text = String::from(
        "match,games,wins,draws,losses,score,elo,elo_low,elo_high,\
         two_two_nodes_per_move,one_one_nodes_per_move,two_two_ms_per_move,one_one_ms_per_move,\
         one_one_mean_depth\n",
    );
    for summary in summaries {
        let score = summary.score;
        let (two_nodes, two_ms, _) = summary.two_two.per_move();
        let (one_nodes, one_ms, one_depth) = summary.one_one.per_move();
        let elo = summary
            .elo
            .map_or((f64::NAN, f64::NAN, f64::NAN), |e| (e.elo, e.low, e.high));
        let _ = writeln!(
            text,
            "{},{},{},{},{},{:.4},{:.1},{:.1},{:.1},{:.0},{:.0},{:.3},{:.3},{:.2}",
            summary.kind.label(),
            score.games(),
            score.wins,
            score.draws,
            score.losses,
            summary.points_per_game.unwrap_or(f64::NAN),
            elo.0,
            elo.1,
            elo.2,
            two_nodes,
            one_nodes,
            two_ms,
            one_ms,
            one_depth
        );
    }
    text
}

/// The SVG chart of one dmax: the excess v − a₂ against the gap a₂ − α of (at most
/// `CHART_POINTS` of) the samples, the mean excess in bins of the gap, and the fitted
/// bonus 2^(x − gap·y).
///
/// # Errors
/// plotters' message when the file cannot be drawn.
pub fn draw_fit_chart(path: &Path, row: &FitRow, samples: &[LearningSample]) -> Result<(), String> {
    let mut points: Vec<(f64, f64)> = samples
        .iter()
        .filter(|sample| !sample.is_decided())
        .map(|sample| {
            let observation = sample.observation();
            (observation.gap, observation.excess)
        })
        .collect();
    let mut gaps: Vec<f64> = points.iter().map(|point| point.0).collect();
    let mut excesses: Vec<f64> = points.iter().map(|point| point.1).collect();
    gaps.sort_by(f64::total_cmp);
    excesses.sort_by(f64::total_cmp);
    let quantile = |sorted: &[f64], q: f64| -> f64 {
        if sorted.is_empty() {
            0.0
        } else {
            sorted[((sorted.len() - 1) as f64 * q).round() as usize]
        }
    };
    let gap_high = quantile(&gaps, 0.98).max(1.0);
    let fit = row.fit;
    let curve_top = fit.bonus(0.0).min(1e6);
    let excess_low = quantile(&excesses, 0.02).min(0.0) - 1.0;
    let excess_high = quantile(&excesses, 0.98)
        .max(curve_top.min(quantile(&excesses, 1.0)))
        .max(1.0)
        + 1.0;
    // Mean excess per bin of the gap, over all the data.
    let mut bins = vec![(0.0, 0usize); CHART_BINS];
    for &(gap, excess) in &points {
        let bin = ((gap / gap_high) * CHART_BINS as f64) as usize;
        if bin < CHART_BINS {
            bins[bin].0 += excess;
            bins[bin].1 += 1;
        }
    }
    let step = points.len().div_ceil(CHART_POINTS).max(1);
    points = points.into_iter().step_by(step).collect();
    let draw = || -> Result<(), Box<dyn std::error::Error>> {
        let root = SVGBackend::new(path, (720, 440)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!(
                    "dmax {} ({} positions): v - a2 against a2 - alpha",
                    row.dmax, row.kind
                ),
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..gap_high, excess_low..excess_high)?;
        chart
            .configure_mesh()
            .x_desc("a2 - alpha: best less second-best successor value (points)")
            .y_desc("v - a2 (points)")
            .draw()?;
        let grey = RGBColor(150, 150, 150).mix(0.5);
        chart
            .draw_series(
                points
                    .iter()
                    .filter(|(gap, excess)| {
                        *gap <= gap_high && (excess_low..=excess_high).contains(excess)
                    })
                    .map(|&point| Circle::new(point, 2, grey.filled())),
            )?
            .label("positions")
            .legend(move |(x, y)| Circle::new((x + 10, y), 3, grey.filled()));
        let blue = RGBColor(31, 119, 180);
        chart
            .draw_series(LineSeries::new(
                bins.iter()
                    .enumerate()
                    .filter(|(_, (_, count))| *count > 0)
                    .map(|(index, (sum, count))| {
                        (
                            (index as f64 + 0.5) * gap_high / CHART_BINS as f64,
                            sum / *count as f64,
                        )
                    }),
                blue.stroke_width(2),
            ))?
            .label("mean of v - a2 per bin")
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], blue.stroke_width(2))
            });
        let red = RGBColor(214, 39, 40);
        chart
            .draw_series(LineSeries::new(
                (0..=200).map(|index| {
                    let gap = gap_high * f64::from(index) / 200.0;
                    (gap, fit.bonus(gap).min(excess_high))
                }),
                red.stroke_width(2),
            ))?
            .label(format!(
                "fit: 2^({:.3} - {:.4} (a2 - alpha))",
                fit.shift, fit.slope
            ))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], red.stroke_width(2)));
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

/// Everything the written report is made from.
#[derive(Clone, Debug)]
pub struct ReportInput<'a> {
    /// The configuration.
    pub config: &'a ExperimentConfig,
    /// The fitted functions, by dmax.
    pub fits: &'a [FitRow],
    /// The parameter file.
    pub parameters: Option<&'a SlagleParameters>,
    /// The equal-cost calibration.
    pub calibration: Option<&'a Calibration>,
    /// The two matches.
    pub matches: &'a [MatchSummary],
    /// Games expected per match.
    pub games_per_match: usize,
    /// The machine and times.
    pub run: &'a RunLog,
    /// How the report links to the result directory (a path relative to the report).
    pub results_link: &'a str,
    /// The result directory as given on the command line.
    pub results_dir: &'a str,
    /// The command that produced the results, as the user would type it.
    pub command: &'a str,
    /// Notes kept with the results (`notes.md` in the result directory), printed as they
    /// are under "Notes".
    pub notes: Option<&'a str>,
    /// The three families of backing-up functions fitted at each dmax
    /// ([`super::compare_families`] on the learning samples); empty without samples.
    pub families: &'a [(u32, Vec<super::FamilyComparison>)],
    /// Each match split by 2&2's colour ([`super::colour_split`]).
    pub colours: &'a [super::ColourSplit],
    /// The typical positions in each phase, and the families fitted by phase and dmax
    /// ([`super::phase_fits`]); empty without positions.
    pub phases: (&'a [(super::Phase, usize)], &'a [super::PhaseFits]),
    /// The cost–strength matches, when `gametree experiment curves` has played in the
    /// directory.
    pub curves: Option<&'a CurvesText>,
    /// The package's docs/ as the report links to it (for the primer's picture,
    /// docs/images/m-and-n-primer.svg, and docs/m-and-n.md), when it can be found.
    pub docs_link: Option<&'a str>,
    /// The 1&1 player's match against an independent engine (`engine.json`), when the
    /// directory names one.
    pub engine: Option<&'a super::EngineStrength>,
}

/// The parts of the report that come from the cost–strength matches.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CurvesText {
    /// The section *Cost and strength* ([`super::curves_markdown`]).
    pub section: String,
    /// Its line of the conclusion ([`super::curves_conclusion`]).
    pub conclusion: String,
    /// The answer to Slagle's question ([`super::curves_answer`]), when some 2&2 player
    /// lies within the 1&1 curve's range of cost.
    pub answer: Option<String>,
    /// What the matches say of colour ([`super::curves_colour_note`]).
    pub colour: Option<String>,
}

/// What m&n backing up is, before the method: the notation of docs/m-and-n.md.
fn primer_section(text: &mut String, docs: Option<&str>) {
    let procedure = docs.map_or("docs/m-and-n.md".to_string(), |docs| {
        format!("[m-and-n.md]({docs}/m-and-n.md)")
    });
    let _ = write!(
        text,
        "## m&n in brief\n\nA search that looks D plies ahead values the positions at its \
         horizon by a static evaluation and *backs up* values towards the root. Ordinary \
         minimaxing — 1&1 — gives a position the best of its successors' values: the greatest \
         where MAX is to move, the least where MIN is. Slagle's m&n minimaxing backs up the m \
         best at MAX positions and the n best at MIN positions. With 2&2, a MAX position whose \
         best successor is worth a₂ and second best α is worth v = a₂ + 2^(x − (a₂ − α)·y): a \
         bonus for having a good second choice, 2^x when the two are equal, fading as the gap \
         a₂ − α grows, the faster the larger y. A MIN position is worth b₂ − 2^(r − (β − b₂)·s), \
         b₂ its least successor value and β the next. The parameters may depend on dmax, the \
         plies searched below the successors. Slagle proposed to learn them: search typical \
         positions D plies deep and take that value v as the truth, then fit x and y so that \
         shallower 2&2 searches predict it. The m&n alpha-beta procedure (Appendix C) returns \
         what m&n minimaxing returns while examining less of the tree, but it prunes less than \
         1&1 alpha-beta, since the second best must be known too: 2&2 costs more positions at \
         the same depth. The question is whether its better estimate repays the cost. \
         {procedure} explains the procedure.\n\n",
    );
    if let Some(docs) = docs {
        let _ = writeln!(
            text,
            "![2&2 backing up at a MAX position: a₂ = 30, α = 25, the bonus 2^(x − 5y)]({docs}/images/m-and-n-primer.svg)\n"
        );
    }
}

/// What could explain the numbers other than m&n itself, read off the results.
fn threats_section(text: &mut String, input: &ReportInput<'_>) {
    let config = input.config;
    text.push_str(
        "\n## Threats to validity\n\nRead the answer and the conclusion with these in mind.\n\n",
    );
    let floor: Vec<String> = input
        .fits
        .iter()
        .filter(|row| row.fit.shift <= super::fitting::LEAST_SHIFT + 1e-9)
        .map(|row| row.dmax.to_string())
        .collect();
    let attribution = if input.curves.is_some() {
        " The attribution match (a) under *Cost and strength* measures tie-breaking alone."
    } else {
        ""
    };
    let _ = writeln!(
        text,
        "1. **A tie-breaker, not a bonus.** {}{attribution}",
        if floor.is_empty() {
            "Every learned function has a bonus above the floor.".to_string()
        } else {
            format!(
                "At dmax {} the fit sits at the floor x = {}: there the learned 2&2 backs up \
                 a₂ + 2^{} at most — 1&1 with ties broken in favour of a close second best — \
                 at the cost of a 2&2 search.",
                floor.join(", "),
                super::fitting::LEAST_SHIFT,
                super::fitting::LEAST_SHIFT
            )
        }
    );
    let below: Vec<String> = input
        .fits
        .iter()
        .filter(|row| row.fit.mean_excess < 0.0)
        .map(|row| row.dmax.to_string())
        .collect();
    let shifted_better = levels_where(input.families, super::Family::Shifted, decisive);
    let _ = writeln!(
        text,
        "2. **The shape of the family.** Slagle's family can only add to a₂; the deep value is \
         on average below the best shallow one {} (of {}). The shifted family (with an \
         offset) beats the offset alone decisively (ΔAIC ≤ −10) {} (*Three \
         families*).{}",
        at_levels(&below),
        input.fits.len(),
        at_levels(&shifted_better),
        if input.curves.is_some() {
            " Its players are in the cost–strength table."
        } else {
            ""
        }
    );
    let _ = writeln!(
        text,
        "3. **Depth parity.** {}",
        if config.quiescence_plies > 0 {
            format!(
                "Every search goes on past its depth while a capture is forced (at most {} \
                 plies); results/quiescence/parity.txt measures the swing of the values from \
                 one depth to the next with and without it.",
                config.quiescence_plies
            )
        } else {
            "No quiescence: the values swing with the parity of the depth (the sign of v − a₂ \
             flips between D = 6 and D = 7), and the equal-cost match pits 2&2 at D against 1&1 \
             at D + 1. The run with `--quiescence` (docs/slagle-experiment-quiescence.md) removes \
             most of it."
                .to_string()
        }
    );
    if let Some(split) = input
        .colours
        .iter()
        .find(|split| split.kind == MatchKind::EqualDepth && split.pairs > 0)
    {
        let _ = writeln!(
            text,
            "4. **Colour.** At equal depth 2&2 scored {:.3} as Black and {:.3} as White (paired \
             test over the openings: z = {}). The learned functions are fitted from the side to \
             move, one fit for both colours. {}",
            split.as_black.score().unwrap_or(0.5),
            split.as_white.score().unwrap_or(0.5),
            split.z.map_or("–".to_string(), |z| format!("{z:+.2}")),
            match (
                input.curves.and_then(|curves| curves.colour.as_deref()),
                split.z
            ) {
                (Some(note), _) => note,
                (None, Some(z)) if z.abs() >= 1.96 =>
                    "An effect of colour that large is not explained here.",
                (None, _) => "The split is within chance at the 5% level.",
            }
        );
    }
    let _ = writeln!(
        text,
        "5. **The baseline.** {}{} The equal-cost matches are not independent of the \
         equal-depth one: the same openings, and deterministic players.",
        if config.ordered {
            "Both match players order their moves with killers and the history heuristic."
        } else {
            "In the three matches above both players search successors in the game's order (as \
             Slagle's procedure does), and 1&1's iterative deepening at equal cost does not \
             reorder either."
        },
        if input.curves.is_some() {
            " In the cost–strength matches every player orders its moves the same way (killers \
             and the history heuristic) and cost is counted in positions and in the CPU time \
             of the searching thread."
        } else {
            ""
        }
    );
    let endgames = input
        .phases
        .0
        .iter()
        .find(|(phase, _)| *phase == super::Phase::Endgame)
        .map(|(_, count)| *count);
    let total: usize = input.phases.0.iter().map(|(_, count)| count).sum();
    let _ = writeln!(
        text,
        "6. **The depth and the positions.** D = {}{}{}",
        config.depth,
        if config.depth == 8 {
            ", Slagle's own."
        } else {
            "; Slagle proposed 8."
        },
        match endgames {
            Some(endgames) if total > 0 => format!(
                " The typical positions are {:.0}% endgames (11 pieces or fewer); the fits by \
                 phase say whether the functions differ.",
                100.0 * endgames as f64 / total as f64
            ),
            _ => String::new(),
        }
    );
    let equal_depth = input
        .matches
        .iter()
        .find(|summary| summary.kind == MatchKind::EqualDepth)
        .and_then(|summary| summary.elo);
    let _ = writeln!(
        text,
        "7. **Weak players.** {} {} A result about backing-up rules between two weak players \
         may not hold between strong ones.",
        match config.evaluation {
            super::ExperimentEvaluation::Samuel => {
                "Both players evaluate with Samuel's few hand-set terms."
            }
            super::ExperimentEvaluation::Learned => {
                "Both players evaluate with the project's learned evaluation (+164 Elo over \
                 Samuel's in self-play)."
            }
        },
        match (input.engine, config.evaluation) {
            (Some(engine), _) => engine.sentence(input.results_link, equal_depth),
            (None, super::ExperimentEvaluation::Samuel) => {
                "With it, the project's alpha-beta player scored 0.05–0.21 against cake++ 1.22 \
                 at equal depth (docs/checkers.md)."
                    .to_string()
            }
            (None, super::ExperimentEvaluation::Learned) => {
                "Against cake++ 1.22 the full player with it scored 0.284 at 0.1 s a move \
                 (docs/checkers.md)."
                    .to_string()
            }
        }
    );
}

/// The work this experiment sits beside.
fn related_work_section(text: &mut String) {
    text.push_str(
        "\n## Related work\n\n\
         - **Slagle and Dixon (1970)**, *Experiments with the M & N tree-searching program*, \
         CACM 13(3):147–154, played M&N against ordinary minimaxing on Kalah and report M&N \
         significantly better at equal depth: the comparison of the equal-depth match here. \
         The question of cost, which they did not settle, is what the cost–strength curves \
         answer.\n\
         - **Chi and Nau (1987)** compared the product back-up rule with minimax in several \
         games, Kalah among them: a rule other than minimax can win at equal depth, and which \
         one wins depends on the game and on the evaluation's errors.\n\
         - **Nau** on search pathology (*An investigation of the causes of pathology in games*, \
         Artificial Intelligence 19, 1982): in some game trees minimaxing deeper makes worse \
         decisions; the 1&1 curve of the cost–strength matches shows whether deeper search \
         pays here.\n\
         - **Baum and Smith (1997)**, *A Bayesian approach to relevance in game playing*, \
         Artificial Intelligence 97:195–242, back up probability distributions of values \
         instead of numbers: the principled form of what m&n approximates with a bonus for a \
         close second best.\n",
    );
}

/// The families fitted by game phase.
fn phases_section(
    text: &mut String,
    (counts, fits): (&[(super::Phase, usize)], &[super::PhaseFits]),
) {
    if fits.is_empty() {
        return;
    }
    let total: usize = counts.iter().map(|(_, count)| count).sum();
    let shares: Vec<String> = counts
        .iter()
        .map(|(phase, count)| {
            format!(
                "{} {count} ({:.0}%)",
                phase.label(),
                100.0 * *count as f64 / total.max(1) as f64
            )
        })
        .collect();
    let _ = writeln!(
        text,
        "### By game phase

The typical positions by the pieces on the board: {}. The \
         same three families fitted to each phase's samples alone (ΔAIC against the offset \
         family of the same phase and dmax; phases with fewer than 10 samples at a dmax left \
         out):\n\n\
         | phase | dmax | samples | mean v − a₂ | RMS offset | ΔAIC Slagle | ΔAIC shifted | shifted c | shifted x | shifted y |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        shares.join(", ")
    );
    for fit in fits {
        let find = |family| {
            fit.families
                .iter()
                .find(|comparison| comparison.fit.family == family)
        };
        let (Some(offset), Some(slagle), Some(shifted)) = (
            find(super::Family::Offset),
            find(super::Family::Slagle),
            find(super::Family::Shifted),
        ) else {
            continue;
        };
        let _ = writeln!(
            text,
            "| {} | {} | {} | {:+.2} | {:.2} | {:+.1} | {:+.1} | {:+.2} | {:.2} | {:.4} |",
            fit.phase.label(),
            fit.dmax,
            fit.samples,
            fit.mean_excess,
            offset.fit.rms_error(),
            slagle.fit.aic() - offset.fit.aic(),
            shifted.fit.aic() - offset.fit.aic(),
            shifted.fit.offset,
            shifted.fit.shift,
            shifted.fit.slope
        );
    }
    text.push('\n');
}

/// The matches by 2&2's colour, with the paired test over openings.
fn colours_section(text: &mut String, colours: &[super::ColourSplit]) {
    if colours.iter().all(|split| split.pairs == 0) {
        return;
    }
    text.push_str(
        "\n### By colour\n\n2&2's score with each colour, and the paired test over the openings: \
         each opening is played once with 2&2 as Black and once as White, so the mean of \
         (points as Black − points as White) over the openings, over its standard error, is \
         z (|z| > 1.96: a colour effect at the 5% level).\n\n\
         | match | as Black: W/D/L | score | as White: W/D/L | score | openings | mean difference | z |\n\
         |---|---|---:|---|---:|---:|---:|---:|\n",
    );
    for split in colours {
        let score = |score: &MatchScore| {
            score
                .score()
                .map_or("–".to_string(), |value| format!("{value:.3}"))
        };
        let _ = writeln!(
            text,
            "| {} | {}/{}/{} | {} | {}/{}/{} | {} | {} | {:+.3} | {} |",
            split.kind.label(),
            split.as_black.wins,
            split.as_black.draws,
            split.as_black.losses,
            score(&split.as_black),
            split.as_white.wins,
            split.as_white.draws,
            split.as_white.losses,
            score(&split.as_white),
            split.pairs,
            split.mean_difference,
            split.z.map_or("–".to_string(), |z| format!("{z:+.2}"))
        );
    }
}

/// Whether a family's ΔAIC against the offset family is decisive (−10 or less).
fn decisive(delta_aic: f64) -> bool {
    delta_aic <= -10.0
}

/// The dmax at which `family`'s AIC less the offset family's passes `test`.
fn levels_where(
    families: &[(u32, Vec<super::FamilyComparison>)],
    family: super::Family,
    test: fn(f64) -> bool,
) -> Vec<String> {
    families
        .iter()
        .filter(|(_, rows)| {
            let aic_of = |wanted| {
                rows.iter()
                    .find(|row| row.fit.family == wanted)
                    .map(|row| row.fit.aic())
            };
            match (aic_of(family), aic_of(super::Family::Offset)) {
                (Some(aic), Some(offset)) => test(aic - offset),
                _ => false,
            }
        })
        .map(|(dmax, _)| dmax.to_string())
        .collect()
}

/// "at dmax 0, 2" or, for no level, "at no dmax".
fn at_levels(levels: &[String]) -> String {
    if levels.is_empty() {
        "at no dmax".to_string()
    } else {
        format!("at dmax {}", levels.join(", "))
    }
}

/// The section comparing the offset, Slagle's and the shifted family at each dmax.
fn families_section(text: &mut String, families: &[(u32, Vec<super::FamilyComparison>)]) {
    if families.is_empty() {
        return;
    }
    text.push_str(
        "## Three families of backing-up functions\n\nIs the bonus for a close second best \
         there at all? At each dmax the same samples are fitted by three families: *offset*, \
         v = a₂ + c (no dependence on the gap: the null model); *Slagle*, v = a₂ + \
         2^(x − (a₂ − α)·y) (it can only add); *shifted*, v = a₂ + c + 2^(x − (a₂ − α)·y). \
         ΔAIC is Akaike's criterion for normal errors, n·ln(SSE/n) + 2k, less the offset \
         family's (negative is better; −10 or less is decisive). *Held out*: fitted on the \
         typical positions of even index, the RMS error on the odd ones.\n\n\
         | dmax | family | c | x | y | RMS | held out | ΔAIC |\n\
         |---:|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for (dmax, rows) in families {
        let offset_aic = rows
            .iter()
            .find(|row| row.fit.family == super::Family::Offset)
            .map_or(0.0, |row| row.fit.aic());
        for row in rows {
            let fit = &row.fit;
            let (shift, slope) = match fit.family {
                super::Family::Offset => ("–".to_string(), "–".to_string()),
                _ => (format!("{:.2}", fit.shift), format!("{:.4}", fit.slope)),
            };
            let offset = match fit.family {
                super::Family::Slagle => "–".to_string(),
                _ => format!("{:+.2}", fit.offset),
            };
            let _ = writeln!(
                text,
                "| {dmax} | {} | {offset} | {shift} | {slope} | {:.3} | {:.3} | {:+.1} |",
                fit.family.label(),
                fit.rms_error(),
                row.held_out_rms,
                fit.aic() - offset_aic
            );
        }
    }
    let worse = levels_where(families, super::Family::Slagle, |delta| delta > 0.0);
    let slagle_worse = if worse.is_empty() {
        "Slagle's own family is nowhere worse than the offset alone (ΔAIC > 0)".to_string()
    } else {
        format!(
            "Slagle's own family is worse than the offset alone (ΔAIC > 0) {}, where its \
             bonus, which can only add, meets a deep value below the best shallow one",
            at_levels(&worse)
        )
    };
    let _ = writeln!(
        text,
        "\nThe gap matters (the shifted family decisively better than the offset alone, ΔAIC ≤ \
         −10) {}; {slagle_worse}. A slope y near 10⁻⁴ with a large offset is the exponential's \
         straight-line limit: the excess then falls in proportion to the gap.\n",
        at_levels(&levels_where(families, super::Family::Shifted, decisive)),
    );
}

pub(super) fn elo_text(summary: &MatchSummary) -> String {
    summary.elo.map_or_else(
        || "–".to_string(),
        |elo| format!("{:+.0} [{:+.0}, {:+.0}]", elo.elo, elo.low, elo.high),
    )
}

fn verdict(summary: &MatchSummary) -> String {
    let Some(elo) = summary.elo else {
        return "no games were played".to_string();
    };
    let score = summary.score;
    let record = format!(
        "2&2 scored {:.1} of {} ({} wins, {} draws, {} losses; {:+.0} Elo, 95% interval {:+.0} to {:+.0})",
        score.points(),
        score.games(),
        score.wins,
        score.draws,
        score.losses,
        elo.elo,
        elo.low,
        elo.high
    );
    let claim = if elo.low > 0.0 {
        "2&2 alpha-beta is stronger than 1&1: the whole interval lies above zero"
    } else if elo.high < 0.0 {
        "2&2 alpha-beta is weaker than 1&1: the whole interval lies below zero"
    } else {
        "the match cannot tell the two apart: the interval contains zero"
    };
    format!("{claim}. {record}")
}

/// `docs/slagle-experiment.md`: the method, the configuration, the machine and the time,
/// the fitted functions with their charts, the two match tables and a plain conclusion.
#[must_use]
pub fn report_markdown(input: &ReportInput<'_>) -> String {
    let config = input.config;
    let mut text = String::new();
    let link = input.results_link.trim_end_matches('/');
    let _ = writeln!(
        text,
        "# Slagle's proposed experiment: 2&2 alpha-beta against 1&1 alpha-beta at checkers\n\n\
         *Generated by `gametree experiment report {dir}` from the result files in \
         [`{dir}`]({link}/); do not edit by hand.*\n",
        dir = input.results_dir
    );
    text.push_str(
        "In 1963 Slagle proposed (seed 003, section 8) to learn, on checkers, functions that back \
         up the values of the **two** best successors of a position, and to play the resulting \
         2&2 alpha-beta procedure against ordinary (1&1) alpha-beta. He never reported the \
         result. This page reports ours.\n\n",
    );
    if let Some(answer) = input.curves.and_then(|curves| curves.answer.as_deref()) {
        // The answer first, in its first sentence; the evidence and its limits below.
        let first = answer.split(". ").next().unwrap_or(answer);
        let _ = writeln!(
            text,
            "*In short:* {first}. The evidence is under *Cost and strength*, its limits under \
             *Threats to validity*, and the whole answer [below](#the-answer).\n"
        );
    }
    primer_section(&mut text, input.docs_link);
    text.push_str("## Method\n\n");
    let _ = writeln!(
        text,
        "1. **Typical positions.** {} distinct positions (PDN FEN in `positions.fen`) from \
         self-play games out of the openings below, reproducible from seed {}: at every ply each \
         legal move is looked at {} plies deep by 1&1 alpha-beta, and the move played is drawn \
         uniformly among those within {} points (a man is 100) of the best. Only positions with \
         at least two legal moves are kept, since the learning backs up two successors.{}",
        config.positions,
        config.seed,
        config.sampling.search_depth,
        config.sampling.margin,
        config
            .phase_shares
            .map_or(String::new(), |[opening, middle, end]| format!(
                " They are kept in stated proportions (`--phase-shares`): {opening}% openings \
                 (20 pieces or more), {middle}% middle games (12–19), {end}% endgames (11 or \
                 fewer), each phase's positions the first to occur."
            ))
    );
    let _ = writeln!(
        text,
        "2. **Learning (section 8, steps a–g).** D = {d}. Every position gets v, its 1&1 \
         alpha-beta value at depth {d}. Then for dmax = 0, 1, …, {last} in that order, each \
         successor of each position is searched dmax plies deep by 2&2 alpha-beta with the \
         functions learned for smaller dmax, giving a₂ (best) and α (second best), all from the \
         side to move; x and y of v = a₂ + 2^(x − (a₂ − α)·y) are fitted to the points \
         (a₂ − α, v − a₂) by least squares (for each y the best 2^x has a closed form, and y is \
         found by a logarithmic grid and golden-section search){mono}. Section 8 learns even dmax \
         at MIN positions (r, s) and odd dmax at MAX positions (x, y); checkers is the same game \
         for both colours, so with values seen from the side to move the two are one fit, and \
         every position serves at every dmax. The function learned at a dmax is used for both \
         players (x = r, y = s), as the 2&2 player needs when it plays White. Positions where a \
         value is a won or lost game are left out of the fit.",
        d = config.depth,
        last = config.depth.saturating_sub(2),
        mono = if config.monotone {
            ", held to Slagle's monotonicity condition y·2^x·ln 2 ≤ 1"
        } else {
            " with y > 0 (Slagle's monotonicity condition y·2^x·ln 2 ≤ 1 is reported, not imposed: \
             m&n alpha-beta returns what m&n minimaxing returns either way)"
        }
    );
    let _ = writeln!(
        text,
        "3. **Matches.** Each of the {} openings is played twice, colours reversed, in each \
         match. *Equal depth*: both search D = {} plies. *Equal cost*: 2&2 searches D plies; \
         before each 1&1 move 2&2 searches the same position (a shadow search, counted for \
         neither side), and 1&1 deepens iteratively (depth 1, 2, …, {ordering_id}) until it has \
         visited as many positions, then plays the move of its \
         deepest completed iteration — equal nodes on every move, but 1&1 throws away the \
         nodes of the iteration it cannot finish. *Equal cost, 1&1 deeper*: 1&1 searches the \
         fixed depth (D + 1 or more) whose mean cost on the typical positions is nearest \
         2&2's at D, so every node it spends goes into a search it completes. Both sides use the same \
         evaluation ({evaluation}); 1&1 is the m&n procedure with m = n = 1 (same code, so nodes and times \
         compare like with like){ordering}. A game not ended by the rules (no move, threefold repetition, \
         40 moves without a capture or a man move) within {} plies is scored a draw. Every game \
         is kept as PDN.\n",
        config.openings.len(),
        config.depth,
        config.max_plies,
        ordering_id = if config.ordered {
            "each ordered by killers and the history heuristic"
        } else {
            "moves in the game's order, no reordering"
        },
        evaluation = match config.evaluation {
            super::ExperimentEvaluation::Samuel => "Samuel's few hand-set terms",
            super::ExperimentEvaluation::Learned => {
                "the learned evaluation of `gametree checkers`, the weights of \
                 `data/checkers/learned-weights.txt` when the run was made, fitted to game results"
            }
        },
        ordering = if config.ordered {
            "; both order the successors below the root by killers and the history heuristic, \
             which changes no move at a fixed depth, only the positions examined"
        } else {
            "; both search successors in the game's order, as Slagle's procedure does"
        }
    );
    text.push_str("## Configuration, machine and time\n\n| | |\n|---|---|\n");
    let _ = writeln!(text, "| command | `{}` |", input.command);
    let _ = writeln!(
        text,
        "| D (full depth) | {} (Slagle used 8) |",
        config.depth
    );
    let _ = writeln!(text, "| typical positions | {} |", config.positions);
    let _ = writeln!(text, "| seed | {} |", config.seed);
    let _ = writeln!(
        text,
        "| openings | {} from {} |",
        config.openings.len(),
        config.openings_source
    );
    let _ = writeln!(text, "| games | {} per match |", input.games_per_match);
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
        let _ = writeln!(
            text,
            "| 1&1's depth at equal cost | {} |",
            calibration.deeper_depth
        );
    }
    let run = input.run;
    let _ = writeln!(
        text,
        "| machine | {}, {} cores, {} worker threads |",
        run.machine, run.cores, run.jobs
    );
    let total: f64 = run.seconds.values().sum();
    for (phase, seconds) in &run.seconds {
        let _ = writeln!(text, "| time: {phase} | {} |", duration_text(*seconds));
    }
    let _ = writeln!(
        text,
        "| time: total | {} (the sum over {} invocation{} of the command{}) |",
        duration_text(total),
        run.invocations,
        if run.invocations == 1 { "" } else { "s" },
        if run.shards.is_empty() {
            String::new()
        } else {
            format!("; shards {}", run.shards.join(", "))
        }
    );
    let searching: f64 = input
        .matches
        .iter()
        .map(|summary| summary.two_two.seconds + summary.one_one.seconds)
        .sum();
    let _ = writeln!(
        text,
        "| time: the games' searches | {} (both players' searches in every game played, the \
         equal-cost shadow searches left out; counted by each game, so it includes runs \
         stopped before they recorded their phase times) |",
        duration_text(searching)
    );
    text.push_str(
        "\n## The learned functions\n\nOne row per dmax. *RMS fit* is the root mean square of \
         v − (a₂ + 2^(x − (a₂ − α)·y)); *RMS 1&1* that of v − a₂, the error of backing up the best \
         value alone; *mean v − a₂* says whether the deep value tends to exceed the best shallow \
         one at all. The parameter file is [`parameters.json`](",
    );
    let _ = write!(text, "{link}/parameters.json).\n\n");
    text.push_str(
        "| dmax | kind | x (r) | y (s) | RMS fit | RMS 1&1 | mean v − a₂ | samples | left out (decided) | monotone |\n\
         |---:|---|---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    for row in input.fits {
        let fit = &row.fit;
        let _ = writeln!(
            text,
            "| {} | {} | {:.3} | {:.4} | {:.2} | {:.2} | {:+.2} | {} | {} | {} |",
            row.dmax,
            row.kind,
            fit.shift,
            fit.slope,
            fit.rms_error,
            fit.rms_error_minimax,
            fit.mean_excess,
            fit.samples,
            row.decided,
            if fit.monotone { "yes" } else { "no" }
        );
    }
    text.push('\n');
    for row in input.fits {
        let _ = writeln!(
            text,
            "![dmax {d}: v − a₂ against a₂ − α, with the fitted curve]({link}/fit-dmax-{d}.svg)\n",
            d = row.dmax
        );
    }
    families_section(&mut text, input.families);
    phases_section(&mut text, input.phases);
    text.push_str(
        "## The matches\n\nFrom 2&2's side. Elo is 400·log₁₀(p/(1 − p)) for the score p, with a \
         95% interval from the normal approximation of the mean score per game. Nodes and times \
         are per move searched.\n\n\
         | match | games | wins | draws | losses | score | Elo [95% interval] | 2&2 nodes/move | 1&1 nodes/move | 2&2 ms/move | 1&1 ms/move | 1&1 depth |\n\
         |---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|\n",
    );
    for summary in input.matches {
        let (two_nodes, two_ms, _) = summary.two_two.per_move();
        let (one_nodes, one_ms, one_depth) = summary.one_one.per_move();
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} | {} | {} | {} | {:.0} | {:.0} | {:.2} | {:.2} | {:.2} |",
            summary.kind.label(),
            summary.score.games(),
            summary.score.wins,
            summary.score.draws,
            summary.score.losses,
            summary
                .points_per_game
                .map_or("–".to_string(), |p| format!("{p:.3}")),
            elo_text(summary),
            two_nodes,
            one_nodes,
            two_ms,
            one_ms,
            one_depth
        );
    }
    colours_section(&mut text, input.colours);
    let _ = writeln!(
        text,
        "\nThe games: {}.",
        MatchKind::ALL
            .iter()
            .map(|kind| format!("[`{0}`]({link}/{0})", kind.pdn_file()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if let Some(curves) = input.curves {
        let _ = write!(text, "\n## Cost and strength\n\n{}", curves.section);
    }
    threats_section(&mut text, input);
    if let Some(answer) = input.curves.and_then(|curves| curves.answer.as_deref()) {
        let _ = writeln!(text, "\n## The answer\n\n{answer}");
    }
    text.push_str("\n## Conclusion\n\n");
    for summary in input.matches {
        let games = summary.score.games() as usize;
        let partial = if games < input.games_per_match {
            format!(
                " (only {games} of {} games played so far)",
                input.games_per_match
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            text,
            "- **At {}**{partial}: {}.",
            summary.kind.label(),
            verdict(summary)
        );
        if summary.one_one.nodes > 0 {
            let (two_nodes, _, _) = summary.two_two.per_move();
            let (one_nodes, _, one_depth) = summary.one_one.per_move();
            let _ = match summary.kind {
                MatchKind::EqualDepth => writeln!(
                    text,
                    "  2&2 visited {:.1} times as many positions per move as 1&1 at the same depth.",
                    two_nodes / one_nodes
                ),
                MatchKind::EqualCost | MatchKind::EqualCostDepth => writeln!(
                    text,
                    "  2&2 visited {two_nodes:.0} positions per move and 1&1 {one_nodes:.0} \
                     (ratio {:.2}); with them 1&1 completed {one_depth:.2} plies on average.",
                    two_nodes / one_nodes
                ),
            };
        }
    }
    if let Some(curves) = input.curves {
        let _ = writeln!(text, "{}", curves.conclusion);
    }
    let flat: Vec<String> = input
        .fits
        .iter()
        .filter(|row| row.fit.shift <= super::fitting::LEAST_SHIFT + 1e-9)
        .map(|row| format!("{} (mean v − a₂ = {:+.1})", row.dmax, row.fit.mean_excess))
        .collect();
    if !flat.is_empty() {
        let _ = writeln!(
            text,
            "- **No bonus at dmax {}**: there the deep value is on average *below* the best \
             shallow value, and Slagle's family can only add to a₂ (subtract from b₂), so the \
             best fit is no bonus at all (x at its floor {}): at those depths the learned 2&2 \
             function backs up the best value alone, as 1&1 does, but for 2^-30 of a point \
             that only breaks exact ties in favour of two equal best successors.",
            flat.join(", "),
            super::fitting::LEAST_SHIFT
        );
    }
    let learned_anything = input
        .fits
        .iter()
        .any(|row| row.fit.rms_error < row.fit.rms_error_minimax - 1e-9);
    let _ = writeln!(
        text,
        "- **The functions**: {}",
        if learned_anything {
            "at some dmax the fitted bonus predicts the deep value better than the best shallow value alone (RMS fit below RMS 1&1); the table says by how much."
        } else {
            "no fitted bonus predicts the deep value better than the best shallow value alone."
        }
    );
    related_work_section(&mut text);
    if let Some(notes) = input.notes {
        let _ = writeln!(text, "\n## Notes\n\n{}", notes.trim_end());
    }
    if let Some(parameters) = input.parameters {
        let _ = writeln!(
            text,
            "\n## The parameter file\n\n`parameters.json` holds the learned functions for \
             `gametree::experiment::SlagleParameters::from_json` (and any depth-limited m&n search \
             that takes a parameter file): `format` is `{}`, `m` and `n` the values backed up, and \
             `functions` one entry per dmax with `x`, `y` for MAX positions (v = a₂ + \
             2^(x − (a₂ − α)·y)) and `r`, `s` for MIN positions (v = b₂ − 2^(r − (β − b₂)·s)); y \
             and s must be greater than 0. A search deeper than the file uses the entry of the \
             greatest dmax of the same parity beyond it. This run's file:\n\n```json\n{}```",
            super::parameters::PARAMETERS_FORMAT,
            parameters.to_json()
        );
    }
    text
}

/// `1 h 02 min 03 s`, `4 min 05 s`, `6.1 s`.
#[must_use]
pub fn duration_text(seconds: f64) -> String {
    if seconds < 60.0 {
        return format!("{seconds:.1} s");
    }
    let whole = seconds.round() as u64;
    let (hours, minutes, secs) = (whole / 3600, (whole / 60) % 60, whole % 60);
    if hours > 0 {
        format!("{hours} h {minutes:02} min {secs:02} s")
    } else {
        format!("{minutes} min {secs:02} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration_text(6.14), "6.1 s");
        assert_eq!(duration_text(245.0), "4 min 05 s");
        assert_eq!(duration_text(3723.0), "1 h 02 min 03 s");
    }
}
