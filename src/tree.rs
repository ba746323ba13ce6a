//! Explicit game trees read from S-expressions, for teaching and testing: the move trees of
//! seed 000 ("Game trees", the figure of a move tree) written out leaf by leaf.
//!
//! A tree is an S-expression: a leaf is a decimal number (`3`, `-2`, `0.5`), an internal
//! node is `(child child ...)` with at least one child. The root is MAX's position and the
//! levels alternate; the children of a node are the moves `1..=k` from the left. So
//! `((3 5) (2 9))` is a position where MAX chooses between two positions in which MIN
//! chooses a leaf; its minimax value is 3.
//!
//! Trees live in an arena (one vector of nodes, children as index ranges), and parsing,
//! printing, searching and dropping never recurse on the tree: a tree 100,000 levels deep
//! is as safe as a small one.

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

use crate::game::{Game, Player};
use crate::random::SplitMix64;
use crate::text::excerpt;

/// The index of a node in an [`ExplicitTree`]'s arena.
type NodeId = usize;

/// A node of the arena: a leaf has no children and a value; an internal node has
/// `children[first..first + count]` and no value of its own.
#[derive(Clone, Debug)]
struct Node {
    /// The leaf's value; NaN for an internal node, whose value only a search can tell.
    value: f64,
    /// Where the node's children start in [`ExplicitTree::children`].
    first: usize,
    /// How many children the node has; 0 for a leaf.
    count: usize,
}

/// An explicit game tree, and a position in it: the [`Game`] the searches walk.
///
/// Moves are 1-based child indices (`1` is the leftmost child) and values are `f64`. The
/// position starts at the root; [`Game::update`] goes down to a child and
/// [`Game::revert`] back up, without allocating once the path has grown to the depth
/// of the search. A position is terminal exactly when it is a leaf (the window is ignored,
/// so alpha-beta on an explicit tree returns the minimax value clamped to the window).
///
/// # Example
/// ```
/// use gametree::{ExplicitTree, Window, alphabeta_value, minimax};
///
/// let mut tree: ExplicitTree = "((3 5) (2 9))".parse()?;
/// let best = minimax(&mut tree);
/// assert_eq!(best.value, 3.0);
/// assert_eq!(best.best_move, Some(1));
/// assert_eq!(alphabeta_value(&mut tree, Window::new(4.0, 10.0)).value, 4.0);
/// assert_eq!(tree.to_string(), "((3 5) (2 9))");
/// # Ok::<(), gametree::ParseTreeError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ExplicitTree {
    /// Every node; children of a node are listed in `children`.
    nodes: Vec<Node>,
    /// Node ids, each node's children in one contiguous range, leftmost first.
    children: Vec<NodeId>,
    /// The root's id.
    root: NodeId,
    /// The nodes from just below the root down to the current position.
    path: Vec<NodeId>,
}

impl ExplicitTree {
    /// Reads a tree from its S-expression. Same as `text.parse()`.
    ///
    /// Whitespace separates leaves; a `;` starts a comment that runs to the end of the
    /// line. A leaf is an optional sign, digits, and an optional fractional part
    /// (`-3`, `2.5`, `.5`); exponents, `inf` and `NaN` are not values.
    ///
    /// # Errors
    /// A [`ParseTreeError`] naming the line and column (both 1-based, columns counted in
    /// characters) of the first problem: empty input, a `)` without its `(`, a `(` never
    /// closed, an empty list `()`, something that is not a decimal number, or anything
    /// after the tree.
    pub fn parse(text: &str) -> Result<Self, ParseTreeError> {
        Parser::default().parse(text)
    }

