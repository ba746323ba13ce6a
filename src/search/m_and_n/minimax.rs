//! m&n minimaxing: Slagle's `sta`, `minv`/`minvl`, `maxv`/`maxvl` of Appendix B (seed 003),
//! the reference the m&n alpha-beta procedure is tested against.

use std::time::Instant;

use super::{
    BackingUp, MnResult, back_up_keys, below, evaluate_quiet, insert_best, key, leaf_value,
};
use crate::game::{Evaluate, Game};
use crate::search::observe::{NoObserver, Observer};
use crate::search::{MoveBuffers, Quiescence, SearchStats, with_stack};

/// Slagle's m&n minimaxing `sta[p; m; n; dmax]` (Appendix B), searching to terminal
/// positions: each position backs up its m (MAX) or n (MIN) best successor values through
/// `backing`; the root chooses the successor of greatest value for the player to move.
///
/// Every position is examined. Successors are searched in the order of
/// [`Game::successors`]; of equal successors the first is chosen (McCarthy's `bestmax`;
/// Slagle's `sta1` takes the later). A position is a leaf when [`Game::is_terminal`] holds
/// with the window (−∞, ∞); a non-terminal position without successors is worth −∞ to MAX
/// and ∞ to MIN, as in [`crate::minimax`]. `backing` sees `depth_below = None`.
///
/// The game is returned to the position it was in.
///
/// # Example
/// ```
/// use gametree::{Exponents, Slagle, mn_minimax};
/// # use gametree::{Game, Player};
/// # /// Seed 003, Fig. 1: P1 = (30 30), P2 = (29 80); moves are child indices.
/// # struct Fig1 { path: Vec<usize> }
/// # const LEAVES: [[f64; 2]; 2] = [[30.0, 30.0], [29.0, 80.0]];
/// # impl Game for Fig1 {
/// #     type Move = usize;
/// #     type Value = f64;
/// #     fn to_move(&self) -> Player { if self.path.len() == 1 { Player::Min } else { Player::Max } }
/// #     fn successors(&self, moves: &mut Vec<usize>) { moves.extend([0, 1]) }
/// #     fn is_terminal(&self) -> bool { self.path.len() == 2 }
/// #     fn value(&self) -> f64 { LEAVES[self.path[0]][self.path[1]] }
/// #     fn update(&mut self, mv: usize) { self.path.push(mv) }
/// #     fn revert(&mut self, _: usize) { self.path.pop(); }
/// # }
/// let x3y1 = Exponents::new(3.0, 1.0)?;
/// let one_and_one = Slagle::new(1, 1, x3y1, x3y1)?;
/// let two_and_two = Slagle::new(2, 2, x3y1, x3y1)?;
/// // 1&1 moves to P1 (30 against 29); 2&2 prefers P2, whose 80 is far behind its 29.
/// assert_eq!(mn_minimax(&mut Fig1 { path: vec![] }, &one_and_one).best_move, Some(0));
/// assert_eq!(mn_minimax(&mut Fig1 { path: vec![] }, &two_and_two).best_move, Some(1));
/// # Ok::<(), gametree::BackingUpError>(())
/// ```
pub fn mn_minimax<G, B>(game: &mut G, backing: &B) -> MnResult<G::Move>
where
    G: Game<Value = f64>,
    B: BackingUp + ?Sized,
{
    mn_minimax_observed(game, backing, &mut NoObserver)
}

/// [`mn_minimax`] telling `observer` each position it enters, each leaf and each m&n value
/// backed up (m&n minimaxing cuts nothing): the baseline m&n alpha-beta is compared with.
pub fn mn_minimax_observed<G, B, O>(
    game: &mut G,
    backing: &B,
    observer: &mut O,
) -> MnResult<G::Move>
where
    G: Game<Value = f64>,
    B: BackingUp + ?Sized,
    O: Observer<G::Move, f64>,
{
    run(
        game,
        backing,
        None,
        0,
        |game: &G, _| Some(game.value()),
        observer,
    )
}

