//! Paths in a directed graph, the first example of McCarthy's `search` (seed 001,
//! "5. Tree search"; seed 000 recalls it from the chapter on tree recursion).
//!
//! A position is a path from the initial node, kept as the seed keeps it: a list of its
//! nodes in reverse order, newest first. The three functions are the seed's
//!
//! ```text
//! lose p ← a p ε d p
//! ter p ← [a p = final]
//! successors p ← mapcar[d assoc[a p, graph], λx. x . p]
//! ```
//!
//! Paths share their tails (a persistent list, as Lisp's conses do), so a successor costs
//! one small allocation whatever the length of the path.
//!
//! The seed's `lose` walks the path, so a search that goes n nodes deep does n²/2 steps:
//! tens of seconds for a chain of 100,000 nodes. [`first_path`] and [`all_paths`] keep the persistent
//! positions and answer `lose` with McCarthy's hidden board trick instead (seed 004's
//! `rectify`, as in [`crate::search::hidden_board`]): a table of the nodes on the path
//! last asked about, brought to each new path by taking back nodes to the common tail
//! and marking the new ones. A depth-first search moves one step at a time, so each node
//! is marked and unmarked once per visit: linear in the nodes searched.
//!
//! # The graph file
//!
//! One line per node: `A B C` means edges A→B and A→C. Names are any tokens without
//! whitespace or control characters; `#` starts a comment that runs to the end of the
//! line; blank lines are ignored. A node that heads several lines has the edges of all of
//! them, in file order (a repeated edge counts once). A node that only appears after the
//! head of a line, or heads a line alone, has no edges out. A byte-order mark at the start
//! of the file is skipped, so that it does not become part of the first name.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::Path;
use std::rc::Rc;

use crate::search::puzzle::{SearchOutcome, all_solutions, search_with_stats};
use crate::text::excerpt;

/// A node of a [`Graph`]: its index in the order names first appear in the file.
pub type NodeId = u32;

/// A directed graph read from a graph file (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct Graph {
    /// Where the graph came from, for error messages.
    file: String,
    names: Vec<String>,
    index: HashMap<String, NodeId>,
    edges: Vec<Vec<NodeId>>,
}

/// What can go wrong reading a graph or naming one of its nodes. Every message is one
/// line, names the file (and the line and column, when a line is at fault, as
/// `file:line:column:`) and quotes at most 40 characters of a name.
#[derive(Debug, thiserror::Error)]
pub enum GraphError {
    /// The file could not be read.
    #[error("cannot read {file}: {source}")]
    Read {
        /// The file, as given.
        file: String,
        /// Why it could not be read.
        source: std::io::Error,
    },
    /// A line of the file is not valid text or holds an unusable name.
    #[error("{file}:{line}:{column}: {problem}")]
    Malformed {
        /// The file, as given.
        file: String,
        /// The line, counting from 1.
        line: usize,
        /// The column of the problem in characters, counting from 1: the first byte that
        /// is not UTF-8, or the control character in a name.
        column: usize,
        /// What is wrong with the line.
        problem: String,
    },
    /// A node name that does not occur in the graph.
    #[error("{file}: unknown node {}", excerpt(.name))]
    UnknownNode {
        /// The file, as given.
        file: String,
        /// The name asked for.
        name: String,
    },
    /// The graph has more nodes than a [`NodeId`] can number.
    #[error("{file}:{line}: too many nodes (at most 2^32)")]
    TooManyNodes {
        /// The file, as given.
        file: String,
        /// The line where the first node past the limit is named.
        line: usize,
    },
}

impl Graph {
    /// Reads a graph file.
    ///
    /// # Errors
    ///
    /// [`GraphError::Read`] when the file cannot be read, and the errors of
    /// [`Graph::parse`].
    pub fn read(path: &Path) -> Result<Graph, GraphError> {
        let file = path.display().to_string();
        match std::fs::read(path) {
            Ok(bytes) => Graph::parse(&file, &bytes),
            Err(source) => Err(GraphError::Read { file, source }),
        }
    }

