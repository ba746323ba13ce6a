//! Root parallelism (Cazenave and Jouandeau 2007, "On the parallelization of UCT";
//! Chaslot, Winands and van den Herik 2008, "Parallel Monte-Carlo tree search"): each
//! thread grows a tree of its own from the same position with its own random sequence,
//! and the root's statistics are summed at the end. Nothing is shared while the threads
//! run, so nothing is locked; what one thread proves with MCTS-Solver is exact, so the
//! threads' proofs never disagree.

use std::time::Instant;

use super::{Budget, Mcts, MctsOptions, MctsResult, MoveStatistics, PlayoutPolicy, choose_move};
use crate::game::Game;
use crate::search::SearchStats;

/// Monte Carlo tree search on several threads by root parallelism: [`Mcts`] once a
/// thread, the root's visits and rewards summed. With one thread it is [`Mcts`] itself,
/// move for move.
///
/// Each thread's seed is derived from [`MctsOptions::seed`] and its number (thread 0 has
/// the seed itself), so a search in playouts is deterministic for a seed and a number of
/// threads. A budget of playouts is shared out among the threads; a budget of time is
/// each thread's. So is [`MctsOptions::max_nodes`]: it bounds all the trees together
/// (each thread's tree holds at most its share), so memory does not grow with the threads.
///
/// # Example
/// ```
/// use gametree::search::mcts::{Budget, MctsOptions, RootParallel, UniformPlayouts};
/// use gametree::TicTacToe;
///
/// let mut game = TicTacToe::new();
/// let options = MctsOptions { seed: 7, ..MctsOptions::default() };
/// let mut search = RootParallel::with_policy(options, UniformPlayouts, 2);
/// let result = search.search(&mut game, Budget::Playouts(4_000));
/// assert_eq!(result.playouts, 4_000);
/// assert!(result.best_move.is_some());
/// ```
#[derive(Clone, Debug)]
pub struct RootParallel<G: Game, P> {
    searches: Vec<Mcts<G, P>>,
}

