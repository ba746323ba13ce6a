//! The control programs: game-independent searches over closures and over [`crate::Game`].
//!
//! Every search here reports [`SearchStats`]; alpha-beta searches take a [`Window`] and say
//! with a [`Bound`] how the value they return relates to the true value.

pub mod alphabeta;
pub mod builder;
pub mod choose_move;
pub mod clock;
pub mod deepening;
pub mod float_valued;
pub mod hidden_board;
pub(crate) mod history;
pub mod killer;
pub mod m_and_n;
pub mod mcts;
pub mod minimax;
pub mod observe;
pub(crate) mod prefetch;
pub mod proof_number;
pub mod puzzle;
pub mod retrograde;
pub mod shared_table;
pub mod solve_progress;
pub mod solver;
pub mod transposition;

use std::time::Duration;

use crate::game::Value;

/// What a search did: the figures every search reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Positions visited, the root included.
    pub nodes: u64,
    /// Positions valued by the game (`imval` at a terminal position, or an evaluation at
    /// a horizon).
    pub leaves: u64,
    /// Times a search stopped examining the successors of a position because the window
    /// made the rest pointless (an alpha or beta cutoff).
    pub cutoffs: u64,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
}

impl SearchStats {
    /// Adds the counts of `more` (positions, leaves, cutoffs) to these; the time is
    /// measured once, for the whole.
    pub(crate) fn add_counts(&mut self, more: &SearchStats) {
        self.nodes += more.nodes;
        self.leaves += more.leaves;
        self.cutoffs += more.cutoffs;
    }
}

/// Plies searched past a depth limit from positions that are not quiet (quiescence, see
/// [`crate::SearchOptions::quiescence_plies`]): at most `plies` on any path, `used` on the
/// path to the current position. Shared by the depth-limited alpha-beta and m&n searches.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Quiescence {
    plies: u32,
    used: u32,
}

impl Quiescence {
    pub(crate) fn new(plies: u32) -> Self {
        Quiescence { plies, used: 0 }
    }

    /// Whether a position at the depth limit may be searched on.
    pub(crate) fn may_extend(&self) -> bool {
        self.used < self.plies
    }

    /// Whether the search is at the depth limit itself, not past it.
    pub(crate) fn at_horizon(&self) -> bool {
        self.used == 0
    }

    /// Counts the ply into a successor of a position, one past the limit when the position
    /// is at it (`at_limit`); returns what [`Quiescence::leave`] takes back after the
    /// successor's search.
    pub(crate) fn enter(&mut self, at_limit: bool) -> u32 {
        let past = u32::from(at_limit);
        self.used += past;
        past
    }

    pub(crate) fn leave(&mut self, past: u32) {
        self.used -= past;
    }
}

/// An anonymous memory map of `bytes` bytes (at least one: an empty map is refused),
/// zeroed, which on Linux asks for transparent huge pages: random reads over a large
/// table then miss the address translation buffers far less. The system gives the memory
/// page by page as it is first written.
pub(crate) fn huge_page_map(bytes: usize) -> std::io::Result<memmap2::MmapMut> {
    let map = memmap2::MmapMut::map_anon(bytes.max(1))?;
    #[cfg(target_os = "linux")]
    {
        // Only a hint: a kernel without transparent huge pages keeps small ones.
        let _ = map.advise(memmap2::Advice::HugePage);
    }
    Ok(map)
}

/// The window (α, β) of an alpha-beta search: values at or below `alpha` are as bad as
/// `alpha` for MAX, values at or above `beta` as good as `beta`.
///
/// McCarthy: "`alpha` is the maximum value that can be guaranteed the maximizing player
/// based on the search so far, and `beta` is the least value that can be guaranteed the
/// minimizing player".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window<V> {
    /// α: MAX is already sure of this much.
    pub alpha: V,
    /// β: MIN is already sure of this much.
    pub beta: V,
}

impl<V: Value> Window<V> {
    /// The window (α, β).
    pub fn new(alpha: V, beta: V) -> Self {
        Window { alpha, beta }
    }

    /// The window (−∞, ∞), with the value type's [`Value::MIN`] and [`Value::MAX`] as the
    /// seed's infinities: alpha-beta in it returns the minimax value.
    pub fn full() -> Self {
        Window {
            alpha: V::MIN,
            beta: V::MAX,
        }
    }

