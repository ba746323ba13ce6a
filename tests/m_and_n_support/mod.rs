//! A small explicit game tree for the m&n tests: S-expression input, Slagle's position
//! names (P, P1, P23, P2331, …), and a record of which positions the search entered and
//! valued, and with what window.

#![allow(dead_code)]

use std::cell::RefCell;

use gametree::{BackingUp, Evaluate, Game, Player, SplitMix64};

/// A position: a leaf value, or successors with a static value for a depth-limited search.
#[derive(Clone, Debug)]
pub enum Node {
    /// A terminal position and its value.
    Leaf(f64),
    /// A position with successors; `estimate` is what [`Evaluate::evaluate`] says of it.
    Inner { estimate: f64, children: Vec<Node> },
}

/// The tree as a [`Game`]: moves are 1-based successor indices; MAX moves at the root
/// unless told otherwise, and the players alternate.
pub struct Tree {
    root: Node,
    root_player: Player,
    path: Vec<usize>,
    /// Slagle's names of the positions entered by `update`, in order.
    pub entered: Vec<String>,
    /// Positions whose value or evaluation was asked, in order.
    pub valued: RefCell<Vec<String>>,
    /// Each `is_terminal` call: position name and window.
    pub windows: RefCell<Vec<(String, f64, f64)>>,
}

impl Tree {
    /// Parses `(10 (15 13) 8)`: a number is a leaf (`inf`, `-inf` allowed), a list a
    /// position with successors (its estimate is 0).
    pub fn parse(text: &str) -> Tree {
        Tree::with_root_player(text, Player::Max)
    }

    /// [`Tree::parse`] with `root_player` to move at the root.
    pub fn with_root_player(text: &str, root_player: Player) -> Tree {
        let tokens: Vec<String> = text
            .replace('(', " ( ")
            .replace(')', " ) ")
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        let mut position = 0;
        let root = parse_node(&tokens, &mut position);
        assert_eq!(position, tokens.len(), "trailing input in {text}");
        Tree::from_node(root, root_player)
    }

    /// The tree with `root` as its root.
    pub fn from_node(root: Node, root_player: Player) -> Tree {
        Tree {
            root,
            root_player,
            path: Vec::new(),
            entered: Vec::new(),
            valued: RefCell::new(Vec::new()),
            windows: RefCell::new(Vec::new()),
        }
    }

    /// Slagle's name of the current position: P followed by the successor numbers.
    pub fn name(&self) -> String {
        let mut name = String::from("P");
        for index in &self.path {
            name.push_str(&index.to_string());
        }
        name
    }

    /// Plays the moves of `path` (1-based) and forgets them from the records.
    pub fn descend(&mut self, path: &[usize]) {
        for &index in path {
            self.update(index);
        }
        self.entered.clear();
    }

    /// Whether the position `name` was entered.
    pub fn was_entered(&self, name: &str) -> bool {
        self.entered.iter().any(|entered| entered == name)
    }

    /// The window of the `is_terminal` call at `name`.
    pub fn window_at(&self, name: &str) -> (f64, f64) {
        let windows = self.windows.borrow();
        let (_, alpha, beta) = windows
            .iter()
            .find(|(at, _, _)| at == name)
            .unwrap_or_else(|| panic!("{name} was never examined"));
        (*alpha, *beta)
    }

    fn current(&self) -> &Node {
        let mut node = &self.root;
        for &index in &self.path {
            match node {
                Node::Inner { children, .. } => node = &children[index - 1],
                Node::Leaf(_) => panic!("a leaf has no successors"),
            }
        }
        node
    }
}

fn parse_node(tokens: &[String], position: &mut usize) -> Node {
    let token = &tokens[*position];
    *position += 1;
    if token == "(" {
        let mut children = Vec::new();
        while tokens[*position] != ")" {
            children.push(parse_node(tokens, position));
        }
        *position += 1;
        Node::Inner {
            estimate: 0.0,
            children,
        }
    } else {
        Node::Leaf(
            token
                .parse()
                .unwrap_or_else(|_| panic!("not a number: {token}")),
        )
    }
}

impl Game for Tree {
    type Move = usize;
    type Value = f64;

    fn to_move(&self) -> Player {
        if self.path.len().is_multiple_of(2) {
            self.root_player
        } else {
            self.root_player.opponent()
        }
    }

    fn successors(&self, moves: &mut Vec<usize>) {
        if let Node::Inner { children, .. } = self.current() {
            moves.extend(1..=children.len());
        }
    }

    fn is_terminal(&self) -> bool {
        matches!(self.current(), Node::Leaf(_))
    }

    /// Never stops early: it records the window of every position the search asks about.
    fn stops_early(&self, alpha: f64, beta: f64) -> bool {
        self.windows.borrow_mut().push((self.name(), alpha, beta));
        false
    }

    fn value(&self) -> f64 {
        self.valued.borrow_mut().push(self.name());
        match self.current() {
            Node::Leaf(value) => *value,
            Node::Inner { estimate, .. } => *estimate,
        }
    }

