//! Every number seed 003 (Slagle 1963, "m&n alpha beta") prints for its figures and
//! programs, asserted. Figures 1–6 are missing from the OCR: the trees below are
//! reconstructions that fit every value the text prints; where the text leaves a value
//! open the comment says so.

mod m_and_n_support;

use gametree::{
    BackingUp, Bound, Exponents, Player, Slagle, Window, alphabeta_value, mn_alphabeta,
    mn_alphabeta_depth, mn_alphabeta_value, mn_minimax, mn_minimax_depth,
};
use m_and_n_support::{Recording, Tree};

/// The seed's example functions: x = 3, y = 1 for MAX, r = 3, s = 1 for MIN (sections 6,
/// 7.3 and Appendices B, C), backing up m = n = 2 values.
fn seed_function() -> Slagle {
    let three_one = Exponents::new(3.0, 1.0).expect("valid exponents");
    Slagle::new(2, 2, three_one, three_one).expect("valid counts")
}

fn one_and_one() -> Slagle {
    let three_one = Exponents::new(3.0, 1.0).expect("valid exponents");
    Slagle::new(1, 1, three_one, three_one).expect("valid counts")
}

/// The value m&n minimaxing backs up to the position `subtree` (where `player` moves):
/// the value of the only successor of a root where the opponent moves.
fn minimaxing_value(subtree: &str, player: Player, backing: &Slagle) -> f64 {
    let mut tree = Tree::with_root_player(&format!("(({subtree}))"), player.opponent());
    mn_minimax(&mut tree, backing).value
}

/// Fig. 1 (section 5.1): v11 = v12 = 30, v21 = 29, v22 = 80.
const FIGURE_1: &str = "((30 30) (29 80))";

/// Fig. 2 (section 6, Appendix B): P2 = (P21 P22 P23) backs up 13 and 15 (its two least,
/// with v23 = 17); P23 = (16 12 P233); P233 = (15 20 17). `sta1[(P1,P2,P3)] = P2` and
/// `final[P1] = T`: P1 and P3 are leaves below 11, their values are not printed (10, 9).
const FIGURE_2: &str = "(10 (13 15 (16 12 (15 20 17))) 9)";

/// Fig. 3 (section 7.1): v1 = 10, v21 = 5; P22 and P23 "and its successors" are never
/// looked at; P3 is. Unprinted values: P22 = 12, P23 = (3 4), P3 = 8.
const FIGURE_3: &str = "(10 (5 12 (3 4)) 8)";

/// Fig. 4 (section 7.2): v1 = 10, v21 = 13, v22 = 15, v231 = 16; P232 and P234 have
/// successors, P233 not; then P24. Unprinted: P232 = (1 2), P233 = 3, P234 = (4 5),
/// P24 = 20.
const FIGURE_4: &str = "(10 (13 15 (16 (1 2) 3 (4 5)) 20))";

/// Figs. 5 and 6 (section 7.3 and Appendix C), one tree: v1 = 10, v21 = 15, v22 = 13,
/// v231 = 6, v232 = 2, v2331 = 4; P2332 and P2333 have successors. Fig. 6 adds: P2 has
/// four successors and is worth 9 = bub[13; (11)], so v23 = 11 = bua[6; (7)] (P234 = 7)
/// and v24 ≥ 13 (14 here); the root has three successors and chooses P1 (P3 = (8 20)).
const FIGURE_6: &str = "(10 (15 13 (6 2 (4 (1 2) (3 9)) 7) 14) (8 20))";

