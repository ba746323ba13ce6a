//! Monte Carlo tree search: UCT (Kocsis and Szepesvári 2006, "Bandit based Monte-Carlo
//! planning"; Browne et al. 2012, "A survey of Monte Carlo tree search methods"), with
//! solved-node propagation (MCTS-Solver: Winands, Björnsson and Saito 2008).
//!
//! Each playout descends the tree by UCB1 (Auer et al. 2002), the mean reward plus
//! `exploration · √(ln N / n)`, adds the children of the first position it reaches that the
//! tree has not expanded, plays on from one of them with a [`PlayoutPolicy`] (uniformly
//! random moves by default) and backs the reward up. Rewards are kept at each node for
//! the player who *moved into it*, asked of [`Game::to_move`] at its parent: nothing
//! assumes that the players alternate, so a game where a player moves twice in a row
//! (Kalah) is searched as it is. The move chosen is the most visited.
//!
//! The tree lives in an arena (one vector of nodes, children contiguous), bounded by
//! [`MctsOptions::max_nodes`]; once full, playouts go on without adding nodes. A playout
//! allocates nothing. The same [`Mcts`] keeps its tree between moves: [`Mcts::advance`]
//! moves the root down the move played.

mod playout;
mod root_parallel;
mod tree;

use std::time::{Duration, Instant};

use crate::game::Game;
use crate::random::SplitMix64;
use crate::search::SearchStats;

pub use playout::{EvaluationCutoff, PlayoutPolicy, UniformPlayouts, reward_to_max};
pub use root_parallel::RootParallel;
pub use tree::Proven;

use playout::{reward_for, reward_without_moves};
use tree::{Arena, Node, ROOT};

/// The default bound on the tree: 4 Mi nodes (96 MiB for one-byte moves).
pub const DEFAULT_MAX_NODES: usize = 1 << 22;
/// The most nodes a tree may have, whatever the options say: node indices are `u32`.
pub const MAX_NODES_LIMIT: usize = (u32::MAX - 1) as usize;

/// The settings of a Monte Carlo tree search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsOptions {
    /// The exploration constant `c` of UCB1's `mean + c·√(ln N / n)`; √2 by default, Auer
    /// et al.'s constant for rewards in `0..=1`. 0 is greedy.
    pub exploration: f64,
    /// The seed of the random playouts: the same seed, budget in playouts and game give
    /// the same search, move for move.
    pub seed: u64,
    /// The most nodes the tree may hold (memory: about 24 bytes a node for small moves);
    /// capped at [`MAX_NODES_LIMIT`].
    pub max_nodes: usize,
    /// Whether to propagate proven results up the tree (MCTS-Solver): a position whose
    /// moves are all proven, or that has a proven win, is not sampled again, and the
    /// search stops when the root is proven.
    pub solver: bool,
}

impl Default for MctsOptions {
    fn default() -> Self {
        MctsOptions {
            exploration: std::f64::consts::SQRT_2,
            seed: 0,
            max_nodes: DEFAULT_MAX_NODES,
            solver: true,
        }
    }
}

/// How long a search goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many playouts (deterministic for a seed).
    Playouts(u64),
    /// Until this much wall-clock time has passed (checked every few playouts).
    Time(Duration),
}

/// What the search found out about one move at the root.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveStatistics<M> {
    /// The move.
    pub mv: M,
    /// Playouts that began with it, those of earlier searches kept by tree reuse included.
    pub visits: u64,
    /// Their mean reward to the player who plays it (1 a win, ½ a draw, 0 a loss).
    pub mean_reward: f64,
    /// What is proven of the move for the player who plays it, if anything.
    pub proven: Option<Proven>,
}

/// The result of [`Mcts::search`].
#[derive(Clone, Debug, PartialEq)]
pub struct MctsResult<M> {
    /// The move to play: a proven win if there is one, otherwise the most visited move
    /// (ties to the higher mean reward, then to the earlier successor) that is not a proven
    /// loss when another is not. `None` at a terminal position or one without moves.
    pub best_move: Option<M>,
    /// Every move of the root, in the order [`Game::successors`] gave them when the root
    /// was expanded.
    pub moves: Vec<MoveStatistics<M>>,
    /// Playouts this search ran.
    pub playouts: u64,
    /// Playouts through the root, those kept from earlier searches included.
    pub root_visits: u64,
    /// Nodes in the tree at the end.
    pub tree_nodes: usize,
    /// Moves played below the tree, in all playouts of this search.
    pub playout_moves: u64,
    /// `nodes`: positions entered by the playouts (the root once per playout, each tree
    /// move, each playout move); `leaves`: playouts; `elapsed`: wall-clock time.
    pub stats: SearchStats,
}