    /// Parses the text of a graph file; `file` names it in error messages.
    ///
    /// # Errors
    ///
    /// [`GraphError::Malformed`] for a line that is not UTF-8 or has a name with a control
    /// character in it, with the line and column; [`GraphError::TooManyNodes`] past
    /// `u32::MAX` nodes.
    ///
    /// # Example
    ///
    /// ```
    /// use gametree::puzzles::graph_path::Graph;
    ///
    /// let graph = Graph::parse("inline", b"# a triangle\nA B C\nB C\n\nC A\n").unwrap();
    /// assert_eq!(graph.node_count(), 3);
    /// let a = graph.node("A").unwrap();
    /// let names: Vec<&str> = graph.edges_from(a).iter().map(|&n| graph.name(n)).collect();
    /// assert_eq!(names, ["B", "C"]);
    /// ```
    pub fn parse(file: &str, text: &[u8]) -> Result<Graph, GraphError> {
        let mut graph = Graph {
            file: file.to_string(),
            names: Vec::new(),
            index: HashMap::new(),
            edges: Vec::new(),
        };
        let mut seen_edges = HashSet::new();
        let text = text.strip_prefix("\u{feff}".as_bytes()).unwrap_or(text);
        for (number, line) in text.split(|&byte| byte == b'\n').enumerate() {
            let line_number = number + 1;
            let line = std::str::from_utf8(line).map_err(|error| {
                let valid = std::str::from_utf8(&line[..error.valid_up_to()])
                    .expect("invariant: the bytes before valid_up_to are UTF-8");
                GraphError::Malformed {
                    file: file.to_string(),
                    line: line_number,
                    column: valid.chars().count() + 1,
                    problem: "not valid UTF-8".to_string(),
                }
            })?;
            let content = line.split('#').next().unwrap_or_default();
            let mut tokens = content.split_whitespace();
            let Some(head) = tokens.next() else {
                continue;
            };
            let head = graph.intern(head, line, line_number)?;
            for token in tokens {
                let target = graph.intern(token, line, line_number)?;
                if seen_edges.insert((head, target)) {
                    graph.edges[head as usize].push(target);
                }
            }
        }
        Ok(graph)
    }

    /// The node named `name`, or `None`: the error-free form of [`Graph::node`].
    fn lookup(&self, name: &str) -> Option<NodeId> {
        self.index.get(name).copied()
    }

    /// Numbers a name met on line number `line` (whose text is `text`, of which `name` is
    /// a slice), giving a new name the next id.
    fn intern(&mut self, name: &str, text: &str, line: usize) -> Result<NodeId, GraphError> {
        if let Some(id) = self.lookup(name) {
            return Ok(id);
        }
        if let Some((offset, control)) = name.char_indices().find(|(_, c)| c.is_control()) {
            // `name` is a slice of `text`: its byte offset there gives the column.
            let start = name.as_ptr() as usize - text.as_ptr() as usize;
            return Err(GraphError::Malformed {
                file: self.file.clone(),
                line,
                column: text[..start + offset].chars().count() + 1,
                problem: format!(
                    "node name {} contains the control character {control:?}",
                    excerpt(name)
                ),
            });
        }
        let id = NodeId::try_from(self.names.len()).map_err(|_| GraphError::TooManyNodes {
            file: self.file.clone(),
            line,
        })?;
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), id);
        self.edges.push(Vec::new());
        Ok(id)
    }

    /// The node called `name`.
    ///
    /// # Errors
    ///
    /// [`GraphError::UnknownNode`] when no line mentions `name`.
    pub fn node(&self, name: &str) -> Result<NodeId, GraphError> {
        self.lookup(name).ok_or_else(|| GraphError::UnknownNode {
            file: self.file.clone(),
            name: name.to_string(),
        })
    }

    /// The name of `node`.
    ///
    /// # Panics
    ///
    /// If `node` is not a node of this graph.
    pub fn name(&self, node: NodeId) -> &str {
        &self.names[node as usize]
    }

    /// How many distinct names the file mentions.
    pub fn node_count(&self) -> usize {
        self.names.len()
    }

    /// The nodes `node` has edges to, in file order: the seed's `d assoc[node, graph]`.
    ///
    /// # Panics
    ///
    /// If `node` is not a node of this graph.
    pub fn edges_from(&self, node: NodeId) -> &[NodeId] {
        &self.edges[node as usize]
    }

    /// The seed's `successors` for paths: each node the newest one has an edge to, put in
    /// front of the path. Lazy, sharing the path as the tail of every successor.
    pub fn successors<'g>(
        &'g self,
        path: &PathPosition,
    ) -> impl Iterator<Item = PathPosition> + use<'g> {
        let path = path.clone();
        self.edges_from(path.newest())
            .iter()
            .map(move |&next| path.extended(next))
    }

    /// Formats a path oldest node first, names separated by single spaces: `A X Y B`.
    pub fn format_path(&self, path: &PathPosition) -> String {
        let nodes = path.to_vec();
        let names: Vec<&str> = nodes.iter().map(|&node| self.name(node)).collect();
        names.join(" ")
    }
}

