//! Differential and property tests on random explicit trees: minimax is the oracle for
//! McCarthy's valmax, linemax and treemax (seed 000, "Game trees"), `verify` the judge of
//! every proof, and aspiration search must agree with the full window.

use gametree::{
    Claim, ExplicitTree, Game, Proof, ProofId, ProofStep, RandomTreeConfig, VerifyFailure, Window,
    alphabeta_line, alphabeta_proof, alphabeta_value, aspiration_value, minimax, verify,
    verify_result,
};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngSeed};

/// A fixed, deterministic configuration so the suite is fast and repeatable.
fn config() -> Config {
    Config {
        cases: 192,
        rng_seed: RngSeed::Fixed(0x6a6d_6331_3936_3000),
        failure_persistence: None,
        ..Config::default()
    }
}

/// A random tree: branching 1 to 4, leaves at plies 1 to 5, values −6 to 6 (many ties).
fn tree(seed: u64) -> ExplicitTree {
    ExplicitTree::random(
        &RandomTreeConfig {
            branching: 1..=4,
            depth: 1..=5,
            values: -6..=6,
        },
        seed,
    )
}

/// A window: each end either infinite or an integer around the leaf values, α < β.
fn window() -> impl Strategy<Value = Window<f64>> {
    let end = prop_oneof![1 => Just(None), 4 => (-8i32..=8).prop_map(Some)];
    (end.clone(), end).prop_filter_map("α < β", |(low, high)| {
        let alpha = low.map_or(f64::NEG_INFINITY, f64::from);
        let beta = high.map_or(f64::INFINITY, f64::from);
        (alpha < beta).then(|| Window::new(alpha, beta))
    })
}

/// The proof with the step at `id` replaced.
fn with_step(
    proof: &Proof<usize, f64>,
    id: usize,
    step: ProofStep<usize, f64>,
) -> Proof<usize, f64> {
    let mut steps = proof.steps().to_vec();
    steps[id] = step;
    Proof::from_steps(steps, proof.root()).expect("still a tree")
}