impl<M> MctsResult<M> {
    /// Playouts per second of wall-clock time.
    #[must_use]
    pub fn playouts_per_second(&self) -> f64 {
        let seconds = self.stats.elapsed.as_secs_f64();
        if seconds > 0.0 {
            self.playouts as f64 / seconds
        } else {
            0.0
        }
    }
}

/// A Monte Carlo tree search over a game `G`, playouts by `P`, keeping its tree between
/// searches.
///
/// # Example
/// ```
/// use gametree::search::mcts::{Budget, Mcts, MctsOptions};
/// use gametree::TicTacToe;
///
/// let mut game = TicTacToe::new();
/// let mut mcts = Mcts::new(MctsOptions { seed: 7, ..MctsOptions::default() });
/// let result = mcts.search(&mut game, Budget::Playouts(2_000));
/// assert_eq!(result.playouts, 2_000);
/// assert!(result.best_move.is_some());
/// ```
#[derive(Clone, Debug)]
pub struct Mcts<G: Game, P = UniformPlayouts> {
    options: MctsOptions,
    policy: P,
    random: SplitMix64,
    tree: Arena<G::Move>,
    /// The tree nodes of the current playout, root first.
    path: Vec<u32>,
    /// The moves played below the tree in the current playout.
    playout_line: Vec<G::Move>,
    /// A scratch buffer for successors.
    moves: Vec<G::Move>,
}

impl<G: Game> Mcts<G, UniformPlayouts>
where
    G::Value: Into<f64>,
{
    /// A search with uniformly random playouts.
    #[must_use]
    pub fn new(options: MctsOptions) -> Self {
        Mcts::with_policy(options, UniformPlayouts)
    }
}

/// What ended a playout's descent: a reward to MAX, and whether it is exact (a terminal
/// position or one without moves, which MCTS-Solver may mark proven).
struct Ending {
    reward_to_max: f64,
    exact: bool,
}

