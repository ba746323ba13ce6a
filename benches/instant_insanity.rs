//! The seed's two representations of Instant Insanity compared: lists of colours against
//! bit words (seed 000 says the bit version is "a factor of ten" faster). Each bench first
//! asserts the solutions and positions it measures, so a bench is also a check.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gametree::puzzles::instant_insanity::{Puzzle, Repr, count_solutions, solve};

/// Eight cubes with eight colours, painted around a solution: a search a few thousand
/// times the size of the seed's.
const EIGHT_CUBES: [&str; 8] = [
    "EADAFG", "BEAEBE", "BEGDBD", "BAHHDB", "DHEGGH", "FFCFCH", "FCFCHE", "CGDBBD",
];

fn compare(c: &mut Criterion, name: &str, puzzle: &Puzzle, solutions: u64, expanded: u64) {
    for repr in [Repr::List, Repr::Bits] {
        let (count, stats) = count_solutions(puzzle, repr);
        assert_eq!(
            (count, stats.expanded),
            (solutions, expanded),
            "{name} {repr:?}"
        );
    }
    let mut group = c.benchmark_group(name);
    group.bench_function("first/list", |b| {
        b.iter(|| solve(black_box(puzzle), Repr::List).solution)
    });
    group.bench_function("first/bits", |b| {
        b.iter(|| solve(black_box(puzzle), Repr::Bits).solution)
    });
    group.bench_function("all/list", |b| {
        b.iter(|| count_solutions(black_box(puzzle), Repr::List))
    });
    group.bench_function("all/bits", |b| {
        b.iter(|| count_solutions(black_box(puzzle), Repr::Bits))
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    // The seed's puzz1: 3 solutions with the first cube in its three orientations; the
    // full search expands 102 positions in either representation.
    compare(c, "classic", &Puzzle::classic(), 3, 102);
    let eight = Puzzle::new(&EIGHT_CUBES).expect("a well-formed puzzle");
    compare(c, "eight_cubes", &eight, 32, 8848);
}

criterion_group!(instant_insanity, benches);
criterion_main!(instant_insanity);