/// Every way to tamper with a proof as the issue asks: one reply removed from a list, and
/// one terminal value changed. Each must be rejected.
fn tampered(proof: &Proof<usize, f64>, pick: &Index) -> Vec<Proof<usize, f64>> {
    let mut result = Vec::new();
    let lists: Vec<usize> = (0..proof.steps().len())
        .filter(|&id| matches!(&proof.steps()[id], ProofStep::Replies(list) if !list.is_empty()))
        .collect();
    if !lists.is_empty() {
        let id = lists[pick.index(lists.len())];
        let ProofStep::Replies(list) = &proof.steps()[id] else {
            unreachable!("chosen among lists")
        };
        let mut shorter = list.clone();
        shorter.remove(pick.index(list.len()));
        result.push(with_step(proof, id, ProofStep::Replies(shorter)));
    }
    let leaves: Vec<usize> = (0..proof.steps().len())
        .filter(|&id| matches!(proof.steps()[id], ProofStep::Terminal(_)))
        .collect();
    let id = leaves[pick.index(leaves.len())];
    let ProofStep::Terminal(value) = proof.steps()[id] else {
        unreachable!("chosen among leaves")
    };
    // Changed either way: a value that still meets the bound is a lie about the leaf too.
    for changed in [value + 1.0, value - 0.5] {
        result.push(with_step(proof, id, ProofStep::Terminal(changed)));
    }
    result
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn alphabeta_value_is_minimax_clamped_to_the_window(seed: u64, window in window()) {
        let mut tree = tree(seed);
        let oracle = minimax(&mut tree);
        let result = alphabeta_value(&mut tree, window);
        prop_assert_eq!(result.value, window.clamp(oracle.value));
        prop_assert_eq!(result.bound, window.bound_of(result.value));
        prop_assert!(result.stats.leaves <= oracle.stats.leaves);
        prop_assert!(result.stats.nodes <= oracle.stats.nodes);
    }

    #[test]
    fn an_exact_line_replays_to_a_leaf_of_its_value(seed: u64, window in window()) {
        let mut tree = tree(seed);
        let oracle = minimax(&mut tree).value;
        let result = alphabeta_line(&mut tree, window);
        prop_assert_eq!(result.value, window.clamp(oracle));
        if window.bound_of(result.value) == gametree::Bound::Exact {
            for &mv in &result.principal_line {
                let mut moves = Vec::new();
                tree.successors(&mut moves);
                prop_assert!(moves.contains(&mv));
                tree.update(mv);
            }
            prop_assert!(tree.is_terminal());
            prop_assert_eq!(tree.value(), result.value);
            // In the full window the line starts with minimax's first best move.
            if window == Window::full() {
                tree.reset();
                prop_assert_eq!(result.principal_line.first().copied(), minimax(&mut tree).best_move);
            }
        }
    }

    #[test]
    fn verify_accepts_every_proof_and_rejects_tampered_ones(
        seed: u64,
        window in window(),
        pick: Index,
    ) {
        let mut tree = tree(seed);
        let oracle = minimax(&mut tree).value;
        let result = alphabeta_proof(&mut tree, window);
        prop_assert_eq!(result.value, window.clamp(oracle));
        prop_assert_eq!(verify_result(&mut tree, &result), Ok(()));
        prop_assert_eq!(tree.moves_from_root(), Vec::<usize>::new());
        let proofs = [
            (result.at_least.as_ref(), Claim::AtLeast(result.value)),
            (result.at_most.as_ref(), Claim::AtMost(result.value)),
        ];
        // A proof is present exactly where the seed's case for the bound requires it.
        for (proof, claim) in proofs {
            let Some(proof) = proof else { continue };
            for bad in tampered(proof, &pick) {
                prop_assert!(verify(&mut tree, &bad, claim).is_err());
                prop_assert_eq!(tree.moves_from_root(), Vec::<usize>::new());
            }
        }
        // No proof can claim more than the truth.
        if let Some(pfmax) = result.at_least.as_ref().filter(|_| result.value == oracle) {
            let error = verify(&mut tree, pfmax, Claim::AtLeast(oracle + 0.5))
                .expect_err("the value is not above the minimax value");
            prop_assert!(
                matches!(error.failure, VerifyFailure::BoundNotMet { .. }),
                "{error}"
            );
        }
    }

    #[test]
    fn aspiration_equals_the_full_window_value(
        seed: u64,
        guess in -10i32..=10,
        width in 1i32..=4,
    ) {
        let mut tree = tree(seed);
        let full = alphabeta_value(&mut tree, Window::full()).value;
        let result = aspiration_value(&mut tree, f64::from(guess), f64::from(width));
        prop_assert_eq!(result.value, full);
        prop_assert!(result.windows.iter().all(|window| window.alpha < window.beta));
        prop_assert_eq!(tree.moves_from_root(), Vec::<usize>::new());
    }

    #[test]
    fn trees_print_as_they_parse(seed: u64) {
        let tree = tree(seed);
        let text = tree.to_string();
        let reread = ExplicitTree::parse(&text).expect("prints well formed");
        prop_assert_eq!(reread.to_string(), text);
        prop_assert_eq!(reread.node_count(), tree.node_count());
    }
}

#[test]
fn the_issue_example_proves_value_3_with_the_printed_proofs() {
    // Issue 3, section 5: ((3 5) (2 9)) proves as value 3 with pfmax (1 (2 5) (1 3)) and
    // pfmin ((2 1 2) (1 1 3)).
    let mut tree = ExplicitTree::parse("((3 5) (2 9))").expect("well formed");
    let result = alphabeta_proof(&mut tree, Window::full());
    assert_eq!(result.value, 3.0);
    let pfmax = result.at_least.as_ref().expect("exact");
    let pfmin = result.at_most.as_ref().expect("exact");
    assert_eq!(pfmax.to_string(), "(1 (2 5) (1 3))");
    assert_eq!(pfmin.to_string(), "((2 1 2) (1 1 3))");
    assert_eq!(verify(&mut tree, pfmax, Claim::AtLeast(3.0)), Ok(()));
    assert_eq!(verify(&mut tree, pfmin, Claim::AtMost(3.0)), Ok(()));
}

