//! The cost–strength charts and tables of the report (issue 15): each curve player's Elo
//! against the reference set against its mean positions and CPU time a move, and the
//! attribution matches.

use std::fmt::Write as _;
use std::path::Path;

use plotters::prelude::*;

use super::curves::{CurvePlayer, PairingSummary, Rule};
use super::matches::SideStats;

/// The chart files, in the result directory.
pub const CURVE_CHARTS: [(&str, Cost); 2] = [
    ("curve-nodes.svg", Cost::Positions),
    ("curve-time.svg", Cost::CpuTime),
];

/// What a player's cost is measured in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cost {
    /// Mean positions examined a move.
    Positions,
    /// Mean CPU milliseconds a move.
    CpuTime,
}

impl Cost {
    /// The mean cost a move of the searches `stats` counts.
    fn of(self, stats: &SideStats) -> f64 {
        let (nodes, milliseconds, _) = stats.per_move();
        match self {
            Cost::Positions => nodes,
            Cost::CpuTime => milliseconds,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Cost::Positions => "mean positions examined a move (log scale)",
            Cost::CpuTime => "mean CPU milliseconds a move (log scale)",
        }
    }
}

/// Elo beyond this (a score of 0 or 1) is drawn at the edge.
const ELO_EDGE: f64 = 800.0;

/// A point of a curve: a player, its cost and its Elo against the reference with the 95%
/// interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurvePoint {
    /// The player.
    pub player: CurvePlayer,
    /// Its cost in the chosen measure.
    pub cost: f64,
    /// Elo against the reference (0 for the reference itself).
    pub elo: f64,
    /// The 95% interval.
    pub low: f64,
    /// The 95% interval.
    pub high: f64,
    /// Whether the player won or lost every game (its Elo is then infinite, drawn at the
    /// chart's edge, and left out of the comparisons).
    pub decided: bool,
}

/// The points of every curve: the matches against `reference`, and the reference itself
/// at Elo 0 with its mean cost over those matches.
#[must_use]
pub fn curve_points(
    reference: CurvePlayer,
    summaries: &[PairingSummary],
    cost: Cost,
) -> Vec<CurvePoint> {
    let against: Vec<&PairingSummary> = summaries
        .iter()
        .filter(|summary| summary.second == reference)
        .collect();
    let mut points: Vec<CurvePoint> = against
        .iter()
        .filter_map(|summary| {
            let elo = summary.elo?;
            Some(CurvePoint {
                player: summary.first,
                cost: cost.of(&summary.first_stats),
                elo: elo.elo.clamp(-ELO_EDGE, ELO_EDGE),
                low: elo.low.clamp(-ELO_EDGE, ELO_EDGE),
                high: elo.high.clamp(-ELO_EDGE, ELO_EDGE),
                decided: !elo.elo.is_finite(),
            })
        })
        .collect();
    let mut total = SideStats::default();
    for summary in &against {
        total.merge(&summary.second_stats);
    }
    if total.moves > 0 {
        points.push(CurvePoint {
            player: reference,
            cost: cost.of(&total),
            elo: 0.0,
            low: 0.0,
            high: 0.0,
            decided: false,
        });
    }
    points.sort_by_key(|point| (point.player.rule, point.player.depth));
    points
}

/// The Elo the 1&1 curve reaches at `cost`, interpolated linearly in log cost between its
/// two nearest points; `None` outside the curve.
#[must_use]
pub fn one_one_at(points: &[CurvePoint], cost: f64) -> Option<f64> {
    let mut curve: Vec<&CurvePoint> = points
        .iter()
        .filter(|point| point.player.rule == Rule::OneOne && point.cost > 0.0 && !point.decided)
        .collect();
    curve.sort_by(|a, b| a.cost.total_cmp(&b.cost));
    curve.windows(2).find_map(|pair| {
        let (left, right) = (pair[0], pair[1]);
        (left.cost <= cost && cost <= right.cost && right.cost > left.cost).then(|| {
            let t = (cost.ln() - left.cost.ln()) / (right.cost.ln() - left.cost.ln());
            left.elo + t * (right.elo - left.elo)
        })
    })
}

