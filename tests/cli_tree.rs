//! `gametree tree` through the real binary: outputs, errors with exit status 2, and a tree
//! 100,000 levels deep.

#![cfg(feature = "cli")]

mod common;

use common::{assert_usage_error, json, success_stdout, tree};

#[test]
fn the_issue_example_proves_value_3_in_json() {
    // Issue 3, section 5: ((3 5) (2 9)) gives value 3, pfmax [1, [2, 5], [1, 3]] and
    // pfmin [[2, 1, 2], [1, 1, 3]].
    let result = json(&tree(&["proof", "--json"], "((3 5) (2 9))"));
    assert_eq!(result["value"], serde_json::json!(3));
    assert_eq!(result["move"], serde_json::json!(1));
    assert_eq!(result["pfmax"], serde_json::json!([1, [2, 5], [1, 3]]));
    assert_eq!(result["pfmin"], serde_json::json!([[2, 1, 2], [1, 1, 3]]));
    assert_eq!(result["leaves"], serde_json::json!(3));
    // Numbers print naturally: 3, not 3.0.
    assert!(success_stdout(&tree(&["proof", "--json"], "((3 5) (2 9))")).contains("\"value\":3,"));
}

#[test]
fn every_algorithm_reports_its_fields_in_json() {
    let input = "((3 5) (2 9))";
    let minimax = json(&tree(&["minimax", "--json"], input));
    assert_eq!(minimax["value"], serde_json::json!(3));
    assert_eq!(minimax["move"], serde_json::json!(1));
    assert_eq!(minimax["leaves"], serde_json::json!(4));
    let alphabeta = json(&tree(&["alphabeta", "--json"], input));
    assert_eq!(alphabeta["value"], serde_json::json!(3));
    assert_eq!(alphabeta["leaves"], serde_json::json!(3));
    let line = json(&tree(&["line", "--json"], input));
    assert_eq!(line["line"], serde_json::json!([1, 1]));
    assert_eq!(line["move"], serde_json::json!(1));
    let aspiration = json(&tree(
        &["aspiration", "--guess", "10", "--width", "1", "--json"],
        input,
    ));
    assert_eq!(aspiration["value"], serde_json::json!(3));
    assert_eq!(
        aspiration["windows"],
        serde_json::json!([[9, 11], [7, 9], [3, 7], [-5, 3]])
    );
}

#[test]
fn the_window_clamps_the_value_and_drops_the_proof_it_cannot_give() {
    let input = "((3 5) (2 9))";
    let low = json(&tree(
        &["proof", "--alpha", "4", "--beta", "10", "--json"],
        input,
    ));
    assert_eq!(low["value"], serde_json::json!(4));
    assert_eq!(low["bound"], serde_json::json!("upper"));
    assert_eq!(low["pfmax"], serde_json::Value::Null);
    assert_eq!(low["move"], serde_json::Value::Null);
    assert_eq!(low["pfmin"], serde_json::json!([[2, 1, 2], [1, 1, 3]]));
    let high = json(&tree(
        &["alphabeta", "--alpha=-inf", "--beta", "2.5", "--json"],
        input,
    ));
    assert_eq!(high["value"], serde_json::json!(2.5));
    assert_eq!(high["bound"], serde_json::json!("lower"));
}

#[test]
fn a_leaf_root_has_no_move() {
    let result = json(&tree(&["minimax", "--json"], "-2.5"));
    assert_eq!(result["value"], serde_json::json!(-2.5));
    assert_eq!(result["move"], serde_json::Value::Null);
    let proof = json(&tree(&["proof", "--json"], "7"));
    assert_eq!(proof["pfmax"], serde_json::json!([7]));
    assert_eq!(proof["move"], serde_json::Value::Null);
}

#[test]
fn plain_output_is_one_key_per_line() {
    let output = success_stdout(&tree(&["proof"], "((3 5) (2 9))"));
    assert_eq!(
        output,
        "value: 3\nbound: exact\nmove: 1\npfmax: (1 (2 5) (1 3))\npfmin: ((2 1 2) (1 1 3))\n\
         leaves: 3\nnodes: 6\ncutoffs: 1\n"
    );
    let line = success_stdout(&tree(&["line"], "((3 5) (2 9))"));
    assert!(line.contains("line: 1 1\n"), "{line}");
}

