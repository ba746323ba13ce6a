//! gametree's Monte Carlo tree search against the `minimax` crate's
//! (`minimax::MonteCarloTreeSearch`), one after the other in the same process, on one
//! thread: playouts per second on Connect Four from the empty 7×6 board and on
//! tic-tac-toe from the empty grid.
//!
//! ```sh
//! cargo bench --bench versus_minimax_crate
//! CONNECT_FOUR_PLAYOUTS=500000 TIC_TAC_TOE_PLAYOUTS=20000 REPETITIONS=5 \
//!     cargo bench --bench versus_minimax_crate
//! ```
//!
//! Both libraries play the very same game code: gametree's [`ConnectFour`] and
//! [`SimpleTicTacToe`] (the full game, every empty square a move), which the `minimax`
//! crate reaches through the small adapters below. A playout is what both libraries
//! count as one: a descent of the tree by UCB1, the expansion of one node, one uniformly
//! random game played to its end from the new node, and the back-up of its result. Both
//! stop a playout that reaches a finished game, or a proven position, inside the tree
//! without a random game: the second table counts the playouts that played one (a
//! *rollout*, at least one random move) and their length, so `rollouts/s` compares the
//! random games themselves.
//!
//! The rows, each a fresh search from the empty board timed from its construction to the
//! freeing of its tree:
//! - gametree `RandomColumns`: Connect Four's own playouts, a column drawn from the
//!   bitboard; MCTS-Solver on (the default);
//! - gametree `UniformPlayouts`: every successor equally likely, through
//!   [`Game::successors`] (which orders Connect Four's moves by threats); on tic-tac-toe
//!   without MCTS-Solver, which would prove the draw and stop early;
//! - gametree `ListedColumns` (written below): the `minimax` crate's move generation in
//!   gametree's search, the playable columns listed and one drawn uniformly, so that the
//!   two searches are compared on the same work per random move;
//! - the `minimax` crate: `MCTSOptions::default().with_num_threads(1)`, its own rollouts
//!   (the legal moves listed, one drawn uniformly; a rollout cut off after 100 moves,
//!   which neither game reaches). Its proven wins and losses (not draws) cannot be turned
//!   off; its UCB1 is `mean + √(2·log₂ N / n)`, gametree's `mean + √2·√(ln N / n)`.
//!
//! Settings, from the environment: `CONNECT_FOUR_PLAYOUTS` (default 200 000),
//! `TIC_TAC_TOE_PLAYOUTS` (default 100 000), `REPETITIONS` (default 3). The rollouts are
//! counted in one more search per row, not timed: the same seed gives gametree the same
//! search, so its count is exact; the `minimax` crate seeds its generators from the
//! thread's, so its count comes from a search of its own, with a counting copy of its
//! rollout policy. `benches/openspiel_mcts.py` prints the same table for OpenSpiel's C++
//! bot.

use std::cell::Cell;
use std::env;
use std::hint::black_box;
use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use gametree::games::connect_four::RandomColumns;
use gametree::search::mcts::{Budget, Mcts, MctsOptions, PlayoutPolicy, UniformPlayouts};
use gametree::{ConnectFour, Game, SimpleTicTacToe, SplitMix64};
use minimax::{MCTSOptions, MonteCarloTreeSearch, RolloutPolicy, Strategy, Winner};
use rand::prelude::IndexedRandom;
use rand::rngs::SmallRng;

/// The `minimax` crate's rules of Connect Four: gametree's [`ConnectFour`], the playable
/// columns listed left to right.
struct ConnectFourRules;

impl minimax::Game for ConnectFourRules {
    type S = ConnectFour;
    type M = u8;

    fn generate_moves(state: &ConnectFour, moves: &mut Vec<u8>) -> Option<Winner> {
        if let Some(winner) = Self::get_winner(state) {
            return Some(winner);
        }
        let width = u8::try_from(state.width()).expect("invariant: width ≤ 64");
        moves.extend((0..width).filter(|&column| state.can_play(column)));
        None
    }

    fn apply(state: &mut ConnectFour, column: u8) -> Option<ConnectFour> {
        state.update(column);
        None
    }

    fn undo(state: &mut ConnectFour, column: u8) {
        state.revert(column);
    }