/// A path as the seed's tree search holds it: a list of nodes in reverse order, newest
/// first, whose tail is shared with the path it was extended from.
///
/// Dropping a long path does not recurse, so paths of any length are safe. [`PathPosition::loses`]
/// walks the path, as the seed's `a p ε d p` does: linear in its length. The searches of
/// this module ask an [`OnPath`] table instead, which answers in constant time when the
/// paths asked about follow a depth-first search.
///
/// # Example
///
/// ```
/// use gametree::puzzles::graph_path::PathPosition;
///
/// let path = PathPosition::start(7).extended(3).extended(7);
/// assert_eq!(path.iter().collect::<Vec<_>>(), [7, 3, 7]);
/// assert_eq!(path.to_vec(), [7, 3, 7]);
/// assert!(path.loses());
/// assert!(!PathPosition::start(7).extended(3).loses());
/// ```
#[derive(Clone)]
pub struct PathPosition {
    head: Rc<Cell>,
}

struct Cell {
    node: NodeId,
    rest: Option<Rc<Cell>>,
    len: usize,
}

impl PathPosition {
    /// The path of one node.
    pub fn start(node: NodeId) -> PathPosition {
        PathPosition {
            head: Rc::new(Cell {
                node,
                rest: None,
                len: 1,
            }),
        }
    }

    /// This path followed by `node` (the seed's `x . p`); `self` is shared, not copied.
    #[must_use]
    pub fn extended(&self, node: NodeId) -> PathPosition {
        PathPosition {
            head: Rc::new(Cell {
                node,
                rest: Some(Rc::clone(&self.head)),
                len: self.head.len + 1,
            }),
        }
    }

    /// The newest node: the seed's `a p`.
    pub fn newest(&self) -> NodeId {
        self.head.node
    }

    /// How many nodes the path has.
    pub fn len(&self) -> usize {
        self.head.len
    }

    /// Always false: a path has at least its start node.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The nodes newest first, as the seed's list holds them.
    pub fn iter(&self) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(Some(&*self.head), |cell| cell.rest.as_deref()).map(|cell| cell.node)
    }

    /// The seed's `lose`: the newest node already occurs earlier in the path (`a p ε d p`).
    pub fn loses(&self) -> bool {
        let newest = self.newest();
        self.iter().skip(1).any(|node| node == newest)
    }

    /// The nodes in walking order, oldest (the start) first.
    pub fn to_vec(&self) -> Vec<NodeId> {
        let mut nodes: Vec<NodeId> = self.iter().collect();
        nodes.reverse();
        nodes
    }
}

impl fmt::Debug for PathPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Drop for PathPosition {
    fn drop(&mut self) {
        // Unlink cells this path holds alone one at a time, instead of letting each cell's
        // drop recurse into the next.
        let mut rest = Rc::get_mut(&mut self.head).and_then(|cell| cell.rest.take());
        while let Some(cell) = rest {
            match Rc::try_unwrap(cell) {
                Ok(mut cell) => rest = cell.rest.take(),
                Err(_shared) => break,
            }
        }
    }
}

/// The seed's `lose` for paths in constant time per step: the nodes of one path, brought to
/// whichever path is asked about by McCarthy's `rectify` (seed 004) — take back nodes to
/// the tail the two paths share, then mark the new path's own nodes.
///
/// A depth-first search asks about a child of the path it asked about before, or about a
/// sibling of it or of one of its ancestors, so the nodes taken back and marked add up to
/// at most twice the positions the search generates: the search is linear in the path's
/// length where [`PathPosition::loses`] makes it quadratic. Any sequence of paths gives
/// the same answers as [`PathPosition::loses`]; only the cost depends on the order.
///
/// # Example
///
/// ```
/// use gametree::puzzle_search as search;
/// use gametree::puzzles::graph_path::{OnPath, PathPosition};
///
/// // Count along a cycle of five nodes; the first path that comes back to 0 loses.
/// let mut on_path = OnPath::new(5);
/// let found = search(
///     PathPosition::start(0),
///     |path: &PathPosition| [path.extended((path.newest() + 1) % 5)],
///     |path| path.newest() == 4,
///     |path| on_path.loses(path),
/// );
/// assert_eq!(found.map(|path| path.to_vec()), Some(vec![0, 1, 2, 3, 4]));
/// assert_eq!(on_path.steps(), 4);
/// ```
pub struct OnPath {
    /// How many times each node occurs in `current`.
    marks: Vec<u32>,
    /// The path `marks` describes: the tail of the last path asked about. Held as a
    /// [`PathPosition`], whose drop does not recurse down a long path.
    current: Option<PathPosition>,
    /// Nodes to mark, newest first: a buffer kept between calls.
    marking: Vec<NodeId>,
    /// Nodes marked and unmarked so far.
    steps: u64,
}

