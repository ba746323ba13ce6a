//! `gametree serve` as a client uses it: the real binary on a free localhost port, every
//! endpoint asked good and bad requests over HTTP (docs/serve.md).
#![cfg(feature = "serve")]

mod common;

use common::Server;
use serde_json::json;

#[test]
fn the_page_and_its_files_are_served_with_a_policy_that_loads_nothing_from_elsewhere() {
    let server = Server::start();
    for (path, kind) in [
        ("/", "text/html"),
        ("/app.js", "text/javascript"),
        ("/style.css", "text/css"),
    ] {
        let (status, headers, body) = server.request("GET", path, "");
        assert_eq!(status, 200, "{path}");
        assert!(
            headers.contains(&format!("content-type: {kind}")),
            "{path}: {headers}"
        );
        assert!(
            headers.contains("content-security-policy: default-src 'self'"),
            "{path}"
        );
        assert!(!body.is_empty(), "{path}");
    }
    let (_, _, page) = server.request("GET", "/", "");
    for reference in [
        "src=\"http",
        "href=\"http",
        "src=\"//",
        "href=\"//",
        "url(http",
    ] {
        assert!(
            !page.contains(reference),
            "the page loads nothing from elsewhere: {reference}"
        );
    }
    let (status, answer) = server.post("/no/such/thing", "{}");
    assert_eq!(status, 404);
    assert!(answer["error"].as_str().unwrap().contains("docs/serve.md"));
}

#[test]
fn a_tree_search_answers_the_tree_the_events_the_line_and_the_proof() {
    let server = Server::start();
    let (status, answer) = server.post(
        "/api/tree/search",
        r#"{"tree": "((3 5) (2 9))", "algorithm": "alphabeta"}"#,
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["value"], 3);
    assert_eq!(
        (answer["leaves"].as_u64(), answer["nodes"].as_u64()),
        (Some(3), Some(6))
    );
    let kinds: Vec<&str> = answer["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|event| event["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.iter().filter(|kind| **kind == "leaf").count(), 3);
    assert_eq!(kinds.iter().filter(|kind| **kind == "enter").count(), 6);
    assert_eq!(answer["principal_line"], json!([1, 1]));
    // Minimax on the same tree: every leaf, no cutoff; its line is alpha-beta's.
    let (_, minimax) = server.post(
        "/api/tree/search",
        r#"{"tree": "((3 5) (2 9))", "algorithm": "minimax"}"#,
    );
    assert_eq!(
        (minimax["value"].clone(), minimax["leaves"].clone()),
        (json!(3), json!(4))
    );
    assert!(
        minimax["events"]
            .as_array()
            .unwrap()
            .iter()
            .all(|event| event["kind"] != "cutoff")
    );
    // A window: the value is clamped and says which bound it is.
    let (_, windowed) = server.post(
        "/api/tree/search",
        r#"{"tree": "((3 5) (2 9))", "algorithm": "alphabeta", "alpha": 4, "beta": 10}"#,
    );
    assert_eq!(
        (windowed["value"].clone(), windowed["bound"].clone()),
        (json!(4), json!("upper"))
    );
    // Slagle's 2&2 on his Figure 1 tree prefers the second move (tests/m_and_n_seed.rs).
    for algorithm in ["mn-minimax", "mn-alphabeta"] {
        let (status, m_and_n) = server.post(
            "/api/tree/search",
            &format!(
                r#"{{"tree": "((30 31) (29 80))", "algorithm": "{algorithm}", "m": 1, "n": 1}}"#
            ),
        );
        assert_eq!(status, 200, "{m_and_n}");
        assert_eq!(m_and_n["best_move"], 1, "{algorithm}");
        assert_eq!(m_and_n["proof"], json!(null));
    }
}

