//! McCarthy's proofs (seed 000, `treemax`/`treemin`) drawn as Graphviz DOT graphs: one node
//! per step of the move tree, one edge per move.

use std::fmt::Write as _;

use crate::game::Player;
use crate::search::alphabeta::{Proof, ProofId, ProofResult, ProofStep};

impl<M: Copy, V: Copy> Proof<M, V> {
    /// The proof as a Graphviz `digraph`, for `dot -Tsvg`.
    ///
    /// A step that names one move (`mv . pf`) is drawn as a node labelled `one move` with a
    /// bold edge; a list of replies as a node labelled `every move` with an edge per
    /// reply; a terminal step `<v>` as a box holding `v`. Edges are labelled with their
    /// moves, written by `write_move`; values are written by `write_value`. Built without
    /// recursion, so any depth prints.
    ///
    /// # Example
    /// ```
    /// use gametree::{ExplicitTree, Window, alphabeta_proof};
    ///
    /// let mut tree: ExplicitTree = "((3 5) (2 9))".parse()?;
    /// let pfmax = alphabeta_proof(&mut tree, Window::full()).at_least.expect("exact");
    /// let dot = pfmax.to_dot(
    ///     |out, mv| out.push_str(&mv.to_string()),
    ///     |out, value| out.push_str(&value.to_string()),
    /// );
    /// assert!(dot.starts_with("digraph proof {"));
    /// assert!(dot.contains("s0 -> s1 [label=\"1\", style=bold];"));
    /// # Ok::<(), gametree::ParseTreeError>(())
    /// ```
    pub fn to_dot(
        &self,
        mut write_move: impl FnMut(&mut String, &M),
        mut write_value: impl FnMut(&mut String, &V),
    ) -> String {
        let mut out = String::from("digraph proof {\n  node [fontname=\"Helvetica\"];\n");
        self.write_dot_steps(&mut out, "s", None, &mut write_move, &mut write_value);
        out.push_str("}\n");
        out
    }

    /// Writes the nodes and edges of the steps reachable from the root, node names
    /// starting with `prefix`. With the prover known, choice nodes are labelled with the
    /// prover and reply nodes with the opponent.
    fn write_dot_steps(
        &self,
        out: &mut String,
        prefix: &str,
        prover: Option<Player>,
        write_move: &mut impl FnMut(&mut String, &M),
        write_value: &mut impl FnMut(&mut String, &V),
    ) {
        let (choice_label, replies_label) = match prover {
            Some(player) => (player.to_string(), player.opponent().to_string()),
            None => ("one move".to_string(), "every move".to_string()),
        };
        let mut text = String::new();
        let mut pending: Vec<ProofId> = vec![self.root()];
        while let Some(id) = pending.pop() {
            let name = id.index();
            match self.step(id) {
                ProofStep::Terminal(value) => {
                    text.clear();
                    write_value(&mut text, value);
                    let _ = writeln!(
                        out,
                        "  {prefix}{name} [shape=box, label=\"{}\"];",
                        escape(&text)
                    );
                }
                ProofStep::Choice(mv, next) => {
                    let _ = writeln!(out, "  {prefix}{name} [label=\"{choice_label}\"];");
                    text.clear();
                    write_move(&mut text, mv);
                    let _ = writeln!(
                        out,
                        "  {prefix}{name} -> {prefix}{} [label=\"{}\", style=bold];",
                        next.index(),
                        escape(&text)
                    );
                    pending.push(*next);
                }
                ProofStep::Replies(replies) => {
                    let _ = writeln!(out, "  {prefix}{name} [label=\"{replies_label}\"];");
                    for (mv, reply) in replies {
                        text.clear();
                        write_move(&mut text, mv);
                        let _ = writeln!(
                            out,
                            "  {prefix}{name} -> {prefix}{} [label=\"{}\"];",
                            reply.index(),
                            escape(&text)
                        );
                    }
                    pending.extend(replies.iter().rev().map(|&(_, reply)| reply));
                }
            }
        }
    }
}

