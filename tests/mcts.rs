//! Monte Carlo tree search graded against exact answers: it keeps the value of every
//! tic-tac-toe position, McCarthy's and the full game's (so it never loses to perfect play,
//! as either side), finds the only move that does not lose in Connect Four positions that have one,
//! is deterministic for a seed, and backs rewards up for the right player in games where
//! a player may move twice in a row.

mod repeated_movers_support;

use gametree::games::connect_four::RandomColumns;
use gametree::search::mcts::{Budget, Mcts, MctsOptions, MctsResult, Proven};
use gametree::{
    ConnectFour, Game, Player, SimpleTicTacToe, SolveOptions, Solver, SplitMix64, TicTacToe,
    minimax_value,
};
use repeated_movers_support::{Kalah, MoverGraph};

fn options(seed: u64) -> MctsOptions {
    MctsOptions {
        seed,
        ..MctsOptions::default()
    }
}

/// −1, 0 or 1: who wins a position of minimax value `value` to MAX, seen by `player`.
fn outcome_for(player: Player, value: i32) -> i32 {
    let sign = value.signum();
    match player {
        Player::Max => sign,
        Player::Min => -sign,
    }
}

/// Every tic-tac-toe position reachable from the start that is not over, as the squares
/// played, each position once.
fn tic_tac_toe_positions() -> Vec<Vec<u8>> {
    let mut seen = std::collections::HashSet::new();
    let mut positions = Vec::new();
    let mut pending = vec![Vec::new()];
    while let Some(line) = pending.pop() {
        let mut game = TicTacToe::from_moves(&line).expect("legal");
        if game.is_terminal() {
            continue;
        }
        let mut board: Vec<u8> = line.iter().step_by(2).copied().collect();
        board.sort_unstable();
        let mut theirs: Vec<u8> = line.iter().skip(1).step_by(2).copied().collect();
        theirs.sort_unstable();
        if !seen.insert((board, theirs)) {
            continue;
        }
        let mut moves = Vec::new();
        game.successors(&mut moves);
        for mv in moves {
            let mut next = line.clone();
            next.push(mv);
            pending.push(next);
        }
        game.reset_count();
        positions.push(line);
    }
    positions
}

/// Checks that MCTS's move at the position after `line` keeps its minimax outcome for the
/// player to move.
fn keeps_the_value(line: &[u8], playouts: u64, seed: u64, solver: bool) -> Result<(), String> {
    let mut game = TicTacToe::from_moves(line).expect("legal");
    let player = game.to_move();
    let value = outcome_for(player, minimax_value(&mut game));
    let options = MctsOptions {
        solver,
        ..options(seed)
    };
    let result = Mcts::new(options).search(&mut game, Budget::Playouts(playouts));
    let mv = result
        .best_move
        .expect("a position that is not over has moves");
    game.update(mv);
    let after = outcome_for(player, minimax_value(&mut game));
    if after == value {
        Ok(())
    } else {
        Err(format!(
            "after {line:?}, {player} plays {mv} and goes from {value} to {after}"
        ))
    }
}

#[test]
fn mcts_keeps_the_value_of_every_tic_tac_toe_position_for_both_sides() {
    let positions = tic_tac_toe_positions();
    // McCarthy's successors answer a threat with the blocking move alone, so fewer
    // positions are reachable than the 4520 of the full game.
    assert_eq!(
        positions.len(),
        2076,
        "the distinct positions that are not over"
    );
    for solver in [true, false] {
        let mut failures = Vec::new();
        for (index, line) in positions.iter().enumerate() {
            if let Err(failure) = keeps_the_value(line, 3_000, index as u64, solver) {
                failures.push(failure);
            }
        }
        assert!(failures.is_empty(), "solver {solver}: {failures:#?}");
    }
}

#[test]
fn mcts_never_loses_to_perfect_play_from_the_start_as_either_side() {
    for mcts_player in [Player::Max, Player::Min] {
        for seed in 0..4 {
            let mut game = TicTacToe::new();
            let mut mcts = Mcts::new(options(seed));
            while !game.is_terminal() {
                let mut moves = Vec::new();
                game.successors(&mut moves);
                let mv = if game.to_move() == mcts_player {
                    mcts.search(&mut game, Budget::Playouts(3_000))
                        .best_move
                        .expect("a move")
                } else {
                    // Perfect play: the first move that keeps the minimax outcome.
                    let player = game.to_move();
                    let value = outcome_for(player, minimax_value(&mut game));
                    *moves
                        .iter()
                        .find(|&&mv| {
                            game.update(mv);
                            let after = outcome_for(player, minimax_value(&mut game));
                            game.revert(mv);
                            after == value
                        })
                        .expect("some move keeps the value")
                };
                mcts.advance(mv);
                game.update(mv);
            }
            assert_eq!(
                game.value(),
                0,
                "perfect play against MCTS as {mcts_player} draws"
            );
        }
    }
}