#[test]
fn bad_trees_and_settings_get_a_4xx_and_a_json_error_saying_what_and_where() {
    let server = Server::start();
    let cases = [
        (
            r#"{"tree": "((3 5) (2", "algorithm": "alphabeta"}"#,
            400,
            "never closed",
        ),
        (
            r#"{"tree": "(1 x)", "algorithm": "alphabeta"}"#,
            400,
            "column 4",
        ),
        (
            r#"{"tree": "(1 2)", "algorithm": "negamax"}"#,
            400,
            "unknown variant",
        ),
        (
            r#"{"tree": "(1 2)", "algorithm": "alphabeta", "alpha": 5, "beta": 1}"#,
            422,
            "α < β",
        ),
        (
            r#"{"tree": "(1 2)", "algorithm": "mn-alphabeta", "y": -1}"#,
            422,
            "y",
        ),
        (r#"{"tree": "(1 2)""#, 400, "EOF"),
        (
            r#"{"branching": [6, 6], "depth": [8, 8]}"#,
            422,
            "at most 5000",
        ),
    ];
    for (body, expected, words) in cases {
        let path = if body.contains("branching") {
            "/api/tree/random"
        } else {
            "/api/tree/search"
        };
        let (status, answer) = server.post(path, body);
        assert_eq!(status, expected, "{body}: {answer}");
        let message = answer["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{body}: {answer}"));
        assert!(message.contains(words), "{body}: {message}");
    }
    let huge = format!(
        r#"{{"tree": "({})", "algorithm": "minimax"}}"#,
        "1 ".repeat(40_000)
    );
    let (status, answer) = server.post("/api/tree/search", &huge);
    assert_eq!(status, 413, "{answer}");
    let wide = format!(
        r#"{{"tree": "({})", "algorithm": "minimax"}}"#,
        "1 ".repeat(6_000)
    );
    let (status, answer) = server.post("/api/tree/search", &wide);
    assert_eq!(status, 422, "{answer}");
}

#[test]
fn random_trees_come_from_the_seed() {
    let server = Server::start();
    let body = r#"{"branching": [2, 3], "depth": [2, 4], "values": [-9, 9], "seed": 11}"#;
    let (status, first) = server.post("/api/tree/random", body);
    assert_eq!(status, 200, "{first}");
    let (_, second) = server.post("/api/tree/random", body);
    assert_eq!(first, second);
    let tree = first["tree"].as_str().unwrap();
    let (status, searched) = server.post(
        "/api/tree/search",
        &json!({"tree": tree, "algorithm": "minimax"}).to_string(),
    );
    assert_eq!(status, 200);
    assert_eq!(searched["leaves"], first["leaves"]);
}

