//! How much Slagle's m&n alpha-beta saves over m&n minimaxing (seed 003, section 7: "m&n
//! minimaxing … generally looks at much more tree"), measured on seeded random trees, and
//! the chart of docs/m-and-n.md.
//!
//! ```sh
//! cargo run --release --example m_and_n_chart                 # writes m-and-n-leaves.svg
//! cargo run --release --example m_and_n_chart -- docs/m-and-n-leaves.svg  # the docs' chart
//! ```
//!
//! Trees: every position has 2 to 8 successors (uniformly), all leaves at the same depth
//! (3 to 8), integer leaf values −50..=50, 30 trees per depth, seeds 0..30. Monotone
//! parameters x = r = 2, y = s = 0.18: (m − 1)·y·2^x·ln 2 ≈ 0.998 ≤ 1 up to m = 3.

use std::error::Error;
use std::path::PathBuf;

use gametree::{
    ExplicitTree, Exponents, MonotoneClaim, RandomTreeConfig, Slagle, Window, alphabeta_value,
    minimax, mn_alphabeta, mn_minimax,
};
use plotters::prelude::*;

const TREES: u64 = 30;
const DEPTHS: std::ops::RangeInclusive<usize> = 3..=8;

/// Totals over the trees of one depth.
#[derive(Default)]
struct Row {
    depth: usize,
    minimax: u64,
    alphabeta: u64,
    minimaxing: [u64; 3],
    pruned: [u64; 3],
    /// 2&2 with the seed's x = r = 3, y = s = 1 (not monotone).
    seed_parameters: u64,
    seed_minimaxing: u64,
    /// 2&2 monotone without the monotone cutoff.
    without_monotone_cutoff: u64,
    /// Trees where trusting x = 3, y = 1 as monotone changed the move or value.
    wrong_when_trusted: u64,
    pruned_nodes: u64,
    pruned_seconds: f64,
}

fn main() -> Result<(), Box<dyn Error>> {
    // In the current directory unless a file is named: the chart in docs/ is rewritten only
    // when asked for.
    let output = std::env::args_os()
        .nth(1)
        .map_or_else(|| PathBuf::from("m-and-n-leaves.svg"), PathBuf::from);
    let monotone = Exponents::new(2.0, 0.18)?;
    let functions: Vec<Slagle> = (1..=3)
        .map(|k| Slagle::new(k, k, monotone, monotone))
        .collect::<Result<_, _>>()?;
    assert!(
        functions
            .iter()
            .all(|f| f.monotonicity_violations().is_empty())
    );
    let seed_exponents = Exponents::new(3.0, 1.0)?;
    let seed_function = Slagle::new(2, 2, seed_exponents, seed_exponents)?;

    let mut rows = Vec::new();
    for depth in DEPTHS {
        let config = RandomTreeConfig {
            branching: 2..=8,
            depth: depth..=depth,
            values: -50..=50,
        };
        let mut row = Row {
            depth,
            ..Row::default()
        };
        for seed in 0..TREES {
            let mut tree = ExplicitTree::random(&config, seed);
            let plain = minimax(&mut tree);
            let pruned = alphabeta_value(&mut tree, Window::full());
            row.minimax += plain.stats.leaves;
            row.alphabeta += pruned.stats.leaves;
            for (index, function) in functions.iter().enumerate() {
                let full = mn_minimax(&mut tree, function);
                let cut = mn_alphabeta(&mut tree, function);
                assert_eq!((full.value, full.best_move), (cut.value, cut.best_move));
                row.minimaxing[index] += full.stats.leaves;
                row.pruned[index] += cut.stats.leaves;
                if index == 1 {
                    row.pruned_nodes += cut.stats.nodes;
                    row.pruned_seconds += cut.stats.elapsed.as_secs_f64();
                }
            }
            assert_eq!(row.pruned[0], row.alphabeta, "1&1 is alpha-beta");
            let without = mn_alphabeta(&mut tree, &MonotoneClaim::withheld(&functions[1]));
            row.without_monotone_cutoff += without.stats.leaves;
            let full = mn_minimax(&mut tree, &seed_function);
            let cut = mn_alphabeta(&mut tree, &seed_function);
            assert_eq!((full.value, full.best_move), (cut.value, cut.best_move));
            row.seed_minimaxing += full.stats.leaves;
            row.seed_parameters += cut.stats.leaves;
            let trusted = mn_alphabeta(&mut tree, &MonotoneClaim::asserted(&seed_function));
            if (trusted.value, trusted.best_move) != (full.value, full.best_move) {
                row.wrong_when_trusted += 1;
            }
        }
        rows.push(row);
    }

    print_tables(&rows);
    draw(&rows, &output)?;
    println!("\nchart written to {}", output.display());
    Ok(())
}