impl OnPath {
    /// A table for paths over nodes `0..node_count`, describing no path yet.
    #[must_use]
    pub fn new(node_count: usize) -> OnPath {
        OnPath {
            marks: vec![0; node_count],
            current: None,
            marking: Vec::new(),
            steps: 0,
        }
    }

    /// The seed's `lose`: whether the newest node of `path` already occurs earlier in it,
    /// as [`PathPosition::loses`] answers.
    ///
    /// # Panics
    ///
    /// If `path` has a node not below the `node_count` the table was made for.
    pub fn loses(&mut self, path: &PathPosition) -> bool {
        let Some(tail) = &path.head.rest else {
            // A path of one node repeats nothing.
            return false;
        };
        self.rectify(tail);
        self.marks[path.newest() as usize] > 0
    }

    /// How many times a node has been marked or unmarked: the work [`OnPath::loses`] has
    /// done, at most twice the paths a depth-first search generates.
    #[must_use]
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Brings `marks` from the path it describes to `target`.
    fn rectify(&mut self, target: &Rc<Cell>) {
        let previous = self.current.take();
        let mut old = previous.as_ref().map(|path| &*path.head);
        let mut new = Some(&**target);
        let length = |cell: Option<&Cell>| cell.map_or(0, |cell| cell.len);
        self.marking.clear();
        // Take back the nodes of the old path and collect those of the new one down to the
        // tail they share (the same cells, not merely the same nodes).
        while length(old) > length(new) {
            let cell = old.expect("invariant: a longer path has a cell");
            self.marks[cell.node as usize] -= 1;
            self.steps += 1;
            old = cell.rest.as_deref();
        }
        while length(new) > length(old) {
            let cell = new.expect("invariant: a longer path has a cell");
            self.marking.push(cell.node);
            new = cell.rest.as_deref();
        }
        while let (Some(old_cell), Some(new_cell)) = (old, new) {
            if std::ptr::eq(old_cell, new_cell) {
                break;
            }
            self.marks[old_cell.node as usize] -= 1;
            self.marking.push(new_cell.node);
            self.steps += 1;
            old = old_cell.rest.as_deref();
            new = new_cell.rest.as_deref();
        }
        for &node in &self.marking {
            self.marks[node as usize] += 1;
        }
        self.steps += self.marking.len() as u64;
        self.current = Some(PathPosition {
            head: Rc::clone(target),
        });
    }
}

impl fmt::Debug for OnPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OnPath")
            .field("node_count", &self.marks.len())
            .field(
                "path_length",
                &self.current.as_ref().map_or(0, PathPosition::len),
            )
            .field("steps", &self.steps)
            .finish()
    }
}

/// The first path from `from` to `to` in depth-first order (edges tried in file order)
/// that visits no node twice, as [`search`](crate::search::puzzle::search) finds it;
/// `None` when there is none. A path from a node to itself is that node alone. Linear in
/// the positions searched (`lose` is answered by an [`OnPath`] table).
///
/// # Example
///
/// ```
/// use gametree::puzzles::graph_path::{Graph, first_path};
///
/// let graph = Graph::parse("inline", b"A B C\nB D\nC D\nD A\n").unwrap();
/// let (a, d) = (graph.node("A").unwrap(), graph.node("D").unwrap());
/// let path = first_path(&graph, a, d).unwrap();
/// assert_eq!(graph.format_path(&path), "A B D");
/// ```
pub fn first_path(graph: &Graph, from: NodeId, to: NodeId) -> Option<PathPosition> {
    first_path_with_stats(graph, from, to).solution
}

