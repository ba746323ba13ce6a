//! Unit tests of df-pn on the small explicit tree of the search modules.

use super::*;
use crate::search::alphabeta::verify;
use crate::search::test_tree::{Node, TreeGame, small};

fn dfpn() -> DfPn<TreeGame> {
    DfPn::new(DfPnOptions {
        table_mib: 1,
        ..DfPnOptions::default()
    })
}

#[test]
fn the_small_tree_is_worth_at_least_3_and_not_at_least_4() {
    // ((3 5) (2 9)) has the minimax value 3.
    let mut game = small();
    let mut search = dfpn();
    let proven = search.prove_with_proof(&mut game, Claim::AtLeast(3));
    assert_eq!(proven.outcome, DfPnOutcome::Proven);
    let proof = proven.proof.expect("a proof");
    assert_eq!(verify(&mut game, &proof, Claim::AtLeast(3)), Ok(()));
    assert_eq!(proof.to_string(), "(1 (2 5) (1 3))");

    let disproven = search.prove_with_proof(&mut game, Claim::AtLeast(4));
    assert_eq!(disproven.outcome, DfPnOutcome::Disproven);
    assert_eq!(disproven.refutation, Some(Claim::AtMost(3)));
    let refutation = disproven.proof.expect("a disproof");
    assert_eq!(verify(&mut game, &refutation, Claim::AtMost(3)), Ok(()));
    assert!(game.path.is_empty());
}

#[test]
fn claims_at_most_are_proven_by_min() {
    let mut game = small();
    let mut search = dfpn();
    for (bound, outcome) in [(3, DfPnOutcome::Proven), (2, DfPnOutcome::Disproven)] {
        let result = search.prove_with_proof(&mut game, Claim::AtMost(bound));
        assert_eq!(result.outcome, outcome, "at most {bound}");
        let claim = result.refutation.unwrap_or(Claim::AtMost(bound));
        let proof = result.proof.expect("a proof");
        assert_eq!(verify(&mut game, &proof, claim), Ok(()));
    }
}

#[test]
fn a_node_budget_leaves_the_claim_unknown() {
    let mut game = small();
    let mut search = DfPn::new(DfPnOptions {
        table_mib: 1,
        max_nodes: 2,
        ..DfPnOptions::default()
    });
    let result = search.prove_with_proof(&mut game, Claim::AtLeast(3));
    assert_eq!(result.outcome, DfPnOutcome::Unknown);
    assert_eq!(result.proof, None);
}

#[test]
fn a_position_without_moves_is_lost_for_the_player_to_move() {
    // MAX's only move leads to MIN with no move: MIN loses, so MAX wins any claim.
    let mut game = TreeGame {
        root: Node::Inner(vec![Node::Inner(Vec::new())]),
        path: Vec::new(),
    };
    let mut search = dfpn();
    let result = search.prove_with_proof(&mut game, Claim::AtLeast(100));
    assert_eq!(result.outcome, DfPnOutcome::Proven);
    let proof = result.proof.expect("a proof");
    assert_eq!(verify(&mut game, &proof, Claim::AtLeast(100)), Ok(()));
}

#[test]
fn weak_values_follow_the_sign_of_the_minimax_value() {
    use Node::{Inner, Leaf};
    let mut search = dfpn();
    for (leaves, expected) in [([1, -2], 1), ([0, -2], 0), ([-1, -3], -1)] {
        let mut game = TreeGame {
            root: Inner(vec![Inner(vec![Leaf(leaves[0]), Leaf(5)]), Leaf(leaves[1])]),
            path: Vec::new(),
        };
        assert_eq!(
            search.weak_value(&mut game).value,
            Some(expected),
            "{leaves:?}"
        );
    }
}