    /// A random tree, the same for the same `config` and `seed`: for tests and benches.
    ///
    /// Every internal node has a number of children drawn from `config.branching`. A node
    /// at ply `d` (the root is ply 0) is internal while `d` is below the least depth of
    /// `config.depth`, a leaf at its greatest depth, and in between a leaf with
    /// probability one half. Leaf values are integers drawn from `config.values`, so ties
    /// are common, as in real games.
    ///
    /// The tree can hold up to `b^d` leaves for greatest branching `b` and depth `d`.
    ///
    /// # Panics
    /// When a range is empty or the least branching is 0 (an internal node needs a child).
    #[must_use]
    pub fn random(config: &RandomTreeConfig, seed: u64) -> Self {
        let (least_branching, most_branching) =
            (*config.branching.start(), *config.branching.end());
        let (least_depth, most_depth) = (*config.depth.start(), *config.depth.end());
        let (least_value, most_value) = (*config.values.start(), *config.values.end());
        assert!(
            least_branching >= 1 && least_branching <= most_branching,
            "branching must be a non-empty range of at least 1"
        );
        assert!(least_depth <= most_depth, "depth must be a non-empty range");
        assert!(
            least_value <= most_value,
            "values must be a non-empty range"
        );
        // Draws are reduced modulo the range (a negligible bias for these small ranges), as
        // they always have been: a seed keeps making the tree it made before.
        let mut random = SplitMix64::new(seed);
        let mut nodes = vec![Node {
            value: f64::NAN,
            first: 0,
            count: 0,
        }];
        let mut plies = vec![0usize];
        let mut children = Vec::new();
        // Nodes are made breadth first; `next` is the first node not yet given children.
        let mut next = 0;
        while next < nodes.len() {
            let ply = plies[next];
            let is_leaf =
                ply >= most_depth || (ply >= least_depth && random.next_u64().is_multiple_of(2));
            if is_leaf {
                let span = (i64::from(most_value) - i64::from(least_value) + 1) as u64;
                let value = i64::from(least_value) + (random.next_u64() % span) as i64;
                nodes[next].value = value as f64;
            } else {
                let span = (most_branching - least_branching + 1) as u64;
                let count = least_branching + (random.next_u64() % span) as usize;
                nodes[next].first = children.len();
                nodes[next].count = count;
                for _ in 0..count {
                    children.push(nodes.len());
                    nodes.push(Node {
                        value: f64::NAN,
                        first: 0,
                        count: 0,
                    });
                    plies.push(ply + 1);
                }
            }
            next += 1;
        }
        ExplicitTree {
            nodes,
            children,
            root: 0,
            path: Vec::new(),
        }
    }

    /// How many nodes (leaves and internal nodes) the tree has.
    #[must_use]
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// How many leaves the tree has.
    #[must_use]
    pub fn leaf_count(&self) -> usize {
        self.nodes.iter().filter(|node| node.count == 0).count()
    }

    /// The greatest ply of a leaf: 0 for a tree that is a single leaf.
    #[must_use]
    pub fn depth(&self) -> usize {
        let mut deepest = 0;
        let mut pending = vec![(self.root, 0)];
        while let Some((id, ply)) = pending.pop() {
            deepest = deepest.max(ply);
            let node = &self.nodes[id];
            pending.extend(
                self.children[node.first..node.first + node.count]
                    .iter()
                    .map(|&child| (child, ply + 1)),
            );
        }
        deepest
    }

    /// Whether the root is a leaf: a game that is over before it starts.
    #[must_use]
    pub fn root_is_leaf(&self) -> bool {
        self.nodes[self.root].count == 0
    }

    /// The moves from the root to the current position.
    #[must_use]
    pub fn moves_from_root(&self) -> Vec<usize> {
        let mut parent = self.root;
        self.path
            .iter()
            .map(|&id| {
                let node = &self.nodes[parent];
                parent = id;
                let offset = self.children[node.first..node.first + node.count]
                    .iter()
                    .position(|&child| child == id)
                    .expect("invariant: the path goes from each node to one of its children");
                offset + 1
            })
            .collect()
    }

    /// Goes back to the root.
    pub fn reset(&mut self) {
        self.path.clear();
    }

