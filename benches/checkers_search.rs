//! Checkers search speed from the start position, asserting the node counts it measures:
//! iterative deepening alpha-beta to depth 12 without and with a transposition table, and
//! Slagle's m&n alpha-beta at depth 6. The counts are those `gametree checkers best`
//! reports for the same settings (README, `checkers best`); a change to move ordering or
//! to the table shows up here first. And the price of the learned evaluations: the same
//! search with the shipped linear weights and with the hidden layer, in positions a second.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gametree::games::checkers::{Checkers, Evaluation, LearnedWeights, Move};
use gametree::{
    Exponents, FloatValued, SearchOptions, Slagle, TableSearch, TranspositionTable,
    iterative_deepening, iterative_deepening_with_table, mn_alphabeta_depth,
};

fn alphabeta(criterion: &mut Criterion) {
    let mut group = criterion.benchmark_group("checkers_search_start");
    group.sample_size(10);
    let options = SearchOptions::default();
    group.bench_function("deepening_depth_12", |bencher| {
        bencher.iter(|| {
            let mut game = Checkers::new();
            let result = iterative_deepening(&mut game, black_box(12), &options, |_| {});
            assert_eq!(result.stats.nodes, 493_987);
            assert_eq!(result.value, Some(-8));
            result.stats.nodes
        });
    });
    let mut table = TranspositionTable::with_mib(16);
    group.bench_function("deepening_depth_12_table_16_mib", |bencher| {
        bencher.iter(|| {
            // A cleared table behaves as a new one: stale entries are replaced first.
            table.clear();
            let mut search =
                TableSearch::new(&mut table).with_distance(Checkers::distance_adjustment());
            let mut game = Checkers::new();
            let result = iterative_deepening_with_table(
                &mut game,
                black_box(12),
                &options,
                &mut search,
                |_| {},
            );
            assert_eq!(result.stats.nodes, 148_022);
            assert_eq!(result.value, Some(-8));
            result.stats.nodes
        });
    });
    group.finish();
}

fn m_and_n(criterion: &mut Criterion) {
    // The defaults of `gametree checkers best --algorithm m-and-n`: 2&2, x = r = 3,
    // y = s = 0.1 (values are hundredths of a man).
    let exponents = Exponents::new(3.0, 0.1).expect("y > 0");
    let slagle = Slagle::new(2, 2, exponents, exponents).expect("m, n ≥ 1");
    let mut group = criterion.benchmark_group("checkers_search_start");
    group.sample_size(10);
    group.bench_function("m_and_n_depth_6", |bencher| {
        bencher.iter(|| {
            let mut game = FloatValued(Checkers::new());
            let result = mn_alphabeta_depth(&mut game, &slagle, black_box(6));
            assert_eq!(result.stats.nodes, 5_054);
            result.stats.nodes
        });
    });
    group.finish();
}

fn learned_evaluations(criterion: &mut Criterion) {
    let mut group = criterion.benchmark_group("checkers_search_start");
    group.sample_size(10);
    let options = SearchOptions::default();
    let mut table = TranspositionTable::with_mib(16);
    for (name, weights) in [
        ("learned", LearnedWeights::shipped()),
        ("network", LearnedWeights::shipped_network()),
    ] {
        let search_once = |table: &mut TranspositionTable<Move, i32>| {
            table.clear();
            let mut search = TableSearch::new(table).with_distance(Checkers::distance_adjustment());
            let mut game = Checkers::new().with_evaluation(Evaluation::Learned(weights.clone()));
            iterative_deepening_with_table(&mut game, black_box(13), &options, &mut search, |_| {})
                .stats
                .nodes
        };
        // Throughput in positions: the time per search over the positions it visits.
        let nodes = search_once(&mut table);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(
            format!("deepening_depth_13_table_16_mib_{name}"),
            |bencher| {
                bencher.iter(|| assert_eq!(search_once(&mut table), nodes));
            },
        );
    }
    group.finish();
}

criterion_group!(benches, alphabeta, m_and_n, learned_evaluations);
criterion_main!(benches);
