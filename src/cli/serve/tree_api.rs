//! `POST /api/tree/search` and `POST /api/tree/random`: the tree inspector's searches.
//!
//! The events come from the library's search observer (`gametree::search::observe`) called
//! inside the real searches, so the page shows what the library does, not a copy of it.

use serde::Deserialize;
use serde_json::{Value as Json, json};

use gametree::search::observe::{CutoffReason, Event, Recorder};
use gametree::{
    ExplicitTree, Exponents, Proof, ProofStep, RandomTreeConfig, Slagle, Window, alphabeta_line,
    alphabeta_proof, alphabeta_value_observed, minimax_observed, mn_alphabeta_observed,
    mn_minimax_observed,
};

use super::api::ApiError;
use crate::cli::checkers::best::value_json;

/// The most nodes a tree sent or generated may have: the page draws every one of them,
/// and the answer holds about three events a node.
pub const MAX_TREE_NODES: usize = 5_000;
/// The deepest tree taken: the answer nests one JSON object a ply.
pub const MAX_TREE_DEPTH: usize = 100;

/// The searches the inspector steps through.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    /// McCarthy's `vmax`/`vmin`.
    Minimax,
    /// McCarthy's `valmax`/`valmin` in a window.
    Alphabeta,
    /// Slagle's m&n minimaxing.
    MnMinimax,
    /// Slagle's m&n alpha-beta.
    MnAlphabeta,
}

impl Algorithm {
    fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::Alphabeta => "alphabeta",
            Algorithm::MnMinimax => "mn-minimax",
            Algorithm::MnAlphabeta => "mn-alphabeta",
        }
    }
}

/// The body of `POST /api/tree/search`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchRequest {
    tree: String,
    algorithm: Algorithm,
    alpha: Option<f64>,
    beta: Option<f64>,
    m: Option<usize>,
    n: Option<usize>,
    x: Option<f64>,
    y: Option<f64>,
    r: Option<f64>,
    s: Option<f64>,
}

/// Reads and checks a tree: the parser's message says what is wrong and where.
fn read_tree(text: &str) -> Result<ExplicitTree, ApiError> {
    let tree =
        ExplicitTree::parse(text).map_err(|error| ApiError::bad_request(error.to_string()))?;
    if tree.node_count() > MAX_TREE_NODES {
        return Err(ApiError::too_large(format!(
            "the tree has {} nodes; the page takes at most {MAX_TREE_NODES}",
            tree.node_count()
        )));
    }
    if tree.depth() > MAX_TREE_DEPTH {
        return Err(ApiError::too_large(format!(
            "the tree is {} plies deep; the page takes at most {MAX_TREE_DEPTH}",
            tree.depth()
        )));
    }
    Ok(tree)
}

fn window(request: &SearchRequest) -> Result<Window<f64>, ApiError> {
    let alpha = request.alpha.unwrap_or(f64::NEG_INFINITY);
    let beta = request.beta.unwrap_or(f64::INFINITY);
    if alpha.is_nan() || beta.is_nan() || alpha >= beta {
        return Err(ApiError::unprocessable(format!(
            "the window needs α < β, not α = {alpha}, β = {beta}"
        )));
    }
    Ok(Window::new(alpha, beta))
}

fn slagle(request: &SearchRequest) -> Result<Slagle, ApiError> {
    let m = request.m.unwrap_or(2);
    let n = request.n.unwrap_or(2);
    for (name, count) in [("m", m), ("n", n)] {
        if !(1..=8).contains(&count) {
            return Err(ApiError::unprocessable(format!(
                "{name} must be 1 to 8, not {count}"
            )));
        }
    }
    let invalid = |error: gametree::BackingUpError| ApiError::unprocessable(error.to_string());
    let max_exponents =
        Exponents::new(request.x.unwrap_or(3.0), request.y.unwrap_or(1.0)).map_err(invalid)?;
    let min_exponents =
        Exponents::new(request.r.unwrap_or(3.0), request.s.unwrap_or(1.0)).map_err(invalid)?;
    Slagle::new(m, n, max_exponents, min_exponents).map_err(invalid)
}

/// A number for the page: ±∞ (a window's end) as `null`, as the command line's `--json`.
fn number(value: f64) -> Json {
    if value.is_finite() {
        value_json(value)
    } else {
        Json::Null
    }
}

