//! Games whose moves hand back what undoing them needs — an undo token, or the whole
//! previous position (copy-make) — run by every search through the [`Undoing`] adapter.
//!
//! The searches play a move with [`Game::update`] and take it back with [`Game::revert`],
//! given only the move: McCarthy's hidden board trick (seed 000), the fast path, where a
//! game keeps the history it needs itself. A game that would rather return a token from
//! each move (what a capture took, the seeds a sowing moved), or that is cheap to copy and
//! would rather not undo at all, implements [`UndoableGame`] instead; [`Undoing`] keeps the
//! tokens on a stack and is a [`Game`]. Evaluation and position keys come through
//! [`UndoableEvaluate`] and [`UndoableKey`], so every search, the table and the solver
//! work on it.
//!
//! # Example: copy-make
//! ```
//! use gametree::prelude::*;
//! use gametree::undoable::{UndoableGame, Undoing};
//!
//! /// Tic-tac-toe on a 9-cell array, copied whole on every move.
//! #[derive(Clone, Copy, Default)]
//! struct Grid {
//!     cells: [i8; 9],
//!     moves: u8,
//! }
//!
//! impl Grid {
//!     fn winner(&self) -> i8 {
//!         const LINES: [[usize; 3]; 8] = [
//!             [0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6],
//!             [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6],
//!         ];
//!         for line in LINES {
//!             let sum: i8 = line.iter().map(|&cell| self.cells[cell]).sum();
//!             if sum.abs() == 3 {
//!                 return sum.signum();
//!             }
//!         }
//!         0
//!     }
//! }
//!
//! impl UndoableGame for Grid {
//!     type Move = usize;
//!     type Value = i32;
//!     /// Copy-make: the token is the position before the move.
//!     type Undo = Grid;
//!
//!     fn to_move(&self) -> Player {
//!         if self.moves % 2 == 0 { Player::Max } else { Player::Min }
//!     }
//!     fn successors(&self, moves: &mut Vec<usize>) {
//!         moves.extend((0..9).filter(|&cell| self.cells[cell] == 0));
//!     }
//!     fn is_terminal(&self) -> bool {
//!         self.moves == 9 || self.winner() != 0
//!     }
//!     fn value(&self) -> i32 {
//!         i32::from(self.winner())
//!     }
//!     fn play(&mut self, cell: usize) -> Grid {
//!         let before = *self;
//!         self.cells[cell] = if self.moves % 2 == 0 { 1 } else { -1 };
//!         self.moves += 1;
//!         before
//!     }
//!     fn undo(&mut self, _cell: usize, before: Grid) {
//!         *self = before;
//!     }
//! }
//!
//! let mut game = Undoing::new(Grid::default());
//! assert_eq!(Search::new(&mut game).run_to_end().value, Some(0)); // a draw
//! assert_eq!(gametree::minimax(&mut game).value, 0);
//! ```

use std::fmt;

use crate::game::{Evaluate, Game, Player, Value};
use crate::search::solver::Solvable;
use crate::search::transposition::PositionKey;

/// A game whose moves return what undoing them needs (see the [module docs](self)).
pub trait UndoableGame {
    /// A move.
    type Move: Copy + Eq + fmt::Debug;
    /// The value of a position to MAX.
    type Value: Value;
    /// What [`UndoableGame::play`] returns and [`UndoableGame::undo`] takes back: the
    /// captured piece, the previous position (copy-make), or `()` when the move says it all.
    type Undo;

    /// Whose turn it is (the players need not alternate).
    fn to_move(&self) -> Player;
    /// The moves from the current position, in the order to try them (as
    /// [`Game::successors`]).
    fn successors(&self, moves: &mut Vec<Self::Move>);
    /// Whether the game is over (as [`Game::is_terminal`]).
    fn is_terminal(&self) -> bool;
    /// The value to MAX of a finished game (as [`Game::value`]).
    fn value(&self) -> Self::Value;
    /// Plays `mv` and returns what undoing it needs.
    fn play(&mut self, mv: Self::Move) -> Self::Undo;
    /// Takes back `mv`, the last move played, with the token its `play` returned.
    fn undo(&mut self, mv: Self::Move, undo: Self::Undo);
}

/// An optional capability: a static evaluation, for the depth-limited searches (as
/// [`Evaluate`]).
pub trait UndoableEvaluate: UndoableGame {
    /// An estimate of the current position's value to MAX.
    fn evaluate(&self) -> Self::Value;
}