#[test]
fn figure_2_backs_up_13_to_p233_17_to_p23_and_11_to_p2() {
    let slagle = seed_function();
    // Section 6: v233 = 15 − 2^(3 − (17 − 15)) = 13.
    assert_eq!(slagle.back_up(Player::Min, &[15.0, 17.0], None), 13.0);
    assert_eq!(minimaxing_value("15 20 17", Player::Min, &slagle), 13.0);
    // v23 = 16 + 2^(3 − (16 − 13)) = 17; Appendix B: maxv[P23] = 17.
    assert_eq!(slagle.back_up(Player::Max, &[16.0, 13.0], None), 17.0);
    assert_eq!(
        minimaxing_value("16 12 (15 20 17)", Player::Max, &slagle),
        17.0
    );
    // v2 = 13 − 2^(3 − (15 − 13)) = 11; Appendix B: minv[P2] = 11.
    assert_eq!(slagle.back_up(Player::Min, &[13.0, 15.0], None), 11.0);
    assert_eq!(
        minimaxing_value("13 15 (16 12 (15 20 17))", Player::Min, &slagle),
        11.0
    );
}

#[test]
fn figure_2_two_and_two_minimaxing_moves_to_p2_as_sta_says() {
    // Appendix B: sta[P; 2; 2; 4] = P2, minvl[(P21,P22,P23); (∞,∞); 2] = 11.
    let result = mn_minimax(&mut Tree::parse(FIGURE_2), &seed_function());
    assert_eq!(result.best_move, Some(2));
    assert_eq!(result.value, 11.0);
    let pruned = mn_alphabeta(&mut Tree::parse(FIGURE_2), &seed_function());
    assert_eq!((pruned.best_move, pruned.value), (Some(2), 11.0));
}

#[test]
fn figure_2_backs_up_with_slagles_dmax_at_each_depth() {
    // Appendix B: buma[(13,16); 1] = 17 and bunb[(15,13); 2] = 11 in sta[P; 2; 2; 4]:
    // the successors of P23 have dmax 1, those of P2 dmax 2.
    let recording = Recording::new(seed_function());
    let result = mn_minimax_depth(&mut Tree::parse(FIGURE_2), &recording, 4);
    assert_eq!(result.best_move, Some(2));
    assert!(recording.was_called(Player::Max, &[16.0, 13.0], Some(1), 17.0));
    assert!(recording.was_called(Player::Min, &[13.0, 15.0], Some(2), 11.0));
    assert!(recording.was_called(Player::Min, &[15.0, 17.0], Some(0), 13.0));
}

#[test]
fn figure_1_one_and_one_moves_to_p1_and_two_and_two_to_p2() {
    // Section 5.1: 1&1 backs up 30 to P1 and 29 to P2 and chooses P1.
    let plain = mn_minimax(&mut Tree::parse(FIGURE_1), &one_and_one());
    assert_eq!((plain.best_move, plain.value), (Some(1), 30.0));
    // Section 5.2: with enough uncertainty the machine should move to P2; 2&2 with the
    // seed's function does: v1 = 30 − 2^3 = 22, v2 = 29 − 2^(3 − 51).
    let two = mn_minimax(&mut Tree::parse(FIGURE_1), &seed_function());
    assert_eq!(two.best_move, Some(2));
    assert_eq!(two.value, 29.0 - (-48.0f64).exp2());
    let pruned = mn_alphabeta(&mut Tree::parse(FIGURE_1), &seed_function());
    assert_eq!((pruned.best_move, pruned.value), (two.best_move, two.value));
}

#[test]
fn appendix_c_prints_bua_glbua_bub_and_lubub() {
    let slagle = seed_function();
    // bua[6; (7); 2] = 11
    assert_eq!(slagle.back_up(Player::Max, &[7.0, 6.0], Some(2)), 11.0);
    // glbua[10; (6); 2] = 5
    assert_eq!(
        slagle.inverse(Player::Max, &[6.0], 10.0, Some(2)),
        Some(5.0)
    );
    // bub[13; (11); 3] = 9
    assert_eq!(slagle.back_up(Player::Min, &[11.0, 13.0], Some(3)), 9.0);
    // lubub[∞; (15); 3] = ∞
    assert_eq!(
        slagle.inverse(Player::Min, &[15.0], f64::INFINITY, Some(3)),
        Some(f64::INFINITY)
    );
}

