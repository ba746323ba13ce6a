//! McCarthy's `linemax`/`linemin` with `lmaxlis`/`lminlis`: alpha-beta returning the value
//! and the main line of play.

use std::time::Instant;

use crate::game::{Game, Player};
use crate::search::{Bound, MoveBuffers, SearchStats, Window, with_stack};

/// The value and main line of an alpha-beta search.
#[derive(Clone, Debug, PartialEq)]
pub struct LineResult<M, V> {
    /// The fail-hard value, as [`crate::alphabeta_value`] returns it.
    pub value: V,
    /// How `value` relates to the true value.
    pub bound: Bound,
    /// The moves from the current position, first move first. When the value is exact
    /// this is the first line of play found that reaches a position of that value with
    /// best play from both sides; when the search failed low or high it is the seed's
    /// line at the cutoff (the best line found before it, possibly empty), which proves
    /// nothing.
    pub principal_line: Vec<M>,
    /// What the search did.
    pub stats: SearchStats,
}

/// McCarthy's `linemax`/`linemin`: the value of the current position by alpha-beta in the
/// window (α, β), and the main line of play.
///
/// The search and its value are those of [`crate::alphabeta_value`]; along the way each
/// position keeps "the first line of play found which terminates in a position of value
/// α" (at MAX's positions) or β (at MIN's), and a successor that improves the value
/// replaces it by its move followed by the successor's line. Lines are kept in one
/// reused table (a triangular principal-variation table), not built per node.
///
/// The game is returned to the position it was in.
pub fn alphabeta_line<G: Game>(
    game: &mut G,
    window: Window<G::Value>,
) -> LineResult<G::Move, G::Value> {
    let started = Instant::now();
    let mut search = LineSearch {
        stats: SearchStats::default(),
        buffers: MoveBuffers::new(),
        lines: Vec::new(),
    };
    let value = search.line(game, 0, window.alpha, window.beta);
    let mut stats = search.stats;
    stats.elapsed = started.elapsed();
    // Lines are kept last move first (see `extend_line`).
    let mut principal_line = search.lines.swap_remove(0);
    principal_line.reverse();
    LineResult {
        value,
        bound: window.bound_of(value),
        principal_line,
        stats,
    }
}

struct LineSearch<M> {
    stats: SearchStats,
    buffers: MoveBuffers<M>,
    /// `lines[ply]`: the line found so far at the position `ply` moves below the root,
    /// last move first, so that putting a move in front is a push, as the seed's `cons`.
    lines: Vec<Vec<M>>,
}

impl<M: Copy> LineSearch<M> {
    /// Makes `lines[ply]` the move `mv` followed by the line of the position after it:
    /// the seed's `ext qa u . qd s`. The successor's line is taken over, not copied (its
    /// old buffer goes down to be reused), so a line costs O(1) per ply even on trees
    /// 100,000 levels deep.
    fn extend_line(&mut self, ply: usize, mv: M) {
        self.lines.swap(ply, ply + 1);
        self.lines[ply].push(mv);
    }

    /// `linemax` or `linemin`, by whose turn it is; the line is left in `lines[ply]`.
    fn line<G: Game<Move = M>>(
        &mut self,
        game: &mut G,
        ply: usize,
        mut alpha: G::Value,
        mut beta: G::Value,
    ) -> G::Value {
        while self.lines.len() < ply + 2 {
            self.lines.push(Vec::new());
        }
        // The seed's `alpha . ALPHA-CUTOFF`: no line yet.
        self.lines[ply].clear();
        self.stats.nodes += 1;
        if crate::game::ter(game, alpha, beta) {
            self.stats.leaves += 1;
            return game.value();
        }
        let player = game.to_move();
        let mut moves = self.buffers.take();
        game.successors(&mut moves);
        let mut result = None;
        for &mv in &moves {
            game.update(mv);
            let s = with_stack(|| self.line(game, ply + 1, alpha, beta));
            game.revert(mv);
            match player {
                // lmaxlis
                Player::Max => {
                    if s <= alpha {
                        continue;
                    } else if s < beta {
                        self.extend_line(ply, mv);
                        alpha = s;
                    } else {
                        result = Some(beta);
                        break;
                    }
                }
                // lminlis
                Player::Min => {
                    if s <= alpha {
                        result = Some(alpha);
                        break;
                    } else if s < beta {
                        self.extend_line(ply, mv);
                        beta = s;
                    }
                }
            }
        }
        self.buffers.give_back(moves);
        match result {
            Some(cut) => {
                self.stats.cutoffs += 1;
                cut
            }
            None => match player {
                Player::Max => alpha,
                Player::Min => beta,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_tree::small;

    #[test]
    fn line_of_the_small_tree_reaches_the_leaf_of_its_value() {
        let mut game = small();
        let result = alphabeta_line(&mut game, Window::full());
        assert_eq!(result.value, 3);
        assert_eq!(result.principal_line, vec![1, 1]);
        assert_eq!(result.stats.leaves, 3);
        assert_eq!(result.stats.cutoffs, 1);
    }
}
