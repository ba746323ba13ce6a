//! Minimax against alpha-beta on random explicit trees: how much McCarthy's αβ-heuristic
//! saves, and how fast each runs.
//!
//! ```sh
//! cargo run --release --example random_tree_search
//! ```

use gametree::{
    ExplicitTree, RandomTreeConfig, Window, alphabeta_proof, alphabeta_value, minimax,
    verify_result,
};

fn main() {
    let config = RandomTreeConfig {
        branching: 6..=8,
        depth: 7..=7,
        values: -50..=50,
    };
    let mut tree = ExplicitTree::random(&config, 2024);
    println!(
        "tree: {} nodes, {} leaves, depth {}",
        tree.node_count(),
        tree.leaf_count(),
        tree.depth()
    );
    let full = minimax(&mut tree);
    let pruned = alphabeta_value(&mut tree, Window::full());
    assert_eq!(full.value, pruned.value);
    for (name, stats) in [("minimax", full.stats), ("alphabeta", pruned.stats)] {
        let seconds = stats.elapsed.as_secs_f64();
        println!(
            "{name:>9}: value {}, {} nodes, {} leaves, {:.3} s, {:.1} M nodes/s",
            full.value,
            stats.nodes,
            stats.leaves,
            seconds,
            stats.nodes as f64 / seconds / 1e6
        );
    }
    let proof = alphabeta_proof(&mut tree, Window::full());
    verify_result(&mut tree, &proof).expect("the search's proofs hold");
    println!(
        "    proof: {} steps in pfmax, {} in pfmin, verified",
        proof
            .at_least
            .as_ref()
            .map_or(0, |proof| proof.steps().len()),
        proof
            .at_most
            .as_ref()
            .map_or(0, |proof| proof.steps().len())
    );
}