impl<G: Game, P: PlayoutPolicy<G>> Mcts<G, P>
where
    G::Value: Into<f64>,
{
    /// A search whose playouts `policy` plays.
    #[must_use]
    pub fn with_policy(options: MctsOptions, policy: P) -> Self {
        Mcts {
            options,
            policy,
            random: SplitMix64::new(options.seed),
            tree: Arena::new(),
            path: Vec::new(),
            playout_line: Vec::new(),
            moves: Vec::new(),
        }
    }

    /// The options.
    #[must_use]
    pub fn options(&self) -> MctsOptions {
        self.options
    }

    /// Nodes in the tree now.
    #[must_use]
    pub fn tree_nodes(&self) -> usize {
        self.tree.nodes.len()
    }

    /// Forgets the tree (the random sequence goes on).
    pub fn clear(&mut self) {
        self.tree.nodes.clear();
    }

    /// Tree reuse: `mv` was played at the root, so its subtree becomes the tree and the
    /// rest is dropped. A move the tree does not know empties it. Call it for every move
    /// played between two searches, in order.
    pub fn advance(&mut self, mv: G::Move) {
        self.tree.reroot(mv);
    }

    /// Runs playouts from the current position of `game` within `budget`, and reports the
    /// root's moves. The game is left as it was.
    ///
    /// The tree kept from earlier searches is used when its root's moves are the
    /// position's successors (in any order) and its player to move the position's; otherwise the search
    /// starts afresh. With [`MctsOptions::solver`], it stops early once the root is
    /// proven.
    pub fn search(&mut self, game: &mut G, budget: Budget) -> MctsResult<G::Move> {
        let start = Instant::now();
        self.prepare_root(game);
        let mut stats = SearchStats::default();
        let mut playouts = 0u64;
        let mut playout_moves = 0u64;
        let terminal_root = game.is_terminal();
        loop {
            if terminal_root
                || (self.options.solver && self.tree.node(ROOT).proven.is_some())
                || self.tree.node(ROOT).visits == u32::MAX
            {
                break;
            }
            // At least one playout, whatever the budget: it expands the root, so that a
            // move is given whenever the position has one (seed 002's `chooseMove`).
            let more = playouts == 0
                || match budget {
                    Budget::Playouts(limit) => playouts < limit,
                    Budget::Time(limit) => !playouts.is_multiple_of(64) || start.elapsed() < limit,
                };
            if !more {
                break;
            }
            let (tree_moves, below) = self.playout(game);
            playouts += 1;
            playout_moves += below;
            stats.nodes += 1 + tree_moves + below;
        }
        stats.leaves = playouts;
        stats.elapsed = start.elapsed();
        self.report(playouts, playout_moves, stats)
    }

    /// Keeps the tree if it fits the position, else starts a new one.
    fn prepare_root(&mut self, game: &G) {
        let to_move = game.to_move();
        if let Some(root) = self.tree.nodes.first() {
            let fits = if root.is_expanded() {
                self.moves.clear();
                game.successors(&mut self.moves);
                // The same moves, in any order: a game may order its successors
                // differently after moves were played and taken back.
                root.children().len() == self.moves.len()
                    && root.children().all(|child| {
                        let child = self.tree.node(child);
                        child.mover == to_move
                            && child.mv.is_some_and(|mv| self.moves.contains(&mv))
                    })
            } else {
                true
            };
            if fits {
                return;
            }
        }
        self.tree.reset(to_move);
    }

    /// One playout: select, expand, play out, back up. Returns the moves made in the tree
    /// and below it.
    fn playout(&mut self, game: &mut G) -> (u64, u64) {
        self.path.clear();
        self.path.push(ROOT);
        let mut node = ROOT;
        let mut below = 0;
        let ending = loop {
            if let Some(proven) = self.tree.node(node).proven {
                let mover = self.tree.node(node).mover;
                break Ending {
                    reward_to_max: reward_for(mover, proven.reward()),
                    exact: false,
                };
            }
            if game.is_terminal() {
                break Ending {
                    reward_to_max: reward_to_max(game.value()),
                    exact: true,
                };
            }
            if node != ROOT && self.tree.node(node).visits == 0 {
                let (reward_to_max, moves) = self.play_out(game);
                below = moves;
                break Ending {
                    reward_to_max,
                    exact: false,
                };
            }
            if !self.tree.node(node).is_expanded() && !self.expand(game, node) {
                // The tree is full: play out from here without adding nodes.
                let (reward_to_max, moves) = self.play_out(game);
                below = moves;
                break Ending {
                    reward_to_max,
                    exact: false,
                };
            }
            let Some(child) = self.select(node) else {
                break Ending {
                    reward_to_max: reward_without_moves(game.to_move()),
                    exact: true,
                };
            };
            let mv = self
                .tree
                .node(child)
                .mv
                .expect("invariant: a child has a move");
            game.update(mv);
            self.path.push(child);
            node = child;
        };
        let tree_moves = (self.path.len() - 1) as u64;
        self.back_up(&ending);
        for &index in self.path[1..].iter().rev() {
            let mv = self.tree.nodes[index as usize]
                .mv
                .expect("invariant: a child has a move");
            game.revert(mv);
        }
        (tree_moves, below)
    }

    /// Adds the children of `node`, the current position of `game` (not terminal), unless
    /// the tree has no room for them. A position without moves gets no children.
    fn expand(&mut self, game: &G, node: u32) -> bool {
        let max_nodes = self.options.max_nodes.min(MAX_NODES_LIMIT);
        if self.tree.nodes.len() >= max_nodes {
            // Full: no need to generate the moves.
            return false;
        }
        self.moves.clear();
        game.successors(&mut self.moves);
        if self.tree.nodes.len() + self.moves.len() > max_nodes {
            return false;
        }
        let first = u32::try_from(self.tree.nodes.len()).expect("invariant: below MAX_NODES_LIMIT");
        let count = u32::try_from(self.moves.len()).expect("invariant: below MAX_NODES_LIMIT");
        let mover = game.to_move();
        self.tree
            .nodes
            .extend(self.moves.iter().map(|&mv| Node::new(Some(mv), mover)));
        let parent = self.tree.node_mut(node);
        parent.first_child = first;
        parent.child_count = count;
        true
    }

    /// UCB1 over the children of an expanded `node`: an unvisited child first (the earliest),
    /// otherwise the greatest `mean + c·√(ln N / n)`, ties to the earliest. Children proven
    /// lost for their mover are passed over while another is not. `None` without children.
    fn select(&self, node: u32) -> Option<u32> {
        let parent = self.tree.node(node);
        let scale = self.options.exploration * f64::from(parent.visits.max(1)).ln().sqrt();
        let mut best = None;
        let mut best_score = f64::NEG_INFINITY;
        for index in parent.children() {
            let child = self.tree.node(index);
            let score = match child.proven {
                Some(Proven::Loss) if self.options.solver => -1.0,
                _ if child.visits == 0 => return Some(index),
                _ => {
                    let visits = f64::from(child.visits);
                    child.reward / visits + scale / visits.sqrt()
                }
            };
            if score > best_score {
                best_score = score;
                best = Some(index);
            }
        }
        best
    }

    /// Plays on from the current position with the policy until the game ends or the
    /// policy stops, takes the moves back, and returns the reward to MAX and the number of
    /// moves played.
    fn play_out(&mut self, game: &mut G) -> (f64, u64) {
        self.playout_line.clear();
        let mut plies = 0u32;
        let reward = loop {
            if game.is_terminal() {
                break reward_to_max(game.value());
            }
            if let Some(reward) = self.policy.stop_early(game, plies) {
                break reward;
            }
            match self
                .policy
                .playout_move(game, &mut self.moves, &mut self.random)
            {
                Some(mv) => {
                    game.update(mv);
                    self.playout_line.push(mv);
                    plies = plies.saturating_add(1);
                }
                None => break reward_without_moves(game.to_move()),
            }
        };
        for &mv in self.playout_line.iter().rev() {
            game.revert(mv);
        }
        (reward, self.playout_line.len() as u64)
    }

    /// Adds the reward to every node of the path for its mover and, with the solver,
    /// proves what can be proven from the leaf up.
    fn back_up(&mut self, ending: &Ending) {
        let leaf = *self
            .path
            .last()
            .expect("invariant: the path holds the root");
        let mut proven_below = false;
        if self.options.solver && ending.exact && leaf != ROOT {
            let node = self.tree.node_mut(leaf);
            node.proven = Proven::of_reward(reward_for(node.mover, ending.reward_to_max));
            proven_below = node.proven.is_some();
        }
        for position in (0..self.path.len()).rev() {
            let index = self.path[position];
            if proven_below && index != leaf {
                let result = self.resolve(index);
                self.tree.node_mut(index).proven = result;
                proven_below = result.is_some();
            }
            let node = self.tree.node_mut(index);
            node.visits = node.visits.saturating_add(1);
            node.reward += reward_for(node.mover, ending.reward_to_max);
        }
    }

    /// What the children of `index` prove of it for its mover: a win for the player to
    /// move if one child is a proven win for them, otherwise the best of the children's
    /// results once all are proven.
    fn resolve(&self, index: u32) -> Option<Proven> {
        let node = self.tree.node(index);
        let mut children = node.children();
        let to_move = self.tree.node(children.next()?).mover;
        let mut best = Proven::Loss;
        for child in node.children() {
            match self.tree.node(child).proven {
                Some(Proven::Win) => {
                    best = Proven::Win;
                    break;
                }
                Some(result) => best = best.max(result),
                None => return None,
            }
        }
        Some(if to_move == node.mover {
            best
        } else {
            best.flipped()
        })
    }

    /// The root's moves and the one to play.
    fn report(&self, playouts: u64, playout_moves: u64, stats: SearchStats) -> MctsResult<G::Move> {
        let root = self.tree.node(ROOT);
        let moves: Vec<MoveStatistics<G::Move>> = root
            .children()
            .map(|index| {
                let child = self.tree.node(index);
                MoveStatistics {
                    mv: child.mv.expect("invariant: a child has a move"),
                    visits: u64::from(child.visits),
                    mean_reward: child.mean(),
                    proven: if self.options.solver {
                        child.proven
                    } else {
                        None
                    },
                }
            })
            .collect();
        let best_move = choose_move(&moves);
        MctsResult {
            best_move,
            moves,
            playouts,
            root_visits: u64::from(root.visits),
            tree_nodes: self.tree.nodes.len(),
            playout_moves,
            stats,
        }
    }
}