    fn current(&self) -> &Node {
        &self.nodes[self.path.last().copied().unwrap_or(self.root)]
    }
}

impl FromStr for ExplicitTree {
    type Err = ParseTreeError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        ExplicitTree::parse(text)
    }
}

impl Game for ExplicitTree {
    /// The 1-based index of a child, leftmost first.
    type Move = usize;
    type Value = f64;

    /// MAX at the root and at every even ply.
    fn to_move(&self) -> Player {
        if self.path.len().is_multiple_of(2) {
            Player::Max
        } else {
            Player::Min
        }
    }

    /// The children `1..=k`, leftmost first; none at a leaf.
    fn successors(&self, moves: &mut Vec<usize>) {
        moves.extend(1..=self.current().count);
    }

    /// A leaf, whatever the window.
    fn is_terminal(&self) -> bool {
        self.current().count == 0
    }

    /// The leaf's number; NaN at an internal node, which the searches never ask.
    fn value(&self) -> f64 {
        self.current().value
    }

    /// Goes down to child `mv` (1-based).
    ///
    /// # Panics
    /// When the current node has no child `mv`: moves come from [`Game::successors`].
    fn update(&mut self, mv: usize) {
        let node = self.current();
        assert!(
            (1..=node.count).contains(&mv),
            "move {mv} is not a child of a node with {} children",
            node.count
        );
        let child = self.children[node.first + mv - 1];
        self.path.push(child);
    }

    /// Goes back up to the parent.
    fn revert(&mut self, _mv: usize) {
        self.path.pop();
    }
}

impl crate::search::transposition::PositionKey for ExplicitTree {
    /// The current node's index: exact, since every node of a tree is one position.
    fn hash_key(&self) -> u64 {
        self.path.last().copied().unwrap_or(self.root) as u64
    }
}

impl fmt::Display for ExplicitTree {
    /// The S-expression the tree was read from, with single spaces and numbers in their
    /// shortest form (`3`, not `3.0`). Iterative, so any depth prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // (node, how many of its children are written)
        let mut pending: Vec<(NodeId, usize)> = vec![(self.root, 0)];
        while let Some((id, written)) = pending.pop() {
            let node = &self.nodes[id];
            if node.count == 0 {
                write!(f, "{}", node.value)?;
            } else if written == node.count {
                f.write_str(")")?;
            } else {
                f.write_str(if written == 0 { "(" } else { " " })?;
                pending.push((id, written + 1));
                pending.push((self.children[node.first + written], 0));
            }
        }
        Ok(())
    }
}

/// The shape of a tree made by [`ExplicitTree::random`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomTreeConfig {
    /// How many children an internal node has (at least 1).
    pub branching: RangeInclusive<usize>,
    /// At which plies leaves lie (the root is ply 0).
    pub depth: RangeInclusive<usize>,
    /// The leaf values, integers.
    pub values: RangeInclusive<i32>,
}

impl Default for RandomTreeConfig {
    /// Branching 1 to 4, leaves at plies 1 to 6, values −9 to 9: at most 4,096 leaves.
    fn default() -> Self {
        RandomTreeConfig {
            branching: 1..=4,
            depth: 1..=6,
            values: -9..=9,
        }
    }
}

/// Why a tree's text could not be read, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseTreeError {
    /// The line of the problem, from 1.
    pub line: usize,
    /// The column of the problem in characters, from 1.
    pub column: usize,
    /// What the problem is.
    pub kind: ParseTreeErrorKind,
}

/// What is wrong with a tree's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseTreeErrorKind {
    /// No tree at all: only whitespace and comments.
    EmptyInput,
    /// A `)` with no `(` to close.
    UnexpectedClose,
    /// A `(` never closed; the error points at it.
    Unclosed,
    /// `()`: an internal node needs at least one child.
    EmptyList,
    /// A leaf that is not a finite decimal number: the token as written (the message
    /// quotes only its beginning).
    BadNumber(String),
    /// Something after the tree ended.
    TrailingInput,
}

