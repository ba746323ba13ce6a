//! MCTS graded against perfect play. Tic-tac-toe: every position of the full game that is
//! not over, for budgets of 10 to 1000 playouts, with and without MCTS-Solver: the share
//! where the move chosen keeps the minimax outcome. Connect Four: for positions of Pascal Pons'
//! benchmark files and budgets of 10² to 10⁵ playouts, the share of positions where the
//! move MCTS chooses keeps the position's outcome (win, draw or loss for the player to
//! move) and where it keeps the exact score, by the generic solver's analysis of every
//! move; and the same for the solver's alpha-beta given as many positions a move.
//!
//! ```text
//! cargo run --release --example mcts_graded [POSITIONS_PER_FILE]
//! ```

use std::time::Instant;

use gametree::games::connect_four::RandomColumns;
use gametree::search::mcts::{Budget, Mcts, MctsOptions};
use gametree::{ConnectFour, Game, Player, SimpleTicTacToe, SolveOptions, Solver, minimax_value};

const FILES: [&str; 3] = [
    "data/connect4/Test_L3_R1",
    "data/connect4/Test_L2_R1",
    "data/connect4/Test_L2_R2",
];
const BUDGETS: [u64; 4] = [100, 1_000, 10_000, 100_000];

/// −1, 0 or 1: the outcome of a position of value `value` to MAX, for `player`.
fn outcome_for(player: Player, value: i32) -> i32 {
    match player {
        Player::Max => value.signum(),
        Player::Min => -value.signum(),
    }
}

/// Every position of the full tic-tac-toe that is not over, once each.
fn tic_tac_toe_positions() -> Vec<SimpleTicTacToe> {
    let mut seen = std::collections::HashSet::new();
    let mut positions = Vec::new();
    let mut pending = vec![SimpleTicTacToe::new()];
    while let Some(game) = pending.pop() {
        if game.is_terminal() || !seen.insert(game) {
            continue;
        }
        let mut moves = Vec::new();
        game.successors(&mut moves);
        for mv in moves {
            let mut next = game;
            next.update(mv);
            pending.push(next);
        }
        positions.push(game);
    }
    positions
}

fn grade_tic_tac_toe() {
    let positions = tic_tac_toe_positions();
    println!("tic-tac-toe  positions  playouts  solver  outcome kept");
    for budget in [10, 30, 100, 300, 1_000] {
        for solver in [false, true] {
            let mut kept = 0;
            for (index, position) in positions.iter().enumerate() {
                let mut game = *position;
                let player = game.to_move();
                let value = outcome_for(player, minimax_value(&mut game));
                let options = MctsOptions {
                    seed: index as u64,
                    solver,
                    ..MctsOptions::default()
                };
                let result = Mcts::new(options).search(&mut game, Budget::Playouts(budget));
                let mv = result.best_move.expect("not over");
                game.update(mv);
                kept += usize::from(outcome_for(player, minimax_value(&mut game)) == value);
            }
            println!(
                "             {:>9}  {:>8}  {:>6}  {:>11.1}%",
                positions.len(),
                budget,
                if solver { "on" } else { "off" },
                100.0 * kept as f64 / positions.len() as f64
            );
        }
    }
}

