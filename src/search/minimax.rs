//! Plain minimax: McCarthy's `vmax`/`vmin` and `movemax`/`movemin` (seed 000, "Game
//! trees"). It examines every position and is the reference every faster search is tested
//! against.

use std::time::Instant;

use crate::game::{Game, Player, Value};
use crate::search::observe::{NoObserver, Observer};
use crate::search::{MoveBuffers, SearchStats, with_stack};

/// The minimax value of a position and the first move that attains it.
#[derive(Clone, Debug, PartialEq)]
pub struct MinimaxResult<M, V> {
    /// The value to MAX of the position with best play from both sides.
    pub value: V,
    /// The first successor, in the order of `successors`, whose value equals `value`;
    /// `None` when the position is terminal or has no successors.
    pub best_move: Option<M>,
    /// What the search did.
    pub stats: SearchStats,
}

/// McCarthy's `vmax`/`vmin` with `movemax`/`movemin`: the minimax value of the current
/// position and the best move for the player to move.
///
/// A position is a leaf when [`Game::is_terminal`] holds with the full window
/// (−∞, ∞), as the seed's one-argument `ter p`. Ties go to the first best move, as the
/// seed's `bestmaxa` keeps its move unless a later one is strictly better. A non-terminal
/// position without successors is worth [`Value::MIN`] when MAX is to move and
/// [`Value::MAX`] when MIN is (the seed's `maxlis`/`minlis` of an empty list).
///
/// The game is returned to the position it was in.
pub fn minimax<G: Game>(game: &mut G) -> MinimaxResult<G::Move, G::Value> {
    minimax_observed(game, &mut NoObserver)
}

/// [`minimax`] telling `observer` each position it enters, each leaf and each value backed
/// up (minimax cuts nothing): the baseline a student compares alpha-beta with.
pub fn minimax_observed<G: Game, O: Observer<G::Move, G::Value>>(
    game: &mut G,
    observer: &mut O,
) -> MinimaxResult<G::Move, G::Value> {
    let started = Instant::now();
    let mut search = Minimax {
        stats: SearchStats::default(),
        buffers: MoveBuffers::new(),
        observer,
    };
    let (value, best_move) = search.best(game);
    let mut stats = search.stats;
    stats.elapsed = started.elapsed();
    MinimaxResult {
        value,
        best_move,
        stats,
    }
}

/// McCarthy's `vmax`/`vmin` alone: the minimax value of the current position.
pub fn minimax_value<G: Game>(game: &mut G) -> G::Value {
    minimax(game).value
}

struct Minimax<'o, M, O> {
    stats: SearchStats,
    buffers: MoveBuffers<M>,
    observer: &'o mut O,
}

impl<M: Copy, O> Minimax<'_, M, O> {
    /// The value of the current position and the first move attaining it.
    fn best<G: Game<Move = M>>(&mut self, game: &mut G) -> (G::Value, Option<M>)
    where
        O: Observer<M, G::Value>,
    {
        self.stats.nodes += 1;
        self.observer.enter(None);
        if game.is_terminal() {
            self.stats.leaves += 1;
            let value = game.value();
            self.observer.leaf(value);
            self.observer.leave(value);
            return (value, None);
        }
        let player = game.to_move();
        let mut moves = self.buffers.take();
        game.successors(&mut moves);
        let mut best: Option<(G::Value, M)> = None;
        for &mv in &moves {
            self.observer.descend(mv);
            game.update(mv);
            let (value, _) = with_stack(|| self.best(game));
            game.revert(mv);
            let better = match best {
                None => true,
                Some((best_value, _)) => match player {
                    Player::Max => value > best_value,
                    Player::Min => value < best_value,
                },
            };
            if better {
                best = Some((value, mv));
            }
        }
        self.buffers.give_back(moves);
        let (value, best_move) = match best {
            Some((value, mv)) => (value, Some(mv)),
            None => (
                match player {
                    Player::Max => G::Value::MIN,
                    Player::Min => G::Value::MAX,
                },
                None,
            ),
        };
        self.observer.leave(value);
        (value, best_move)
    }
}