    fn get_winner(state: &ConnectFour) -> Option<Winner> {
        // Only the player who moved last can have four in a row.
        if state.winner().is_some() {
            Some(Winner::PlayerJustMoved)
        } else if state.is_over() {
            Some(Winner::Draw)
        } else {
            None
        }
    }
}

/// The `minimax` crate's rules of tic-tac-toe: gametree's [`SimpleTicTacToe`], the empty
/// squares listed 1 to 9.
struct TicTacToeRules;

impl minimax::Game for TicTacToeRules {
    type S = SimpleTicTacToe;
    type M = u8;

    fn generate_moves(state: &SimpleTicTacToe, moves: &mut Vec<u8>) -> Option<Winner> {
        if let Some(winner) = Self::get_winner(state) {
            return Some(winner);
        }
        state.successors(moves);
        None
    }

    fn apply(state: &mut SimpleTicTacToe, square: u8) -> Option<SimpleTicTacToe> {
        state.update(square);
        None
    }

    fn undo(state: &mut SimpleTicTacToe, square: u8) {
        state.revert(square);
    }

    fn get_winner(state: &SimpleTicTacToe) -> Option<Winner> {
        // A line is the last mover's; a full grid without one is a draw.
        if !state.is_over() {
            None
        } else if state.value() == 0 {
            Some(Winner::Draw)
        } else {
            Some(Winner::PlayerJustMoved)
        }
    }
}

/// A gametree playout policy with the `minimax` crate's way of moving in Connect Four
/// through [`ConnectFourRules`]: the playable columns listed left to right, one drawn
/// uniformly. It tells the search's own cost apart from the move generation's.
#[derive(Clone, Copy, Debug)]
struct ListedColumns;

impl PlayoutPolicy<ConnectFour> for ListedColumns {
    #[inline]
    fn playout_move(
        &mut self,
        game: &ConnectFour,
        moves: &mut Vec<u8>,
        random: &mut SplitMix64,
    ) -> Option<u8> {
        moves.clear();
        let width = u8::try_from(game.width()).expect("invariant: width ≤ 64");
        moves.extend((0..width).filter(|&column| game.can_play(column)));
        (!moves.is_empty()).then(|| moves[random.index(moves.len())])
    }
}

/// What the counting search of a row found: its playouts, the rollouts among them (at
/// least one random move) and the random moves.
#[derive(Clone, Copy, Debug)]
struct Counts {
    playouts: u64,
    rollouts: u64,
    moves: u64,
}

/// A gametree playout policy that counts the rollouts of another: gametree asks
/// `stop_early` once before each random move, first with `plies == 0`.
struct CountingPlayouts<'a, P> {
    policy: P,
    rollouts: &'a Cell<u64>,
}

impl<G: Game, P: PlayoutPolicy<G>> PlayoutPolicy<G> for CountingPlayouts<'_, P> {
    fn playout_move(
        &mut self,
        game: &G,
        moves: &mut Vec<G::Move>,
        random: &mut SplitMix64,
    ) -> Option<G::Move> {
        self.policy.playout_move(game, moves, random)
    }

    fn stop_early(&mut self, game: &G, plies: u32) -> Option<f64> {
        if plies == 0 {
            self.rollouts.set(self.rollouts.get() + 1);
        }
        self.policy.stop_early(game, plies)
    }
}

/// The `minimax` crate's own rollout (its private `DumbRolloutPolicy`: the legal moves
/// listed, one chosen uniformly) with counters. A rollout ends with the `Err` of a
/// finished game (neither game reaches the 100-move cut-off), so the next call begins the
/// next rollout.
struct CountingRollouts<G> {
    counters: Arc<RolloutCounters>,
    game: PhantomData<G>,
}

/// The counters of [`CountingRollouts`], read after the search. One thread: plain loads
/// and stores suffice.
#[derive(Default)]
struct RolloutCounters {
    rollouts: AtomicU64,
    moves: AtomicU64,
    between_rollouts: AtomicBool,
}

impl RolloutCounters {
    fn add(counter: &AtomicU64) {
        counter.store(counter.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
    }
}

impl<G: minimax::Game> RolloutPolicy for CountingRollouts<G> {
    type G = G;