#[test]
fn the_seed_figure_cut_spares_the_leaves_after_the_9() {
    // Seed 000, figure "Move tree showing how simple minimax does too much work": MIN
    // chooses among a MAX position with leaves 8 and 1, a leaf 6, and a MAX position with
    // leaves 9, x, x. Once the 9 is seen, MIN will not choose that position, so the x's are
    // never examined, whatever they are. Our root is MAX, so MIN's position is its only
    // child.
    for (x1, x2) in [(0, 0), (-100, 100), (100, -100)] {
        let text = format!("(((8 1) 6 (9 {x1} {x2})))");
        let mut tree = ExplicitTree::parse(&text).expect("well formed");
        let full = minimax(&mut tree);
        let result = alphabeta_value(&mut tree, Window::full());
        assert_eq!(result.value, full.value);
        assert_eq!(result.value, 6.0);
        assert_eq!(full.stats.leaves, 6);
        // 8, 1, 6 and 9: the x's are cut off.
        assert_eq!(result.stats.leaves, 4);
    }
}

/// The depth of every step of a proof below its root.
fn step_depths(proof: &Proof<usize, f64>) -> Vec<usize> {
    let mut depths = vec![0; proof.steps().len()];
    let mut pending = vec![(proof.root(), 0)];
    while let Some((id, depth)) = pending.pop() {
        depths[id.index()] = depth;
        match proof.step(id) {
            ProofStep::Terminal(_) => {}
            ProofStep::Choice(_, next) => pending.push((*next, depth + 1)),
            ProofStep::Replies(replies) => {
                pending.extend(replies.iter().map(|&(_, next)| (next, depth + 1)));
            }
        }
    }
    depths
}

#[test]
fn a_tree_100_000_levels_deep_is_searched_proved_and_verified() {
    let levels = 100_000;
    let mut text = String::new();
    // Each position has a leaf its player to move does not want (−9 for MAX, 9 for MIN)
    // and the deeper position: best play and both proofs go all the way down to the 3.
    for ply in 0..levels - 1 {
        text.push_str(if ply % 2 == 0 { "(-9 " } else { "(9 " });
    }
    text.push_str("(3)");
    text.push_str(&")".repeat(levels - 1));
    let mut tree = ExplicitTree::parse(&text).expect("well formed");
    let oracle = minimax(&mut tree).value;
    assert_eq!(oracle, 3.0);
    let result = alphabeta_proof(&mut tree, Window::full());
    assert_eq!(result.value, oracle);
    assert_eq!(verify_result(&mut tree, &result), Ok(()));
    let line = alphabeta_line(&mut tree, Window::full());
    assert_eq!(line.value, oracle);
    // Down the deeper child every time, then into the last list `(3)`.
    let mut expected = vec![2; levels - 1];
    expected.push(1);
    assert!(
        line.principal_line == expected,
        "the line goes down the spine"
    );
    assert_eq!(aspiration_value(&mut tree, 0.0, 1.0).value, oracle);
    // Tampering deep down is found deep down.
    let pfmin = result.at_most.as_ref().expect("exact");
    let depths = step_depths(pfmin);
    let deepest = (0..depths.len())
        .filter(|&id| matches!(pfmin.step(ProofId::new(id)), ProofStep::Terminal(_)))
        .max_by_key(|&id| depths[id])
        .expect("a proof has leaves");
    assert_eq!(depths[deepest], levels);
    let bad = with_step(pfmin, deepest, ProofStep::Terminal(-100.0));
    let error = verify(&mut tree, &bad, Claim::AtMost(oracle)).expect_err("tampered");
    assert_eq!(error.path.len(), levels);
    assert_eq!(tree.moves_from_root(), Vec::<usize>::new());
}