    /// How a fail-hard value returned for this window relates to the true value.
    pub fn bound_of(&self, value: V) -> Bound {
        if value <= self.alpha {
            Bound::Upper
        } else if value >= self.beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }

    /// `value` clamped to the window: what McCarthy's `valmax` returns for a position of
    /// minimax value `value` ("if vmax\[p\] ≤ alpha then alpha ...").
    pub fn clamp(&self, value: V) -> V {
        if value <= self.alpha {
            self.alpha
        } else if value >= self.beta {
            self.beta
        } else {
            value
        }
    }
}

impl<V: Value> Default for Window<V> {
    fn default() -> Self {
        Window::full()
    }
}

/// How a value returned by a fail-hard alpha-beta search relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Strictly inside the window: the value is exact.
    Exact,
    /// At or below α (fail low): the true value is at most α.
    Upper,
    /// At or above β (fail high): the true value is at least β.
    Lower,
}

/// A pool of move buffers, so generating successors allocates nothing once the pool has
/// grown to the depth of the search.
#[derive(Debug)]
pub(crate) struct MoveBuffers<M> {
    free: Vec<Vec<M>>,
}

impl<M> MoveBuffers<M> {
    pub(crate) fn new() -> Self {
        MoveBuffers { free: Vec::new() }
    }

    /// An empty buffer, reused if one is free.
    pub(crate) fn take(&mut self) -> Vec<M> {
        let mut buffer = self.free.pop().unwrap_or_default();
        buffer.clear();
        buffer
    }

    /// Returns a buffer to the pool.
    pub(crate) fn give_back(&mut self, buffer: Vec<M>) {
        self.free.push(buffer);
    }
}

/// Room left on the stack before a recursive search grows it: deep trees (depth is
/// user-controlled for explicit trees) must not overflow the stack.
pub(crate) const STACK_RED_ZONE: usize = 64 * 1024;
/// Size of each stack segment a deep search adds.
pub(crate) const STACK_GROWTH: usize = 4 * 1024 * 1024;

/// Runs `f` with enough stack for one more level of a recursive search.
#[inline]
pub(crate) fn with_stack<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(STACK_RED_ZONE, STACK_GROWTH, f)
}

#[cfg(test)]
pub(crate) mod test_tree {
    //! A tiny explicit game tree for the unit tests of the search modules.
    use crate::game::{Game, Player};

    /// A node: a leaf value or children; the root is MAX and levels alternate.
    #[derive(Clone, Debug)]
    pub enum Node {
        Leaf(i32),
        Inner(Vec<Node>),
    }

    /// Walks a [`Node`] tree; moves are 1-based child indices.
    #[derive(Clone)]
    pub struct TreeGame {
        pub root: Node,
        pub path: Vec<usize>,
    }

    impl TreeGame {
        fn current(&self) -> &Node {
            let mut node = &self.root;
            for &index in &self.path {
                match node {
                    Node::Inner(children) => node = &children[index - 1],
                    Node::Leaf(_) => unreachable!("a leaf has no children"),
                }
            }
            node
        }
    }

    impl Game for TreeGame {
        type Move = usize;
        type Value = i32;
        fn to_move(&self) -> Player {
            if self.path.len().is_multiple_of(2) {
                Player::Max
            } else {
                Player::Min
            }
        }
        fn successors(&self, moves: &mut Vec<usize>) {
            if let Node::Inner(children) = self.current() {
                moves.extend(1..=children.len());
            }
        }
        fn is_terminal(&self) -> bool {
            matches!(self.current(), Node::Leaf(_))
        }
        fn value(&self) -> i32 {
            match self.current() {
                Node::Leaf(value) => *value,
                Node::Inner(_) => unreachable!("only leaves are valued"),
            }
        }
        fn update(&mut self, mv: usize) {
            self.path.push(mv);
        }
        fn revert(&mut self, _mv: usize) {
            self.path.pop();
        }
    }

    /// `((3 5) (2 9))`, the example of issue 3.
    pub fn small() -> TreeGame {
        use Node::{Inner, Leaf};
        TreeGame {
            root: Inner(vec![
                Inner(vec![Leaf(3), Leaf(5)]),
                Inner(vec![Leaf(2), Leaf(9)]),
            ]),
            path: Vec::new(),
        }
    }
}