#[test]
fn tic_tac_toe_is_mccarthys_program_and_refuses_illegal_moves() {
    let server = Server::start();
    let (status, answer) = server.post("/api/ttt/move", r#"{"moves": [1]}"#);
    assert_eq!(status, 200);
    assert_eq!(answer["move"], 5);
    assert_eq!(answer["values"].as_array().unwrap().len(), 8);
    let (status, over) = server.post("/api/ttt/move", r#"{"moves": [1, 4, 2, 5, 3]}"#);
    assert_eq!(status, 200);
    assert_eq!(
        (over["ending"].clone(), over["move"].clone()),
        (json!("X wins"), json!(null))
    );
    let (status, answer) = server.post("/api/ttt/move", r#"{"moves": [1, 1]}"#);
    assert_eq!(status, 400);
    assert!(
        answer["error"].as_str().unwrap().contains("move 2"),
        "{answer}"
    );
    let (status, _) = server.post("/api/ttt/move", r#"{"moves": [10]}"#);
    assert_eq!(status, 400);
}

#[test]
fn connect_four_answers_with_the_solver_and_every_columns_score() {
    let server = Server::start();
    let (status, answer) = server.post("/api/connect4/move", r#"{"moves": "", "scores": true}"#);
    assert_eq!(status, 200, "{answer}");
    // Allis: the first player wins by starting in the centre, and only there. The scores
    // are the empty board's in the shipped book (`gametree connect4 analyze ''` prints
    // the same: -2 -1 0 1 0 -1 -2).
    assert_eq!(answer["move"], 4);
    assert_eq!(answer["score"], 1);
    assert_eq!(answer["exact"], true);
    assert_eq!(answer["scores"], json!([-2, -1, 0, 1, 0, -1, -2]));
    // A game that is won: no move, and who won.
    let (_, over) = server.post("/api/connect4/move", r#"{"moves": "1212121"}"#);
    assert_eq!(
        (over["ending"].clone(), over["move"].clone()),
        (json!("first player wins"), json!(null))
    );
    let (status, full) = server.post("/api/connect4/move", r#"{"moves": "1111111"}"#);
    assert_eq!(status, 400, "{full}");
    let (status, _) = server.post("/api/connect4/move", r#"{"moves": "8"}"#);
    assert_eq!(status, 400);
}

#[test]
fn checkers_lists_legal_moves_answers_the_engines_move_and_refuses_bad_settings() {
    let server = Server::start();
    let (status, state) = server.post("/api/checkers/state", r#"{"moves": []}"#);
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["legal"].as_array().unwrap().len(), 7);
    assert_eq!(state["to_move"], "black");
    let (status, best) = server.post("/api/checkers/best", r#"{"moves": ["11-15"], "depth": 4}"#);
    assert_eq!(status, 200, "{best}");
    assert_eq!(best["to_move"], "black");
    assert_eq!(best["depth"], 4);
    assert!(
        best["pdn"].as_str().unwrap().contains("1. 11-15 "),
        "{best}"
    );
    for (body, expected) in [
        (r#"{"moves": ["11-18"]}"#, 400),
        (r#"{"fen": "B:W99:B1"}"#, 400),
        (r#"{"moves": [], "depth": 40}"#, 422),
        (r#"{"moves": [], "time": 60}"#, 422),
        (r#"{"moves": [], "depth": 4, "time": 1}"#, 422),
    ] {
        let path = if body.contains("depth") || body.contains("time") {
            "/api/checkers/best"
        } else {
            "/api/checkers/state"
        };
        let (status, answer) = server.post(path, body);
        assert_eq!(status, expected, "{body}: {answer}");
        assert!(answer["error"].is_string(), "{body}: {answer}");
    }
}

#[test]
fn long_searches_neither_block_other_requests_nor_run_more_than_four_at_once() {
    let server = std::sync::Arc::new(Server::start());
    let search = |seconds: u32| {
        let server = std::sync::Arc::clone(&server);
        std::thread::spawn(move || {
            let body = format!(r#"{{"moves": [], "time": {seconds}}}"#);
            let (status, answer) = server.post("/api/checkers/best", &body);
            (status, answer, std::time::Instant::now())
        })
    };
    // Four searches of 8 s fill the slots; a fifth waits its 5 s for one and is refused.
    let long: Vec<_> = (0..4).map(|_| search(8)).collect();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let refused = search(1).join().unwrap();
    // Move generation is not a search: it is answered while the searches run.
    let (status, _) = server.post("/api/checkers/state", r#"{"moves": ["11-15"]}"#);
    let answered = std::time::Instant::now();
    assert_eq!(status, 200);
    assert_eq!(refused.0, 503, "{}", refused.1);
    assert!(refused.1["error"].as_str().unwrap().contains("try again"));
    for handle in long {
        let (status, answer, finished) = handle.join().unwrap();
        assert_eq!(status, 200, "{answer}");
        assert!(finished > answered, "a request waited for a search");
    }
    // With the slots free again, searches queue for a moment instead of failing.
    let queued: Vec<_> = (0..6).map(|_| search(1)).collect();
    for handle in queued {
        let (status, answer, _) = handle.join().unwrap();
        assert_eq!(status, 200, "{answer}");
    }
}

#[test]
fn a_search_whose_client_goes_away_stops_and_frees_its_slot() {
    use std::io::Write as _;
    let server = Server::start();
    // Four searches of 8 s fill every slot; their clients hang up after half a second.
    let body = r#"{"moves": [], "time": 8}"#;
    let clients: Vec<_> = (0..4)
        .map(|_| {
            let mut stream = std::net::TcpStream::connect(&server.address).unwrap();
            write!(
                stream,
                "POST /api/checkers/best HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                server.address,
                body.len()
            )
            .unwrap();
            stream
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(500));
    drop(clients);
    std::thread::sleep(std::time::Duration::from_millis(300));
    // Had the searches gone on, this one would wait its 5 s for a slot and get a 503.
    let (status, answer) = server.post("/api/checkers/best", r#"{"moves": [], "depth": 2}"#);
    assert_eq!(status, 200, "{answer}");
}

#[test]
fn kalah_answers_the_solvers_move_and_whose_turn_follows() {
    let server = Server::start();
    let (status, answer) = server.post(
        "/api/kalah/move",
        r#"{"houses": 4, "seeds": 3, "moves": []}"#,
    );
    assert_eq!(status, 200, "{answer}");
    // Kalah(4,3) is a win by 8 for the first player (docs/kalah.md): solved within the budget.
    assert_eq!(answer["exact"], true);
    assert_eq!(
        (answer["at_least"].clone(), answer["at_most"].clone()),
        (json!(8), json!(8))
    );
    assert_eq!(answer["after"]["pits"].as_array().unwrap().len(), 10);
    for (body, expected) in [
        (r#"{"houses": 7}"#, 422),
        (r#"{"seeds": 0}"#, 422),
        (r#"{"houses": 4, "seeds": 3, "moves": [5]}"#, 400),
        (r#"{"rules": "african"}"#, 400),
    ] {
        let (status, answer) = server.post("/api/kalah/move", body);
        assert_eq!(status, expected, "{body}: {answer}");
        assert!(answer["error"].is_string(), "{body}: {answer}");
    }
}
