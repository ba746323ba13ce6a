//! Unit tests of MCTS on the small explicit tree of the search modules and on tic-tac-toe.

use super::*;
use crate::games::tic_tac_toe::TicTacToe;
use crate::random::SplitMix64;
use crate::search::test_tree::{Node, TreeGame, small};

fn options(seed: u64) -> MctsOptions {
    MctsOptions {
        seed,
        ..MctsOptions::default()
    }
}

#[test]
fn the_same_seed_gives_the_same_search_and_another_seed_another() {
    // A fresh game each time: McCarthy's tic-tac-toe reorders its blanks as moves are
    // played and taken back.
    let first = Mcts::new(options(5)).search(&mut TicTacToe::new(), Budget::Playouts(3_000));
    let again = Mcts::new(options(5)).search(&mut TicTacToe::new(), Budget::Playouts(3_000));
    let other = Mcts::new(options(6)).search(&mut TicTacToe::new(), Budget::Playouts(3_000));
    let figures = |result: &MctsResult<_>| {
        result
            .moves
            .iter()
            .map(|statistics| (statistics.mv, statistics.visits, statistics.mean_reward))
            .collect::<Vec<_>>()
    };
    assert_eq!(figures(&first), figures(&again));
    assert_eq!(first.playout_moves, again.playout_moves);
    assert_ne!(figures(&first), figures(&other));
}

#[test]
fn a_search_leaves_the_game_where_it_was_and_counts_its_playouts() {
    let mut game = TicTacToe::new();
    let result = Mcts::new(options(1)).search(&mut game, Budget::Playouts(500));
    assert_eq!(game.level(), 0);
    assert_eq!(result.playouts, 500);
    assert_eq!(result.root_visits, 500);
    assert_eq!(result.moves.len(), 9);
    assert_eq!(
        result.moves.iter().map(|m| m.visits).sum::<u64>(),
        500,
        "every playout goes through one root move"
    );
    assert!(result.stats.nodes > 500 + result.playout_moves);
}

#[test]
fn the_solver_proves_a_win_in_the_small_tree_and_stops() {
    // ((3 5) (2 9)): every leaf is a win for MAX, whatever is played.
    let mut game = small();
    let result = Mcts::new(options(3)).search(&mut game, Budget::Playouts(1_000));
    assert!(result.playouts < 20, "stops once the root is proven");
    let best = result
        .moves
        .iter()
        .find(|statistics| Some(statistics.mv) == result.best_move)
        .expect("a best move");
    assert_eq!(best.proven, Some(Proven::Win));
}

#[test]
fn a_proven_loss_is_avoided_even_when_more_visited() {
    use Node::{Inner, Leaf};
    // MAX: move 1 leads to a position where MIN can win (-1) or lose (1); move 2 is a draw.
    let mut game = TreeGame {
        root: Inner(vec![
            Inner(vec![Leaf(1), Leaf(1), Leaf(1), Leaf(-1)]),
            Inner(vec![Leaf(0)]),
        ]),
        path: Vec::new(),
    };
    let result = Mcts::new(options(9)).search(&mut game, Budget::Playouts(10_000));
    assert_eq!(result.best_move, Some(2));
    assert_eq!(result.moves[0].proven, Some(Proven::Loss));
    assert_eq!(result.moves[1].proven, Some(Proven::Draw));
}

#[test]
fn the_tree_is_bounded_by_max_nodes() {
    let mut game = TicTacToe::new();
    let bounded = MctsOptions {
        max_nodes: 100,
        ..options(2)
    };
    let result = Mcts::new(bounded).search(&mut game, Budget::Playouts(5_000));
    assert!(result.tree_nodes <= 100);
    assert_eq!(result.playouts, 5_000);
}