    fn update(&mut self, mv: usize) {
        self.path.push(mv);
        self.entered.push(self.name());
    }

    fn revert(&mut self, _mv: usize) {
        self.path.pop();
    }
}

impl Evaluate for Tree {
    fn evaluate(&self) -> f64 {
        self.value()
    }
}

/// A number in `low..=high`, drawn from `random`.
fn between(random: &mut SplitMix64, low: u64, high: u64) -> u64 {
    low + random.below(high - low + 1)
}

/// How random leaf values are drawn.
#[derive(Clone, Copy, Debug)]
pub enum Values {
    /// Integers 0..=`0`: many ties, and with integer exponents many exact boundaries.
    SmallIntegers(u64),
    /// Multiples of 1/1024 in [0, 16): near-ties that are not ties.
    Fine,
}

/// A random tree: each position has 1..=`branching` successors, `depth` plies, a position
/// above the last ply is a leaf with probability 1/8. Inner positions get an estimate too.
pub fn random_node(random: &mut SplitMix64, branching: u64, depth: u32, values: Values) -> Node {
    let draw = |random: &mut SplitMix64| match values {
        Values::SmallIntegers(high) => between(random, 0, high) as f64,
        Values::Fine => between(random, 0, 16 * 1024 - 1) as f64 / 1024.0,
    };
    if depth == 0 || between(random, 0, 7) == 0 {
        return Node::Leaf(draw(random));
    }
    let estimate = draw(random);
    let count = between(random, 1, branching);
    let children = (0..count)
        .map(|_| random_node(random, branching, depth - 1, values))
        .collect();
    Node::Inner { estimate, children }
}

/// One recorded call of a backing-up function: player, best values, depth below, result.
pub type Call = (Player, Vec<f64>, Option<u32>, f64);

/// A backing-up function that records every call: (player, best values, depth below,
/// result).
pub struct Recording<B> {
    /// The function recorded.
    pub inner: B,
    /// The calls.
    pub calls: RefCell<Vec<Call>>,
}

impl<B> Recording<B> {
    /// Records calls to `inner`.
    pub fn new(inner: B) -> Self {
        Recording {
            inner,
            calls: RefCell::new(Vec::new()),
        }
    }

    /// Whether `back_up(player, best, depth_below)` was called and returned `value`.
    pub fn was_called(
        &self,
        player: Player,
        best: &[f64],
        depth_below: Option<u32>,
        value: f64,
    ) -> bool {
        self.calls
            .borrow()
            .iter()
            .any(|(p, b, d, v)| *p == player && b == best && *d == depth_below && *v == value)
    }
}

impl<B: BackingUp> BackingUp for Recording<B> {
    fn count(&self, player: Player) -> usize {
        self.inner.count(player)
    }
    fn back_up(&self, player: Player, best: &[f64], depth_below: Option<u32>) -> f64 {
        let value = self.inner.back_up(player, best, depth_below);
        self.calls
            .borrow_mut()
            .push((player, best.to_vec(), depth_below, value));
        value
    }
    fn inverse(
        &self,
        player: Player,
        leading: &[f64],
        bound: f64,
        depth_below: Option<u32>,
    ) -> Option<f64> {
        self.inner.inverse(player, leading, bound, depth_below)
    }
    fn is_monotone(&self, player: Player, depth_below: Option<u32>) -> bool {
        self.inner.is_monotone(player, depth_below)
    }
}

/// `game` below a root where the opponent has one move, to it: the value an m&n search
/// chooses at that root is the backed-up value of `game`'s position.
pub struct BelowSingleMove<G> {
    game: G,
    /// Whether the single move has been made.
    moved: bool,
    /// Moves made in `game` since.
    plies: usize,
}

impl<G> BelowSingleMove<G> {
    /// `game`'s position as the only successor of a new root.
    pub fn new(game: G) -> Self {
        BelowSingleMove {
            game,
            moved: false,
            plies: 0,
        }
    }
}

impl<G: Game<Move = usize>> Game for BelowSingleMove<G> {
    type Move = usize;
    type Value = G::Value;
    fn to_move(&self) -> Player {
        if self.moved {
            self.game.to_move()
        } else {
            self.game.to_move().opponent()
        }
    }
    fn successors(&self, moves: &mut Vec<usize>) {
        if self.moved {
            self.game.successors(moves);
        } else {
            moves.push(1);
        }
    }
    fn is_terminal(&self) -> bool {
        self.moved && self.game.is_terminal()
    }

    fn stops_early(&self, alpha: G::Value, beta: G::Value) -> bool {
        self.moved && self.game.stops_early(alpha, beta)
    }
    fn value(&self) -> G::Value {
        self.game.value()
    }
    fn update(&mut self, mv: usize) {
        if self.moved {
            self.game.update(mv);
            self.plies += 1;
        } else {
            self.moved = true;
        }
    }
    fn revert(&mut self, mv: usize) {
        if self.plies > 0 {
            self.game.revert(mv);
            self.plies -= 1;
        } else {
            self.moved = false;
        }
    }
}