/// An optional capability: a 64-bit key of the position, for the transposition table and
/// the solver (as [`PositionKey`]).
pub trait UndoableKey: UndoableGame {
    /// The key of the current position.
    fn key(&self) -> u64;
}

/// An [`UndoableGame`] as a [`Game`]: the undo tokens of the moves played are kept on a
/// stack, from one search to the next.
#[derive(Clone, Debug)]
pub struct Undoing<G: UndoableGame> {
    game: G,
    undos: Vec<G::Undo>,
}

impl<G: UndoableGame> Undoing<G> {
    /// The game at its current position, with no move to undo.
    pub fn new(game: G) -> Self {
        Undoing {
            game,
            undos: Vec::new(),
        }
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The game, given back.
    pub fn into_inner(self) -> G {
        self.game
    }
}

impl<G: UndoableGame> Game for Undoing<G> {
    type Move = G::Move;
    type Value = G::Value;

    fn to_move(&self) -> Player {
        self.game.to_move()
    }

    fn successors(&self, moves: &mut Vec<Self::Move>) {
        self.game.successors(moves);
    }

    fn is_terminal(&self) -> bool {
        self.game.is_terminal()
    }

    fn value(&self) -> Self::Value {
        self.game.value()
    }

    fn update(&mut self, mv: Self::Move) {
        let undo = self.game.play(mv);
        self.undos.push(undo);
    }

    fn revert(&mut self, mv: Self::Move) {
        let undo = self
            .undos
            .pop()
            .expect("invariant: revert follows an update");
        self.game.undo(mv, undo);
    }
}

impl<G: UndoableEvaluate> Evaluate for Undoing<G> {
    fn evaluate(&self) -> Self::Value {
        self.game.evaluate()
    }
}

impl<G: UndoableKey> PositionKey for Undoing<G> {
    fn hash_key(&self) -> u64 {
        self.game.key()
    }
}

/// With integer values and a key, the solver takes it too (its default outlook).
impl<G: UndoableKey<Value = i32>> Solvable for Undoing<G> {
    type Candidates = ();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::builder::Search;

    /// Nim with captures undone by a token: each move takes 1 or 2 from a heap, the token
    /// is the heap before.
    struct Heap {
        stones: u32,
        to_move: Player,
    }

    impl UndoableGame for Heap {
        type Move = u32;
        type Value = i32;
        type Undo = (u32, Player);
        fn to_move(&self) -> Player {
            self.to_move
        }
        fn successors(&self, moves: &mut Vec<u32>) {
            moves.extend((1..=2).filter(|&take| take <= self.stones));
        }
        fn is_terminal(&self) -> bool {
            self.stones == 0
        }
        fn value(&self) -> i32 {
            // The player who took the last stone just moved and won.
            if self.to_move == Player::Max { -1 } else { 1 }
        }
        fn play(&mut self, take: u32) -> (u32, Player) {
            let before = (self.stones, self.to_move);
            self.stones -= take;
            self.to_move = self.to_move.opponent();
            before
        }
        fn undo(&mut self, _take: u32, (stones, to_move): (u32, Player)) {
            self.stones = stones;
            self.to_move = to_move;
        }
    }

    impl UndoableEvaluate for Heap {
        fn evaluate(&self) -> i32 {
            0
        }
    }

    impl UndoableKey for Heap {
        fn key(&self) -> u64 {
            u64::from(self.stones) << 1 | u64::from(self.to_move == Player::Min)
        }
    }

    #[test]
    fn every_search_runs_on_an_undoable_game_and_leaves_it_as_it_was() {
        // Multiples of three lose for the player to move.
        for stones in 1..=12 {
            let mut game = Undoing::new(Heap {
                stones,
                to_move: Player::Max,
            });
            let expected = if stones % 3 == 0 { -1 } else { 1 };
            assert_eq!(crate::minimax(&mut game).value, expected);
            assert_eq!(Search::new(&mut game).run().value, Some(expected));
            assert_eq!(Search::new(&mut game).solve().value, Some(expected));
            let mut table = crate::TranspositionTable::with_mib(1);
            assert_eq!(
                Search::new(&mut game).table(&mut table).run().value,
                Some(expected)
            );
            assert_eq!(game.game().stones, stones);
            assert!(game.undos.is_empty());
        }
    }
}