/// [`mn_minimax`] to a depth limit (Slagle's `dmax`, with `final[p; dmax] = zerop[dmax]`):
/// positions `depth` plies below the root that are not terminal are valued by
/// [`Evaluate::evaluate`]. `backing` sees the plies left below each successor as
/// `depth_below`.
pub fn mn_minimax_depth<G, B>(game: &mut G, backing: &B, depth: u32) -> MnResult<G::Move>
where
    G: Game<Value = f64> + Evaluate,
    B: BackingUp + ?Sized,
{
    mn_minimax_depth_quiescent(game, backing, depth, 0)
}

/// [`mn_minimax_depth`] with quiescence: a position at the depth limit that is not quiet
/// ([`Evaluate::is_quiet`]; in checkers, a capture is forced) is searched on, every move,
/// for at most `quiescence_plies` plies past the limit on any path, as
/// [`crate::SearchOptions::quiescence_plies`] does for alpha-beta. Past the limit
/// `backing` sees 0 plies left below each successor.
pub fn mn_minimax_depth_quiescent<G, B>(
    game: &mut G,
    backing: &B,
    depth: u32,
    quiescence_plies: u32,
) -> MnResult<G::Move>
where
    G: Game<Value = f64> + Evaluate,
    B: BackingUp + ?Sized,
{
    run(
        game,
        backing,
        Some(depth),
        quiescence_plies,
        evaluate_quiet,
        &mut NoObserver,
    )
}

fn run<G, B, E, O>(
    game: &mut G,
    backing: &B,
    depth: Option<u32>,
    quiescence_plies: u32,
    evaluate: E,
    observer: &mut O,
) -> MnResult<G::Move>
where
    G: Game<Value = f64>,
    B: BackingUp + ?Sized,
    E: Fn(&G, bool) -> Option<f64>,
    O: Observer<G::Move, f64>,
{
    let started = Instant::now();
    let mut search = Minimaxing {
        backing,
        evaluate,
        observer,
        quiescence: Quiescence::new(quiescence_plies),
        stats: SearchStats::default(),
        moves: MoveBuffers::new(),
        values: MoveBuffers::new(),
        scratch: Vec::new(),
    };
    let (value, best_move) = search.root(game, depth);
    let mut stats = search.stats;
    stats.elapsed = started.elapsed();
    MnResult {
        value,
        best_move,
        stats,
    }
}

struct Minimaxing<'b, 'o, B: ?Sized, M, E, O> {
    backing: &'b B,
    evaluate: E,
    observer: &'o mut O,
    quiescence: Quiescence,
    stats: SearchStats,
    moves: MoveBuffers<M>,
    values: MoveBuffers<f64>,
    scratch: Vec<f64>,
}

impl<B: BackingUp + ?Sized, M: Copy, E, O: Observer<M, f64>> Minimaxing<'_, '_, B, M, E, O> {
    /// Slagle's `sta1`: the first successor of greatest value (for the player to move).
    fn root<G>(&mut self, game: &mut G, depth: Option<u32>) -> (f64, Option<M>)
    where
        G: Game<Value = f64, Move = M>,
        E: Fn(&G, bool) -> Option<f64>,
    {
        if let Some(value) = self.leaf_value(game, depth) {
            return (value, None);
        }
        let player = game.to_move();
        let mut moves = self.moves.take();
        game.successors(&mut moves);
        let mut best: Option<(f64, M)> = None;
        for &mv in &moves {
            self.observer.descend(mv);
            game.update(mv);
            let past = self.quiescence.enter(depth == Some(0));
            let value = key(player, with_stack(|| self.value(game, below(depth))));
            self.quiescence.leave(past);
            game.revert(mv);
            if best.is_none_or(|(best_key, _)| value > best_key) {
                best = Some((value, mv));
            }
        }
        self.moves.give_back(moves);
        let (value, best_move) = match best {
            Some((best_key, mv)) => (key(player, best_key), Some(mv)),
            None => (key(player, f64::NEG_INFINITY), None),
        };
        self.observer.leave(value);
        (value, best_move)
    }