fn colour(rule: Rule) -> RGBColor {
    match rule {
        Rule::OneOne => RGBColor(31, 119, 180),
        Rule::Slagle => RGBColor(214, 39, 40),
        Rule::Shifted => RGBColor(44, 160, 44),
        Rule::Offset => RGBColor(148, 103, 189),
        Rule::TieBreak => RGBColor(255, 127, 14),
    }
}

/// Draws both charts into `dir` ([`CURVE_CHARTS`]); nothing when no match against the
/// reference is played yet.
///
/// # Errors
/// A chart that cannot be written, with its path.
pub fn draw_curve_charts(
    dir: &Path,
    reference: CurvePlayer,
    summaries: &[PairingSummary],
) -> Result<(), String> {
    for (file, cost) in CURVE_CHARTS {
        let points = curve_points(reference, summaries, cost);
        if points.len() < 2 {
            continue;
        }
        let path = dir.join(file);
        draw_chart(&path, reference, &points, cost)
            .map_err(|error| format!("{}: {error}", path.display()))?;
    }
    Ok(())
}

fn draw_chart(
    path: &Path,
    reference: CurvePlayer,
    points: &[CurvePoint],
    cost: Cost,
) -> Result<(), Box<dyn std::error::Error>> {
    let (mut low_cost, mut high_cost) = (f64::INFINITY, 0.0f64);
    let (mut low_elo, mut high_elo) = (0.0f64, 0.0f64);
    for point in points.iter().filter(|point| point.cost > 0.0) {
        low_cost = low_cost.min(point.cost);
        high_cost = high_cost.max(point.cost);
        low_elo = low_elo.min(point.low);
        high_elo = high_elo.max(point.high);
    }
    let x_range = (low_cost * 0.7).log10()..(high_cost * 1.4).log10();
    let root = SVGBackend::new(path, (760, 480)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("Elo against {} by cost", reference.label()),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x_range, (low_elo - 40.0)..(high_elo + 40.0))?;
    chart
        .configure_mesh()
        .x_desc(cost.label())
        .y_desc("Elo against the reference (95% interval)")
        .x_label_formatter(&|x| round_significant(10f64.powf(*x)))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()?;
    for rule in Rule::ALL {
        let mut series: Vec<&CurvePoint> = points
            .iter()
            .filter(|point| point.player.rule == rule && point.cost > 0.0)
            .collect();
        if series.is_empty() {
            continue;
        }
        series.sort_by_key(|point| point.player.depth);
        let colour = colour(rule);
        chart
            .draw_series(LineSeries::new(
                series.iter().map(|point| (point.cost.log10(), point.elo)),
                colour.stroke_width(2),
            ))?
            .label(rule.label())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        chart.draw_series(series.iter().map(|point| {
            let x = point.cost.log10();
            PathElement::new(
                vec![(x, point.low), (x, point.high)],
                colour.stroke_width(1),
            )
        }))?;
        chart.draw_series(series.iter().map(|point| {
            EmptyElement::at((point.cost.log10(), point.elo))
                + Circle::new((0, 0), 3, colour.filled())
                + Text::new(
                    format!("{}", point.player.depth),
                    (5, -14),
                    ("sans-serif", 12).into_font(),
                )
        }))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    root.present()?;
    Ok(())
}

fn round_significant(value: f64) -> String {
    if value >= 100.0 {
        format!("{value:.0}")
    } else if value >= 1.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.3}")
    }
}

fn elo_text(summary: &PairingSummary) -> String {
    summary.elo.map_or("–".to_string(), |elo| {
        format!(
            "{} [{}, {}]",
            signed_elo(elo.elo),
            signed_elo(elo.low),
            signed_elo(elo.high)
        )
    })
}

/// An Elo difference with its sign, ±∞ for a score of 1 or 0.
#[must_use]
pub fn signed_elo(elo: f64) -> String {
    if elo == f64::INFINITY {
        "+∞".to_string()
    } else if elo == f64::NEG_INFINITY {
        "−∞".to_string()
    } else {
        format!("{elo:+.0}")
    }
}

