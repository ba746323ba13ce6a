//! Every generic search on games where a player may move twice or more in a row (Kalah's
//! extra move), against plain minimax: the searches ask [`Game::to_move`] at each position
//! and must not assume that the players alternate.
//!
//! The games are in `repeated_movers_support`: random game graphs whose positions each
//! name their own player to move, and a small Kalah. On each, alpha-beta (value, line and
//! proof, in every window around the value, the proofs checked by `verify`),
//! aspiration, `choose_move`, the hidden board and the solver (strong and weak, with and
//! without enhanced transposition cutoffs, `analyze`, a node budget) must give the minimax
//! value; depth-limited alpha-beta, aspiration and iterative deepening, with and without
//! a transposition table, the depth-limited minimax value; and m&n alpha-beta what m&n
//! minimaxing chooses.
//!
//! The solver once negated the value of every successor, as if the other player were
//! always to move after a move: these tests fail on that solver (it was wrong on about six
//! in ten of the graphs and of the 7-seed Kalah endgames).

mod repeated_movers_support;

use gametree::hidden_board::HiddenBoardGame;
use gametree::search::deepening::{Reuse, TableSearch};
use gametree::search::float_valued::FloatValued;
use gametree::{
    Bound, Evaluate, Exponents, Game, Player, PositionKey, SearchOptions, Slagle, Solvable,
    SolveOptions, Solver, TranspositionTable, ValueRange, Window, alphabeta_line, alphabeta_proof,
    alphabeta_value, aspiration_value, choose_move, choose_move_alphabeta,
    depth_limited_aspiration, depth_limited_aspiration_with_table, depth_limited_line,
    depth_limited_line_with_table, depth_limited_value, depth_limited_value_with_table,
    iterative_deepening, iterative_deepening_with_table, minimax, minimax_value, mn_alphabeta,
    mn_alphabeta_depth, mn_minimax, mn_minimax_depth, verify_result,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use repeated_movers_support::{Kalah, MoverGraph, depth_limited_minimax};

/// A fixed, deterministic configuration, so the suite is fast and reproducible.
fn config() -> Config {
    Config {
        cases: 96,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(1962),
        ..Config::default()
    }
}

/// A graph of 7 layers of 6 positions, up to 3 moves each, values −4 to 4.
fn graph(seed: u64) -> MoverGraph {
    MoverGraph::generate(seed, 7, 6, 3, 4)
}

/// The value seen by `player`: MAX's value, or its negation for MIN, with MAX's −∞
/// (`i32::MIN`) as −`i32::MAX` so that it negates (the solver's scores).
fn seen_by(player: Player, value: i32) -> i32 {
    let value = value.max(-i32::MAX);
    match player {
        Player::Max => value,
        Player::Min => -value,
    }
}

/// Every window (α, β), α < β, with bounds among −∞, ∞ and the values within 4 of
/// `value`: the searches fail low, are exact and fail high, in null windows (α, α + 1),
/// wider ones, windows open at one end and the full window.
fn windows_around(value: i32) -> Vec<Window<i32>> {
    let mut bounds = vec![i32::MIN, i32::MAX];
    bounds.extend((-4..=4).map(|offset| value.saturating_add(offset)));
    bounds.sort_unstable();
    bounds.dedup();
    let mut windows = Vec::new();
    for (index, &alpha) in bounds.iter().enumerate() {
        for &beta in &bounds[index + 1..] {
            windows.push(Window::new(alpha, beta));
        }
    }
    windows
}

/// What McCarthy's fail-hard searches return for a position of (depth-limited) minimax
/// value `value` in `window`: the value clamped to the window, unless the root itself is
/// a leaf (terminal, or at the horizon of a search of depth 0), whose value is returned
/// as it is.
fn fail_hard<G: Game<Value = i32> + Evaluate>(
    game: &G,
    depth: Option<u32>,
    window: Window<i32>,
    value: i32,
) -> i32 {
    if game.is_terminal() {
        game.value()
    } else if depth == Some(0) {
        game.evaluate()
    } else {
        window.clamp(value)
    }
}

/// The minimax value, or the depth-limited one with `depth` plies left.
fn reference<G: Game<Value = i32> + Evaluate>(game: &mut G, depth: Option<u32>) -> i32 {
    match depth {
        None => minimax_value(game),
        Some(depth) => depth_limited_minimax(game, depth),
    }
}

/// Checks that `line` is a line of best play of value `value`: every position along it
/// has that (depth-limited) value, and it ends at a terminal position or at the horizon.
fn assert_best_play<G: Game<Value = i32> + Evaluate>(
    game: &mut G,
    line: &[G::Move],
    value: i32,
    depth: Option<u32>,
) -> Result<(), TestCaseError> {
    let mut played = 0;
    let mut result = Ok(());
    for (ply, &mv) in line.iter().enumerate() {
        let left = depth.map(|depth| depth - u32::try_from(ply).expect("a short line"));
        if reference(game, left) != value {
            result = Err(TestCaseError::fail(format!(
                "{ply} moves along {line:?} the value is not {value}"
            )));
            break;
        }
        game.update(mv);
        played += 1;
    }
    if result.is_ok() {
        let left = depth.map(|depth| depth - u32::try_from(line.len()).expect("a short line"));
        let ends = game.is_terminal() || left == Some(0);
        if !ends || reference(game, left) != value {
            result = Err(TestCaseError::fail(format!(
                "{line:?} does not end at a leaf worth {value}"
            )));
        }
    }
    for &mv in line[..played].iter().rev() {
        game.revert(mv);
    }
    result
}

/// McCarthy's `valmax`, `linemax` and `treemax` in windows on every side of the minimax
/// value, `verify` on every proof, and aspiration search from guesses above, at and
/// below the value.
fn check_alphabeta<G: Game<Value = i32> + Evaluate>(game: &mut G) -> Result<(), TestCaseError> {
    let value = minimax_value(game);
    for window in windows_around(value) {
        let expected = fail_hard(game, None, window, value);
        let found = alphabeta_value(game, window);
        prop_assert_eq!(found.value, expected, "value in {:?}", window);
        prop_assert_eq!(found.bound, window.bound_of(expected));
        let line = alphabeta_line(game, window);
        prop_assert_eq!(line.value, expected, "line in {:?}", window);
        if line.bound == Bound::Exact {
            assert_best_play(game, &line.principal_line, value, None)?;
        }
        let proof = alphabeta_proof(game, window);
        prop_assert_eq!(proof.value, expected, "proof in {:?}", window);
        if let Err(error) = verify_result(game, &proof) {
            return Err(TestCaseError::fail(format!(
                "the proofs in {window:?} do not verify: {error}"
            )));
        }
    }
    for guess in [-5, 0, 5].map(|offset| value.saturating_add(offset)) {
        for width in [1, 3] {
            let found = aspiration_value(game, guess, width);
            prop_assert_eq!(found.value, value, "aspiration from {} ± {}", guess, width);
        }
    }
    Ok(())
}

/// Seed 002's `chooseMove` with simple pruning and with alpha-beta, and the searches
/// through the hidden board: the minimax value and a move that attains it.
fn check_choose_move_and_hidden_board<G>(game: &mut G) -> Result<(), TestCaseError>
where
    G: Game<Value = i32> + Evaluate + Clone,
{
    let best = minimax(game);
    let full = ValueRange::new(i32::MIN, i32::MAX);
    for chosen in [
        choose_move(game, full),
        choose_move_alphabeta(game, Window::full()),
    ] {
        prop_assert_eq!(chosen.score, best.value);
        if let Some(mv) = chosen.best_move {
            game.update(mv);
            let after = minimax_value(game);
            game.revert(mv);
            prop_assert_eq!(after, best.value, "the chosen move {:?}", mv);
        } else {
            prop_assert!(best.best_move.is_none());
        }
    }
    let mut hidden = HiddenBoardGame::new(game.clone());
    let through_hidden = minimax(&mut hidden);
    prop_assert_eq!(
        (through_hidden.value, through_hidden.best_move),
        (best.value, best.best_move)
    );
    for window in windows_around(best.value) {
        let expected = fail_hard(game, None, window, best.value);
        prop_assert_eq!(alphabeta_value(&mut hidden, window).value, expected);
        let proof = alphabeta_proof(&mut hidden, window);
        prop_assert_eq!(proof.value, expected);
        prop_assert!(verify_result(&mut hidden, &proof).is_ok());
    }
    Ok(())
}

/// The solver against minimax: strong and weak, with and without enhanced transposition
/// cutoffs, each move by `analyze`, a node budget whose bounds hold the score, and on two
/// and three threads; one solver's table kept throughout, as its entries are facts about
/// positions.
fn check_solver<G: Solvable + Evaluate + Clone + Send>(game: &mut G) -> Result<(), TestCaseError>
where
    G::Move: Send + Sync,
{
    let value = minimax_value(game);
    let mover = game.to_move();
    let mut children = Vec::new();
    if !game.is_terminal() {
        let mut moves = Vec::new();
        game.successors(&mut moves);
        for mv in moves {
            game.update(mv);
            children.push((mv, minimax_value(game)));
            game.revert(mv);
        }
    }
    for enhanced_transposition_cutoffs in [false, true] {
        let options = SolveOptions {
            weak: false,
            enhanced_transposition_cutoffs,
            table_mib: 1,
            parallel_after_nodes: 0,
        };
        let mut solver = Solver::new(options);
        for weak in [false, true, false] {
            solver.set_weak(weak);
            let solution = solver.solve(game);
            let expected = if weak { value.signum() } else { value };
            prop_assert_eq!(solution.value, expected, "weak: {}", weak);
            prop_assert_eq!(solution.score, seen_by(mover, expected));
            for threads in [2, 3] {
                let solution = solver.solve_parallel(game, threads);
                prop_assert_eq!(
                    solution.value,
                    expected,
                    "weak: {}, threads: {}",
                    weak,
                    threads
                );
            }
        }
        let analysis = solver.analyze(game);
        let found: Vec<_> = analysis
            .iter()
            .map(|(mv, solution)| (*mv, solution.value))
            .collect();
        prop_assert_eq!(&found, &children);
        for (_, solution) in &analysis {
            prop_assert_eq!(solution.score, seen_by(mover, solution.value));
        }
        for budget in [1, 5, 25, 125] {
            let mut solver = Solver::new(options);
            match solver.solve_within(game, budget) {
                Ok(solution) => prop_assert_eq!(solution.value, value),
                Err(unsolved) => {
                    let score = seen_by(mover, value);
                    prop_assert!(
                        unsolved.at_least <= score && score <= unsolved.at_most,
                        "{} outside {}..={} after {} positions",
                        score,
                        unsolved.at_least,
                        unsolved.at_most,
                        budget
                    );
                    prop_assert_eq!(solver.solve(game).value, value);
                }
            }
        }
    }
    Ok(())
}

/// Depth-limited alpha-beta (value and line, with and without a table), its aspiration
/// search and iterative deepening (with the previous line and killers first, with and
/// without a table) at every depth up to `max_depth`, against depth-limited minimax.
fn check_depth_limited<G: Game<Value = i32> + Evaluate + PositionKey>(
    game: &mut G,
    max_depth: u32,
) -> Result<(), TestCaseError> {
    let mut table = TranspositionTable::with_buckets(256);
    let mut with_table = TableSearch::new(&mut table).with_reuse(Reuse::SameDepth);
    let mut values = Vec::new();
    for depth in 0..=max_depth {
        let value = depth_limited_minimax(game, depth);
        values.push(value);
        for window in windows_around(value) {
            let expected = fail_hard(game, Some(depth), window, value);
            let found = depth_limited_value(game, depth, window);
            prop_assert_eq!(found.value, expected, "depth {} in {:?}", depth, window);
            let found = depth_limited_value_with_table(game, depth, window, &mut with_table);
            prop_assert_eq!(
                found.value,
                expected,
                "table, depth {} in {:?}",
                depth,
                window
            );
            for line in [
                depth_limited_line(game, depth, window),
                depth_limited_line_with_table(game, depth, window, &mut with_table),
            ] {
                prop_assert_eq!(
                    line.value,
                    expected,
                    "line, depth {} in {:?}",
                    depth,
                    window
                );
                if line.bound == Bound::Exact {
                    assert_best_play(game, &line.principal_line, value, Some(depth))?;
                }
            }
        }
        let root_value = fail_hard(game, Some(depth), Window::full(), value);
        for guess in [-5, 0, 5].map(|offset| value.saturating_add(offset)) {
            let found = depth_limited_aspiration(game, depth, guess, 2);
            prop_assert_eq!(found.value, root_value, "aspiration, depth {}", depth);
            let found = depth_limited_aspiration_with_table(game, depth, guess, 2, &mut with_table);
            prop_assert_eq!(
                found.value,
                root_value,
                "aspiration, table, depth {}",
                depth
            );
        }
    }
    for options in [SearchOptions::plain(), SearchOptions::default()] {
        let without = iterative_deepening(game, max_depth, &options, |_| {});
        let with =
            iterative_deepening_with_table(game, max_depth, &options, &mut with_table, |_| {});
        for result in [without, with] {
            for iteration in &result.iterations {
                let depth = iteration.depth;
                let value = values[usize::try_from(depth).expect("a small depth")];
                prop_assert_eq!(iteration.value, value, "iteration {}", depth);
                if iteration.bound == Bound::Exact {
                    assert_best_play(game, &iteration.principal_line, value, Some(depth))?;
                }
                if let Some(mv) = iteration
                    .best_move
                    .filter(|_| iteration.bound == Bound::Exact)
                {
                    game.update(mv);
                    let after = depth_limited_minimax(game, depth - 1);
                    game.revert(mv);
                    prop_assert_eq!(after, value, "the best move {:?} at depth {}", mv, depth);
                }
            }
        }
    }
    Ok(())
}

/// m&n alpha-beta against m&n minimaxing, to the end and to a depth: the same move and
/// value, to the bit.
fn check_m_and_n<G>(game: &G, backing: &Slagle, max_depth: u32) -> Result<(), TestCaseError>
where
    G: Game<Value = i32> + Evaluate + Clone,
{
    let full = mn_minimax(&mut FloatValued(game.clone()), backing);
    let pruned = mn_alphabeta(&mut FloatValued(game.clone()), backing);
    prop_assert_eq!(pruned.value.to_bits(), full.value.to_bits());
    prop_assert_eq!(pruned.best_move, full.best_move);
    for depth in 0..=max_depth {
        let full = mn_minimax_depth(&mut FloatValued(game.clone()), backing, depth);
        let pruned = mn_alphabeta_depth(&mut FloatValued(game.clone()), backing, depth);
        prop_assert_eq!(
            pruned.value.to_bits(),
            full.value.to_bits(),
            "depth {}",
            depth
        );
        prop_assert_eq!(pruned.best_move, full.best_move, "depth {}", depth);
    }
    Ok(())
}

/// Exponents (x, y) with y chosen so that `count` values back up monotonically (seed 003,
/// section 8.1: (count − 1)·y·2^x·ln 2 ≤ 1).
fn monotone(count: usize, shift: f64) -> Exponents {
    let slope = 0.9 / ((count.max(2) - 1) as f64 * shift.exp2() * std::f64::consts::LN_2);
    Exponents::new(shift, slope).expect("valid exponents")
}

/// The backing-up functions the m&n checks use: monotone ones, and the seed's x = 3,
/// y = 1, which is not.
fn backings(m: usize, n: usize, shift: f64) -> [Slagle; 2] {
    let seed = Exponents::new(3.0, 1.0).expect("valid exponents");
    [
        Slagle::new(m, n, monotone(m, shift), monotone(n, -shift)).expect("valid counts"),
        Slagle::new(m, n, seed, seed).expect("valid counts"),
    ]
}

#[test]
fn the_random_graphs_have_runs_of_the_same_player_to_move() {
    let (mut repeated, mut all) = (0, 0);
    for seed in 0..100 {
        let (graph_repeated, graph_all) = graph(seed).repeated_moves();
        repeated += graph_repeated;
        all += graph_all;
    }
    // Each position draws its player: about half the moves leave the same player to move.
    assert!(
        3 * repeated > all && 3 * repeated < 2 * all,
        "{repeated} of {all}"
    );
}

#[test]
fn the_kalah_endgames_have_extra_moves() {
    let (mut extra, mut all) = (0, 0);
    for seed in 0..100 {
        let mut game = Kalah::random(3, 7, seed);
        let mover = game.to_move();
        let mut moves = Vec::new();
        if game.is_terminal() {
            continue;
        }
        game.successors(&mut moves);
        for mv in moves {
            game.update(mv);
            all += 1;
            extra += usize::from(game.to_move() == mover);
            game.revert(mv);
        }
    }
    assert!(extra * 10 > all, "{extra} of {all}");
}

#[test]
fn a_kalah_move_ending_in_the_store_moves_again_and_one_ending_in_an_empty_pit_captures() {
    // MAX: pits 1 0 1, store 0; MIN: pits 1 1 1, store 0.
    let mut game = Kalah::new([1, 0, 1], 0, [1, 1, 1], 0, Player::Max);
    // The last pit's seed falls into MAX's store: MAX moves again.
    game.update(2);
    assert_eq!((game.to_move(), game.evaluate()), (Player::Max, 1));
    // The first pit's seed falls into the empty second pit, opposite MIN's second pit:
    // both seeds go to MAX's store, and MIN is to move.
    game.update(0);
    assert_eq!((game.to_move(), game.evaluate()), (Player::Min, 3));
    // The game is over (MAX's pits are empty): MIN keeps their two seeds.
    assert_eq!(game.value(), 3 - 2);
    game.revert(0);
    game.revert(2);
    assert!(game.at_start());
    assert_eq!(
        (game.to_move(), game.evaluate(), game.value()),
        (Player::Max, 0, -1)
    );
}

#[test]
fn kalah_moves_keep_every_seed_on_the_board() {
    for seed in 0..200 {
        let mut game = Kalah::random(3, 7, seed);
        let seeds = game.seeds();
        let mut moves = Vec::new();
        game.successors(&mut moves);
        for mv in moves {
            game.update(mv);
            assert_eq!(game.seeds(), seeds, "seed {seed}, move {mv}");
            game.revert(mv);
        }
        assert!(game.at_start());
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn alphabeta_proofs_and_aspiration_agree_with_minimax_on_graphs_with_repeated_movers(
        seed in any::<u64>(),
    ) {
        let mut game = graph(seed);
        check_alphabeta(&mut game)?;
        check_choose_move_and_hidden_board(&mut game)?;
        prop_assert!(game.at_root());
    }

    #[test]
    fn alphabeta_proofs_and_aspiration_agree_with_minimax_on_kalah_endgames(
        seed in any::<u64>(),
        seeds in 1u32..=7,
    ) {
        let mut game = Kalah::random(3, seeds, seed);
        check_alphabeta(&mut game)?;
        check_choose_move_and_hidden_board(&mut game)?;
        prop_assert!(game.at_start());
    }

    #[test]
    fn the_solver_agrees_with_minimax_on_graphs_with_repeated_movers(seed in any::<u64>()) {
        let mut game = graph(seed);
        check_solver(&mut game)?;
        prop_assert!(game.at_root());
    }

    #[test]
    fn the_solver_agrees_with_minimax_on_kalah_endgames(
        seed in any::<u64>(),
        seeds in 1u32..=7,
    ) {
        let mut game = Kalah::random(3, seeds, seed);
        check_solver(&mut game)?;
        prop_assert!(game.at_start());
    }

    #[test]
    fn depth_limited_searches_agree_with_depth_limited_minimax_on_graphs_with_repeated_movers(
        seed in any::<u64>(),
    ) {
        let mut game = graph(seed);
        check_depth_limited(&mut game, 7)?;
        prop_assert!(game.at_root());
    }

    #[test]
    fn depth_limited_searches_agree_with_depth_limited_minimax_on_kalah_endgames(
        seed in any::<u64>(),
        seeds in 1u32..=7,
    ) {
        let mut game = Kalah::random(3, seeds, seed);
        check_depth_limited(&mut game, 6)?;
        prop_assert!(game.at_start());
    }

    #[test]
    fn m_and_n_alphabeta_agrees_with_m_and_n_minimaxing_with_repeated_movers(
        seed in any::<u64>(),
        seeds in 1u32..=6,
        m in 1usize..=3,
        n in 1usize..=3,
        shift in -2.0f64..3.0,
    ) {
        for backing in backings(m, n, shift) {
            check_m_and_n(&graph(seed), &backing, 4)?;
            check_m_and_n(&Kalah::random(3, seeds, seed), &backing, 4)?;
        }
    }
}
