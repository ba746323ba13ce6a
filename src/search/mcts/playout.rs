//! How a Monte Carlo playout goes on below the tree, and what it is worth: uniformly random
//! moves by default (the "random simulation" of Kocsis and Szepesvári 2006 and of Browne et
//! al.'s 2012 survey, §3.3), or a policy the game supplies.

use crate::game::{Evaluate, Game, Player};
use crate::random::SplitMix64;

/// How a playout chooses its moves below the tree, and when it may stop before the end of
/// the game.
///
/// The search owns the policy and calls it at every position of every playout, so a policy
/// should be cheap and allocate nothing: `moves` is a buffer the search owns and reuses.
/// [`UniformPlayouts`] serves every game; a game offers a faster or wiser one by
/// implementing this trait for a type of its own (Connect Four's
/// [`RandomColumns`](crate::games::connect_four::RandomColumns) draws a column from its
/// bitboard without ordering the moves).
pub trait PlayoutPolicy<G: Game> {
    /// The next move of the playout at the current position of `game`, which is not
    /// terminal; `None` when the player to move has no move (a loss for that player, as
    /// [`Game`] values such a position). `moves` is a scratch buffer, in any state.
    fn playout_move(
        &mut self,
        game: &G,
        moves: &mut Vec<G::Move>,
        random: &mut SplitMix64,
    ) -> Option<G::Move>;

    /// An estimate that ends the playout early at the current position (not terminal),
    /// `plies` moves into it: the reward to MAX in `0.0..=1.0` (1 a win, ½ a draw, 0 a
    /// loss), or `None` (the default) to play on. A game with a good evaluation stops
    /// after a few plies instead of playing to the end (Browne et al. 2012, §6.1.1,
    /// "evaluation functions" in simulations).
    fn stop_early(&mut self, game: &G, plies: u32) -> Option<f64> {
        let _ = (game, plies);
        None
    }
}

/// Uniformly random playouts: every successor equally likely, to the end of the game.
///
/// # Example
/// ```
/// use gametree::search::mcts::{PlayoutPolicy, UniformPlayouts};
/// use gametree::{SplitMix64, TicTacToe};
///
/// let game = TicTacToe::new();
/// let mut random = SplitMix64::new(1);
/// let mv = UniformPlayouts.playout_move(&game, &mut Vec::new(), &mut random);
/// assert!(mv.is_some());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UniformPlayouts;

impl<G: Game> PlayoutPolicy<G> for UniformPlayouts {
    #[inline]
    fn playout_move(
        &mut self,
        game: &G,
        moves: &mut Vec<G::Move>,
        random: &mut SplitMix64,
    ) -> Option<G::Move> {
        moves.clear();
        game.successors(moves);
        if moves.is_empty() {
            None
        } else {
            Some(moves[random.index(moves.len())])
        }
    }
}

/// Uniformly random playouts cut off after `plies` moves, where the game's static
/// evaluation ([`Evaluate`]) is turned into a reward by the logistic function
/// `1 / (1 + e^(−value / scale))`: ½ for an even position, near 1 for one far better for
/// MAX. Short playouts with an evaluation are what MCTS uses where random games are long
/// or meaningless (Browne et al. 2012, §6.1.1; Lorentz 2008 in Amazons).
///
/// # Example
/// ```
/// use gametree::search::mcts::{Budget, EvaluationCutoff, Mcts, MctsOptions};
/// use gametree::Checkers;
///
/// let mut game = Checkers::new();
/// let policy = EvaluationCutoff { plies: 8, scale: 200.0 };
/// let result = Mcts::with_policy(MctsOptions::default(), policy)
///     .search(&mut game, Budget::Playouts(500));
/// assert!(result.best_move.is_some());
/// assert!(result.playout_moves <= 8 * 500);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvaluationCutoff {
    /// Moves a playout plays before the evaluation ends it.
    pub plies: u32,
    /// The evaluation difference that moves the reward from ½ to about 0.73 (e¹ odds).
    pub scale: f64,
}

impl<G: Evaluate> PlayoutPolicy<G> for EvaluationCutoff
where
    G::Value: Into<f64>,
{
    #[inline]
    fn playout_move(
        &mut self,
        game: &G,
        moves: &mut Vec<G::Move>,
        random: &mut SplitMix64,
    ) -> Option<G::Move> {
        UniformPlayouts.playout_move(game, moves, random)
    }

    fn stop_early(&mut self, game: &G, plies: u32) -> Option<f64> {
        (plies >= self.plies).then(|| {
            let value: f64 = game.evaluate().into();
            1.0 / (1.0 + (-value / self.scale).exp())
        })
    }
}

/// The reward to MAX of a terminal position worth `value` to MAX: 1 when MAX has won
/// (value above 0), 0 when MIN has (below 0), ½ for a draw (0). Only the sign counts: MCTS
/// as Kocsis and Szepesvári define it maximises the probability of winning, not a score.
#[inline]
pub fn reward_to_max<V: Into<f64>>(value: V) -> f64 {
    let value: f64 = value.into();
    if value > 0.0 {
        1.0
    } else if value < 0.0 {
        0.0
    } else {
        0.5
    }
}

/// The reward to MAX of a position whose player to move has no move: a loss for that
/// player, as [`Game`] values it.
#[inline]
pub(crate) fn reward_without_moves(to_move: Player) -> f64 {
    match to_move {
        Player::Max => 0.0,
        Player::Min => 1.0,
    }
}

/// `reward_to_max` seen by `player`.
#[inline]
pub(crate) fn reward_for(player: Player, reward_to_max: f64) -> f64 {
    match player {
        Player::Max => reward_to_max,
        Player::Min => 1.0 - reward_to_max,
    }
}