#[test]
fn section_7_3_solves_for_alpha_5_and_bounds_v23_by_8() {
    let slagle = seed_function();
    // "6 + 2^(3 − (6 − α)) = 10" gives α = 5 …
    assert_eq!(slagle.inverse(Player::Max, &[6.0], 10.0, None), Some(5.0));
    assert_eq!(slagle.back_up(Player::Max, &[6.0, 5.0], None), 10.0);
    // … and with v233 ≤ 4, "v23 ≤ 6 + 2^(3 − (6 − 4)) = 8".
    assert_eq!(slagle.back_up(Player::Max, &[6.0, 4.0], None), 8.0);
}

#[test]
fn figure_3_cuts_off_at_the_highest_level_after_v21_is_5() {
    let mut tree = Tree::parse(FIGURE_3);
    let result = mn_alphabeta(&mut tree, &seed_function());
    // Section 7.1: "sets α = 10 at P2 … does not bother to look at P22 or P23 and its
    // successors, but looks next at P3."
    assert_eq!(tree.window_at("P2"), (10.0, f64::INFINITY));
    assert_eq!(tree.entered, ["P1", "P2", "P21", "P3"]);
    assert_eq!(result.best_move, Some(1));
    assert_eq!(result.value, 10.0);
}

#[test]
fn figure_4_cuts_off_p23_after_v231_is_16() {
    let mut tree = Tree::parse(FIGURE_4);
    let result = mn_alphabeta(&mut tree, &seed_function());
    // Section 7.2: after v21 = 13 and v22 = 15, β = 15 at P23 (and α = 10 from P1) …
    assert_eq!(tree.window_at("P23"), (10.0, 15.0));
    // … after v231 = 16 a 2&2 beta cutoff: next P24, never P232 (and its successors),
    // P233, P234 (and its successors).
    for never in ["P232", "P2321", "P2322", "P233", "P234", "P2341", "P2342"] {
        assert!(!tree.was_entered(never), "{never} was looked at");
    }
    assert_eq!(
        tree.entered,
        ["P1", "P2", "P21", "P22", "P23", "P231", "P24"]
    );
    let full = mn_minimax(&mut Tree::parse(FIGURE_4), &seed_function());
    assert_eq!(
        (result.best_move, result.value),
        (full.best_move, full.value)
    );
}

#[test]
fn figure_5_sets_alpha_5_for_p233_and_never_looks_at_p2332_or_p2333() {
    let mut tree = Tree::parse(FIGURE_6);
    let result = mn_alphabeta(&mut tree, &seed_function());
    // Section 7.3: old α = 10 and β = 15 for P23; old β = 15 and α = 5 (not merely 2)
    // for P233.
    assert_eq!(tree.window_at("P23"), (10.0, 15.0));
    assert_eq!(tree.window_at("P233"), (5.0, 15.0));
    // After v2331 = 4, a 2&2 alpha cutoff: next P234, never P2332, P2333, their successors.
    assert!(tree.was_entered("P2331"));
    for never in ["P2332", "P2333", "P23321", "P23322", "P23331", "P23332"] {
        assert!(!tree.was_entered(never), "{never} was looked at");
    }
    let next = tree
        .entered
        .iter()
        .position(|name| name == "P2331")
        .expect("entered");
    assert_eq!(tree.entered[next + 1], "P234");
    assert_eq!(result.best_move, Some(1));
}