/// Writes ±∞ as the page shows it.
fn shown(value: f64) -> String {
    if value == f64::INFINITY {
        "∞".into()
    } else if value == f64::NEG_INFINITY {
        "−∞".into()
    } else {
        format!("{value}")
    }
}

/// Why a cutoff happened, in words a student reads beside the tree.
fn reason_text(reason: CutoffReason<f64>, max_to_move: bool) -> String {
    match reason {
        CutoffReason::BetaCutoff { value, beta } => format!(
            "{} ≥ β = {}: MIN already has a way to hold MAX to {} above, so MAX's other moves here need not be searched",
            shown(value),
            shown(beta),
            shown(beta)
        ),
        CutoffReason::AlphaCutoff { value, alpha } => format!(
            "{} ≤ α = {}: MAX already has {} elsewhere, and MIN holds this position to {} or less, so MIN's other moves here need not be searched",
            shown(value),
            shown(alpha),
            shown(alpha),
            shown(value)
        ),
        CutoffReason::Bound { value, bound } if max_to_move => format!(
            "the best values so far back up to at least {} ≥ β = {}: the rest cannot change the outcome",
            shown(value),
            shown(bound)
        ),
        CutoffReason::Bound { value, bound } => format!(
            "the best values so far back up to at most {} ≤ α = {}: the rest cannot change the outcome",
            shown(value),
            shown(bound)
        ),
    }
}

/// The observer's events as the page's JSON, each with the path of its position (the
/// `descend`s are not shown: the `enter` after each says the same).
fn events_json(recorder: &Recorder<usize, f64>) -> Vec<Json> {
    recorder
        .events
        .iter()
        .zip(recorder.paths())
        .filter_map(|(event, path)| match event {
            Event::Descend(_) => None,
            Event::Enter(window) => {
                let mut entry = json!({"kind": "enter", "path": path});
                if let Some(window) = window {
                    entry["alpha"] = number(window.alpha);
                    entry["beta"] = number(window.beta);
                }
                Some(entry)
            }
            Event::Leaf(value) => {
                Some(json!({"kind": "leaf", "path": path, "value": number(*value)}))
            }
            Event::Cutoff(moves, reason) => {
                let max_to_move = path.len().is_multiple_of(2);
                Some(json!({
                    "kind": "cutoff",
                    "path": path,
                    "moves": moves,
                    "reason": reason_text(*reason, max_to_move),
                }))
            }
            Event::Leave(value) => {
                Some(json!({"kind": "leave", "path": path, "value": number(*value)}))
            }
        })
        .collect()
}

/// The tree as nested objects with each node's path; iterative, and the depth is capped, so
/// the nesting stays within what `serde_json` prints and drops without trouble.
fn tree_json(tree: &mut ExplicitTree) -> Json {
    fn build(tree: &mut ExplicitTree, path: &mut Vec<usize>) -> Json {
        let mut moves = Vec::new();
        gametree::Game::successors(tree, &mut moves);
        if moves.is_empty() {
            return json!({"path": path, "value": number(gametree::Game::value(tree))});
        }
        let mut children = Vec::with_capacity(moves.len());
        for mv in moves {
            gametree::Game::update(tree, mv);
            path.push(mv);
            children.push(build(tree, path));
            path.pop();
            gametree::Game::revert(tree, mv);
        }
        json!({"path": path, "children": children})
    }
    // The depth is at most MAX_TREE_DEPTH, so the recursion is shallow.
    tree.reset();
    build(tree, &mut Vec::new())
}

/// The paths of the nodes of a proof (McCarthy's `treemax`), root first.
fn proof_paths(proof: &Proof<usize, f64>, into: &mut Vec<Vec<usize>>) {
    let mut pending = vec![(Vec::new(), proof.root())];
    while let Some((path, id)) = pending.pop() {
        into.push(path.clone());
        match proof.step(id) {
            ProofStep::Terminal(_) => {}
            ProofStep::Choice(mv, next) => {
                let mut below = path.clone();
                below.push(*mv);
                pending.push((below, *next));
            }
            ProofStep::Replies(replies) => {
                for &(mv, reply) in replies {
                    let mut below = path.clone();
                    below.push(mv);
                    pending.push((below, reply));
                }
            }
        }
    }
}