impl fmt::Display for ParseTreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: ", self.line, self.column)?;
        match &self.kind {
            ParseTreeErrorKind::EmptyInput => f.write_str("no tree: the input is empty"),
            ParseTreeErrorKind::UnexpectedClose => f.write_str("unbalanced `)`: nothing to close"),
            ParseTreeErrorKind::Unclosed => f.write_str("unbalanced `(`: never closed"),
            ParseTreeErrorKind::EmptyList => {
                f.write_str("empty list `()`: an internal node needs at least one child")
            }
            ParseTreeErrorKind::BadNumber(token) => write!(
                f,
                "bad number {}: a leaf is a decimal number such as 3, -2 or 0.5",
                excerpt(token)
            ),
            ParseTreeErrorKind::TrailingInput => f.write_str("unexpected text after the tree"),
        }
    }
}

impl std::error::Error for ParseTreeError {}

/// The iterative reader behind [`ExplicitTree::parse`].
#[derive(Default)]
struct Parser {
    nodes: Vec<Node>,
    children: Vec<NodeId>,
    /// The finished children of every open list, innermost list last.
    pending: Vec<NodeId>,
    /// For each open list: where its children start in `pending`, and where its `(` is.
    open: Vec<(usize, usize, usize)>,
    root: Option<NodeId>,
}

impl Parser {
    fn parse(mut self, text: &str) -> Result<ExplicitTree, ParseTreeError> {
        let error = |line, column, kind| ParseTreeError { line, column, kind };
        let mut chars = text.chars().peekable();
        let (mut line, mut column) = (1, 1);
        while let Some(c) = chars.next() {
            let (at_line, at_column) = (line, column);
            if c == '\n' {
                line += 1;
                column = 1;
                continue;
            }
            column += 1;
            if c.is_whitespace() {
                continue;
            }
            if c == ';' {
                while chars.next_if(|&next| next != '\n').is_some() {}
                continue;
            }
            // A `)` after the tree is an unbalanced one; anything else is trailing text.
            if self.root.is_some() && c != ')' {
                return Err(error(at_line, at_column, ParseTreeErrorKind::TrailingInput));
            }
            match c {
                '(' => self.open.push((self.pending.len(), at_line, at_column)),
                ')' => {
                    let Some((start, open_line, open_column)) = self.open.pop() else {
                        return Err(error(
                            at_line,
                            at_column,
                            ParseTreeErrorKind::UnexpectedClose,
                        ));
                    };
                    if start == self.pending.len() {
                        return Err(error(open_line, open_column, ParseTreeErrorKind::EmptyList));
                    }
                    let first = self.children.len();
                    self.children.extend(self.pending.drain(start..));
                    let count = self.children.len() - first;
                    self.finish(Node {
                        value: f64::NAN,
                        first,
                        count,
                    });
                }
                _ => {
                    let mut token = String::from(c);
                    while let Some(next) = chars.next_if(|&next| {
                        !(next.is_whitespace() || next == '(' || next == ')' || next == ';')
                    }) {
                        token.push(next);
                        column += 1;
                    }
                    let Some(value) = decimal(&token) else {
                        return Err(error(
                            at_line,
                            at_column,
                            ParseTreeErrorKind::BadNumber(token),
                        ));
                    };
                    self.finish(Node {
                        value,
                        first: 0,
                        count: 0,
                    });
                }
            }
        }
        if let Some(&(_, open_line, open_column)) = self.open.last() {
            return Err(error(open_line, open_column, ParseTreeErrorKind::Unclosed));
        }
        let Some(root) = self.root else {
            return Err(error(line, column, ParseTreeErrorKind::EmptyInput));
        };
        Ok(ExplicitTree {
            nodes: self.nodes,
            children: self.children,
            root,
            path: Vec::new(),
        })
    }