impl<M: Copy, V: Copy> ProofResult<M, V> {
    /// Both proofs of the result in one Graphviz `digraph`, `pfmax` and `pfmin` each in a
    /// cluster of its own (a proof the search did not give is left out). In `pfmax`
    /// MAX names one move and every move of MIN is answered; in `pfmin` the other way
    /// round, and the nodes are labelled accordingly.
    ///
    /// # Example
    /// ```
    /// use gametree::{ExplicitTree, Window, alphabeta_proof};
    ///
    /// let mut tree: ExplicitTree = "((3 5) (2 9))".parse()?;
    /// let dot = alphabeta_proof(&mut tree, Window::full()).to_dot(
    ///     |out, mv| out.push_str(&mv.to_string()),
    ///     |out, value| out.push_str(&value.to_string()),
    /// );
    /// assert!(dot.contains("subgraph cluster_pfmax"));
    /// assert!(dot.contains("subgraph cluster_pfmin"));
    /// # Ok::<(), gametree::ParseTreeError>(())
    /// ```
    pub fn to_dot(
        &self,
        mut write_move: impl FnMut(&mut String, &M),
        mut write_value: impl FnMut(&mut String, &V),
    ) -> String {
        let mut value = String::new();
        write_value(&mut value, &self.value);
        let value = escape(&value);
        let mut out = String::from("digraph proof {\n  node [fontname=\"Helvetica\"];\n");
        let _ = writeln!(out, "  label=\"value {value}\";\n  labelloc=t;");
        let proofs = [
            ("pfmax", "≥", Player::Max, &self.at_least),
            ("pfmin", "≤", Player::Min, &self.at_most),
        ];
        for (name, relation, prover, proof) in proofs {
            let Some(proof) = proof else { continue };
            let _ = writeln!(
                out,
                "  subgraph cluster_{name} {{\n  label=\"{name}: value {relation} {value}\";"
            );
            let prefix = format!("{name}_");
            proof.write_dot_steps(
                &mut out,
                &prefix,
                Some(prover),
                &mut write_move,
                &mut write_value,
            );
            out.push_str("  }\n");
        }
        out.push_str("}\n");
        out
    }
}

/// `text` inside a DOT string: backslashes and double quotes escaped.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use crate::search::Window;
    use crate::search::alphabeta::alphabeta_proof;
    use crate::search::test_tree::small;

    fn plain(out: &mut String, item: &impl ToString) {
        out.push_str(&item.to_string());
    }

    #[test]
    fn the_issue_example_pfmax_draws_as_a_small_graph() {
        let mut game = small();
        let pfmax = alphabeta_proof(&mut game, Window::full())
            .at_least
            .expect("exact");
        assert_eq!(
            pfmax.to_dot(plain, plain),
            "digraph proof {\n  node [fontname=\"Helvetica\"];\n\
             \x20 s0 [label=\"one move\"];\n\
             \x20 s0 -> s1 [label=\"1\", style=bold];\n\
             \x20 s1 [label=\"every move\"];\n\
             \x20 s1 -> s2 [label=\"2\"];\n\
             \x20 s1 -> s3 [label=\"1\"];\n\
             \x20 s2 [shape=box, label=\"5\"];\n\
             \x20 s3 [shape=box, label=\"3\"];\n\
             }\n"
        );
    }

    #[test]
    fn both_proofs_share_one_graph_with_players_named() {
        let mut game = small();
        let dot = alphabeta_proof(&mut game, Window::full()).to_dot(plain, plain);
        assert!(dot.contains("label=\"pfmax: value ≥ 3\""));
        assert!(dot.contains("pfmax_0 [label=\"MAX\"];"));
        assert!(dot.contains("pfmin_0 [label=\"MAX\"];"));
        assert!(dot.contains("pfmin_1 [label=\"MIN\"];"));
        assert_eq!(dot.matches('{').count(), dot.matches('}').count());
    }

    #[test]
    fn a_failed_high_result_draws_only_pfmax() {
        let mut game = small();
        let dot = alphabeta_proof(&mut game, Window::new(0, 2)).to_dot(plain, plain);
        assert!(dot.contains("cluster_pfmax"));
        assert!(!dot.contains("cluster_pfmin"));
    }

    #[test]
    fn labels_are_escaped() {
        let mut game = small();
        let pfmax = alphabeta_proof(&mut game, Window::full())
            .at_least
            .expect("exact");
        let dot = pfmax.to_dot(|out, _| out.push_str("a\"b"), plain);
        assert!(dot.contains("label=\"a\\\"b\""));
    }
}
