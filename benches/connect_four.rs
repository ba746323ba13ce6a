//! Connect Four: perft from the empty board, and the generic solver on the first 100
//! positions of three of Pascal Pons' benchmark files (the excerpts in `tests/data/`).
//! Every bench asserts what it measures (perft counts, benchmark scores, and the same node
//! count on every run), and its throughput is in positions visited, so criterion reports
//! nodes per second. Whole files: `gametree connect4 bench FILES...`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gametree::{ConnectFour, Game, SolveOptions, Solver};

fn perft<G: Game>(game: &mut G, depth: u32, buffers: &mut Vec<Vec<G::Move>>) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.is_terminal() {
        return 0;
    }
    let mut moves = buffers.pop().unwrap_or_default();
    moves.clear();
    game.successors(&mut moves);
    let mut count = 0;
    for &mv in &moves {
        game.update(mv);
        count += perft(game, depth - 1, buffers);
        game.revert(mv);
    }
    buffers.push(moves);
    count
}

fn perft_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("connect_four_perft");
    group.sample_size(10);
    let mut game = ConnectFour::new();
    let mut buffers = Vec::new();
    // Leaf counts from the empty 7×6 board (the list, OEIS A212693).
    for (depth, expected) in [(6, 117_649), (7, 823_536)] {
        group.throughput(Throughput::Elements(expected));
        group.bench_function(format!("depth_{depth}"), |b| {
            b.iter(|| assert_eq!(perft(black_box(&mut game), depth, &mut buffers), expected))
        });
    }
    group.finish();
}

/// `MOVES SCORE` lines of an excerpt.
fn positions(name: &str) -> Vec<(ConnectFour, i32)> {
    let path = format!("{}/tests/data/connect4/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("benchmark excerpt in tests/data");
    text.lines()
        .map(|line| {
            let (moves, score) = line.split_once(' ').expect("MOVES SCORE");
            let game = ConnectFour::from_moves(moves).expect("legal moves");
            (game, score.parse().expect("an integer score"))
        })
        .collect()
}

/// Solves every position from a cleared table; returns the positions visited.
fn solve_all(solver: &mut Solver<ConnectFour>, positions: &mut [(ConnectFour, i32)]) -> u64 {
    let mut nodes = 0;
    for (game, score) in positions.iter_mut() {
        solver.clear();
        let solution = solver.solve(game);
        assert_eq!(solution.score, *score, "{game:?}");
        nodes += solution.stats.nodes;
    }
    nodes
}

fn solver_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("connect_four_solve_100");
    group.sample_size(10);
    let mut solver = Solver::new(SolveOptions::default());
    for name in [
        "Test_L3_R1.first100",
        "Test_L2_R1.first100",
        "Test_L1_R1.first100",
    ] {
        let mut positions = positions(name);
        let nodes = solve_all(&mut solver, &mut positions);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name.trim_end_matches(".first100"), |b| {
            b.iter(|| assert_eq!(solve_all(&mut solver, black_box(&mut positions)), nodes))
        });
    }
    group.finish();
}

criterion_group!(benches, perft_bench, solver_bench);
criterion_main!(benches);