    /// Counts the position and returns its value if the search stops there. m&n
    /// minimaxing asks `ter` with the full window, as McCarthy's one-argument `ter p`.
    fn leaf_value<G>(&mut self, game: &G, depth: Option<u32>) -> Option<f64>
    where
        G: Game<Value = f64, Move = M>,
        E: Fn(&G, bool) -> Option<f64>,
    {
        self.observer.enter(None);
        let full = (f64::NEG_INFINITY, f64::INFINITY);
        let may_extend = self.quiescence.may_extend();
        let value = leaf_value(
            &mut self.stats,
            game,
            depth,
            full,
            may_extend,
            &self.evaluate,
        );
        if let Some(value) = value {
            self.observer.leaf(value);
            self.observer.leave(value);
        }
        value
    }

    /// Slagle's `maxv`/`maxvl` and `minv`/`minvl`: the backed-up value of the position.
    fn value<G>(&mut self, game: &mut G, depth: Option<u32>) -> f64
    where
        G: Game<Value = f64, Move = M>,
        E: Fn(&G, bool) -> Option<f64>,
    {
        if let Some(value) = self.leaf_value(game, depth) {
            return value;
        }
        let player = game.to_move();
        let count = self.backing.count(player);
        let mut moves = self.moves.take();
        game.successors(&mut moves);
        let mut best = self.values.take();
        for &mv in &moves {
            self.observer.descend(mv);
            game.update(mv);
            let past = self.quiescence.enter(depth == Some(0));
            let value = key(player, with_stack(|| self.value(game, below(depth))));
            self.quiescence.leave(past);
            game.revert(mv);
            insert_best(&mut best, value, count);
        }
        let value = if moves.is_empty() {
            key(player, f64::NEG_INFINITY)
        } else {
            let best_key = back_up_keys(
                self.backing,
                &mut self.scratch,
                player,
                &best,
                None,
                below(depth),
            );
            key(player, best_key)
        };
        self.moves.give_back(moves);
        self.values.give_back(best);
        self.observer.leave(value);
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Player;
    use crate::search::m_and_n::{Exponents, Slagle};
    use crate::search::minimax::minimax;
    use crate::search::test_tree;

    /// The integer test tree with values as `f64`.
    struct FloatTree(test_tree::TreeGame);

    impl Game for FloatTree {
        type Move = usize;
        type Value = f64;
        fn to_move(&self) -> Player {
            self.0.to_move()
        }
        fn successors(&self, moves: &mut Vec<usize>) {
            self.0.successors(moves);
        }
        fn is_terminal(&self) -> bool {
            self.0.is_terminal()
        }
        fn value(&self) -> f64 {
            f64::from(self.0.value())
        }
        fn update(&mut self, mv: usize) {
            self.0.update(mv);
        }
        fn revert(&mut self, mv: usize) {
            self.0.revert(mv);
        }
    }

    #[test]
    fn one_and_one_minimaxing_is_plain_minimax() {
        let exponents = Exponents::new(3.0, 1.0).expect("valid exponents");
        let plain = Slagle::new(1, 1, exponents, exponents).expect("valid counts");
        let expected = minimax(&mut test_tree::small());
        let result = mn_minimax(&mut FloatTree(test_tree::small()), &plain);
        assert_eq!(result.value, f64::from(expected.value));
        assert_eq!(result.best_move, expected.best_move);
        assert_eq!(result.stats.nodes, expected.stats.nodes);
        assert_eq!(result.stats.leaves, expected.stats.leaves);
    }

    #[test]
    fn two_and_two_minimaxing_backs_up_both_values_of_each_position() {
        // ((3 5) (2 9)) with x = r = 3, y = s = 1: 3 − 2^(3−2) = 1 and 2 − 2^(3−7) = 1.9375.
        let exponents = Exponents::new(3.0, 1.0).expect("valid exponents");
        let two = Slagle::new(2, 2, exponents, exponents).expect("valid counts");
        let result = mn_minimax(&mut FloatTree(test_tree::small()), &two);
        assert_eq!(result.value, 1.9375);
        assert_eq!(result.best_move, Some(2));
    }
}
