//! Monte Carlo tree search and df-pn. MCTS: playouts per second on Connect Four from the
//! empty board, one thread, each playout a UCB1 descent, an expansion, one full uniformly
//! random game and the back-up (the throughput is in playouts, so criterion reports
//! playouts per second); with Connect Four's bitboard playouts and with the generic ones
//! through `successors`. df-pn: weak solving of Connect Four positions near the end. Each
//! bench asserts what it measures.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gametree::games::connect_four::RandomColumns;
use gametree::search::mcts::{Budget, Mcts, MctsOptions};
use gametree::search::proof_number::{DfPn, DfPnOptions};
use gametree::{ConnectFour, TicTacToe};

/// Playouts per measured search: enough that the tree is several levels deep, few enough
/// that it stays far below the node limit.
const PLAYOUTS: u64 = 100_000;

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("mcts_playouts");
    group.sample_size(10);
    group.throughput(Throughput::Elements(PLAYOUTS));
    let options = MctsOptions {
        seed: 1,
        ..MctsOptions::default()
    };
    group.bench_function("connect_four_random_columns", |b| {
        b.iter(|| {
            let mut game = ConnectFour::new();
            let mut mcts = Mcts::with_policy(options, RandomColumns);
            let result = mcts.search(&mut game, Budget::Playouts(PLAYOUTS));
            assert_eq!(result.playouts, PLAYOUTS);
            black_box(result.best_move)
        });
    });
    group.bench_function("connect_four_uniform_successors", |b| {
        b.iter(|| {
            let mut game = ConnectFour::new();
            let mut mcts = Mcts::new(options);
            let result = mcts.search(&mut game, Budget::Playouts(PLAYOUTS));
            assert_eq!(result.playouts, PLAYOUTS);
            black_box(result.best_move)
        });
    });
    group.bench_function("tic_tac_toe_without_solver", |b| {
        let options = MctsOptions {
            solver: false,
            ..options
        };
        b.iter(|| {
            let mut game = TicTacToe::new();
            let result = Mcts::new(options).search(&mut game, Budget::Playouts(PLAYOUTS));
            assert_eq!(result.playouts, PLAYOUTS);
            black_box(result.best_move)
        });
    });
    group.finish();
}

fn dfpn(c: &mut Criterion) {
    let mut group = c.benchmark_group("dfpn_weak");
    group.sample_size(10);
    // Pons' Test_L3_R1 positions (end game, weak values 1 and -1 and 0 for the player to
    // move), as in `gametree connect4 prove`.
    let positions = [
        ("5554224333234511764415115", 1),
        ("52753311433677442422121", 1),
        ("2252576253462244111563365343671351441", -1),
    ];
    let mut dfpn = DfPn::new(DfPnOptions {
        table_mib: 16,
        ..DfPnOptions::default()
    });
    group.bench_function("connect_four_end_game", |b| {
        b.iter(|| {
            for (moves, expected) in positions {
                let mut game = ConnectFour::from_moves(moves).expect("legal");
                let value = dfpn.weak_value(&mut game).value.expect("no budget");
                let to_move = if moves.len() % 2 == 0 { value } else { -value };
                assert_eq!(to_move, expected, "{moves}");
            }
        });
    });
    group.finish();
}

criterion_group!(benches, playouts, dfpn);
criterion_main!(benches);