/// The move to play among the root's `moves`: a proven win if there is one, otherwise
/// the most visited (ties to the higher mean reward, then to the earlier successor) that
/// is not a proven loss when another is not.
fn choose_move<M: Copy>(moves: &[MoveStatistics<M>]) -> Option<M> {
    let rank = |statistics: &MoveStatistics<M>| {
        let proven_rank = match statistics.proven {
            Some(Proven::Win) => 2,
            Some(Proven::Loss) => 0,
            _ => 1,
        };
        (proven_rank, statistics.visits, statistics.mean_reward)
    };
    let mut best: Option<&MoveStatistics<M>> = None;
    for statistics in moves {
        let better = match best {
            None => true,
            Some(current) => {
                rank(statistics).partial_cmp(&rank(current)) == Some(std::cmp::Ordering::Greater)
            }
        };
        if better {
            best = Some(statistics);
        }
    }
    best.map(|statistics| statistics.mv)
}

/// Chooses a move from the current position of `game` with a fresh search of `playouts`
/// playouts: [`Mcts::search`] with uniformly random playouts.
///
/// # Example
/// ```
/// use gametree::search::mcts::{MctsOptions, mcts_best_move};
/// use gametree::ConnectFour;
///
/// // X has three in the bottom row; X to move wins in column 4 (0-based 3).
/// let mut game = ConnectFour::from_moves("112233")?;
/// let options = MctsOptions { seed: 1, ..MctsOptions::default() };
/// assert_eq!(mcts_best_move(&mut game, 5_000, options), Some(3));
/// # Ok::<(), gametree::games::connect_four::ParseMovesError>(())
/// ```
pub fn mcts_best_move<G: Game>(game: &mut G, playouts: u64, options: MctsOptions) -> Option<G::Move>
where
    G::Value: Into<f64>,
{
    Mcts::new(options)
        .search(game, Budget::Playouts(playouts))
        .best_move
}

#[cfg(test)]
mod tests;