fn fraction(part: u64, whole: u64) -> f64 {
    part as f64 / whole as f64
}

fn print_tables(rows: &[Row]) {
    println!(
        "Leaves examined, totals over {TREES} random trees per depth (branching 2-8, values -50..=50)\n"
    );
    println!("| depth | all leaves | alpha-beta (1&1) | 2&2 alpha-beta | 3&3 alpha-beta |");
    println!("|---:|---:|---:|---:|---:|");
    for row in rows {
        println!(
            "| {} | {} | {} | {} | {} |",
            row.depth, row.minimaxing[0], row.pruned[0], row.pruned[1], row.pruned[2]
        );
    }
    println!("\nFraction of the leaves m&n minimaxing examines that m&n alpha-beta examines\n");
    println!("| depth | 1&1 | 2&2 | 3&3 | 2&2 without the monotone cutoff | 2&2, x = 3, y = 1 |");
    println!("|---:|---:|---:|---:|---:|---:|");
    for row in rows {
        println!(
            "| {} | {:.4} | {:.4} | {:.4} | {:.4} | {:.4} |",
            row.depth,
            fraction(row.pruned[0], row.minimaxing[0]),
            fraction(row.pruned[1], row.minimaxing[1]),
            fraction(row.pruned[2], row.minimaxing[2]),
            fraction(row.without_monotone_cutoff, row.minimaxing[1]),
            fraction(row.seed_parameters, row.seed_minimaxing),
        );
    }
    println!("\nTrusting x = 3, y = 1 as monotone: trees where the move or value went wrong\n");
    println!("| depth | wrong trees (of {TREES}) |");
    println!("|---:|---:|");
    for row in rows {
        println!("| {} | {} |", row.depth, row.wrong_when_trusted);
    }
    let last = rows.last().expect("at least one depth");
    println!(
        "\n2&2 alpha-beta at depth {}: {:.1} M nodes/s",
        last.depth,
        last.pruned_nodes as f64 / last.pruned_seconds / 1e6
    );
}

/// Which total of a row a line of the chart shows.
type LeavesOf = dyn Fn(&Row) -> u64;

fn draw(rows: &[Row], output: &std::path::Path) -> Result<(), Box<dyn Error>> {
    let root = SVGBackend::new(output, (760, 480)).into_drawing_area();
    root.fill(&WHITE)?;
    let most = rows.iter().map(|row| row.minimax).max().unwrap_or(1) as f64;
    let first = *DEPTHS.start() as f64;
    let last = *DEPTHS.end() as f64;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("Leaves examined ({TREES} random trees per depth, branching 2-8)"),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(first - 0.2..last + 0.2, (10.0..most * 2.0).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("depth (plies)")
        .y_desc("leaves (total, log scale)")
        .x_labels(DEPTHS.count())
        .x_label_formatter(&|depth| format!("{depth:.0}"))
        .y_label_formatter(&|leaves| format!("{leaves:.0e}"))
        .draw()?;
    let series: [(&str, RGBColor, Box<LeavesOf>); 4] = [
        (
            "minimax (1&1)",
            RGBColor(120, 120, 120),
            Box::new(|row: &Row| row.minimax),
        ),
        (
            "alpha-beta (1&1)",
            RGBColor(31, 119, 180),
            Box::new(|row: &Row| row.alphabeta),
        ),
        (
            "2&2 minimaxing",
            RGBColor(214, 39, 40),
            Box::new(|row: &Row| row.minimaxing[1]),
        ),
        (
            "2&2 alpha-beta",
            RGBColor(44, 160, 44),
            Box::new(|row: &Row| row.pruned[1]),
        ),
    ];
    for (index, (name, color, leaves)) in series.iter().enumerate() {
        let points: Vec<(f64, f64)> = rows
            .iter()
            .map(|row| (row.depth as f64, leaves(row) as f64))
            .collect();
        // Minimax and 2&2 minimaxing both examine every leaf: the second is drawn thinner,
        // on top of the first.
        let style = ShapeStyle::from(color).stroke_width(if index == 2 { 1 } else { 2 });
        chart
            .draw_series(LineSeries::new(points.clone(), style))?
            .label(*name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        chart.draw_series(
            points
                .iter()
                .map(|&point| Circle::new(point, 3 + (index as i32 % 2), style.filled())),
        )?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