    /// Adds a finished node: a child of the innermost open list, or the root.
    fn finish(&mut self, node: Node) {
        let id = self.nodes.len();
        self.nodes.push(node);
        if self.open.is_empty() {
            self.root = Some(id);
        } else {
            self.pending.push(id);
        }
    }
}

/// A finite decimal number: an optional sign, digits, an optional fractional part, and at
/// least one digit in all.
fn decimal(token: &str) -> Option<f64> {
    let unsigned = token.strip_prefix(['-', '+']).unwrap_or(token);
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let all_digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if whole.len() + fraction.len() == 0 || !all_digits(whole) || !all_digits(fraction) {
        return None;
    }
    token.parse::<f64>().ok().filter(|value| value.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Window;
    use crate::{alphabeta_line, alphabeta_proof, alphabeta_value, minimax};

    fn parse_error(text: &str) -> ParseTreeError {
        ExplicitTree::parse(text).expect_err("malformed")
    }

    #[test]
    fn the_issue_example_parses_prints_and_searches() {
        let mut tree = ExplicitTree::parse("((3 5)\n (2 9))").expect("well formed");
        assert_eq!(tree.to_string(), "((3 5) (2 9))");
        assert_eq!(tree.node_count(), 7);
        assert_eq!(tree.leaf_count(), 4);
        assert_eq!(tree.depth(), 2);
        let best = minimax(&mut tree);
        assert_eq!((best.value, best.best_move), (3.0, Some(1)));
        assert_eq!(best.stats.leaves, 4);
    }

    #[test]
    fn leaves_may_be_negative_fractional_or_signed() {
        let tree = ExplicitTree::parse("(-3 +2 0.5 .25 7. -0)").expect("well formed");
        assert_eq!(tree.to_string(), "(-3 2 0.5 0.25 7 -0)");
    }

    #[test]
    fn a_single_leaf_is_a_tree_whose_root_is_terminal() {
        let mut tree = ExplicitTree::parse("  42 ; the answer\n").expect("well formed");
        assert!(tree.root_is_leaf());
        assert!(tree.is_terminal());
        assert_eq!(tree.value(), 42.0);
        assert_eq!(minimax(&mut tree).best_move, None);
    }

    #[test]
    fn comments_run_to_the_end_of_the_line() {
        let tree = ExplicitTree::parse("(1 ; first ) not closed here\n 2)").expect("well formed");
        assert_eq!(tree.to_string(), "(1 2)");
    }

    #[test]
    fn malformed_trees_are_reported_with_line_and_column() {
        let cases = [
            ("", 1, 1, ParseTreeErrorKind::EmptyInput),
            ("  \n ; nothing\n", 3, 1, ParseTreeErrorKind::EmptyInput),
            ("(1 2))", 1, 6, ParseTreeErrorKind::UnexpectedClose),
            (")", 1, 1, ParseTreeErrorKind::UnexpectedClose),
            ("((1 2)\n (3 4)", 1, 1, ParseTreeErrorKind::Unclosed),
            ("(1 (2 (3)", 1, 4, ParseTreeErrorKind::Unclosed),
            ("(1\n  ())", 2, 3, ParseTreeErrorKind::EmptyList),
            ("(1 x2)", 1, 4, ParseTreeErrorKind::BadNumber("x2".into())),
            ("(1 1e3)", 1, 4, ParseTreeErrorKind::BadNumber("1e3".into())),
            ("(inf)", 1, 2, ParseTreeErrorKind::BadNumber("inf".into())),
            ("(- 1)", 1, 2, ParseTreeErrorKind::BadNumber("-".into())),
            (
                "(1.2.3)",
                1,
                2,
                ParseTreeErrorKind::BadNumber("1.2.3".into()),
            ),
            ("(1) 2", 1, 5, ParseTreeErrorKind::TrailingInput),
            ("3 4", 1, 3, ParseTreeErrorKind::TrailingInput),
            ("(é 1)", 1, 2, ParseTreeErrorKind::BadNumber("é".into())),
            ("(é x)", 1, 2, ParseTreeErrorKind::BadNumber("é".into())),
        ];
        for (text, line, column, kind) in cases {
            assert_eq!(
                parse_error(text),
                ParseTreeError { line, column, kind },
                "for {text:?}"
            );
        }
        assert_eq!(
            parse_error("(1\n  ())").to_string(),
            "line 2, column 3: empty list `()`: an internal node needs at least one child"
        );
    }

    #[test]
    fn a_number_too_large_for_f64_is_a_bad_number_quoted_only_in_part() {
        let text = format!("(1 {})", "9".repeat(400));
        let error = parse_error(&text);
        assert!(matches!(error.kind, ParseTreeErrorKind::BadNumber(_)));
        assert_eq!(
            error.to_string(),
            format!(
                "line 1, column 4: bad number \"{}\"…: a leaf is a decimal number such as 3, -2 or 0.5",
                "9".repeat(40)
            )
        );
    }

    #[test]
    fn moves_go_down_to_children_and_back() {
        let mut tree = ExplicitTree::parse("((3 5) (2 (9 8)))").expect("well formed");
        let mut moves = Vec::new();
        tree.successors(&mut moves);
        assert_eq!(moves, vec![1, 2]);
        assert_eq!(tree.to_move(), Player::Max);
        tree.update(2);
        tree.update(2);
        assert_eq!(tree.to_move(), Player::Max);
        assert_eq!(tree.moves_from_root(), vec![2, 2]);
        tree.update(1);
        assert_eq!(tree.to_move(), Player::Min);
        assert!(tree.is_terminal());
        assert_eq!(tree.value(), 9.0);
        tree.revert(1);
        tree.revert(2);
        tree.revert(2);
        assert_eq!(tree.moves_from_root(), Vec::<usize>::new());
    }

    #[test]
    fn random_trees_are_reproducible_and_respect_their_shape() {
        let config = RandomTreeConfig {
            branching: 2..=3,
            depth: 2..=4,
            values: -5..=5,
        };
        let tree = ExplicitTree::random(&config, 7);
        let text = tree.to_string();
        assert_eq!(text, ExplicitTree::random(&config, 7).to_string());
        assert_ne!(text, ExplicitTree::random(&config, 8).to_string());
        assert!((2..=4).contains(&tree.depth()));
        let reread = ExplicitTree::parse(&tree.to_string()).expect("prints as it parses");
        assert_eq!(reread.to_string(), tree.to_string());
        for node in &tree.nodes {
            if node.count == 0 {
                assert!((-5.0..=5.0).contains(&node.value));
            } else {
                assert!((2..=3).contains(&node.count));
            }
        }
    }

    /// A tree 100,000 levels deep: `(0 (1 (2 ... (99999) ...)))` with levels alternating a
    /// leaf and a deeper list.
    pub(crate) fn deep_tree_text(levels: usize) -> String {
        let mut text = String::new();
        for level in 0..levels - 1 {
            text.push('(');
            text.push_str(&(level % 7).to_string());
            text.push(' ');
        }
        text.push_str("(5)");
        text.push_str(&")".repeat(levels - 1));
        text
    }

    #[test]
    fn a_tree_100_000_levels_deep_parses_prints_searches_and_drops() {
        let text = deep_tree_text(100_000);
        let mut tree = ExplicitTree::parse(&text).expect("well formed");
        assert_eq!(tree.depth(), 100_000);
        assert_eq!(tree.to_string(), text);
        let value = minimax(&mut tree).value;
        assert_eq!(alphabeta_value(&mut tree, Window::full()).value, value);
        let line = alphabeta_line(&mut tree, Window::full());
        assert_eq!(line.value, value);
        let proof = alphabeta_proof(&mut tree, Window::full());
        assert_eq!(proof.value, value);
        drop(proof);
        drop(tree);
    }
}
