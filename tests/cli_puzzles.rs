//! The real `gametree` binary's `path` and `insanity` subcommands: every success and error
//! path, with its exit status and message.

mod common;

use common::{assert_usage_error_of, gametree, gametree_with_input, stderr, stdout};

const DIAMOND: &str = "tests/data/diamond.graph";

#[test]
fn path_prints_the_first_path_in_depth_first_order() {
    let output = gametree(&["path", DIAMOND, "--from", "A", "--to", "D"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "A B D\n");
}

#[test]
fn path_all_prints_every_simple_path_then_the_count() {
    let output = gametree(&["path", DIAMOND, "--from", "A", "--to", "D", "--all"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "A B D\nA C D\n2 paths\n");
    let output = gametree(&[
        "path",
        "tests/data/complete4.graph",
        "--from",
        "A",
        "--to",
        "D",
        "--all",
    ]);
    assert_eq!(
        stdout(&output),
        "A B C D\nA B D\nA C B D\nA C D\nA D\n5 paths\n"
    );
}

#[test]
fn path_all_counts_a_single_path_in_the_singular() {
    let output = gametree_with_input(&["path", "-", "--from", "A", "--to", "B", "--all"], "A B\n");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "A B\n1 path\n");
}

#[test]
fn path_without_a_path_says_so_and_exits_1() {
    for all in [false, true] {
        let mut args = vec![
            "path",
            "tests/data/one_way.graph",
            "--from",
            "C",
            "--to",
            "A",
        ];
        if all {
            args.push("--all");
        }
        let output = gametree(&args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert_eq!(stdout(&output), "no path\n", "{args:?}");
        assert_eq!(stderr(&output), "", "{args:?}");
    }
}

#[test]
fn path_from_a_node_to_itself_is_the_node() {
    let output = gametree(&["path", DIAMOND, "--from", "B", "--to", "B"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "B\n");
}

#[test]
fn path_with_an_unknown_node_names_the_file_and_node() {
    assert_usage_error_of(
        &["path", DIAMOND, "--from", "A", "--to", "Q"],
        "tests/data/diamond.graph: unknown node \"Q\"",
    );
    assert_usage_error_of(
        &["path", DIAMOND, "--from", "Z", "--to", "A"],
        "unknown node \"Z\"",
    );
    let long = "Z".repeat(100_000);
    assert_usage_error_of(
        &["path", DIAMOND, "--from", &long, "--to", "A"],
        &format!("unknown node \"{}\"…", "Z".repeat(40)),
    );
}

#[test]
fn path_with_an_unreadable_file_names_it() {
    assert_usage_error_of(
        &[
            "path",
            "tests/data/missing.graph",
            "--from",
            "A",
            "--to",
            "B",
        ],
        "cannot read tests/data/missing.graph",
    );
    assert_usage_error_of(
        &["path", "tests/data", "--from", "A", "--to", "B"],
        "cannot read tests/data",
    );
}

#[test]
fn path_with_a_malformed_file_names_the_file_line_and_column() {
    assert_usage_error_of(
        &[
            "path",
            "tests/data/latin1.graph",
            "--from",
            "A",
            "--to",
            "B",
        ],
        "tests/data/latin1.graph:3:6: not valid UTF-8",
    );
}

#[test]
fn path_reads_the_graph_from_standard_input_for_a_dash() {
    let graph = std::fs::read_to_string(DIAMOND).expect("read the diamond");
    let output = gametree_with_input(&["path", "-", "--from", "A", "--to", "D"], &graph);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "A B D\n");
    let output = gametree_with_input(&["path", "-", "--from", "A", "--to", "B"], "A B\x07\n");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "gametree: <stdin>:1:4: node name \"B\\u{7}\" contains the control character '\\u{7}'\n"
    );
}

#[test]
fn path_json_prints_one_object_with_the_path_and_the_expanded_count() {
    let output = gametree(&["path", DIAMOND, "--from", "A", "--to", "D", "--json"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout(&output),
        "{\"path\":[\"A\",\"B\",\"D\"],\"expanded\":2}\n"
    );
    let output = gametree(&[
        "path",
        "tests/data/one_way.graph",
        "--from",
        "C",
        "--to",
        "A",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let printed: serde_json::Value =
        serde_json::from_str(&stdout(&output)).expect("one JSON object");
    assert_eq!(printed["path"], serde_json::Value::Null);
    assert!(printed["expanded"].as_u64().is_some(), "{printed}");
    assert_eq!(stderr(&output), "");
}

#[test]
fn path_all_json_prints_json_lines_one_path_each_and_nothing_else() {
    let output = gametree(&[
        "path",
        "tests/data/complete4.graph",
        "--from",
        "A",
        "--to",
        "D",
        "--all",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout(&output),
        "{\"path\":[\"A\",\"B\",\"C\",\"D\"]}\n{\"path\":[\"A\",\"B\",\"D\"]}\n\
         {\"path\":[\"A\",\"C\",\"B\",\"D\"]}\n{\"path\":[\"A\",\"C\",\"D\"]}\n{\"path\":[\"A\",\"D\"]}\n"
    );
    let output = gametree(&[
        "path",
        "tests/data/one_way.graph",
        "--from",
        "C",
        "--to",
        "A",
        "--all",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "");
    assert_eq!(stderr(&output), "");
}

#[test]
fn path_json_quotes_names_as_json_strings() {
    let output = gametree_with_input(
        &["path", "-", "--from", "a\"b", "--to", "c\\d", "--json"],
        "a\"b c\\d\n",
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout(&output),
        "{\"path\":[\"a\\\"b\",\"c\\\\d\"],\"expanded\":1}\n"
    );
}

/// A chain of a million nodes, read from standard input. When `lose` walked the path, this
/// took over five minutes (a chain of 100,000 nodes took 20 s); it now takes seconds.
#[test]
fn path_follows_a_chain_of_a_million_nodes() {
    let n = 1_000_000;
    let mut graph = String::with_capacity(16 * n);
    for i in 0..n - 1 {
        graph.push_str(&format!("n{i} n{}\n", i + 1));
    }
    let last = format!("n{}", n - 1);
    let output = gametree_with_input(&["path", "-", "--from", "n0", "--to", &last], &graph);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let printed = stdout(&output);
    let names: Vec<&str> = printed.split_whitespace().collect();
    assert_eq!(names.len(), n);
    assert_eq!((names[0], names[n - 1]), ("n0", last.as_str()));
    // No way from the end back to the start: the whole chain is searched, then given up.
    let output = gametree_with_input(
        &["path", "-", "--from", "n0", "--to", "elsewhere", "--json"],
        &format!("{graph}elsewhere\n"),
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        format!("{{\"path\":null,\"expanded\":{n}}}\n")
    );
}

#[test]
fn path_without_its_required_options_is_a_usage_error() {
    let output = gametree(&["path", DIAMOND, "--from", "A"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).starts_with("gametree: "));
    assert_usage_error_of(
        &["path", DIAMOND, "--from", "A", "--to", "D", "--bogus"],
        "--bogus",
    );
}

/// Seed 000, end of "Depth First Tree Search": `search[p0] = ((G W R B) (R W G B) (B R G W)
/// (W B G R))` for the seed's `puzz1`, the default puzzle.
const SEED_ANSWER: &str = "((G W R B) (R W G B) (B R G W) (W B G R))\n";

#[test]
fn insanity_prints_the_seeds_answer_in_both_representations() {
    for args in [
        &["insanity"][..],
        &["insanity", "--repr", "bits"],
        &["insanity", "--repr", "list"],
        &["insanity", "GBBWRG", "GGBGWR", "GWWRBR", "GGRBWW"],
        &["insanity", "gbbwrg", "ggbgwr", "gwwrbr", "ggrbww"],
    ] {
        let output = gametree(args);
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        assert_eq!(stdout(&output), SEED_ANSWER, "{args:?}");
    }
}

#[test]
fn insanity_all_prints_every_solution_then_the_count() {
    let output = gametree(&["insanity", "--all"]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(format!("{}\n", lines[0]), SEED_ANSWER);
    assert_eq!(lines[3], "3 solutions");
    let list = gametree(&["insanity", "--all", "--repr", "list"]);
    assert_eq!(stdout(&list), text);
}

#[test]
fn insanity_json_reports_the_solution_count_and_expanded_positions() {
    let bits = gametree(&["insanity", "--json"]);
    assert_eq!(bits.status.code(), Some(0));
    let text = stdout(&bits);
    assert!(
        text.starts_with(
            r#"{"solution":[["G","W","R","B"],["R","W","G","B"],["B","R","G","W"],["W","B","G","R"]],"expanded":"#
        ),
        "{text}"
    );
    let value: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert!(value["expanded"].as_u64().is_some_and(|n| n > 0));
    assert!(value.get("solutions").is_none());
    // Both representations expand the same positions.
    let list = gametree(&["insanity", "--json", "--repr", "list"]);
    assert_eq!(stdout(&list), text);

    let all = gametree(&["insanity", "--json", "--all"]);
    let value: serde_json::Value = serde_json::from_str(&stdout(&all)).expect("valid JSON");
    assert_eq!(value["solutions"], 3);
    assert_eq!(value["solution"][0][0], "G");
}

#[test]
fn insanity_graph_method_prints_a_solution() {
    let output = gametree(&["insanity", "--method", "graph"]);
    assert_eq!(output.status.code(), Some(0));
    let tower = stdout(&output);
    // One of the three solutions the tree search lists.
    let all = stdout(&gametree(&["insanity", "--all"]));
    assert!(
        all.lines().any(|line| format!("{line}\n") == tower),
        "{tower}"
    );
}

/// Two cubes painted all A: every side of the tower shows A twice.
const UNSOLVABLE: [&str; 4] = ["AAAAAA", "AAAAAA", "BBBBBB", "CDCDCD"];

#[test]
fn insanity_without_a_solution_says_so_and_exits_1() {
    for extra in [
        &[][..],
        &["--all"],
        &["--repr", "list"],
        &["--method", "graph"],
    ] {
        let mut args = vec!["insanity"];
        args.extend(UNSOLVABLE);
        args.extend(extra);
        let output = gametree(&args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert_eq!(stdout(&output), "no solution\n", "{args:?}");
        assert_eq!(stderr(&output), "", "{args:?}");
    }
    let mut args = vec!["insanity", "--json"];
    args.extend(UNSOLVABLE);
    let output = gametree(&args);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).starts_with(r#"{"solution":null,"expanded":"#));
}

#[test]
fn insanity_rejects_bad_cubes_in_one_line() {
    assert_usage_error_of(
        &["insanity", "GBBWRG", "GGBGW", "GWWRBR", "GGRBWW"],
        "cube 2 \"GGBGW\" has 5 faces",
    );
    assert_usage_error_of(
        &["insanity", "GBBWRG", "GGBGWR", "GWWRBR", "GGRBWW7"],
        "cube 4 \"GGRBWW7\" has 7 faces",
    );
    assert_usage_error_of(
        &["insanity", "GBBWRG", "GGBGWR", "GW2RBR", "GGRBWW"],
        "cube 3 \"GW2RBR\": '2' is not a colour letter",
    );
    assert_usage_error_of(
        &["insanity", "GBBWRG", "GGBGWR", "GWWRBR", "GGRBWY"],
        "4 cubes but 5 colours (B G R W Y); the puzzle needs as many colours as cubes",
    );
    assert_usage_error_of(&["insanity", "ABABAB"], "1 cube but 2 colours (A B)");
    let seventeen: Vec<String> = (0..17)
        .map(|k| char::from(b'A' + k).to_string().repeat(6))
        .collect();
    let mut args = vec!["insanity"];
    args.extend(seventeen.iter().map(String::as_str));
    assert_usage_error_of(&args, "at most 16");
}

#[test]
fn insanity_rejects_unknown_flags_and_values() {
    assert_usage_error_of(&["insanity", "--bogus"], "--bogus");
    assert_usage_error_of(&["insanity", "--repr", "trees"], "trees");
    assert_usage_error_of(&["insanity", "--method", "magic"], "magic");
}

#[test]
fn insanity_graph_method_refuses_options_of_the_tree_search() {
    assert_usage_error_of(
        &["insanity", "--method", "graph", "--all"],
        "--all needs --method tree",
    );
    assert_usage_error_of(
        &["insanity", "--method", "graph", "--repr", "list"],
        "--repr needs --method tree",
    );
}

#[test]
fn each_subcommand_help_says_what_it_does_with_an_example() {
    for (subcommand, example) in [
        (
            "path",
            "gametree path tests/data/diamond.graph --from A --to D",
        ),
        ("insanity", "gametree insanity"),
    ] {
        let output = gametree(&[subcommand, "--help"]);
        assert_eq!(output.status.code(), Some(0));
        let help = stdout(&output);
        assert!(help.contains(example), "{subcommand}: {help}");
    }
    let help = stdout(&gametree(&["--help"]));
    assert!(help.contains("path") && help.contains("insanity"), "{help}");
    // Issue 2: `gametree --help` also says what it does with an example.
    assert!(
        help.contains("Examples:\n  $ gametree insanity\n"),
        "{help}"
    );
}

#[test]
fn the_docs_examples_of_path_and_insanity_print_what_the_docs_say() {
    // The README's text on path and insanity moved to docs/puzzles.md (issue 13).
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/puzzles.md"))
        .expect("read docs/puzzles.md");
    let mut checked = 0;
    let mut lines = docs.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(command) = line.strip_prefix("$ gametree ") else {
            continue;
        };
        // Commands with shell syntax (`; echo "exit $?"`) are for tests/docs_examples.rs.
        if command.contains(|c| ";|<>&$".contains(c)) {
            continue;
        }
        let args: Vec<&str> = command.split_whitespace().collect();
        if !matches!(args.first(), Some(&"path" | &"insanity")) {
            continue;
        }
        let mut expected = String::new();
        while let Some(next) = lines.next_if(|next| !next.starts_with("$ ") && *next != "```") {
            expected.push_str(next);
            expected.push('\n');
        }
        assert_eq!(stdout(&gametree(&args)), expected, "docs: {command}");
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} docs examples found");
}
