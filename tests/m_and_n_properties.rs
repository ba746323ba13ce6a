//! Differential tests on random trees: m&n alpha-beta against m&n minimaxing (Slagle's
//! claim of equivalence, seed 003 section 7), 1&1 against McCarthy's alpha-beta, and what
//! the monotonicity theorem of section 8.1 is for.

mod m_and_n_support;

use std::f64::consts::LN_2;

use gametree::{
    BackingUp, Bound, ExplicitTree, Exponents, MonotoneClaim, Player, RandomTreeConfig, Slagle,
    SplitMix64, Window, alphabeta_value, minimax, mn_alphabeta, mn_alphabeta_depth,
    mn_alphabeta_value, mn_minimax, mn_minimax_depth,
};
use m_and_n_support::{BelowSingleMove, Tree, Values};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// A fixed, deterministic configuration, so the suite is fast and reproducible.
fn config() -> Config {
    Config {
        cases: 200,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(1963),
        ..Config::default()
    }
}

fn explicit(seed: u64, branching: usize, depth: usize) -> ExplicitTree {
    let config = RandomTreeConfig {
        branching: 1..=branching,
        depth: 1..=depth,
        values: -8..=8,
    };
    ExplicitTree::random(&config, seed)
}

fn fine(seed: u64, branching: u64, depth: u32) -> Tree {
    let mut random = SplitMix64::new(seed);
    let root = m_and_n_support::random_node(&mut random, branching, depth, Values::Fine);
    Tree::from_node(root, Player::Max)
}

/// Exponents (x, y) with x given and y chosen so that `count` values back up monotonically:
/// (count − 1)·y·2^x·ln 2 = `fraction` ≤ 1.
fn monotone(count: usize, shift: f64, fraction: f64) -> Exponents {
    let slope = fraction / ((count.max(2) - 1) as f64 * shift.exp2() * LN_2);
    Exponents::new(shift, slope).expect("valid exponents")
}

fn seed_exponents() -> Exponents {
    Exponents::new(3.0, 1.0).expect("valid exponents")
}

