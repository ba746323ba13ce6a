//! `gametree tree mn-minimax` and `gametree tree mn-alphabeta` through the real binary.

#![cfg(feature = "cli")]

mod common;

use common::{assert_usage_error, json, tree};

/// Figs. 5 and 6 of seed 003 as reconstructed in `tests/m_and_n_seed.rs`.
const FIGURE_6: &str = "(10 (15 13 (6 2 (4 (1 2) (3 9)) 7) 14) (8 20))";

/// Fig. 2 of seed 003 as reconstructed in `tests/m_and_n_seed.rs`.
const FIGURE_2: &str = "(10 (13 15 (16 12 (15 20 17))) 9)";

#[test]
fn figure_2_with_the_default_parameters_moves_to_p2_worth_11() {
    // Seed 003, Appendix B: sta[P; 2; 2; 4] = P2, minv[P2] = 11 (x = r = 3, y = s = 1).
    for algorithm in ["mn-minimax", "mn-alphabeta"] {
        let result = json(&tree(&[algorithm, "--json"], FIGURE_2));
        assert_eq!(result["value"], serde_json::json!(11), "{algorithm}");
        assert_eq!(result["move"], serde_json::json!(2), "{algorithm}");
    }
}

#[test]
fn figure_6_alphabeta_looks_at_9_leaves_where_minimaxing_looks_at_14() {
    // Seed 003, Appendix C: sta[P; 2; 2; 5] = P1, value[P1] = 10.
    let full = json(&tree(&["mn-minimax", "--json"], FIGURE_6));
    let pruned = json(&tree(&["mn-alphabeta", "--json"], FIGURE_6));
    for result in [&full, &pruned] {
        assert_eq!(result["value"], serde_json::json!(10));
        assert_eq!(result["move"], serde_json::json!(1));
    }
    assert_eq!(full["leaves"], serde_json::json!(14));
    assert_eq!(pruned["leaves"], serde_json::json!(9));
}

#[test]
fn one_and_one_is_minimax_and_its_alphabeta_examines_what_alphabeta_does() {
    let plain = json(&tree(&["alphabeta", "--json"], FIGURE_6));
    let ours = json(&tree(
        &["mn-alphabeta", "--m", "1", "--n", "1", "--json"],
        FIGURE_6,
    ));
    assert_eq!(ours["value"], plain["value"]);
    assert_eq!(ours["leaves"], plain["leaves"]);
    let minimax = json(&tree(&["minimax", "--json"], FIGURE_6));
    let ours = json(&tree(
        &["mn-minimax", "--m", "1", "--n", "1", "--json"],
        FIGURE_6,
    ));
    assert_eq!(ours["value"], minimax["value"]);
    assert_eq!(ours["move"], minimax["move"]);
}

#[test]
fn parameters_that_break_monotonicity_draw_a_warning_and_monotone_ones_none() {
    let output = tree(&["mn-alphabeta", "--json"], FIGURE_6);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success());
    assert!(
        stderr.contains("MAX's backing-up function is not monotone"),
        "{stderr}"
    );
    assert!(
        stderr.contains("MIN's backing-up function is not monotone"),
        "{stderr}"
    );
    assert!(stderr.contains("5.545 > 1"), "{stderr}");
    let args = [
        "mn-alphabeta",
        "--x",
        "-1",
        "--y",
        "1",
        "--r",
        "2",
        "--s",
        "0.25",
        "--json",
    ];
    let output = tree(&args, FIGURE_6);
    assert!(output.status.success());
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn the_plain_output_names_value_move_and_counts() {
    let output = tree(
        &["mn-minimax", "--x", "-1", "--r", "-1"],
        "((30 30) (29 80))",
    );
    assert!(output.status.success());
    // Fig. 1: v1 = 30 − 2^(−1) = 29.5, v2 = 29 − 2^(−1 − 51) ≈ 29: 2&2 keeps P1 here.
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "value: 29.5\nmove: 1\nleaves: 4\nnodes: 7\n"
    );
}

#[test]
fn bad_parameters_are_one_line_errors_with_exit_status_2() {
    for (args, expected) in [
        (
            &["mn-alphabeta", "--y", "0"][..],
            "y and s must be greater than 0",
        ),
        (
            &["mn-minimax", "--s", "-1"][..],
            "y and s must be greater than 0",
        ),
        (&["mn-alphabeta", "--m", "0"][..], "m must be at least 1"),
        (&["mn-minimax", "--n", "0"][..], "n must be at least 1"),
        (&["mn-alphabeta", "--x", "abc"][..], "invalid value 'abc'"),
        (&["mn-alphabeta", "--m", "two"][..], "invalid value 'two'"),
        (&["mn-alphabeta", "--m", "-2"][..], "'-2'"),
        (
            &["mn-minimax", "--n", "100000000000"][..],
            "--n must be at most 65536, got 100000000000",
        ),
        (
            &["mn-alphabeta", "--m", "18446744073709551615"][..],
            "--m must be at most 65536",
        ),
        (&["mn-alphabeta", "--r", "NaN"][..], "must be finite"),
        (&["mn-minimax", "--x", "inf"][..], "must be finite"),
        (
            &["alphabeta", "--m", "2"][..],
            "apply to mn-minimax and mn-alphabeta",
        ),
    ] {
        assert_usage_error(&tree(args, FIGURE_6), expected);
    }
}