/// What each attribution match isolates.
fn isolates(first: Rule, second: Rule) -> &'static str {
    match (first, second) {
        (Rule::TieBreak, Rule::OneOne) => "(a) tie-breaking alone",
        (Rule::Offset, Rule::OneOne) => "(b) a constant per level alone (the null model)",
        (Rule::Shifted, Rule::Offset) => "(c) the bonus for a close second best, over the offset",
        (Rule::Slagle, Rule::TieBreak) => "Slagle's learned bonus beyond tie-breaking",
        _ => "",
    }
}

/// The report's section: the table of every curve player, the charts (linked through
/// `link`, the result directory as the report sees it), the comparison with the 1&1 curve
/// at equal cost, and the attribution matches.
#[must_use]
pub fn curves_markdown(
    reference: CurvePlayer,
    summaries: &[PairingSummary],
    link: &str,
    games_per_match: usize,
) -> String {
    let mut text = String::new();
    let against: Vec<&PairingSummary> = summaries
        .iter()
        .filter(|summary| summary.second == reference)
        .collect();
    let by_nodes = curve_points(reference, summaries, Cost::Positions);
    let by_time = curve_points(reference, summaries, Cost::CpuTime);
    let _ = writeln!(
        text,
        "Each player meets the same reference, **{}**, over every opening with both colours \
         ({games_per_match} games a match when complete). All players search with the same move \
         ordering (killers and the history heuristic below the root) and the same quiescence, so \
         positions and CPU time compare like with like. *1&1 at equal positions* is the Elo the 1&1 \
         curve reaches at the player's positions a move (interpolated in log positions between \
         its two nearest depths; – outside the curve); *ahead* is the player's Elo less that: \
         positive means backing up two values buys more than spending the same positions on \
         1&1 alpha-beta. Files: [`curves.jsonl`]({link}/curves.jsonl) (every game), \
         [`curves.json`]({link}/curves.json).\n",
        reference.label()
    );
    let _ = writeln!(
        text,
        "| player | games | W/D/L | score | Elo vs reference [95%] | positions a move | CPU ms a move | 1&1 at equal positions | ahead | 1&1 at equal time | ahead |"
    );
    let _ = writeln!(
        text,
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    let mut rows: Vec<&&PairingSummary> = against.iter().collect();
    rows.sort_by_key(|summary| (summary.first.rule, summary.first.depth));
    for summary in rows {
        let compare = |points: &[CurvePoint], cost: Cost| -> (String, String) {
            if summary.first.rule == Rule::OneOne {
                return (String::new(), String::new());
            }
            against_curve(points, summary, cost)
                .map_or(("–".to_string(), "–".to_string()), |(base, gap)| {
                    (format!("{base:+.0}"), format!("{gap:+.0}"))
                })
        };
        let (nodes_base, nodes_ahead) = compare(&by_nodes, Cost::Positions);
        let (time_base, time_ahead) = compare(&by_time, Cost::CpuTime);
        let _ = writeln!(
            text,
            "| {} | {} | {} | {:.0} | {:.2} | {nodes_base} | {nodes_ahead} | {time_base} | {time_ahead} |",
            summary.first.label(),
            score_cells(&summary.score),
            elo_text(summary),
            summary.nodes_per_move(),
            summary.milliseconds_per_move(),
        );
    }
    if let Some(point) = by_nodes.iter().find(|point| point.player == reference) {
        let time = by_time
            .iter()
            .find(|point| point.player == reference)
            .map_or(0.0, |point| point.cost);
        let _ = writeln!(
            text,
            "| {} (the reference) | – | – | – | 0 | {:.0} | {time:.2} | | | | |",
            reference.label(),
            point.cost
        );
    }
    let _ = writeln!(text);
    for (file, cost) in CURVE_CHARTS {
        if curve_points(reference, summaries, cost).len() >= 2 {
            let _ = writeln!(
                text,
                "![Elo against {} by {}]({link}/{file})\n",
                reference.label(),
                match cost {
                    Cost::Positions => "positions a move",
                    Cost::CpuTime => "CPU time a move",
                }
            );
        }
    }
    let attribution: Vec<&PairingSummary> = summaries
        .iter()
        .filter(|summary| {
            summary.first.depth == summary.second.depth
                && !isolates(summary.first.rule, summary.second.rule).is_empty()
        })
        .collect();
    if !attribution.is_empty() {
        let _ = writeln!(
            text,
            "### Attribution\n\nThe 2&2 player broken into its ingredients, each against the one \
             below it at the same depth (same ordering, same quiescence). In a search of uniform \
             depth a constant per level is common to all siblings, so the offset family can only \
             differ from 1&1 where leaves lie at different depths: decided positions and the \
             capture sequences of quiescence.\n"
        );
        let _ = writeln!(
            text,
            "| match | isolates | games | W/D/L | score | Elo [95%] | score as Black / White | positions a move (first / second) |"
        );
        let _ = writeln!(text, "|---|---|---:|---|---:|---:|---:|---:|");
        for summary in attribution {
            let _ = writeln!(
                text,
                "| {} vs {} | {} | {} | {} | {} | {:.0} / {:.0} |",
                summary.first.label(),
                summary.second.label(),
                isolates(summary.first.rule, summary.second.rule),
                score_cells(&summary.score),
                elo_text(summary),
                colour_cells(summary),
                summary.nodes_per_move(),
                summary.second_stats.per_move().0,
            );
        }
        let _ = writeln!(text);
    }
    text
}

/// The conclusion's line on cost and strength: for each 2&2 rule, how far its players lie
/// from the 1&1 curve at equal positions and at equal CPU time, over the depths where the
/// 1&1 curve reaches their cost.
#[must_use]
pub fn curves_conclusion(reference: CurvePlayer, summaries: &[PairingSummary]) -> String {
    let by_nodes = curve_points(reference, summaries, Cost::Positions);
    let by_time = curve_points(reference, summaries, Cost::CpuTime);
    let mut parts = Vec::new();
    for rule in Rule::ALL.into_iter().filter(|&rule| rule != Rule::OneOne) {
        if !summaries
            .iter()
            .any(|summary| summary.second == reference && summary.first.rule == rule)
        {
            continue;
        }
        let text = |standing: Standing| {
            standing.range().map(|(low, high)| {
                let range = if (high - low).abs() < 0.5 {
                    format!("{low:+.0} Elo")
                } else {
                    format!("{low:+.0} to {high:+.0} Elo")
                };
                let plural = if standing.gaps.len() == 1 { "" } else { "s" };
                format!("{range} (depth{plural} {})", standing.depths())
            })
        };
        let nodes = text(standing(
            rule,
            reference,
            summaries,
            &by_nodes,
            Cost::Positions,
        ));
        let time = text(standing(
            rule,
            reference,
            summaries,
            &by_time,
            Cost::CpuTime,
        ));
        let mut line = format!("{}: ", rule.label());
        line.push_str(&match (nodes, time) {
            (None, None) => "no player within the 1&1 curve's range of cost".to_string(),
            (nodes, time) => format!(
                "{} from the 1&1 curve at equal positions, {} at equal CPU time",
                nodes.unwrap_or_else(|| "–".to_string()),
                time.unwrap_or_else(|| "–".to_string())
            ),
        });
        parts.push(line);
    }
    if parts.is_empty() {
        return String::new();
    }
    format!(
        "- **Cost and strength** (Elo against {}, each point with a 95% interval of about ±{:.0}): {}.",
        reference.label(),
        typical_half_width(summaries, reference),
        parts.join("; ")
    )
}

/// Where `summary`'s first player stands against the 1&1 curve at its cost: the curve's
/// Elo there, and the player's less it. `None` outside the curve's range of cost, or for a
/// player that won or lost every game (no finite Elo).
fn against_curve(
    points: &[CurvePoint],
    summary: &PairingSummary,
    cost: Cost,
) -> Option<(f64, f64)> {
    let elo = summary.elo.filter(|elo| elo.elo.is_finite())?;
    let base = one_one_at(points, cost.of(&summary.first_stats))?;
    Some((base, elo.elo - base))
}

/// Where one rule's players stand against the 1&1 curve at equal cost.
struct Standing {
    /// Per depth: the player's Elo less the 1&1 curve's at its cost.
    gaps: Vec<(u32, f64)>,
    /// Depths whose whole 95% interval lies below (above) the curve.
    below: usize,
    above: usize,
}

impl Standing {
    /// The least and greatest gap, when there is one.
    fn range(&self) -> Option<(f64, f64)> {
        self.gaps
            .iter()
            .map(|&(_, gap)| gap)
            .fold(None, |range, gap| {
                let (low, high) = range.unwrap_or((gap, gap));
                Some((low.min(gap), high.max(gap)))
            })
    }

    /// The depths with a gap: `4, 5, 6`.
    fn depths(&self) -> String {
        let depths: Vec<String> = self
            .gaps
            .iter()
            .map(|(depth, _)| depth.to_string())
            .collect();
        depths.join(", ")
    }
}

fn standing(
    rule: Rule,
    reference: CurvePlayer,
    summaries: &[PairingSummary],
    points: &[CurvePoint],
    cost: Cost,
) -> Standing {
    let mut standing = Standing {
        gaps: Vec::new(),
        below: 0,
        above: 0,
    };
    let mut players: Vec<&PairingSummary> = summaries
        .iter()
        .filter(|summary| summary.second == reference && summary.first.rule == rule)
        .collect();
    players.sort_by_key(|summary| summary.first.depth);
    for summary in players {
        let (Some((base, gap)), Some(elo)) = (against_curve(points, summary, cost), summary.elo)
        else {
            continue;
        };
        standing.gaps.push((summary.first.depth, gap));
        if elo.high < base {
            standing.below += 1;
        } else if elo.low > base {
            standing.above += 1;
        }
    }
    standing
}

fn describe(standing: &Standing) -> String {
    let (low, high) = standing.range().unwrap_or_default();
    format!(
        "{low:+.0} to {high:+.0} Elo from the 1&1 curve (depths {}; the whole 95% interval below the curve at {} of {}, above it at {})",
        standing.depths(),
        standing.below,
        standing.gaps.len(),
        standing.above
    )
}

/// The answer to Slagle's question in one paragraph, from the cost–strength matches:
/// where the 2&2 players stand against the 1&1 curve at equal positions and at equal CPU
/// time. `None` when no 2&2 player lies within the 1&1 curve's range of cost.
#[must_use]
pub fn curves_answer(reference: CurvePlayer, summaries: &[PairingSummary]) -> Option<String> {
    let by_nodes = curve_points(reference, summaries, Cost::Positions);
    let by_time = curve_points(reference, summaries, Cost::CpuTime);
    let mut sentences = Vec::new();
    // Per family and measure: every depth below the curve, every depth above, or mixed.
    let (mut all_below, mut all_above, mut significant_below, mut significant_above) =
        (true, true, 0, 0);
    for rule in [Rule::Slagle, Rule::Shifted] {
        let nodes = standing(rule, reference, summaries, &by_nodes, Cost::Positions);
        let time = standing(rule, reference, summaries, &by_time, Cost::CpuTime);
        if nodes.gaps.is_empty() && time.gaps.is_empty() {
            continue;
        }
        for measure in [&nodes, &time]
            .into_iter()
            .filter(|standing| !standing.gaps.is_empty())
        {
            all_below &= measure.gaps.iter().all(|(_, gap)| *gap < 0.0);
            all_above &= measure.gaps.iter().all(|(_, gap)| *gap > 0.0);
            significant_below += measure.below;
            significant_above += measure.above;
        }
        let mut sentence = format!(
            "the 2&2 players with {} ",
            match rule {
                Rule::Slagle => "Slagle's learned functions",
                _ => "the shifted family",
            }
        );
        if !nodes.gaps.is_empty() {
            sentence.push_str(&format!(
                "stand {} at equal positions a move",
                describe(&nodes)
            ));
        }
        if !time.gaps.is_empty() {
            if !nodes.gaps.is_empty() {
                sentence.push_str(", and ");
            } else {
                sentence.push_str("stand ");
            }
            sentence.push_str(&format!("{} at equal CPU time", describe(&time)));
        }
        sentences.push(sentence);
    }
    if sentences.is_empty() {
        return None;
    }
    // "No" (or "Yes") only when every family at every depth and both costs lies on the same
    // side of the 1&1 curve, and some depth's whole interval does.
    let verdict = if all_below && significant_below > 0 {
        "**No**: at checkers, backing up the two best values does not pay for its cost. Against"
    } else if all_above && significant_above > 0 {
        "**Yes**: at checkers, backing up the two best values pays for its cost. Against"
    } else {
        "**Not clearly**: the 2&2 players do not lie on one side of the 1&1 curve with any depth's interval clear of it. Against"
    };
    Some(format!(
        "{verdict} the same reference ({}), {}. Each point is one match of its own, with an \
         interval of its own; the 1&1 curve's uncertainty (about as large) is not added, so a \
         single depth's gap is suggestive and the answer rests on the whole curve.",
        reference.label(),
        sentences.join("; ")
    ))
}

/// The median half width of the 95% intervals of the matches against `reference`.
fn typical_half_width(summaries: &[PairingSummary], reference: CurvePlayer) -> f64 {
    let mut widths: Vec<f64> = summaries
        .iter()
        .filter(|summary| summary.second == reference)
        .filter_map(|summary| summary.elo)
        .filter(|elo| elo.low.is_finite() && elo.high.is_finite())
        .map(|elo| (elo.high - elo.low) / 2.0)
        .collect();
    widths.sort_by(f64::total_cmp);
    widths.get(widths.len() / 2).copied().unwrap_or(0.0)
}

/// `0.487 / 0.647`: the first player's score as Black and as White.
fn colour_cells(summary: &PairingSummary) -> String {
    let score = |score: &super::elo::MatchScore| {
        score
            .score()
            .map_or("–".to_string(), |score| format!("{score:.3}"))
    };
    format!(
        "{} / {}",
        score(&summary.as_black),
        score(&summary.as_white)
    )
}

/// How much better the players score as White than as Black, over every match against
/// the reference: the openings' own lean, which any colour split should be read against.
/// `None` without such matches.
#[must_use]
pub fn white_lean(reference: CurvePlayer, summaries: &[PairingSummary]) -> Option<f64> {
    let leans: Vec<f64> = summaries
        .iter()
        .filter(|summary| summary.second == reference)
        .filter_map(|summary| Some(summary.as_white.score()? - summary.as_black.score()?))
        .collect();
    (!leans.is_empty()).then(|| leans.iter().sum::<f64>() / leans.len() as f64)
}

/// What the cost–strength matches say of colour: the split of the tie-breaking and
/// Slagle's players against 1&1 at the reference's depth, set against the ballots' lean.
#[must_use]
pub fn curves_colour_note(reference: CurvePlayer, summaries: &[PairingSummary]) -> Option<String> {
    let lean = white_lean(reference, summaries)?;
    let split = |rule: Rule| {
        summaries
            .iter()
            .find(|summary| {
                summary.first
                    == CurvePlayer {
                        rule,
                        depth: reference.depth,
                    }
                    && summary.second.rule == Rule::OneOne
                    && summary.second.depth == reference.depth
            })
            .map(|summary| {
                format!(
                    "{} against 1&1 at depth {}: {} as Black / White",
                    summary.first.label(),
                    reference.depth,
                    colour_cells(summary)
                )
            })
    };
    let splits: Vec<String> = [Rule::TieBreak, Rule::Slagle]
        .into_iter()
        .filter_map(split)
        .collect();
    Some(format!(
        "In the cost–strength matches (every player ordered alike): {}; over all {} matches against \
         the reference the first player scores on average {lean:+.3} more as White than as Black, \
         the openings' own lean.",
        if splits.is_empty() {
            "no match at the reference's depth".to_string()
        } else {
            splits.join("; ")
        },
        summaries
            .iter()
            .filter(|summary| summary.second == reference)
            .count()
    ))
}

/// `games | W/D/L | score` of a table row.
fn score_cells(score: &super::elo::MatchScore) -> String {
    format!(
        "{} | {}/{}/{} | {:.3}",
        score.games(),
        score.wins,
        score.draws,
        score.losses,
        score.score().unwrap_or(0.5)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::elo::MatchScore;
    use crate::experiment::matches::SideStats;

    fn summary(rule: Rule, depth: u32, wins: u32, losses: u32, nodes: u64) -> PairingSummary {
        let score = MatchScore {
            wins,
            draws: 10,
            losses,
        };
        let moves = 100;
        PairingSummary {
            first: CurvePlayer { rule, depth },
            second: CurvePlayer {
                rule: Rule::OneOne,
                depth: 6,
            },
            score,
            as_black: MatchScore::default(),
            as_white: score,
            elo: score.elo(),
            first_stats: SideStats {
                moves,
                nodes: nodes * moves,
                seconds: nodes as f64 * 1e-6 * moves as f64,
                depth_sum: u64::from(depth) * moves,
            },
            second_stats: SideStats {
                moves,
                nodes: 5000 * moves,
                seconds: 0.005 * moves as f64,
                depth_sum: 6 * moves,
            },
        }
    }

    #[test]
    fn the_answer_says_no_only_when_every_player_lies_below_the_curve() {
        let reference = CurvePlayer {
            rule: Rule::OneOne,
            depth: 6,
        };
        let curve = [
            summary(Rule::OneOne, 4, 5, 15, 500),
            summary(Rule::OneOne, 8, 15, 5, 50_000),
        ];
        let with = |player: PairingSummary| {
            let mut all = curve.to_vec();
            all.push(player);
            curves_answer(reference, &all)
        };
        // Far below the curve at 15,000 positions: 1 win, 10 draws, 60 losses.
        let below = with(summary(Rule::Slagle, 6, 1, 60, 15_000)).expect("inside the curve");
        assert!(below.starts_with("**No**"), "{below}");
        // Far above it.
        let above = with(summary(Rule::Slagle, 6, 60, 1, 15_000)).expect("inside the curve");
        assert!(above.starts_with("**Yes**"), "{above}");
        // On the curve (the reference's own score): neither.
        let level = with(summary(Rule::Slagle, 6, 12, 8, 15_000)).expect("inside the curve");
        assert!(level.starts_with("**Not clearly**"), "{level}");
        // Outside the curve's range of cost: no answer.
        assert_eq!(with(summary(Rule::Slagle, 9, 1, 60, 900_000)), None);
    }

    #[test]
    fn the_one_one_curve_is_interpolated_in_log_cost() {
        let reference = CurvePlayer {
            rule: Rule::OneOne,
            depth: 6,
        };
        let summaries = [
            summary(Rule::OneOne, 4, 5, 15, 500),
            summary(Rule::OneOne, 8, 15, 5, 50_000),
            summary(Rule::Slagle, 6, 10, 10, 15_000),
        ];
        let points = curve_points(reference, &summaries, Cost::Positions);
        // 1&1 at depths 4 and 8 and the reference (depth 6, 5000 positions, Elo 0).
        assert_eq!(points.len(), 4);
        assert_eq!(one_one_at(&points, 5000.0), Some(0.0));
        // Halfway between 5000 and 50000 in log positions.
        let halfway = (5000.0f64 * 50_000.0).sqrt();
        let eight = points
            .iter()
            .find(|point| point.player.depth == 8 && point.player.rule == Rule::OneOne)
            .expect("depth 8")
            .elo;
        let at = one_one_at(&points, halfway).expect("inside the curve");
        assert!((at - eight / 2.0).abs() < 1e-9);
        assert_eq!(one_one_at(&points, 100.0), None);
        let text = curves_markdown(reference, &summaries, "../results/x", 40);
        assert!(text.contains("| 2&2 Slagle, depth 6 | 30 | 10/10/10 | 0.500 |"));
        assert!(text.contains("| 1&1, depth 6 (the reference) |"));
    }
}