/// Asserts that m&n alpha-beta chooses what m&n minimaxing chooses, to the bit, on `game`
/// made afresh by `make`, and examines no more leaves.
fn assert_agree<G, B>(make: impl Fn() -> G, backing: &B) -> Result<(), TestCaseError>
where
    G: gametree::Game<Value = f64>,
    B: BackingUp,
{
    let full = mn_minimax(&mut make(), backing);
    let pruned = mn_alphabeta(&mut make(), backing);
    prop_assert_eq!(pruned.value.to_bits(), full.value.to_bits());
    prop_assert_eq!(pruned.best_move, full.best_move);
    prop_assert!(pruned.stats.leaves <= full.stats.leaves);
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn alphabeta_agrees_with_minimaxing_for_monotone_parameters(
        seed in any::<u64>(),
        m in 1usize..=3,
        n in 1usize..=3,
        x in -3.0f64..3.0,
        r in -3.0f64..3.0,
        fractions in (0.05f64..=1.0, 0.05f64..=1.0),
        branching in 1usize..=5,
        depth in 1usize..=6,
    ) {
        let backing = Slagle::new(m, n, monotone(m, x, fractions.0), monotone(n, r, fractions.1))
            .expect("valid counts");
        prop_assert!(backing.monotonicity_violations().is_empty());
        assert_agree(|| explicit(seed, branching, depth), &backing)?;
        assert_agree(|| fine(seed, branching as u64, depth as u32), &backing)?;
    }

    #[test]
    fn alphabeta_agrees_with_minimaxing_for_the_seeds_x_3_y_1(
        seed in any::<u64>(),
        m in 1usize..=3,
        n in 1usize..=3,
        branching in 1usize..=5,
        depth in 1usize..=6,
    ) {
        // Seed 003's worked examples: x = 3, y = 1 (and r = 3, s = 1), which break the
        // theorem of section 8.1; the procedure still agrees.
        let backing = Slagle::new(m, n, seed_exponents(), seed_exponents()).expect("valid counts");
        assert_agree(|| explicit(seed, branching, depth), &backing)?;
        assert_agree(|| fine(seed, branching as u64, depth as u32), &backing)?;
    }

    #[test]
    fn one_and_one_is_plain_alphabeta_in_value_and_leaves_evaluated(
        seed in any::<u64>(),
        branching in 1usize..=6,
        depth in 1usize..=6,
        x in -3.0f64..4.0,
    ) {
        let exponents = Exponents::new(x, 1.0).expect("valid exponents");
        let plain = Slagle::new(1, 1, exponents, exponents).expect("valid counts");
        let reference = alphabeta_value(&mut explicit(seed, branching, depth), Window::full());
        let ours = mn_alphabeta(&mut explicit(seed, branching, depth), &plain);
        prop_assert_eq!(ours.value, reference.value);
        prop_assert_eq!(ours.stats.leaves, reference.stats.leaves);
        prop_assert_eq!(ours.stats.nodes, reference.stats.nodes);
        let reference = minimax(&mut explicit(seed, branching, depth));
        let ours = mn_minimax(&mut explicit(seed, branching, depth), &plain);
        prop_assert_eq!((ours.value, ours.best_move), (reference.value, reference.best_move));
        prop_assert_eq!(ours.stats.leaves, reference.stats.leaves);
    }

    #[test]
    fn depth_limited_searches_agree_with_parameters_that_depend_on_depth(
        seed in any::<u64>(),
        m in 1usize..=3,
        n in 1usize..=3,
        depth_limit in 0u32..=5,
        x in -2.0f64..3.0,
    ) {
        // Section 8: x, y, r, s are learned per dmax. Some depths monotone, some not.
        let backing = Slagle::new(m, n, monotone(m, x, 0.9), seed_exponents())
            .expect("valid counts")
            .with_max_at(1, seed_exponents())
            .with_min_at(2, monotone(n, -x, 0.5))
            .with_max_at(3, Exponents::new(x, 2.0).expect("valid exponents"));
        let full = mn_minimax_depth(&mut fine(seed, 4, 7), &backing, depth_limit);
        let pruned = mn_alphabeta_depth(&mut fine(seed, 4, 7), &backing, depth_limit);
        prop_assert_eq!(pruned.value.to_bits(), full.value.to_bits());
        prop_assert_eq!(pruned.best_move, full.best_move);
    }

    #[test]
    fn a_window_value_is_exact_inside_the_window_and_a_true_bound_outside(
        seed in any::<u64>(),
        m in 1usize..=3,
        n in 1usize..=3,
        window in (-10.0f64..10.0, 0.0f64..8.0),
    ) {
        let backing = Slagle::new(m, n, seed_exponents(), monotone(n, 1.0, 1.0))
            .expect("valid counts");
        // The backed-up value of the root, by m&n minimaxing below a one-move root.
        let exact = mn_minimax(&mut BelowSingleMove::new(explicit(seed, 4, 5)), &backing).value;
        let (alpha, beta) = (window.0, window.0 + window.1 + 0.5);
        let result = mn_alphabeta_value(&mut explicit(seed, 4, 5), &backing, Window::new(alpha, beta));
        match result.bound {
            Bound::Exact => prop_assert_eq!(result.value, exact),
            Bound::Upper => prop_assert!(exact <= result.value && result.value <= alpha),
            Bound::Lower => prop_assert!(exact >= result.value && result.value >= beta),
        }
        let full = mn_alphabeta_value(&mut explicit(seed, 4, 5), &backing, Window::full());
        prop_assert_eq!(full.value, exact);
    }
}

/// Runs m&n minimaxing and alpha-beta with `backing` on `trees` seeded random trees and
/// returns (disagreements, leaves examined by alpha-beta).
fn disagreements<B: BackingUp>(backing: &B, trees: u64) -> (usize, u64) {
    let mut wrong = 0;
    let mut leaves = 0;
    for seed in 0..trees {
        let full = mn_minimax(&mut fine(seed, 5, 6), backing);
        let pruned = mn_alphabeta(&mut fine(seed, 5, 6), backing);
        leaves += pruned.stats.leaves;
        if (pruned.value, pruned.best_move) != (full.value, full.best_move) {
            wrong += 1;
        }
    }
    (wrong, leaves)
}

#[test]
fn the_monotone_cutoff_is_wrong_for_parameters_that_break_slagles_theorem() {
    // Trusting x = 3, y = 1 as monotone (cutting off as soon as the values so far back up
    // past β) chooses a different move from m&n minimaxing on some trees.
    let seeds = Slagle::new(2, 2, seed_exponents(), seed_exponents()).expect("valid counts");
    let (honest, _) = disagreements(&seeds, 300);
    let (trusting, _) = disagreements(&MonotoneClaim::asserted(seeds), 300);
    assert_eq!(honest, 0);
    assert!(trusting > 0, "no tree shows the cost");
}

#[test]
fn the_monotone_cutoff_saves_leaves_when_the_theorem_holds() {
    let exponents = monotone(2, 2.0, 1.0);
    let backing = Slagle::new(2, 2, exponents, exponents).expect("valid counts");
    let (wrong, with_cutoff) = disagreements(&backing, 300);
    let (_, without) = disagreements(&MonotoneClaim::withheld(backing), 300);
    assert_eq!(wrong, 0);
    assert!(with_cutoff < without, "{with_cutoff} against {without}");
}