#[test]
fn advancing_keeps_the_subtree_of_the_move_played() {
    let mut game = TicTacToe::new();
    let mut mcts = Mcts::new(options(4));
    let first = mcts.search(&mut game, Budget::Playouts(4_000));
    let mv = first.best_move.expect("a move");
    let kept = first
        .moves
        .iter()
        .find(|statistics| statistics.mv == mv)
        .expect("the move")
        .visits;
    mcts.advance(mv);
    game.update(mv);
    let second = mcts.search(&mut game, Budget::Playouts(1_000));
    assert_eq!(second.root_visits, kept + 1_000);
    // A position the tree does not fit starts a new tree.
    game.revert(mv);
    let fresh = mcts.search(&mut game, Budget::Playouts(100));
    assert_eq!(fresh.root_visits, 100);
}

#[test]
fn a_budget_spent_before_the_first_playout_still_gives_a_move() {
    // A time limit over before the search begins, and no playouts at all: one playout is
    // made anyway, so that the root is expanded and a move is given.
    for budget in [
        Budget::Time(std::time::Duration::from_nanos(1)),
        Budget::Playouts(0),
    ] {
        let mut game = TicTacToe::new();
        let result = Mcts::new(options(0)).search(&mut game, budget);
        // (The clock is read every 64 playouts.)
        assert!((1..=64).contains(&result.playouts), "{budget:?}");
        assert!(result.best_move.is_some(), "{budget:?}");
    }
}

#[test]
fn a_terminal_root_has_no_move() {
    let mut game = TreeGame {
        root: Node::Leaf(4),
        path: Vec::new(),
    };
    let result = Mcts::new(options(0)).search(&mut game, Budget::Playouts(10));
    assert_eq!(result.best_move, None);
    assert_eq!(result.playouts, 0);
}

#[test]
fn a_node_with_one_byte_moves_takes_24_bytes() {
    // What the documentation promises for the tree's memory (4 Mi nodes, 96 MiB).
    assert_eq!(std::mem::size_of::<super::tree::Node<u8>>(), 24);
}

/// A policy whose evaluation ends every playout at once as a win for MAX.
struct MaxAlwaysWins;

impl PlayoutPolicy<TicTacToe> for MaxAlwaysWins {
    fn playout_move(
        &mut self,
        game: &TicTacToe,
        moves: &mut Vec<u8>,
        random: &mut SplitMix64,
    ) -> Option<u8> {
        UniformPlayouts.playout_move(game, moves, random)
    }

    fn stop_early(&mut self, _game: &TicTacToe, _plies: u32) -> Option<f64> {
        Some(1.0)
    }
}

#[test]
fn a_policy_that_stops_early_supplies_the_rewards() {
    let mut game = TicTacToe::new();
    let plain = MctsOptions {
        solver: false,
        ..options(1)
    };
    let result = Mcts::with_policy(plain, MaxAlwaysWins).search(&mut game, Budget::Playouts(200));
    assert_eq!(result.playout_moves, 0, "no playout played a move");
    // X (MAX) moves at the root: every move is worth 1 to X.
    assert!(
        result
            .moves
            .iter()
            .all(|statistics| statistics.mean_reward == 1.0)
    );
}

#[test]
fn a_time_budget_runs_playouts_until_it_is_spent() {
    let mut game = TicTacToe::new();
    let plain = MctsOptions {
        solver: false,
        ..options(1)
    };
    let result = Mcts::new(plain).search(
        &mut game,
        Budget::Time(std::time::Duration::from_millis(20)),
    );
    assert!(result.playouts > 0);
    assert_eq!(
        result.moves.iter().map(|m| m.visits).sum::<u64>(),
        result.playouts
    );
}

#[test]
fn an_evaluation_cutoff_ends_playouts_after_its_plies() {
    let mut game = crate::games::checkers::Checkers::new();
    for plies in [0, 4] {
        let policy = EvaluationCutoff {
            plies,
            scale: 100.0,
        };
        let result = Mcts::with_policy(options(2), policy).search(&mut game, Budget::Playouts(300));
        assert!(result.playout_moves <= u64::from(plies) * 300);
        if plies == 0 {
            assert_eq!(result.playout_moves, 0);
        } else {
            assert!(result.playout_moves > 0);
        }
        assert!(
            result
                .moves
                .iter()
                .all(|statistics| (0.0..=1.0).contains(&statistics.mean_reward))
        );
    }
}
