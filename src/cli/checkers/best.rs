//! `gametree checkers best`: the computer's move in a position, depth by depth.

use serde_json::json;

use gametree::games::checkers::{Color, ENDGAME_WIN_VALUE, GameResult, Move, PdnGame, WIN_VALUE};

use super::engine::{Engine, IterationReport, SearchArgs, nodes_per_second};
use crate::cli::output::write;
use crate::cli::{CliError, Outcome, progress};

/// A value for people: the number, and who wins in how many plies when it is a win.
pub fn describe_value(value: f64) -> String {
    let win = f64::from(WIN_VALUE);
    if value.abs() >= win / 2.0 {
        let plies = (win - value.abs()).round();
        let winner = if value > 0.0 { "Black" } else { "White" };
        let unit = if plies == 1.0 { "ply" } else { "plies" };
        format!("{value} ({winner} wins in {plies} {unit})")
    } else if value.abs() >= f64::from(ENDGAME_WIN_VALUE) {
        let winner = if value > 0.0 { "Black" } else { "White" };
        format!("{value} ({winner} wins: the endgame databases)")
    } else if value.fract() == 0.0 {
        format!("{value}")
    } else {
        // Rounded away from -0.00: m&n's bonuses can leave a value just below zero.
        let rounded = (value * 100.0).round() / 100.0;
        format!("{:.2}", if rounded == 0.0 { 0.0 } else { rounded })
    }
}

