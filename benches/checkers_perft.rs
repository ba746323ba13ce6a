//! Checkers perft speed, asserting every count it measures (OEIS A133046 for the initial
//! position; the king position's count is confirmed by tests/checkers_rules.rs).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gametree::games::checkers::{Position, perft};

fn initial_position(criterion: &mut Criterion) {
    let mut group = criterion.benchmark_group("checkers_perft_initial");
    group.sample_size(10);
    // OEIS A133046 (Aart Bik's checkers perft).
    for (depth, expected) in [(8u32, 845_931u64), (10, 18_391_564)] {
        group.bench_function(format!("depth_{depth}"), |bencher| {
            bencher.iter(|| {
                let nodes = perft(black_box(&Position::initial()), depth);
                assert_eq!(nodes, expected);
                nodes
            });
        });
    }
    group.finish();
}

fn position_with_kings(criterion: &mut Criterion) {
    // The example position: kings on both sides, captures in the tree.
    let position =
        Position::from_fen("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29").expect("valid FEN");
    // Confirmed by the plain 8×8 reference generator in tests/checkers_rules.rs.
    let expected = 197_933;
    let mut group = criterion.benchmark_group("checkers_perft_kings");
    group.sample_size(10);
    group.bench_function("depth_7", |bencher| {
        bencher.iter(|| {
            let nodes = perft(black_box(&position), 7);
            assert_eq!(nodes, expected);
            nodes
        });
    });
    group.finish();
}

criterion_group!(benches, initial_position, position_with_kings);
criterion_main!(benches);
