//! The search tree of MCTS in an arena: one vector of nodes, each node's children in one
//! contiguous run, so a playout allocates nothing beyond the nodes it adds, and moving the
//! root down a move (tree reuse) copies the kept subtree into a second, reused vector.

use crate::game::Player;

/// The index of the root in the arena.
pub(super) const ROOT: u32 = 0;
/// `first_child` of a node whose children were never generated.
pub(super) const UNEXPANDED: u32 = u32::MAX;

/// What is proven of a position: the game-theoretic result for the player who moved into
/// it (MCTS-Solver, Winands, Björnsson and Saito 2008, extended to draws).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Proven {
    /// The player who played the move loses against best play.
    Loss,
    /// Best play draws.
    Draw,
    /// The player who played the move wins against best play.
    Win,
}

impl Proven {
    /// The same result seen by the other player.
    #[must_use]
    pub fn flipped(self) -> Proven {
        match self {
            Proven::Loss => Proven::Win,
            Proven::Draw => Proven::Draw,
            Proven::Win => Proven::Loss,
        }
    }

    /// The reward of this result to the player it is for.
    #[must_use]
    pub fn reward(self) -> f64 {
        match self {
            Proven::Loss => 0.0,
            Proven::Draw => 0.5,
            Proven::Win => 1.0,
        }
    }

    /// The result, for `player`, of a reward to `player` that is exactly 0, ½ or 1.
    pub(super) fn of_reward(reward: f64) -> Option<Proven> {
        if reward == 1.0 {
            Some(Proven::Win)
        } else if reward == 0.0 {
            Some(Proven::Loss)
        } else if reward == 0.5 {
            Some(Proven::Draw)
        } else {
            None
        }
    }
}

/// A position in the tree, reached by `mv` from its parent.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node<M> {
    /// The move from the parent (`None` at the root).
    pub(super) mv: Option<M>,
    /// The player who played `mv`: rewards here are theirs.
    pub(super) mover: Player,
    /// What is proven of the position for `mover`, if anything.
    pub(super) proven: Option<Proven>,
    /// The first child's index, or [`UNEXPANDED`].
    pub(super) first_child: u32,
    /// How many children (0 also for a terminal position or one without moves).
    pub(super) child_count: u32,
    /// Playouts through this position.
    pub(super) visits: u32,
    /// The sum of their rewards to `mover`.
    pub(super) reward: f64,
}

impl<M> Node<M> {
    pub(super) fn new(mv: Option<M>, mover: Player) -> Self {
        Node {
            mv,
            mover,
            proven: None,
            first_child: UNEXPANDED,
            child_count: 0,
            visits: 0,
            reward: 0.0,
        }
    }

    pub(super) fn is_expanded(&self) -> bool {
        self.first_child != UNEXPANDED
    }

    /// The children's indices.
    pub(super) fn children(&self) -> std::ops::Range<u32> {
        if self.is_expanded() {
            self.first_child..self.first_child + self.child_count
        } else {
            0..0
        }
    }

    /// The mean reward to `mover`; ½ before any visit.
    pub(super) fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            self.reward / f64::from(self.visits)
        }
    }
}

/// The nodes, the root at index [`ROOT`], and a spare vector for re-rooting.
#[derive(Clone, Debug)]
pub(super) struct Arena<M> {
    pub(super) nodes: Vec<Node<M>>,
    spare: Vec<Node<M>>,
    /// Pairs (new index, old index) still to copy while re-rooting.
    queue: Vec<(u32, u32)>,
}

impl<M: Copy + Eq> Arena<M> {
    pub(super) fn new() -> Self {
        Arena {
            nodes: Vec::new(),
            spare: Vec::new(),
            queue: Vec::new(),
        }
    }

    /// Starts over with a lone root whose player to move is `to_move`.
    pub(super) fn reset(&mut self, to_move: Player) {
        self.nodes.clear();
        self.nodes.push(Node::new(None, to_move));
    }

    pub(super) fn node(&self, index: u32) -> &Node<M> {
        &self.nodes[index as usize]
    }

    pub(super) fn node_mut(&mut self, index: u32) -> &mut Node<M> {
        &mut self.nodes[index as usize]
    }

    /// Makes the child of the root reached by `mv` the new root, keeping its subtree and
    /// dropping the rest. Returns whether the tree had that child (otherwise it is emptied).
    pub(super) fn reroot(&mut self, mv: M) -> bool {
        let Some(root) = self.nodes.first() else {
            return false;
        };
        let Some(child) = root
            .children()
            .find(|&child| self.nodes[child as usize].mv == Some(mv))
        else {
            self.nodes.clear();
            return false;
        };
        self.spare.clear();
        self.queue.clear();
        let mut new_root = self.nodes[child as usize];
        new_root.mv = None;
        self.spare.push(new_root);
        self.queue.push((ROOT, child));
        let mut head = 0;
        while let Some(&(new_index, old_index)) = self.queue.get(head) {
            head += 1;
            let old = self.nodes[old_index as usize];
            if !old.is_expanded() {
                continue;
            }
            let first = u32::try_from(self.spare.len()).expect("invariant: node counts fit u32");
            self.spare[new_index as usize].first_child = first;
            for offset in 0..old.child_count {
                self.spare
                    .push(self.nodes[(old.first_child + offset) as usize]);
                self.queue.push((first + offset, old.first_child + offset));
            }
        }
        std::mem::swap(&mut self.nodes, &mut self.spare);
        self.spare.clear();
        true
    }
}
