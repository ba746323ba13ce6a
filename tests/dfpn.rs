//! df-pn graded against exact answers: its weak values equal the solver's on hundreds of
//! Connect Four positions near the end, its outcomes equal minimax on random explicit trees
//! and on games where a player may move twice in a row, and every proof and refutation it
//! returns passes the independent verifier.

mod repeated_movers_support;

use gametree::search::proof_number::{DfPn, DfPnOptions, DfPnOutcome};
use gametree::{
    Claim, ConnectFour, ExplicitTree, Game, PositionKey, RandomTreeConfig, SolveOptions, Solver,
    SplitMix64, minimax_value, verify,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use repeated_movers_support::{Kalah, MoverGraph};

fn options() -> DfPnOptions {
    DfPnOptions {
        table_mib: 4,
        ..DfPnOptions::default()
    }
}

/// Proves or disproves `claim` with a proof, checks the proof (or the refutation) with
/// `verify`, and returns the outcome.
fn checked_outcome<G: PositionKey>(
    dfpn: &mut DfPn<G>,
    game: &mut G,
    claim: Claim<G::Value>,
) -> DfPnOutcome
where
    G::Move: std::fmt::Debug,
{
    let result = dfpn.prove_with_proof(game, claim);
    match result.outcome {
        DfPnOutcome::Proven => {
            let proof = result.proof.expect("a proven claim has a proof");
            assert_eq!(
                verify(game, &proof, claim).map_err(|e| e.to_string()),
                Ok(())
            );
        }
        DfPnOutcome::Disproven => {
            let proof = result.proof.expect("a disproven claim has a refutation");
            let refutation = result
                .refutation
                .expect("a disproven claim says what it proves");
            let not_claim = match (claim, refutation) {
                (Claim::AtLeast(bound), Claim::AtMost(value)) => value < bound,
                (Claim::AtMost(bound), Claim::AtLeast(value)) => value > bound,
                _ => false,
            };
            assert!(not_claim, "{refutation:?} contradicts {claim:?}");
            assert_eq!(
                verify(game, &proof, refutation).map_err(|e| e.to_string()),
                Ok(())
            );
        }
        DfPnOutcome::Unknown => panic!("no node budget was set"),
    }
    result.outcome
}

/// Connect Four positions of `stones` stones drawn by random play, not over.
fn connect_four_positions(count: usize, seed: u64) -> Vec<ConnectFour> {
    let mut random = SplitMix64::new(seed);
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    while positions.len() < count {
        let mut game = ConnectFour::new();
        let stones = 26 + random.index(12);
        for _ in 0..stones {
            moves.clear();
            game.successors(&mut moves);
            if moves.is_empty() {
                break;
            }
            game.update(moves[random.index(moves.len())]);
        }
        if !game.is_terminal() {
            positions.push(game);
        }
    }
    positions
}

#[test]
fn dfpn_weak_values_equal_the_solvers_on_300_connect_four_positions() {
    let mut solver = Solver::new(SolveOptions {
        weak: true,
        table_mib: 8,
        ..SolveOptions::default()
    });
    let mut dfpn = DfPn::new(options());
    let mut values = [0; 3];
    for (index, mut game) in connect_four_positions(300, 2002).into_iter().enumerate() {
        let expected = solver.solve(&mut game).value;
        let found = dfpn.weak_value(&mut game);
        assert_eq!(found.value, Some(expected), "position {index}:\n{game}");
        assert!(found.stats.nodes > 0);
        values[(expected + 1) as usize] += 1;
        // Every tenth position: the two claims' proofs, checked.
        if index % 10 == 0 {
            let win = checked_outcome(&mut dfpn, &mut game, Claim::AtLeast(1));
            let draw = checked_outcome(&mut dfpn, &mut game, Claim::AtLeast(0));
            assert_eq!(win == DfPnOutcome::Proven, expected == 1);
            assert_eq!(draw == DfPnOutcome::Proven, expected >= 0);
        }
    }
    assert!(
        values.iter().all(|&count| count > 10),
        "wins, draws and losses: {values:?}"
    );
}

#[test]
fn a_small_table_still_gives_the_right_values_and_proofs() {
    // A 1 MiB table of 32 768 entries overflows on the larger positions: evicted entries
    // are searched again, also while the proof is written out.
    let mut solver = Solver::new(SolveOptions {
        weak: true,
        table_mib: 8,
        ..SolveOptions::default()
    });
    let mut dfpn = DfPn::new(DfPnOptions {
        table_mib: 1,
        ..DfPnOptions::default()
    });
    let entries = (dfpn.table_memory_bytes() / 32) as u64;
    let mut random = SplitMix64::new(7);
    let mut checked = 0;
    let mut overflowed = 0;
    while checked < 5 {
        let mut game = ConnectFour::new();
        for _ in 0..STONES {
            let mut moves = Vec::new();
            game.successors(&mut moves);
            if moves.is_empty() {
                break;
            }
            game.update(moves[random.index(moves.len())]);
        }
        if game.is_terminal() {
            continue;
        }
        let expected = solver.solve(&mut game).value;
        let found = dfpn.weak_value(&mut game);
        assert_eq!(found.value, Some(expected));
        overflowed += usize::from(found.stats.nodes > entries);
        let claim = Claim::AtLeast(expected.max(0));
        assert_eq!(
            checked_outcome(&mut dfpn, &mut game, claim),
            DfPnOutcome::Proven
        );
        checked += 1;
    }
    assert!(
        overflowed > 0,
        "some searches visit more positions than the table holds"
    );
}

/// Stones played before the positions of the small-table test.
const STONES: usize = 16;

fn config() -> Config {
    Config {
        cases: 256,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(2002),
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn dfpn_agrees_with_minimax_on_random_explicit_trees(seed in any::<u64>()) {
        let mut tree = ExplicitTree::random(&RandomTreeConfig::default(), seed);
        prop_assume!(!tree.is_terminal());
        let value = minimax_value(&mut tree);
        let mut dfpn = DfPn::new(DfPnOptions { table_mib: 1, ..DfPnOptions::default() });
        // The value is the greatest v with "at least v" and the least with "at most v".
        for (claim, expected) in [
            (Claim::AtLeast(value), DfPnOutcome::Proven),
            (Claim::AtLeast(value + 0.5), DfPnOutcome::Disproven),
            (Claim::AtMost(value), DfPnOutcome::Proven),
            (Claim::AtMost(value - 0.5), DfPnOutcome::Disproven),
        ] {
            prop_assert_eq!(checked_outcome(&mut dfpn, &mut tree, claim), expected, "{:?}", claim);
            prop_assert!(tree.moves_from_root().is_empty());
        }
    }

    #[test]
    fn dfpn_agrees_with_minimax_on_games_with_repeated_movers(seed in any::<u64>()) {
        let mut graph = MoverGraph::generate(seed, 7, 6, 3, 4);
        let value = minimax_value(&mut graph);
        let mut dfpn = DfPn::new(DfPnOptions { table_mib: 1, ..DfPnOptions::default() });
        prop_assert_eq!(dfpn.weak_value(&mut graph).value, Some(value.signum()));
        if !graph.is_terminal() && (-100..100).contains(&value) {
            prop_assert_eq!(checked_outcome(&mut dfpn, &mut graph, Claim::AtLeast(value)), DfPnOutcome::Proven);
            prop_assert_eq!(checked_outcome(&mut dfpn, &mut graph, Claim::AtLeast(value + 1)), DfPnOutcome::Disproven);
        }
        prop_assert!(graph.at_root());

        let mut kalah = Kalah::random(3, 7, seed);
        let value = minimax_value(&mut kalah);
        let mut dfpn = DfPn::new(DfPnOptions { table_mib: 1, ..DfPnOptions::default() });
        prop_assert_eq!(dfpn.weak_value(&mut kalah).value, Some(value.signum()));
        prop_assert_eq!(checked_outcome(&mut dfpn, &mut kalah, Claim::AtMost(value)), DfPnOutcome::Proven);
    }
}