/// Moves in checkers notation, separated by spaces.
pub fn line_text(line: &[Move]) -> String {
    line.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A value as JSON: an integer when it is one (alpha-beta's values always are).
pub fn value_json(value: f64) -> serde_json::Value {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        json!(value as i64)
    } else {
        json!(value)
    }
}

fn iteration_json(iteration: &IterationReport) -> serde_json::Value {
    json!({
        "depth": iteration.depth,
        "value": value_json(iteration.value),
        "best_move": iteration.best_move.map(|mv| mv.to_string()),
        "principal_line": iteration.principal_line.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "nodes": iteration.nodes,
        "seconds": iteration.elapsed.as_secs_f64(),
        "nodes_per_second": nodes_per_second(iteration.nodes, iteration.elapsed).round() as u64,
    })
}

/// The line saying that the depth the budget cut short chose the move: its depth, the
/// value it found (a bound from Black's side: the moves it did not finish may be better
/// for the side to move) and its line.
pub fn partial_text(partial: &IterationReport, to_move: Color) -> String {
    let bound = match to_move {
        Color::Black => "at least",
        Color::White => "at most",
    };
    format!(
        "partial   depth {} cut short after a better move: value {bound} {}, line {}",
        partial.depth,
        describe_value(partial.value),
        line_text(&partial.principal_line)
    )
}

/// Runs `checkers best`.
pub fn run(so_far: &PdnGame, search: &SearchArgs, json_output: bool) -> Result<Outcome, CliError> {
    let mut engine = Engine::from_args(search)?;
    let mut game = engine.game(so_far);
    let position = *game.position();
    if let Some(result) = game.result() {
        let ending = match result {
            GameResult::Draw => "drawn by repetition or the 40-move rule",
            GameResult::BlackWins => "won by Black: White has no move",
            _ => "won by White: Black has no move",
        };
        return Err(CliError::Usage(format!(
            "{}: the game is over ({ending}): there is no move to choose",
            position.to_fen()
        )));
    }
    if !json_output && engine.mcts.is_some() {
        write(format_args!(
            "position  {}\nalgorithm {}\n",
            position.to_fen(),
            engine.name()
        ))?;
    } else if !json_output {
        write(format_args!(
            "position  {}\nalgorithm {}\n{:>5}  {:>22}  {:>10}  {:>12}  {:>5}  line\n",
            position.to_fen(),
            engine.name(),
            "depth",
            "value",
            "nodes",
            "nodes/s",
            "ebf"
        ))?;
    }
    let mut previous_nodes = None;
    let mut written = Ok(());
    let spinner = progress::spinner("searching");
    let report = engine.search(&mut game, |iteration| {
        spinner.set_message(format!(
            "depth {} done: {} nodes, {}/s",
            iteration.depth,
            progress::si(iteration.nodes as f64),
            progress::si(nodes_per_second(iteration.nodes, iteration.elapsed))
        ));
        if !json_output && written.is_ok() {
            let growth = previous_nodes.map_or("-".to_string(), |previous: u64| {
                format!("{:.2}", iteration.nodes as f64 / previous.max(1) as f64)
            });
            written = spinner.suspend(|| {
                write(format_args!(
                    "{:>5}  {:>22}  {:>10}  {:>12.0}  {:>5}  {}\n",
                    iteration.depth,
                    describe_value(iteration.value),
                    iteration.nodes,
                    nodes_per_second(iteration.nodes, iteration.elapsed),
                    growth,
                    line_text(&iteration.principal_line)
                ))
            });
        }
        previous_nodes = Some(iteration.nodes);
    });
    spinner.finish_and_clear();
    written?;
    let last = report.iterations.last();
    let ebf = report.effective_branching_factor();
    if json_output {
        let mut document = json!({
            "position": position.to_fen(),
            "algorithm": engine.name(),
            "best_move": report.best_move.map(|mv| mv.to_string()),
            "value": last.map(|iteration| value_json(iteration.value)),
            "depth": last.map_or(0, |iteration| iteration.depth),
            "principal_line": last.map_or(Vec::new(), |iteration| iteration.principal_line.iter().map(ToString::to_string).collect()),
            "stop": report.stop,
            "nodes": report.nodes,
            "seconds": report.elapsed.as_secs_f64(),
            "nodes_per_second": nodes_per_second(report.nodes, report.elapsed).round() as u64,
            "effective_branching_factor": ebf,
            "table": report.table.map(|table| json!({
                "probes": table.probes,
                "hits": table.hits,
                "cutoffs": table.cutoffs,
                "stores": table.stores,
            })),
            "iterations": report.iterations.iter().map(iteration_json).collect::<Vec<_>>(),
        });
        if let (Some(playouts), Some(object)) = (report.playouts, document.as_object_mut()) {
            object.insert("playouts".into(), json!(playouts));
        }
        if let (Some(partial), Some(object)) = (&report.partial, document.as_object_mut()) {
            object.insert("partial".into(), iteration_json(partial));
        }
        write(format_args!("{document}\n"))?;
    } else {
        // A game that is not over always has a move (seed 002's `chooseMove`).
        let best = report
            .best_move
            .map_or("none".to_string(), |mv| mv.to_string());
        if let Some(playouts) = report.playouts {
            write(format_args!(
                "best move {best}\nplayouts  {playouts}\nstop      {}\nnodes     {}\ntime      {:.3} s\n",
                report.stop,
                report.nodes,
                report.elapsed.as_secs_f64(),
            ))?;
            return Ok(Outcome::Found);
        }
        write(format_args!(
            "best move {best}\nvalue     {}\nstop      {}\nnodes     {}\ntime      {:.3} s\nnodes/s   {:.0}\nebf       {}\n",
            last.map_or("-".to_string(), |iteration| describe_value(iteration.value)),
            report.stop,
            report.nodes,
            report.elapsed.as_secs_f64(),
            nodes_per_second(report.nodes, report.elapsed),
            ebf.map_or("-".to_string(), |ebf| format!("{ebf:.3} (nodes^(1/depth))")),
        ))?;
        if let Some(table) = report.table {
            write(format_args!(
                "table     {} probes, {} hits, {} cutoffs\n",
                table.probes, table.hits, table.cutoffs
            ))?;
        }
        if let Some(partial) = &report.partial {
            write(format_args!(
                "{}\n",
                partial_text(partial, position.side_to_move())
            ))?;
        }
    }
    Ok(Outcome::Found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gametree::games::checkers::Position;
    use std::time::Duration;

    #[test]
    fn a_depth_cut_short_says_its_value_is_a_bound_for_the_side_to_move() {
        let position = Position::initial();
        let line = vec![
            position.parse_move("11-15").expect("legal"),
            position
                .play(position.parse_move("11-15").expect("legal"))
                .parse_move("23-19")
                .expect("legal"),
        ];
        let partial = IterationReport {
            depth: 13,
            value: 37.0,
            principal_line: line.clone(),
            best_move: line.first().copied(),
            nodes: 1000,
            elapsed: Duration::from_millis(5),
        };
        assert_eq!(
            partial_text(&partial, Color::Black),
            "partial   depth 13 cut short after a better move: value at least 37, line 11-15 23-19"
        );
        assert!(partial_text(&partial, Color::White).contains("value at most 37"));
    }
}