/// Connect Four positions drawn by random play from `seed` in which exactly one move
/// does not lose, with that move.
fn positions_with_one_saving_move(count: usize, seed: u64) -> Vec<(String, u8)> {
    let mut random = SplitMix64::new(seed);
    let mut solver = Solver::new(SolveOptions {
        weak: true,
        table_mib: 16,
        ..SolveOptions::default()
    });
    let mut found = Vec::new();
    while found.len() < count {
        let mut game = ConnectFour::new();
        let mut line = String::new();
        let stones = 20 + random.index(12);
        let mut moves = Vec::new();
        for _ in 0..stones {
            moves.clear();
            game.successors(&mut moves);
            if game.is_terminal() || moves.is_empty() {
                break;
            }
            let column = moves[random.index(moves.len())];
            game.update(column);
            line.push(char::from(b'1' + column));
        }
        if game.is_terminal() {
            continue;
        }
        let saving: Vec<u8> = solver
            .analyze(&mut game)
            .into_iter()
            .filter(|(_, solution)| solution.score >= 0)
            .map(|(column, _)| column)
            .collect();
        if let [column] = saving[..] {
            found.push((line, column));
        }
    }
    found
}

#[test]
fn mcts_finds_the_only_move_that_does_not_lose_in_connect_four() {
    let mut failures = Vec::new();
    for (index, (line, saving)) in positions_with_one_saving_move(40, 1958)
        .into_iter()
        .enumerate()
    {
        let mut game = ConnectFour::from_moves(&line).expect("legal");
        let mut mcts = Mcts::with_policy(options(index as u64), RandomColumns);
        let result = mcts.search(&mut game, Budget::Playouts(200_000));
        if result.best_move != Some(saving) {
            failures.push(format!(
                "{line}: played {:?} instead of {}",
                result.best_move.map(|column| column + 1),
                saving + 1
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

fn figures<M: Copy>(result: &MctsResult<M>) -> Vec<(M, u64, f64, Option<Proven>)> {
    result
        .moves
        .iter()
        .map(|statistics| {
            (
                statistics.mv,
                statistics.visits,
                statistics.mean_reward,
                statistics.proven,
            )
        })
        .collect()
}

#[test]
fn the_same_seed_gives_the_same_connect_four_search() {
    let run = |seed| {
        let mut game = ConnectFour::from_moves("4453").expect("legal");
        Mcts::with_policy(options(seed), RandomColumns).search(&mut game, Budget::Playouts(20_000))
    };
    let first = run(11);
    assert_eq!(figures(&first), figures(&run(11)));
    assert_eq!(first.playout_moves, run(11).playout_moves);
    assert_ne!(figures(&first), figures(&run(12)));
}

/// The proven result of the move MCTS chose, for the player who plays it.
fn proven_choice<G: Game<Value = i32>>(game: &mut G, playouts: u64) -> Option<Proven> {
    let result = Mcts::new(options(5)).search(game, Budget::Playouts(playouts));
    let best = result.best_move?;
    result
        .moves
        .iter()
        .find(|statistics| statistics.mv == best)
        .and_then(|statistics| statistics.proven)
}

fn as_proven(outcome: i32) -> Proven {
    match outcome {
        1 => Proven::Win,
        0 => Proven::Draw,
        _ => Proven::Loss,
    }
}

#[test]
fn mcts_solver_proves_the_minimax_outcome_on_games_with_repeated_movers() {
    let mut repeated = 0;
    for seed in 0..60 {
        let mut graph = MoverGraph::generate(seed, 7, 6, 3, 4);
        repeated += graph.repeated_moves().0;
        if graph.is_terminal() {
            continue;
        }
        let player = graph.to_move();
        let outcome = outcome_for(player, minimax_value(&mut graph));
        assert_eq!(
            proven_choice(&mut graph, 100_000),
            Some(as_proven(outcome)),
            "graph {seed}"
        );
        assert!(graph.at_root());
    }
    assert!(repeated > 0, "the graphs have repeated movers");
    for seed in 0..30 {
        let mut kalah = Kalah::random(3, 7, seed);
        if kalah.is_terminal() {
            continue;
        }
        let player = kalah.to_move();
        let outcome = outcome_for(player, minimax_value(&mut kalah));
        let result = Mcts::new(options(5)).search(&mut kalah, Budget::Playouts(50_000));
        let mv = result.best_move.expect("a move");
        let chosen = result.moves.iter().find(|m| m.mv == mv).expect("listed");
        kalah.update(mv);
        let after = outcome_for(player, minimax_value(&mut kalah));
        kalah.revert(mv);
        assert_eq!(
            after, outcome,
            "Kalah endgame {seed}: the move keeps the outcome"
        );
        if let Some(proven) = chosen.proven {
            assert_eq!(proven, as_proven(outcome), "Kalah endgame {seed}");
        }
    }
}

/// Every position of the full game of tic-tac-toe (seed 002's, every empty square a move)
/// that is not over, as the squares played, each position once.
fn full_tic_tac_toe_positions() -> Vec<Vec<u8>> {
    let mut seen = std::collections::HashSet::new();
    let mut positions = Vec::new();
    let mut pending = vec![Vec::new()];
    while let Some(line) = pending.pop() {
        let game = SimpleTicTacToe::from_moves(&line).expect("legal");
        if game.is_terminal() {
            continue;
        }
        let mut x: Vec<u8> = line.iter().step_by(2).copied().collect();
        let mut o: Vec<u8> = line.iter().skip(1).step_by(2).copied().collect();
        x.sort_unstable();
        o.sort_unstable();
        if !seen.insert((x, o)) {
            continue;
        }
        let mut moves = Vec::new();
        game.successors(&mut moves);
        for mv in moves {
            let mut next = line.clone();
            next.push(mv);
            pending.push(next);
        }
        positions.push(line);
    }
    positions
}

#[test]
fn mcts_keeps_the_value_of_every_position_of_the_full_tic_tac_toe() {
    let positions = full_tic_tac_toe_positions();
    assert_eq!(positions.len(), 4520, "the positions that are not over");
    for solver in [true, false] {
        let mut failures = Vec::new();
        for (index, line) in positions.iter().enumerate() {
            let mut game = SimpleTicTacToe::from_moves(line).expect("legal");
            let player = game.to_move();
            let value = outcome_for(player, minimax_value(&mut game));
            let options = MctsOptions {
                solver,
                ..options(index as u64)
            };
            let result = Mcts::new(options).search(&mut game, Budget::Playouts(3_000));
            let mv = result.best_move.expect("a move");
            game.update(mv);
            let after = outcome_for(player, minimax_value(&mut game));
            if after != value {
                failures.push(format!("{line:?}: {mv} goes from {value} to {after}"));
            }
        }
        assert!(failures.is_empty(), "solver {solver}: {failures:#?}");
    }
}

#[test]
fn mcts_keeps_the_outcome_of_kalah_positions_where_players_move_twice() {
    use gametree::games::kalah::KalahRules;
    let mut solver = Solver::new(SolveOptions {
        weak: true,
        table_mib: 4,
        ..SolveOptions::default()
    });
    let mut random = SplitMix64::new(19);
    let mut checked = 0;
    while checked < 20 {
        let mut game = gametree::Kalah::new(3, 3, KalahRules::irving()).expect("a board");
        let mut moves = Vec::new();
        for _ in 0..random.index(8) {
            moves.clear();
            game.successors(&mut moves);
            if moves.is_empty() || game.is_terminal() {
                break;
            }
            game.update(moves[random.index(moves.len())]);
        }
        if game.is_terminal() {
            continue;
        }
        let player = game.to_move();
        let outcome = outcome_for(player, solver.solve(&mut game).value);
        let result = Mcts::new(options(checked)).search(&mut game, Budget::Playouts(20_000));
        let mv = result.best_move.expect("a move");
        game.update(mv);
        let after = outcome_for(player, solver.solve(&mut game).value);
        assert_eq!(
            after, outcome,
            "position {checked}: {mv} changes the outcome"
        );
        checked += 1;
    }
}