/// [`first_path`], also reporting how many paths were generated and expanded.
///
/// # Example
///
/// ```
/// use gametree::puzzles::graph_path::{Graph, first_path_with_stats};
///
/// let graph = Graph::parse("inline", b"A B C\nB D\nC D\nD A\n").unwrap();
/// let (a, d) = (graph.node("A").unwrap(), graph.node("D").unwrap());
/// let outcome = first_path_with_stats(&graph, a, d);
/// assert_eq!(graph.format_path(&outcome.solution.unwrap()), "A B D");
/// // A and A B expanded; A, A B, A B D looked at.
/// assert_eq!((outcome.stats.expanded, outcome.stats.generated), (2, 3));
/// ```
pub fn first_path_with_stats(
    graph: &Graph,
    from: NodeId,
    to: NodeId,
) -> SearchOutcome<PathPosition> {
    let mut on_path = OnPath::new(graph.node_count());
    search_with_stats(
        PathPosition::start(from),
        |path| graph.successors(path),
        |path| path.newest() == to,
        |path| on_path.loses(path),
    )
}

/// Every simple path from `from` to `to`, lazily, in the order [`first_path`] meets them
/// (McCarthy's `allsol` with the same three functions). Paths stop at `to`: one that
/// reaches it is a solution and is not extended. Linear in the positions searched, as
/// [`first_path`].
///
/// # Example
///
/// ```
/// use gametree::puzzles::graph_path::{Graph, all_paths};
///
/// let graph = Graph::parse("inline", b"A B C\nB D\nC D\nD A\n").unwrap();
/// let (a, d) = (graph.node("A").unwrap(), graph.node("D").unwrap());
/// let paths: Vec<String> = all_paths(&graph, a, d).map(|p| graph.format_path(&p)).collect();
/// assert_eq!(paths, ["A B D", "A C D"]);
/// ```
pub fn all_paths(
    graph: &Graph,
    from: NodeId,
    to: NodeId,
) -> impl Iterator<Item = PathPosition> + '_ {
    let mut on_path = OnPath::new(graph.node_count());
    all_solutions(
        PathPosition::start(from),
        |path| graph.successors(path),
        move |path| path.newest() == to,
        move |path| on_path.loses(path),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(text: &str) -> Graph {
        Graph::parse("test", text.as_bytes()).expect("test graph parses")
    }

    #[test]
    fn edges_of_a_node_on_several_lines_accumulate_once_each() {
        let graph = graph("A B\nB C\nA C B # again\n");
        let a = graph.node("A").unwrap();
        let out: Vec<&str> = graph.edges_from(a).iter().map(|&n| graph.name(n)).collect();
        assert_eq!(out, ["B", "C"]);
    }

    #[test]
    fn a_path_from_a_node_to_itself_is_the_node_alone() {
        let graph = graph("A B\nB A\n");
        let a = graph.node("A").unwrap();
        assert_eq!(graph.format_path(&first_path(&graph, a, a).unwrap()), "A");
    }

    #[test]
    fn cycles_are_cut_by_lose() {
        let graph = graph("A A B\nB A C\nC B D\n");
        let (a, d) = (graph.node("A").unwrap(), graph.node("D").unwrap());
        let paths: Vec<String> = all_paths(&graph, a, d)
            .map(|p| graph.format_path(&p))
            .collect();
        assert_eq!(paths, ["A B C D"]);
    }

    #[test]
    fn a_line_that_is_not_utf8_is_malformed_with_its_number() {
        let error = Graph::parse("g.txt", b"A B\n\xff B\n").unwrap_err();
        assert_eq!(error.to_string(), "g.txt:2:1: not valid UTF-8");
        let error = Graph::parse("g.txt", b"A\n\xc3\xa9t\xc3\xa9 B\xff\n").unwrap_err();
        assert_eq!(error.to_string(), "g.txt:2:6: not valid UTF-8");
    }

    #[test]
    fn a_name_with_a_control_character_is_malformed_at_its_column() {
        let error = Graph::parse("g.txt", "A B\n \u{e9} B\u{7}\n".as_bytes()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "g.txt:2:5: node name \"B\\u{7}\" contains the control character '\\u{7}'"
        );
        let long = format!("A {}\x07\n", "B".repeat(100_000));
        let message = Graph::parse("g.txt", long.as_bytes())
            .unwrap_err()
            .to_string();
        assert!(
            message.starts_with("g.txt:1:100003: node name \"BBB"),
            "{message}"
        );
        assert!(message.len() < 150, "{message}");
    }

    #[test]
    fn an_unknown_node_is_quoted_in_part() {
        let graph = graph("A B\n");
        let message = graph.node(&"Q".repeat(1000)).unwrap_err().to_string();
        assert_eq!(
            message,
            format!("test: unknown node \"{}\"…", "Q".repeat(40))
        );
    }

    #[test]
    fn a_byte_order_mark_is_not_part_of_the_first_name() {
        let graph = Graph::parse("bom", "\u{feff}A B\n".as_bytes()).expect("parses");
        assert!(graph.node("A").is_ok());
        assert_eq!(graph.node_count(), 2);
    }

    #[test]
    fn a_million_node_path_drops_without_recursion() {
        let mut path = PathPosition::start(0);
        for node in 1..1_000_000 {
            path = path.extended(node);
        }
        assert_eq!(path.len(), 1_000_000);
        let shared = path.clone();
        drop(path);
        assert_eq!(shared.newest(), 999_999);
        drop(shared);
    }

    /// Every path a search generates, with what `OnPath` and the seed's walk say of it.
    fn both_loses(graph: &Graph, from: NodeId, to: NodeId) -> (Vec<bool>, Vec<bool>, u64) {
        let mut on_path = OnPath::new(graph.node_count());
        let (mut fast, mut seed) = (Vec::new(), Vec::new());
        let mut solutions = all_solutions(
            PathPosition::start(from),
            |path| graph.successors(path),
            |path| path.newest() == to,
            |path| {
                let answer = on_path.loses(path);
                fast.push(answer);
                seed.push(path.loses());
                answer
            },
        );
        solutions.by_ref().count();
        let generated = solutions.stats().generated;
        drop(solutions);
        assert!(on_path.steps() <= 2 * generated, "{on_path:?}, {generated}");
        (fast, seed, generated)
    }

    #[test]
    fn on_path_answers_as_the_seeds_lose_on_every_path_of_random_graphs() {
        let mut random = crate::random::SplitMix64::new(11);
        for _ in 0..200 {
            let nodes = 2 + random.index(7);
            let text: String = (0..nodes)
                .map(|from| {
                    let targets: Vec<String> = (0..nodes)
                        .filter(|_| random.index(3) == 0)
                        .map(|to| to.to_string())
                        .collect();
                    format!("{from} {}\n", targets.join(" "))
                })
                .collect();
            let graph = graph(&text);
            let (from, to) = (random.index(nodes) as NodeId, random.index(nodes) as NodeId);
            let (fast, seed, generated) = both_loses(&graph, from, to);
            assert_eq!(fast, seed, "{text}");
            assert_eq!(fast.len() as u64, generated);
        }
    }

    #[test]
    fn on_path_does_linear_work_on_a_long_chain_with_no_way_out() {
        // A chain n0 → n1 → … → n99999 with an edge back to n0 at its end and no target:
        // the search goes to the end, loses there, and backs out. The seed's `lose` would
        // walk 5·10⁹ cells; the table marks and unmarks each node once.
        let n = 100_000;
        let mut text: String = (0..n - 1).map(|i| format!("n{i} n{}\n", i + 1)).collect();
        text.push_str(&format!("n{} n0\nlonely\n", n - 1));
        let graph = graph(&text);
        let (from, to) = (graph.node("n0").unwrap(), graph.node("lonely").unwrap());
        let mut on_path = OnPath::new(graph.node_count());
        let outcome = search_with_stats(
            PathPosition::start(from),
            |path| graph.successors(path),
            |path| path.newest() == to,
            |path| on_path.loses(path),
        );
        assert!(outcome.solution.is_none());
        assert_eq!(outcome.stats.generated, n as u64 + 1);
        // One node marked per question after the first (a path of one node repeats
        // nothing), none taken back: each path asked about extends the one before.
        assert_eq!(on_path.steps(), n as u64);
        assert!(format!("{on_path:?}").contains("path_length: 100000"));
        // Dropping the table, last holder of the whole chain, does not recurse.
        drop(on_path);
    }

    #[test]
    fn a_long_chain_is_searched_to_its_end() {
        let n = 5_000;
        let text: String = (0..n).map(|i| format!("n{i} n{}\n", i + 1)).collect();
        let graph = graph(&text);
        let from = graph.node("n0").unwrap();
        let to = graph.node(&format!("n{n}")).unwrap();
        let path = first_path(&graph, from, to).unwrap();
        assert_eq!(path.len(), n + 1);
    }
}