    fn random_move(
        &self,
        state: &mut G::S,
        moves: &mut Vec<G::M>,
        rng: &mut SmallRng,
    ) -> Result<G::M, Winner> {
        let counters = &self.counters;
        if let Some(winner) = G::generate_moves(state, moves) {
            counters.between_rollouts.store(true, Ordering::Relaxed);
            return Err(winner);
        }
        if counters.between_rollouts.load(Ordering::Relaxed) {
            RolloutCounters::add(&counters.rollouts);
            counters.between_rollouts.store(false, Ordering::Relaxed);
        }
        RolloutCounters::add(&counters.moves);
        Ok(*moves
            .choose(rng)
            .expect("invariant: an unfinished game has moves"))
    }
}

/// The `minimax` crate's search options for this bench: its defaults on one thread.
fn minimax_options() -> MCTSOptions {
    MCTSOptions::default().with_num_threads(1)
}

/// One timed search of the `minimax` crate from `start`: seconds.
fn time_minimax<G>(start: &G::S, playouts: u64) -> f64
where
    G: minimax::Game + Sync,
    G::S: Clone + Send,
    G::M: Copy + Sync,
{
    let began = Instant::now();
    let mut search = MonteCarloTreeSearch::<G>::new(minimax_options());
    search.set_max_rollouts(u32::try_from(playouts).expect("playouts fit a u32"));
    let best = search.choose_move(start);
    assert!(best.is_some(), "the game is not over");
    black_box(best);
    drop(search);
    began.elapsed().as_secs_f64()
}

/// One search of the `minimax` crate with counted rollouts. It runs exactly `playouts`
/// descents from a root that is never proven (the empty boards are not).
fn count_minimax<G>(start: &G::S, playouts: u64) -> Counts
where
    G: minimax::Game + Sync + Send + 'static,
    G::S: Clone + Send,
    G::M: Copy + Sync,
{
    let counters = Arc::new(RolloutCounters {
        between_rollouts: AtomicBool::new(true),
        ..RolloutCounters::default()
    });
    let policy = CountingRollouts::<G> {
        counters: Arc::clone(&counters),
        game: PhantomData,
    };
    let mut search =
        MonteCarloTreeSearch::<G>::new_with_policy(minimax_options(), Box::new(policy));
    search.set_max_rollouts(u32::try_from(playouts).expect("playouts fit a u32"));
    black_box(search.choose_move(start));
    Counts {
        playouts,
        rollouts: counters.rollouts.load(Ordering::Relaxed),
        moves: counters.moves.load(Ordering::Relaxed),
    }
}

/// One timed gametree search from `start` with `policy`: seconds.
fn time_gametree<G, P>(start: &G, options: MctsOptions, policy: P, playouts: u64) -> f64
where
    G: Game + Clone,
    G::Value: Into<f64>,
    P: PlayoutPolicy<G>,
{
    let mut game = start.clone();
    let began = Instant::now();
    let mut mcts = Mcts::with_policy(options, policy);
    let result = mcts.search(&mut game, Budget::Playouts(playouts));
    assert_eq!(result.playouts, playouts, "no early stop");
    black_box(result.best_move);
    drop(mcts);
    began.elapsed().as_secs_f64()
}

/// The same search as [`time_gametree`], with its rollouts counted.
fn count_gametree<G, P>(start: &G, options: MctsOptions, policy: P, playouts: u64) -> Counts
where
    G: Game + Clone,
    G::Value: Into<f64>,
    P: PlayoutPolicy<G>,
{
    let mut game = start.clone();
    let rollouts = Cell::new(0);
    let policy = CountingPlayouts {
        policy,
        rollouts: &rollouts,
    };
    let result = Mcts::with_policy(options, policy).search(&mut game, Budget::Playouts(playouts));
    assert_eq!(result.playouts, playouts, "no early stop");
    Counts {
        playouts,
        rollouts: rollouts.get(),
        moves: result.playout_moves,
    }
}

/// One row of the tables: a library's search on a game, how to time it and how to
/// count its rollouts.
struct Row<'a> {
    game: &'static str,
    library: &'static str,
    playouts: u64,
    time: Box<dyn Fn() -> f64 + 'a>,
    count: Box<dyn Fn() -> Counts + 'a>,
}

fn setting(name: &str, default: u64) -> u64 {
    env::var(name).map_or(default, |text| {
        text.trim()
            .replace('_', "")
            .parse()
            .unwrap_or_else(|_| panic!("{name}={text}: not a count"))
    })
}