/// Thread `thread`'s seed: thread 0 keeps `seed`, the others are spread by the golden
/// ratio increment of SplitMix64 (whose generator then mixes them).
fn thread_seed(seed: u64, thread: usize) -> u64 {
    seed.wrapping_add((thread as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

impl<G, P> RootParallel<G, P>
where
    G: Game + Clone + Send,
    G::Move: Send,
    G::Value: Into<f64>,
    P: PlayoutPolicy<G> + Clone + Send,
{
    /// A search on `threads` threads (at least one), each with a copy of `policy`.
    #[must_use]
    pub fn with_policy(options: MctsOptions, policy: P, threads: usize) -> Self {
        let searches = (0..threads.max(1))
            .map(|thread| {
                let options = MctsOptions {
                    seed: thread_seed(options.seed, thread),
                    max_nodes: (options.max_nodes / threads.max(1)).max(1),
                    ..options
                };
                Mcts::with_policy(options, policy.clone())
            })
            .collect();
        RootParallel { searches }
    }

    /// The number of threads.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.searches.len()
    }

    /// Nodes in all the trees now.
    #[must_use]
    pub fn tree_nodes(&self) -> usize {
        self.searches.iter().map(Mcts::tree_nodes).sum()
    }

    /// Forgets every tree.
    pub fn clear(&mut self) {
        self.searches.iter_mut().for_each(Mcts::clear);
    }

    /// Tree reuse in every thread's tree: see [`Mcts::advance`].
    pub fn advance(&mut self, mv: G::Move) {
        for search in &mut self.searches {
            search.advance(mv);
        }
    }

    /// Runs every thread's search from the current position of `game` and sums their
    /// roots: each move's visits and rewards added, a move proven by any thread proven,
    /// and the move chosen as [`Mcts::search`] chooses it. `stats` and the counts are
    /// the threads' sums, `stats.elapsed` the wall-clock time. The game is left as it was.
    pub fn search(&mut self, game: &mut G, budget: Budget) -> MctsResult<G::Move> {
        let started = Instant::now();
        let threads = self.searches.len();
        let results: Vec<MctsResult<G::Move>> = if threads == 1 {
            vec![self.searches[0].search(game, budget)]
        } else {
            let position: &G = game;
            std::thread::scope(|scope| {
                let handles: Vec<_> = self
                    .searches
                    .iter_mut()
                    .enumerate()
                    .map(|(thread, search)| {
                        let budget = share(budget, thread, threads);
                        let mut game = position.clone();
                        scope.spawn(move || search.search(&mut game, budget))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|handle| match handle.join() {
                        Ok(result) => result,
                        Err(panic) => std::panic::resume_unwind(panic),
                    })
                    .collect()
            })
        };
        let mut merged = merge(results, self.searches[0].options().solver);
        merged.stats.elapsed = started.elapsed();
        merged
    }
}

/// Thread `thread`'s part of `budget` among `threads`: playouts shared out as evenly as
/// can be (the first threads take the remainder), time whole.
fn share(budget: Budget, thread: usize, threads: usize) -> Budget {
    match budget {
        Budget::Playouts(total) => {
            let threads = threads as u64;
            let thread = thread as u64;
            Budget::Playouts(total / threads + u64::from(thread < total % threads))
        }
        Budget::Time(limit) => Budget::Time(limit),
    }
}

/// The threads' roots summed, in the first thread's order of moves.
fn merge<M: Copy + PartialEq>(results: Vec<MctsResult<M>>, solver: bool) -> MctsResult<M> {
    let mut results = results.into_iter();
    let Some(mut merged) = results.next() else {
        return MctsResult {
            best_move: None,
            moves: Vec::new(),
            playouts: 0,
            root_visits: 0,
            tree_nodes: 0,
            playout_moves: 0,
            stats: SearchStats::default(),
        };
    };
    // Rewards, not means, add up.
    let mut rewards: Vec<f64> = merged
        .moves
        .iter()
        .map(|statistics| statistics.mean_reward * statistics.visits as f64)
        .collect();
    for result in results {
        merged.playouts += result.playouts;
        merged.root_visits += result.root_visits;
        merged.tree_nodes += result.tree_nodes;
        merged.playout_moves += result.playout_moves;
        merged.stats.add_counts(&result.stats);
        for statistics in &result.moves {
            let Some(index) = merged
                .moves
                .iter()
                .position(|kept| kept.mv == statistics.mv)
            else {
                continue;
            };
            let kept: &mut MoveStatistics<M> = &mut merged.moves[index];
            kept.visits += statistics.visits;
            rewards[index] += statistics.mean_reward * statistics.visits as f64;
            if kept.proven.is_none() {
                kept.proven = statistics.proven;
            }
        }
    }
    for (statistics, reward) in merged.moves.iter_mut().zip(rewards) {
        statistics.mean_reward = if statistics.visits == 0 {
            0.0
        } else {
            reward / statistics.visits as f64
        };
    }
    if !solver {
        merged
            .moves
            .iter_mut()
            .for_each(|statistics| statistics.proven = None);
    }
    merged.best_move = choose_move(&merged.moves);
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect_four::{ConnectFour, RandomColumns};
    use crate::search::mcts::UniformPlayouts;
    use crate::{SimpleTicTacToe, minimax_value};

    #[test]
    fn one_thread_is_the_plain_search_move_for_move() {
        let mut game = ConnectFour::from_moves("4453").expect("legal");
        let options = MctsOptions {
            seed: 11,
            ..MctsOptions::default()
        };
        let plain =
            Mcts::with_policy(options, RandomColumns).search(&mut game, Budget::Playouts(3_000));
        let parallel = RootParallel::with_policy(options, RandomColumns, 1)
            .search(&mut game, Budget::Playouts(3_000));
        assert_eq!(plain.best_move, parallel.best_move);
        assert_eq!(plain.moves, parallel.moves);
        assert_eq!(plain.playouts, parallel.playouts);
    }

    #[test]
    fn the_threads_share_the_playouts_and_their_visits_add_up() {
        let mut game = ConnectFour::from_moves("44").expect("legal");
        let options = MctsOptions {
            seed: 3,
            ..MctsOptions::default()
        };
        let mut search = RootParallel::with_policy(options, RandomColumns, 3);
        // 10,001 does not divide by 3: the shares are 3,334, 3,334 and 3,333.
        let result = search.search(&mut game, Budget::Playouts(10_001));
        assert_eq!(result.playouts, 10_001);
        assert_eq!(result.root_visits, 10_001);
        let visits: u64 = result
            .moves
            .iter()
            .map(|statistics| statistics.visits)
            .sum();
        assert_eq!(visits, 10_001);
        assert_eq!(game.moves_played(), 2, "the game is left as it was");
        // The same seed and threads, the same search.
        let again = RootParallel::with_policy(options, RandomColumns, 3)
            .search(&mut game, Budget::Playouts(10_001));
        assert_eq!(result.moves, again.moves);
        // Each thread a different sequence: not three copies of thread 0's search, whose
        // visits would then be three times those of one thread's share.
        let alone =
            Mcts::with_policy(options, RandomColumns).search(&mut game, Budget::Playouts(3_334));
        let tripled: Vec<u64> = alone
            .moves
            .iter()
            .map(|statistics| 3 * statistics.visits)
            .collect();
        let merged: Vec<u64> = result
            .moves
            .iter()
            .map(|statistics| statistics.visits)
            .collect();
        assert_ne!(merged, tripled);
    }

    #[test]
    fn the_merged_move_keeps_the_tic_tac_toe_outcome_and_reuse_follows_the_game() {
        let mut game = SimpleTicTacToe::new();
        let options = MctsOptions {
            seed: 5,
            ..MctsOptions::default()
        };
        let mut search = RootParallel::with_policy(options, UniformPlayouts, 2);
        while !game.is_terminal() {
            let value = minimax_value(&mut game);
            let result = search.search(&mut game, Budget::Playouts(4_000));
            let mv = result.best_move.expect("not over");
            game.update(mv);
            assert_eq!(minimax_value(&mut game), value, "the move keeps the draw");
            search.advance(mv);
        }
        assert_eq!(game.value(), 0);
    }

    #[test]
    fn a_win_proven_by_one_thread_is_played() {
        // X to move wins at once in column 4 (0-based 3).
        let mut game = ConnectFour::from_moves("112233").expect("legal");
        let options = MctsOptions {
            seed: 9,
            ..MctsOptions::default()
        };
        let result = RootParallel::with_policy(options, RandomColumns, 2)
            .search(&mut game, Budget::Playouts(2_000));
        assert_eq!(result.best_move, Some(3));
    }
}