#[test]
fn figure_6_two_and_two_alphabeta_chooses_p1_with_the_printed_intermediate_values() {
    // sta[P; 2; 2; 5] = P1, sta1[(P1,P2,P3); −∞; NOSUCC; 4] = P1, value[P1] = 10.
    let recording = Recording::new(seed_function());
    let mut tree = Tree::parse(FIGURE_6);
    let result = mn_alphabeta_depth(&mut tree, &recording, 5);
    assert_eq!((result.best_move, result.value), (Some(1), 10.0));
    // final[P22; 10; ∞; 3] = T: P22 is examined in the window (10, ∞).
    assert_eq!(tree.window_at("P22"), (10.0, f64::INFINITY));
    // bua[6; (7); 2] = 11 backs up P23; bub[13; (11); 3] = 9 backs up P2.
    assert!(recording.was_called(Player::Max, &[7.0, 6.0], Some(2), 11.0));
    assert!(recording.was_called(Player::Min, &[11.0, 13.0], Some(3), 9.0));
    // m&n minimaxing agrees, having looked at every leaf.
    let full = mn_minimax_depth(&mut Tree::parse(FIGURE_6), &seed_function(), 5);
    assert_eq!((full.best_move, full.value), (Some(1), 10.0));
    assert!(result.stats.leaves < full.stats.leaves);
    // P1, P21, P22, P231, P232, P2331, P234, P24, P31.
    assert_eq!(result.stats.leaves, 9);
    assert_eq!(full.stats.leaves, 14);
}

#[test]
fn figure_6_maxv_minv_and_minvl_return_the_printed_values() {
    let slagle = seed_function();
    // maxv[P23; 10] = 11 (β of P2 then 15); maxvl3[(P232,P233,P234); 5; (6)] = 11.
    let mut tree = Tree::parse(FIGURE_6);
    tree.descend(&[2, 3]);
    let p23 = mn_alphabeta_value(&mut tree, &slagle, Window::new(10.0, 15.0));
    assert_eq!((p23.value, p23.bound), (11.0, Bound::Exact));
    // minv[P233; 15] = 4, with α = 5 from P23.
    let mut tree = Tree::parse(FIGURE_6);
    tree.descend(&[2, 3, 3]);
    let p233 = mn_alphabeta_value(&mut tree, &slagle, Window::new(5.0, 15.0));
    assert_eq!((p233.value, p233.bound), (4.0, Bound::Upper));
    assert_eq!(p233.stats.leaves, 1);
    // minvl[(P21,P22,P23,P24); ∞; (∞); 3] = 9 and minvl3[(P22,P23,P24); ∞; (15)] = 9,
    // with α = 10 from P1.
    let mut tree = Tree::parse(FIGURE_6);
    tree.descend(&[2]);
    let p2 = mn_alphabeta_value(&mut tree, &slagle, Window::new(10.0, f64::INFINITY));
    assert_eq!((p2.value, p2.bound), (9.0, Bound::Upper));
}

#[test]
fn ties_go_to_the_first_successor_where_slagles_sta1_takes_the_later() {
    // P2 = 12 − 2^(3 − 2) = 10 = v1: McCarthy's bestmax keeps P1; Slagle's sta1
    // (alpha ≤ u → take u) would move to P2.
    let full = mn_minimax(&mut Tree::parse("(10 (12 14))"), &seed_function());
    let pruned = mn_alphabeta(&mut Tree::parse("(10 (12 14))"), &seed_function());
    assert_eq!((full.best_move, full.value), (Some(1), 10.0));
    assert_eq!((pruned.best_move, pruned.value), (Some(1), 10.0));
    let plain = mn_alphabeta(&mut Tree::parse("(7 (7 9) 7)"), &one_and_one());
    assert_eq!(plain.best_move, Some(1));
}

#[test]
fn one_and_one_alphabeta_examines_the_figures_as_plain_alphabeta_does() {
    for text in [FIGURE_1, FIGURE_2, FIGURE_3, FIGURE_4, FIGURE_6] {
        let plain = alphabeta_value(&mut Tree::parse(text), Window::full());
        let mut tree = Tree::parse(text);
        let ours = mn_alphabeta(&mut tree, &one_and_one());
        assert_eq!(ours.value, plain.value, "{text}");
        assert_eq!(ours.stats.leaves, plain.stats.leaves, "{text}");
        assert_eq!(ours.stats.nodes, plain.stats.nodes, "{text}");
    }
}
