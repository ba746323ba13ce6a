//! McCarthy's `valmax`/`valmin` with `vmaxlis`/`vminlis`: alpha-beta returning the value.

use std::time::Instant;

use crate::game::{Game, Player};
use crate::search::observe::{CutoffReason, NoObserver, Observer};
use crate::search::{Bound, MoveBuffers, SearchStats, Window, with_stack};

/// The value of an alpha-beta search.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueResult<V> {
    /// The fail-hard value: the minimax value clamped to the window (for a game whose
    /// `ter` ignores the window).
    pub value: V,
    /// How `value` relates to the true value.
    pub bound: Bound,
    /// What the search did.
    pub stats: SearchStats,
}

/// McCarthy's `valmax`/`valmin`: the value of the current position by alpha-beta in the
/// window (α, β).
///
/// At MAX's positions (`vmaxlis`) a successor worth no more than α is ignored, one strictly
/// inside the window raises α, and one worth β or more ends the search of the position with
/// the value β; MIN's positions (`vminlis`) are the mirror image. Successors are tried in
/// the order [`Game::successors`] gives them. If the minimax value is `v`, the result is
/// α when `v ≤ α`, `v` when `α < v < β`, β when `v ≥ β` — for a game whose `is_terminal`
/// ignores the window; a game may use the window to stop earlier. One exception, as in
/// the seed: when the root itself is terminal, `valmax` returns its `imval` unclamped
/// (`qif ter[...] qthen imval p`), and [`ValueResult::bound`] says where it lies.
///
/// The game is returned to the position it was in.
///
/// # Example
/// ```
/// use gametree::{Game, Player, Window, alphabeta_value};
///
/// /// Take 1 or 2 stones; whoever takes the last stone wins (+1 for MAX).
/// struct Nim { stones: u32, to_move: Player }
/// impl Game for Nim {
///     type Move = u32;
///     type Value = i32;
///     fn to_move(&self) -> Player { self.to_move }
///     fn successors(&self, moves: &mut Vec<u32>) {
///         moves.extend((1..=2).filter(|&take| take <= self.stones));
///     }
///     fn is_terminal(&self) -> bool { self.stones == 0 }
///     fn value(&self) -> i32 {
///         // The player who just moved took the last stone.
///         if self.to_move == Player::Min { 1 } else { -1 }
///     }
///     fn update(&mut self, take: u32) { self.stones -= take; self.to_move = self.to_move.opponent(); }
///     fn revert(&mut self, take: u32) { self.stones += take; self.to_move = self.to_move.opponent(); }
/// }
///
/// let mut game = Nim { stones: 7, to_move: Player::Max };
/// assert_eq!(alphabeta_value(&mut game, Window::full()).value, 1);
/// let mut game = Nim { stones: 6, to_move: Player::Max };
/// assert_eq!(alphabeta_value(&mut game, Window::full()).value, -1);
/// ```
pub fn alphabeta_value<G: Game>(game: &mut G, window: Window<G::Value>) -> ValueResult<G::Value> {
    alphabeta_value_observed(game, window, &mut NoObserver)
}

/// [`alphabeta_value`] telling `observer` each position it enters (with its window), each
/// leaf, each value backed up and each cutoff with its reason: what a student watches to
/// see alpha-beta cut (`gametree serve`).
pub fn alphabeta_value_observed<G: Game, O: Observer<G::Move, G::Value>>(
    game: &mut G,
    window: Window<G::Value>,
    observer: &mut O,
) -> ValueResult<G::Value> {
    let started = Instant::now();
    let mut search = ValueSearch {
        stats: SearchStats::default(),
        buffers: MoveBuffers::new(),
        observer,
    };
    let value = search.value(game, window.alpha, window.beta);
    let mut stats = search.stats;
    stats.elapsed = started.elapsed();
    ValueResult {
        value,
        bound: window.bound_of(value),
        stats,
    }
}

struct ValueSearch<'o, M, O> {
    stats: SearchStats,
    buffers: MoveBuffers<M>,
    observer: &'o mut O,
}

impl<M: Copy, O> ValueSearch<'_, M, O> {
    /// `valmax` or `valmin`, by whose turn it is.
    fn value<G: Game<Move = M>>(
        &mut self,
        game: &mut G,
        mut alpha: G::Value,
        mut beta: G::Value,
    ) -> G::Value
    where
        O: Observer<M, G::Value>,
    {
        self.stats.nodes += 1;
        self.observer.enter(Some(Window { alpha, beta }));
        if crate::game::ter(game, alpha, beta) {
            self.stats.leaves += 1;
            let value = game.value();
            self.observer.leaf(value);
            self.observer.leave(value);
            return value;
        }
        let player = game.to_move();
        let mut moves = self.buffers.take();
        game.successors(&mut moves);
        let mut result = None;
        for (index, &mv) in moves.iter().enumerate() {
            self.observer.descend(mv);
            game.update(mv);
            let s = with_stack(|| self.value(game, alpha, beta));
            game.revert(mv);
            match player {
                // vmaxlis
                Player::Max => {
                    if s <= alpha {
                        continue;
                    } else if s < beta {
                        alpha = s;
                    } else {
                        let reason = CutoffReason::BetaCutoff { value: s, beta };
                        self.observer.cutoff(&moves[index + 1..], reason);
                        result = Some(beta);
                        break;
                    }
                }
                // vminlis
                Player::Min => {
                    if s <= alpha {
                        let reason = CutoffReason::AlphaCutoff { value: s, alpha };
                        self.observer.cutoff(&moves[index + 1..], reason);
                        result = Some(alpha);
                        break;
                    } else if s < beta {
                        beta = s;
                    }
                }
            }
        }
        self.buffers.give_back(moves);
        let value = match result {
            Some(cut) => {
                self.stats.cutoffs += 1;
                cut
            }
            None => match player {
                Player::Max => alpha,
                Player::Min => beta,
            },
        };
        self.observer.leave(value);
        value
    }
}
