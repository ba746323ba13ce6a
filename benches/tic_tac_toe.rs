//! Seed 002's tic-tac-toe from the empty grid: full minimax, alpha-beta, seed 002's
//! `chooseMove`, and iterative deepening with and without killers. Each bench asserts the
//! figures it measures, and its throughput is in positions visited, so criterion reports
//! nodes per second.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gametree::games::simple_tic_tac_toe::{COMPUTER_WIN, DRAW, HUMAN_WIN};
use gametree::{
    SearchOptions, SimpleTicTacToe, ValueRange, Window, alphabeta_value, choose_move,
    choose_move_alphabeta, iterative_deepening, minimax,
};

fn searches(c: &mut Criterion) {
    let mut group = c.benchmark_group("tic_tac_toe");

    let mut game = SimpleTicTacToe::new();
    let result = minimax(&mut game);
    // The full tic-tac-toe game tree has 549,946 nodes counting the root (issue 3,
    // section 6).
    assert_eq!(result.stats.nodes, 549_946);
    assert_eq!(result.value, DRAW);
    group.throughput(Throughput::Elements(result.stats.nodes));
    group.bench_function("minimax", |b| {
        b.iter(|| {
            let result = minimax(black_box(&mut game));
            assert_eq!(result.stats.nodes, 549_946);
            result.value
        })
    });

    let result = alphabeta_value(&mut game, Window::full());
    assert_eq!(result.value, DRAW);
    let nodes = result.stats.nodes;
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("alphabeta_value", |b| {
        b.iter(|| {
            let result = alphabeta_value(black_box(&mut game), Window::full());
            assert_eq!((result.value, result.stats.nodes), (DRAW, nodes));
        })
    });

    let range = ValueRange::new(HUMAN_WIN, COMPUTER_WIN);
    let result = choose_move(&mut game, range);
    assert_eq!(result.score, DRAW);
    let nodes = result.stats.nodes;
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("choose_move_simple_pruning", |b| {
        b.iter(|| {
            let result = choose_move(black_box(&mut game), range);
            assert_eq!((result.score, result.stats.nodes), (DRAW, nodes));
        })
    });

    let window = Window::new(HUMAN_WIN, COMPUTER_WIN);
    let result = choose_move_alphabeta(&mut game, window);
    assert_eq!(result.score, DRAW);
    let nodes = result.stats.nodes;
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("choose_move_alphabeta", |b| {
        b.iter(|| {
            let result = choose_move_alphabeta(black_box(&mut game), window);
            assert_eq!((result.score, result.stats.nodes), (DRAW, nodes));
        })
    });

    let variants = [
        ("iterative_deepening_plain", SearchOptions::plain()),
        (
            "iterative_deepening_principal_line",
            SearchOptions {
                use_killers: false,
                ..SearchOptions::default()
            },
        ),
        ("iterative_deepening_with_killers", SearchOptions::default()),
    ];
    for (name, options) in variants {
        let result = iterative_deepening(&mut game, 9, &options, |_| {});
        assert_eq!(result.value, Some(DRAW));
        let nodes = result.stats.nodes;
        eprintln!(
            "{name}: {nodes} nodes, {} cutoffs, depth {} ({:?})",
            result.stats.cutoffs, result.depth, result.stop
        );
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| {
            b.iter(|| {
                let result = iterative_deepening(black_box(&mut game), 9, &options, |_| {});
                assert_eq!((result.value, result.stats.nodes), (Some(DRAW), nodes));
            })
        });
    }
    group.finish();
}

criterion_group!(benches, searches);
criterion_main!(benches);