#[test]
fn a_file_argument_is_read() {
    let path = std::env::temp_dir().join(format!("gametree-tree-{}.txt", std::process::id()));
    std::fs::write(&path, "; the issue's example\n((3 5)\n (2 9))\n").expect("written");
    let output = tree(&["minimax", path.to_str().expect("utf-8 path")], "");
    std::fs::remove_file(&path).expect("removed");
    assert!(success_stdout(&output).starts_with("value: 3\nmove: 1\n"));
}

#[test]
fn the_proof_prints_as_dot() {
    let output = success_stdout(&tree(&["proof", "--dot"], "((3 5) (2 9))"));
    assert!(output.starts_with("digraph proof {"));
    assert!(output.contains("subgraph cluster_pfmax"));
    assert!(output.contains("pfmax_0 -> pfmax_1 [label=\"1\", style=bold];"));
    assert!(output.trim_end().ends_with('}'));
}

#[test]
fn malformed_trees_are_one_line_errors_with_exit_status_2() {
    let cases = [
        ("", "line 1, column 1: no tree"),
        (
            "((3 5)\n (2 9)",
            "<stdin>: line 1, column 1: unbalanced `(`",
        ),
        ("(3 5))", "line 1, column 6: unbalanced `)`"),
        ("(3\n ())", "line 2, column 2: empty list `()`"),
        ("(3 five)", "line 1, column 4: bad number \"five\""),
        (
            "(3 5) 9",
            "line 1, column 7: unexpected text after the tree",
        ),
    ];
    for (input, expected) in cases {
        assert_usage_error(&tree(&["minimax"], input), expected);
    }
}

#[test]
fn bad_options_are_one_line_errors_with_exit_status_2() {
    let input = "((3 5) (2 9))";
    assert_usage_error(
        &tree(&["alphabeta", "--alpha", "5", "--beta", "5"], input),
        "must be less than --beta",
    );
    assert_usage_error(
        &tree(&["minimax", "--alpha", "1"], input),
        "--alpha and --beta apply",
    );
    assert_usage_error(&tree(&["line", "--dot"], input), "--dot applies to proof");
    assert_usage_error(
        &tree(&["aspiration", "--width", "0"], input),
        "--width must be positive",
    );
    assert_usage_error(&tree(&["sideways"], input), "sideways");
    assert_usage_error(
        &tree(&["minimax", "/no/such/file"], input),
        "cannot read /no/such/file",
    );
}

#[test]
fn a_tree_100_000_levels_deep_works_through_the_binary() {
    let levels = 100_000;
    let mut text = String::new();
    for ply in 0..levels - 1 {
        text.push_str(if ply % 2 == 0 { "(-9 " } else { "(9 " });
    }
    text.push_str("(3)");
    text.push_str(&")".repeat(levels - 1));
    for algorithm in ["minimax", "alphabeta", "line", "aspiration"] {
        let result = json(&tree(&[algorithm, "--json"], &text));
        assert_eq!(result["value"], serde_json::json!(3), "{algorithm}");
    }
    // serde_json will not read arrays nested 100,000 deep; check the text instead.
    let proof = success_stdout(&tree(&["proof", "--json"], &text));
    assert!(
        proof.starts_with("{\"value\":3,\"bound\":\"exact\",\"move\":2,\"pfmax\":[2,[2,2,[2,2,[")
    );
    assert_eq!(proof.matches('[').count(), proof.matches(']').count());
    let line = json(&tree(&["line", "--json"], &text));
    assert_eq!(line["line"].as_array().map(Vec::len), Some(levels));
    let dot = success_stdout(&tree(&["proof", "--dot"], &text));
    assert!(dot.lines().count() > 2 * levels);
    let plain = success_stdout(&tree(&["proof"], &text));
    assert!(plain.starts_with("value: 3\n"));
    // An unclosed deep tree is still a one-line error.
    assert_usage_error(
        &tree(&["minimax"], &text[..text.len() - 1]),
        "line 1, column 1: unbalanced `(`",
    );
}
