//! Seed 002's `chooseMove` ("Game tree search"), for any [`Game`]: the best move and its
//! score, with simple pruning or with alpha-beta pruning, and the seed's guarantee that a
//! legal move is returned whenever one exists, even when every move loses.

use std::time::Instant;

use crate::game::{Game, Player, Value};
use crate::search::{MoveBuffers, SearchStats, Window, with_stack};

/// The lowest and highest values a game can give a position, for simple pruning: a player
/// who finds a move reaching its best possible value stops looking. Seed 002's tic-tac-toe
/// has `HUMAN_WIN = -1` and `COMPUTER_WIN = 1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ValueRange<V> {
    /// The worst value for MAX, the best for MIN.
    pub lowest: V,
    /// The best value for MAX, the worst for MIN.
    pub highest: V,
}

impl<V: Value> ValueRange<V> {
    /// The values from `lowest` to `highest`, both included.
    pub fn new(lowest: V, highest: V) -> Self {
        ValueRange { lowest, highest }
    }
}

/// Seed 002's `Best`: the move chosen and its score.
#[derive(Clone, Debug, PartialEq)]
pub struct ChosenMove<M, V> {
    /// The score of the position, to MAX (see each function for its exact meaning).
    pub score: V,
    /// The move to play: `None` only when the position is terminal ("a Best with the
    /// Grid's score, no move") or has no successors.
    pub best_move: Option<M>,
    /// What the search did.
    pub stats: SearchStats,
}

/// Seed 002's `chooseMove(side)` with simple pruning: the minimax score of the current
/// position and the move that attains it.
///
/// As in the seed, `myBest.score` starts at the worst value for the player to move
/// (`range.lowest` for MAX, `range.highest` for MIN) and `myBest.move` at the first legal
/// move ("so that if *every* move leads to a guaranteed loss, some move is returned
/// nevertheless"); a later move replaces it only if strictly better, so ties go to the
/// first move in the order of [`Game::successors`]. Simple pruning: once a move reaches the
/// best value possible for the player to move, the remaining moves are skipped (counted
/// as a cutoff). A position is terminal when [`Game::is_terminal`] holds in the full window
/// (the seed's "full or has a win").
///
/// When every value the game gives lies in `range`, the score is the minimax value of
/// [`crate::minimax`]. A non-terminal position without successors scores the worst value
/// for the player to move, with no move.
///
/// The game is returned to the position it was in.
///
/// # Example
/// ```
/// use gametree::{SimpleTicTacToe, ValueRange, choose_move};
/// use gametree::games::simple_tic_tac_toe::{COMPUTER_WIN, HUMAN_WIN};
///
/// // X on 1 and 5, O on 9 and 2: X (the computer) to move forks with 4 or 7 and wins.
/// let mut game = SimpleTicTacToe::from_moves(&[1, 9, 5, 2]).expect("legal moves");
/// let best = choose_move(&mut game, ValueRange::new(HUMAN_WIN, COMPUTER_WIN));
/// assert_eq!(best.score, COMPUTER_WIN);
/// assert!(best.best_move.is_some());
/// ```
pub fn choose_move<G: Game>(
    game: &mut G,
    range: ValueRange<G::Value>,
) -> ChosenMove<G::Move, G::Value> {
    let started = Instant::now();
    let mut search = Chooser {
        stats: SearchStats::default(),
        buffers: MoveBuffers::new(),
    };
    let (score, best_move) = search.simple(game, range);
    let mut stats = search.stats;
    stats.elapsed = started.elapsed();
    ChosenMove {
        score,
        best_move,
        stats,
    }
}