fn main() {
    grade_tic_tac_toe();
    let per_file: usize = std::env::args()
        .nth(1)
        .and_then(|text| text.parse().ok())
        .unwrap_or(100);
    let mut solver = Solver::new(SolveOptions::default());
    println!("file         positions  playouts  outcome kept  score kept  ms/move");
    for file in FILES {
        let text = std::fs::read_to_string(file).expect("the benchmark files are in data/");
        // Each position with every move's exact score for the player to move.
        let positions: Vec<(ConnectFour, Vec<(u8, i32)>)> = text
            .lines()
            .take(per_file)
            .map(|line| {
                let moves = line.split_whitespace().next().unwrap_or_default();
                let mut game = ConnectFour::from_moves(moves).expect("legal benchmark moves");
                let scores = solver
                    .analyze(&mut game)
                    .into_iter()
                    .map(|(column, solution)| (column, solution.score))
                    .collect();
                (game, scores)
            })
            .collect();
        for budget in BUDGETS {
            let (mut outcome_kept, mut score_kept) = (0, 0);
            let started = Instant::now();
            for (index, (game, scores)) in positions.iter().enumerate() {
                let best = scores.iter().map(|&(_, score)| score).max().unwrap_or(0);
                let mut game = *game;
                let options = MctsOptions {
                    seed: index as u64,
                    ..MctsOptions::default()
                };
                let result = Mcts::with_policy(options, RandomColumns)
                    .search(&mut game, Budget::Playouts(budget));
                let chosen = result.best_move.expect("benchmark positions are not over");
                let score = scores
                    .iter()
                    .find(|&&(column, _)| column == chosen)
                    .map_or(i32::MIN, |&(_, score)| score);
                outcome_kept += usize::from(score.signum() == best.signum());
                score_kept += usize::from(score == best);
            }
            let count = positions.len().max(1);
            println!(
                "{:<12} {:>9}  {:>8}  {:>11.1}%  {:>9.1}%  {:>7.2}",
                file.rsplit('/').next().unwrap_or(file),
                positions.len(),
                budget,
                100.0 * outcome_kept as f64 / count as f64,
                100.0 * score_kept as f64 / count as f64,
                started.elapsed().as_secs_f64() * 1000.0 / count as f64,
            );
        }
        // The depth-first family at matched budgets: each move solved within a node budget
        // by the null-window alpha-beta solver, the best proved bounds chosen, as
        // `gametree connect4 best --engine alphabeta` chooses.
        for budget in BUDGETS {
            let (mut outcome_kept, mut score_kept) = (0, 0);
            let started = Instant::now();
            let mut bounded = Solver::new(SolveOptions {
                table_mib: 16,
                ..SolveOptions::default()
            });
            for (game, scores) in &positions {
                let best = scores.iter().map(|&(_, score)| score).max().unwrap_or(0);
                let mut game = *game;
                bounded.clear();
                let chosen = alpha_beta_move(&mut bounded, &mut game, budget);
                let score = scores
                    .iter()
                    .find(|&&(column, _)| column == chosen)
                    .map_or(i32::MIN, |&(_, score)| score);
                outcome_kept += usize::from(score.signum() == best.signum());
                score_kept += usize::from(score == best);
            }
            let count = positions.len().max(1);
            println!(
                "{:<12} {:>9}  {:>8}  {:>11.1}%  {:>9.1}%  {:>7.2}  (alpha-beta, nodes a move)",
                file.rsplit('/').next().unwrap_or(file),
                positions.len(),
                budget,
                100.0 * outcome_kept as f64 / count as f64,
                100.0 * score_kept as f64 / count as f64,
                started.elapsed().as_secs_f64() * 1000.0 / count as f64,
            );
        }
    }
}

/// The column whose score the solver bounds best within `max_nodes` positions (the greater
/// lower bound, then the greater upper bound, then the earlier successor).
fn alpha_beta_move(solver: &mut Solver<ConnectFour>, game: &mut ConnectFour, max_nodes: u64) -> u8 {
    let mut moves = Vec::new();
    game.successors(&mut moves);
    let mut best: Option<(u8, (i32, i32))> = None;
    for column in moves {
        game.update(column);
        // The successor's score is the opponent's: negate and swap the bounds.
        let bounds = match solver.solve_within(game, max_nodes) {
            Ok(solution) => (-solution.score, -solution.score),
            Err(unsolved) => (-unsolved.at_most, -unsolved.at_least),
        };
        game.revert(column);
        if best.is_none_or(|(_, best_bounds)| bounds > best_bounds) {
            best = Some((column, bounds));
        }
    }
    best.map_or(0, |(column, _)| column)
}
