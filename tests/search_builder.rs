//! The search builder gives what the free functions it calls give: iterative deepening with
//! and without a table, m&n (the root's value, the chosen move, a line of chosen moves),
//! the solver (value, and a principal line whose every move keeps the value), and McCarthy's
//! linemax — on tic-tac-toe, checkers, Kalah and random explicit trees.

use gametree::games::checkers::Checkers;
use gametree::games::kalah::{Kalah, KalahRules, random_position};
use gametree::prelude::*;
use gametree::search::deepening::TableSearch;
use gametree::{
    ConnectFour, ExplicitTree, FloatValued, RandomTreeConfig, SearchOptions, SimpleTicTacToe,
    SolveOptions, Solver, SplitMix64, alphabeta_line, iterative_deepening,
    iterative_deepening_with_table, mn_alphabeta_depth, mn_alphabeta_value_depth,
};

#[test]
fn run_is_iterative_deepening_with_the_same_options() {
    let mut game = Checkers::new();
    let free = iterative_deepening(&mut game, 7, &SearchOptions::default(), |_| {});
    let mut depths = Vec::new();
    let built = Search::new(&mut game)
        .depth(7)
        .on_iteration(|iteration| depths.push(iteration.depth))
        .run();
    assert_eq!(built.value, free.value);
    assert_eq!(built.best_move, free.best_move);
    assert_eq!(built.principal_line, free.principal_line);
    assert_eq!(built.stats.nodes, free.stats.nodes);
    assert_eq!(depths, (1..=7).collect::<Vec<_>>());
    let plain = iterative_deepening(&mut game, 6, &SearchOptions::plain(), |_| {});
    let built = Search::new(&mut game)
        .depth(6)
        .killers(false)
        .principal_line_first(false)
        .run();
    assert_eq!(built.stats.nodes, plain.stats.nodes);
}

#[test]
fn a_table_given_to_the_builder_is_the_table_search() {
    let mut game = Checkers::new();
    let mut first = TranspositionTable::with_mib(1);
    let mut search = TableSearch::new(&mut first);
    let free = iterative_deepening_with_table(
        &mut game,
        8,
        &SearchOptions::default(),
        &mut search,
        |_| {},
    );
    let mut second = TranspositionTable::with_mib(1);
    let built = Search::new(&mut game).depth(8).table(&mut second).run();
    assert_eq!(built.value, free.value);
    assert_eq!(built.stats.nodes, free.stats.nodes);
    assert_eq!(built.principal_line, free.principal_line);
}

#[test]
fn a_budget_still_gives_a_legal_move() {
    let mut game = Checkers::new();
    let result = Search::new(&mut game).max_nodes(1).run();
    assert_eq!(result.stop, StopReason::NodeBudget);
    assert_eq!(result.value, None);
    assert!(result.best_move.is_some());
}

#[test]
fn run_to_end_is_linemax_on_random_trees() {
    let mut random = SplitMix64::new(18);
    for _ in 0..100 {
        let deepest = 1 + random.index(5);
        let config = RandomTreeConfig {
            depth: 1..=deepest,
            ..RandomTreeConfig::default()
        };
        let mut tree = ExplicitTree::random(&config, random.next_u64());
        let free = alphabeta_line(&mut tree, Window::full());
        let built = Search::new(&mut tree).run_to_end();
        assert_eq!(built.value, Some(free.value));
        assert_eq!(built.principal_line, free.principal_line);
        assert_eq!(built.best_move, free.principal_line.first().copied());
    }
}

#[test]
fn run_m_and_n_backs_up_the_root_and_chooses_slagles_move() {
    let two_and_two = Slagle::two_and_two();
    for plies in [0, 2, 4] {
        let mut game = SimpleTicTacToe::from_moves(&[5, 1][..plies.min(2)]).expect("legal");
        let built = Search::new(&mut game).depth(4).run_m_and_n(&two_and_two);
        let mut floated = FloatValued(game);
        let value = mn_alphabeta_value_depth(&mut floated, &two_and_two, Window::full(), 4);
        let chosen = mn_alphabeta_depth(&mut floated, &two_and_two, 4);
        assert_eq!(built.value, Some(value.value));
        assert_eq!(built.best_move, chosen.best_move);
        assert_eq!(built.principal_line.first().copied(), chosen.best_move);
        assert!(built.principal_line.len() <= 4);
    }
    // 1&1 is alpha-beta: the same value as the integer search on Kalah.
    let mut random = SplitMix64::new(3);
    for _ in 0..30 {
        let mut game = random_position(4, 3, KalahRules::irving(), 6, &mut random);
        let alphabeta = Search::new(&mut game).depth(5).run();
        let m_and_n = Search::new(&mut game)
            .depth(5)
            .run_m_and_n(&Slagle::one_and_one());
        assert_eq!(m_and_n.value, alphabeta.value.map(f64::from), "{game}");
    }
}

#[test]
fn solve_gives_the_solvers_value_and_a_line_that_keeps_it() {
    let mut random = SplitMix64::new(5);
    for _ in 0..30 {
        let mut game: Kalah = random_position(3, 3, KalahRules::irving(), 4, &mut random);
        let exact = Solver::new(SolveOptions::default()).solve(&mut game).value;
        let result = Search::new(&mut game).solve();
        assert_eq!(result.value, Some(exact));
        // Playing the line from the position keeps the value to its end.
        let mut replay = game.clone();
        for &mv in &result.principal_line {
            replay.update(mv);
            assert_eq!(
                Solver::new(SolveOptions::default())
                    .solve(&mut replay)
                    .value,
                exact
            );
        }
        assert!(replay.is_over(), "{replay}");
        assert_eq!(replay.value(), exact);
    }
    // A node budget that runs out gives no value but a move.
    let mut game = ConnectFour::new();
    let hurried = Search::new(&mut game).max_nodes(10).solve();
    assert_eq!(
        (hurried.value, hurried.stop),
        (None, StopReason::NodeBudget)
    );
    assert!(hurried.best_move.is_some());
}