fn print_tables(rows: &[Row], seconds: &[Vec<f64>], counts: &[Counts]) {
    println!(
        "{:<13} {:<25} {:>9} {:>7} {:>11} {:>11}",
        "game", "library", "playouts", "seconds", "playouts/s", "rollouts/s"
    );
    for (index, row) in rows.iter().enumerate() {
        let playouts = row.playouts as f64;
        let rollouts = counts[index].rollouts as f64;
        for repetition in seconds {
            let seconds = repetition[index];
            println!(
                "{:<13} {:<25} {:>9} {:>7.3} {:>10.3}M {:>10.3}M",
                row.game,
                row.library,
                row.playouts,
                seconds,
                playouts / seconds / 1e6,
                rollouts / seconds / 1e6,
            );
        }
    }
    println!();
    println!(
        "{:<13} {:<25} {:>9} {:>9} {:>7} {:>14}",
        "game", "library", "playouts", "rollouts", "share", "moves/rollout"
    );
    for (row, counts) in rows.iter().zip(counts) {
        let Counts {
            playouts,
            rollouts,
            moves,
        } = *counts;
        println!(
            "{:<13} {:<25} {:>9} {:>9} {:>6.1}% {:>14.2}",
            row.game,
            row.library,
            playouts,
            rollouts,
            100.0 * rollouts as f64 / playouts as f64,
            moves as f64 / rollouts.max(1) as f64,
        );
    }
}

fn main() {
    let connect_four_playouts = setting("CONNECT_FOUR_PLAYOUTS", 200_000);
    let tic_tac_toe_playouts = setting("TIC_TAC_TOE_PLAYOUTS", 100_000);
    let repetitions = setting("REPETITIONS", 3);
    let options = MctsOptions {
        seed: 1,
        ..MctsOptions::default()
    };
    let without_solver = MctsOptions {
        solver: false,
        ..options
    };
    let connect_four = ConnectFour::new();
    let tic_tac_toe = SimpleTicTacToe::new();
    let (n, m) = (connect_four_playouts, tic_tac_toe_playouts);
    let rows = [
        Row {
            game: "connect four",
            library: "gametree RandomColumns",
            playouts: n,
            time: Box::new(|| time_gametree(&connect_four, options, RandomColumns, n)),
            count: Box::new(|| count_gametree(&connect_four, options, RandomColumns, n)),
        },
        Row {
            game: "connect four",
            library: "gametree UniformPlayouts",
            playouts: n,
            time: Box::new(|| time_gametree(&connect_four, options, UniformPlayouts, n)),
            count: Box::new(|| count_gametree(&connect_four, options, UniformPlayouts, n)),
        },
        Row {
            game: "connect four",
            library: "gametree ListedColumns",
            playouts: n,
            time: Box::new(|| time_gametree(&connect_four, options, ListedColumns, n)),
            count: Box::new(|| count_gametree(&connect_four, options, ListedColumns, n)),
        },
        Row {
            game: "connect four",
            library: "minimax crate 0.6",
            playouts: n,
            time: Box::new(|| time_minimax::<ConnectFourRules>(&connect_four, n)),
            count: Box::new(|| count_minimax::<ConnectFourRules>(&connect_four, n)),
        },
        Row {
            game: "tic-tac-toe",
            library: "gametree UniformPlayouts",
            playouts: m,
            time: Box::new(|| time_gametree(&tic_tac_toe, without_solver, UniformPlayouts, m)),
            count: Box::new(|| count_gametree(&tic_tac_toe, without_solver, UniformPlayouts, m)),
        },
        Row {
            game: "tic-tac-toe",
            library: "minimax crate 0.6",
            playouts: m,
            time: Box::new(|| time_minimax::<TicTacToeRules>(&tic_tac_toe, m)),
            count: Box::new(|| count_minimax::<TicTacToeRules>(&tic_tac_toe, m)),
        },
    ];
    // Each repetition runs every row, back to back, so that a busy spell of the machine
    // falls on all of them alike.
    let seconds: Vec<Vec<f64>> = (0..repetitions)
        .map(|_| rows.iter().map(|row| (row.time)()).collect())
        .collect();
    let counts: Vec<Counts> = rows.iter().map(|row| (row.count)()).collect();
    assert!(counts.iter().all(|row| row.rollouts <= row.playouts));
    print_tables(&rows, &seconds, &counts);
}