/// Runs one search on the tree and answers everything the page shows of it.
pub fn search(request: &SearchRequest) -> Result<Json, ApiError> {
    let mut tree = read_tree(&request.tree)?;
    let window = window(request)?;
    if request.algorithm != Algorithm::Alphabeta
        && (request.alpha.is_some() || request.beta.is_some())
    {
        return Err(ApiError::unprocessable(
            "alpha and beta apply to alphabeta only".to_string(),
        ));
    }
    let is_m_and_n = matches!(
        request.algorithm,
        Algorithm::MnMinimax | Algorithm::MnAlphabeta
    );
    let any_m_and_n_setting = request.m.is_some()
        || request.n.is_some()
        || request.x.is_some()
        || request.y.is_some()
        || request.r.is_some()
        || request.s.is_some();
    if !is_m_and_n && any_m_and_n_setting {
        return Err(ApiError::unprocessable(
            "m, n, x, y, r and s apply to mn-minimax and mn-alphabeta only".to_string(),
        ));
    }
    let mut recorder = Recorder::default();
    let (value, bound, stats, best_move) = match request.algorithm {
        Algorithm::Minimax => {
            let result = minimax_observed(&mut tree, &mut recorder);
            (result.value, "exact", result.stats, result.best_move)
        }
        Algorithm::Alphabeta => {
            let result = alphabeta_value_observed(&mut tree, window, &mut recorder);
            let bound = match result.bound {
                gametree::Bound::Exact => "exact",
                gametree::Bound::Lower => "lower",
                gametree::Bound::Upper => "upper",
            };
            (result.value, bound, result.stats, None)
        }
        Algorithm::MnMinimax | Algorithm::MnAlphabeta => {
            let slagle = slagle(request)?;
            let result = if request.algorithm == Algorithm::MnMinimax {
                mn_minimax_observed(&mut tree, &slagle, &mut recorder)
            } else {
                mn_alphabeta_observed(&mut tree, &slagle, &mut recorder)
            };
            (result.value, "exact", result.stats, result.best_move)
        }
    };
    let (principal_line, proof) = if is_m_and_n {
        (Vec::new(), Json::Null)
    } else {
        let line = alphabeta_line(&mut tree, window);
        let proven = alphabeta_proof(&mut tree, window);
        let mut paths = Vec::new();
        for proof in [proven.at_least.as_ref(), proven.at_most.as_ref()]
            .into_iter()
            .flatten()
        {
            proof_paths(proof, &mut paths);
        }
        paths.sort();
        paths.dedup();
        (line.principal_line, json!(paths))
    };
    let best_move = best_move.or_else(|| principal_line.first().copied());
    Ok(json!({
        "algorithm": request.algorithm.name(),
        "value": number(value),
        "bound": bound,
        "leaves": stats.leaves,
        "nodes": stats.nodes,
        "cutoffs": stats.cutoffs,
        "root": tree_json(&mut tree),
        "events": events_json(&recorder),
        "principal_line": principal_line,
        "proof": proof,
        "best_move": best_move,
    }))
}

/// The body of `POST /api/tree/random`: inclusive ranges as `[low, high]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomRequest {
    branching: Option<[usize; 2]>,
    depth: Option<[usize; 2]>,
    values: Option<[i32; 2]>,
    seed: Option<u64>,
}