/// Seed 002's `chooseMove(side, alpha, beta)`: the score of the current position by
/// alpha-beta pruning in the window (α, β), and the move that attains it. The seed calls
/// the top level with `[α, β] = [−1, 1]`.
///
/// As in the seed, `myBest.score` starts at α for MAX ("COMPUTER") and at β for MIN
/// ("HUMAN"), `myBest.move` at the first legal move; a strictly better reply replaces it and
/// raises α (MAX) or lowers β (MIN), and the position is abandoned as soon as α ≥ β
/// (counted as a cutoff when moves were left). A position is terminal when
/// [`Game::is_terminal`] holds for the current window.
///
/// If the minimax value is `v`: when α < v < β the score is `v`; when `v ≤ α` it is at most
/// α, when `v ≥ β` at least β. It is exactly α or β unless a terminal value outside the
/// window is passed up unchanged, as the seed does ("return a Best with the Grid's
/// score"). With a window that holds every value the game gives, such as `[−1, 1]` for the
/// seed's tic-tac-toe, the score is the minimax value.
///
/// The game is returned to the position it was in.
///
/// # Example
/// ```
/// use gametree::{SimpleTicTacToe, Window, choose_move_alphabeta};
/// use gametree::games::simple_tic_tac_toe::{COMPUTER_WIN, DRAW, HUMAN_WIN};
///
/// let mut game = SimpleTicTacToe::new();
/// let best = choose_move_alphabeta(&mut game, Window::new(HUMAN_WIN, COMPUTER_WIN));
/// assert_eq!(best.score, DRAW);
/// assert!(best.best_move.is_some());
/// ```
pub fn choose_move_alphabeta<G: Game>(
    game: &mut G,
    window: Window<G::Value>,
) -> ChosenMove<G::Move, G::Value> {
    let started = Instant::now();
    let mut search = Chooser {
        stats: SearchStats::default(),
        buffers: MoveBuffers::new(),
    };
    let (score, best_move) = search.alphabeta(game, window.alpha, window.beta);
    let mut stats = search.stats;
    stats.elapsed = started.elapsed();
    ChosenMove {
        score,
        best_move,
        stats,
    }
}

struct Chooser<M> {
    stats: SearchStats,
    buffers: MoveBuffers<M>,
}

impl<M: Copy> Chooser<M> {
    /// `chooseMove(side)` with simple pruning.
    fn simple<G: Game<Move = M>>(
        &mut self,
        game: &mut G,
        range: ValueRange<G::Value>,
    ) -> (G::Value, Option<M>) {
        self.stats.nodes += 1;
        if game.is_terminal() {
            self.stats.leaves += 1;
            return (game.value(), None);
        }
        let side = game.to_move();
        let mut best_score = match side {
            Player::Max => range.lowest,
            Player::Min => range.highest,
        };
        let mut moves = self.buffers.take();
        game.successors(&mut moves);
        // myBest.move = any legal move;
        let mut best_move = moves.first().copied();
        for (index, &mv) in moves.iter().enumerate() {
            game.update(mv);
            let (reply, _) = with_stack(|| self.simple(game, range));
            game.revert(mv);
            let (better, best_possible) = match side {
                Player::Max => (reply > best_score, reply >= range.highest),
                Player::Min => (reply < best_score, reply <= range.lowest),
            };
            if better {
                best_move = Some(mv);
                best_score = reply;
            }
            if best_possible {
                if index + 1 < moves.len() {
                    self.stats.cutoffs += 1;
                }
                break;
            }
        }
        self.buffers.give_back(moves);
        (best_score, best_move)
    }

    /// `chooseMove(side, alpha, beta)`.
    fn alphabeta<G: Game<Move = M>>(
        &mut self,
        game: &mut G,
        mut alpha: G::Value,
        mut beta: G::Value,
    ) -> (G::Value, Option<M>) {
        self.stats.nodes += 1;
        if crate::game::ter(game, alpha, beta) {
            self.stats.leaves += 1;
            return (game.value(), None);
        }
        let side = game.to_move();
        let mut best_score = match side {
            Player::Max => alpha,
            Player::Min => beta,
        };
        let mut moves = self.buffers.take();
        game.successors(&mut moves);
        // myBest.move = any legal move;
        let mut best_move = moves.first().copied();
        for (index, &mv) in moves.iter().enumerate() {
            game.update(mv);
            let (reply, _) = with_stack(|| self.alphabeta(game, alpha, beta));
            game.revert(mv);
            match side {
                Player::Max if reply > best_score => {
                    best_move = Some(mv);
                    best_score = reply;
                    alpha = reply;
                }
                Player::Min if reply < best_score => {
                    best_move = Some(mv);
                    best_score = reply;
                    beta = reply;
                }
                _ => {}
            }
            if alpha >= beta {
                if index + 1 < moves.len() {
                    self.stats.cutoffs += 1;
                }
                break;
            }
        }
        self.buffers.give_back(moves);
        (best_score, best_move)
    }
}