/// A random tree within the limits: the worst case of the shape asked for is checked
/// before the tree is made, so no request can ask for a huge one.
pub fn random(request: &RandomRequest) -> Result<Json, ApiError> {
    let [fewest, most] = request.branching.unwrap_or([2, 3]);
    let [shallowest, deepest] = request.depth.unwrap_or([3, 3]);
    let [low, high] = request.values.unwrap_or([-9, 9]);
    let range = |name: &str, low: usize, high: usize, limit: usize| {
        if low < 1 || low > high || high > limit {
            Err(ApiError::unprocessable(format!(
                "{name} must be a range [low, high] with 1 ≤ low ≤ high ≤ {limit}, not [{low}, {high}]"
            )))
        } else {
            Ok(())
        }
    };
    range("branching", fewest, most, 6)?;
    range("depth", shallowest, deepest, 8)?;
    if low > high {
        return Err(ApiError::unprocessable(format!(
            "values must be a range [low, high] with low ≤ high, not [{low}, {high}]"
        )));
    }
    // Nodes of the fullest tree of this shape: 1 + b + b² + … + b^d.
    let worst: usize = (0..=deepest as u32).map(|ply| most.pow(ply)).sum();
    if worst > MAX_TREE_NODES {
        return Err(ApiError::too_large(format!(
            "a tree of branching up to {most} and depth up to {deepest} may have {worst} nodes; the page takes at most {MAX_TREE_NODES}"
        )));
    }
    let config = RandomTreeConfig {
        branching: fewest..=most,
        depth: shallowest..=deepest,
        values: low..=high,
    };
    let tree = ExplicitTree::random(&config, request.seed.unwrap_or(1));
    Ok(json!({
        "tree": tree.to_string(),
        "nodes": tree.node_count(),
        "leaves": tree.leaf_count(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(tree: &str, algorithm: Algorithm) -> SearchRequest {
        SearchRequest {
            tree: tree.into(),
            algorithm,
            alpha: None,
            beta: None,
            m: None,
            n: None,
            x: None,
            y: None,
            r: None,
            s: None,
        }
    }

    #[test]
    fn alphabeta_on_the_smallest_cutting_tree_answers_its_cut_line_and_proof() {
        let answer = search(&request("((3 5) (2 9))", Algorithm::Alphabeta)).unwrap();
        assert_eq!(answer["value"], 3);
        assert_eq!(answer["leaves"], 3);
        let cut: Vec<&Json> = answer["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|event| event["kind"] == "cutoff")
            .collect();
        assert_eq!(cut.len(), 1);
        assert_eq!(cut[0]["path"], json!([2]));
        assert_eq!(cut[0]["moves"], json!([2]));
        assert!(cut[0]["reason"].as_str().unwrap().starts_with("2 ≤ α = 3"));
        assert_eq!(answer["principal_line"], json!([1, 1]));
        assert_eq!(
            answer["proof"],
            json!([[], [1], [1, 1], [1, 2], [2], [2, 1]])
        );
        assert_eq!(answer["root"]["children"][1]["children"][1]["value"], 9);
        assert_eq!(
            answer["events"][0],
            json!({"kind": "enter", "path": [], "alpha": null, "beta": null})
        );
    }

    #[test]
    fn trees_over_the_limits_and_bad_settings_are_refused_with_the_reason() {
        let deep = format!("{}1{}", "(".repeat(150), ")".repeat(150));
        let error = search(&request(&deep, Algorithm::Minimax)).unwrap_err();
        assert!(error.message.contains("150 plies"), "{}", error.message);
        let mut windowed = request("(1 2)", Algorithm::Minimax);
        windowed.alpha = Some(0.0);
        assert!(search(&windowed).is_err());
        let mut m_and_n = request("(1 2)", Algorithm::MnAlphabeta);
        m_and_n.m = Some(0);
        assert!(
            search(&m_and_n)
                .unwrap_err()
                .message
                .contains("m must be 1 to 8")
        );
        let malformed = search(&request("((3 5) (2", Algorithm::Alphabeta)).unwrap_err();
        assert_eq!(malformed.status, axum::http::StatusCode::BAD_REQUEST);
    }

    #[test]
    fn random_trees_are_refused_before_they_are_made_when_they_could_be_too_big() {
        let too_big = RandomRequest {
            branching: Some([6, 6]),
            depth: Some([8, 8]),
            values: None,
            seed: None,
        };
        assert!(random(&too_big).unwrap_err().message.contains("nodes"));
        let fine = RandomRequest {
            branching: Some([2, 2]),
            depth: Some([3, 3]),
            values: Some([0, 0]),
            seed: Some(3),
        };
        let answer = random(&fine).unwrap();
        // Branching exactly 2, leaves exactly at ply 3: 1 + 2 + 4 + 8 nodes, all leaves 0.
        assert_eq!(answer["nodes"], 15);
        assert_eq!(answer["tree"], "(((0 0) (0 0)) ((0 0) (0 0)))");
    }
}
