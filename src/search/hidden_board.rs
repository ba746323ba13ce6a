//! McCarthy's hidden board trick (seed 000, "The hidden board trick"; seed 004, RECTIFY):
//! positions as persistent lists of moves, newest first, sharing their tails, and
//! `rectify`, which brings one make/unmake board — any [`Game`] — to whichever position is
//! asked about, by taking back moves to the common tail and playing forward from there.
//!
//! Seed 004: "VALMAX etc. get new positions by consing moves onto old positions and by
//! cdring to revert. RECTIFY applied to the list representing a position returns the same
//! list but readjusts the tables to correspond to the position given by the list."
//!
//! [`HiddenBoard`] offers the seed's functional interface (`successors` returning
//! positions, `ter` and `imval` of a position); [`HiddenBoardGame`] is a [`Game`] over
//! positions, so the generic searches run through the trick unchanged. Because the search
//! rectifies every position it visits before looking at it, the board makes and takes back
//! exactly the moves, in exactly the order, a direct make/unmake search would: only the
//! taking back is deferred to the next `rectify`.

use std::cell::{Ref, RefCell};
use std::fmt;
use std::rc::Rc;

use crate::game::{Game, Player};

/// A position as McCarthy represents it: the list of moves leading to it, "with the most
/// recent move at the head of the list and the first move of the game at the end".
///
/// Lists are persistent: [`MoveList::cons`] shares the tail, so the positions of a search
/// are "merging list structures" and cloning is a reference-count increment. The empty
/// list is the position the board started from. Equality compares the moves (LISP's
/// `equal`), using shared structure as a shortcut.
pub struct MoveList<M> {
    head: Option<Rc<Node<M>>>,
}

struct Node<M> {
    mv: M,
    tail: MoveList<M>,
    /// The length of the list starting at this node.
    length: usize,
}

impl<M> MoveList<M> {
    /// The empty list, `NIL`: the starting position.
    #[must_use]
    pub fn new() -> Self {
        MoveList { head: None }
    }

    /// `mv . p`: the position after playing `mv` in this one. The tail is shared.
    #[must_use]
    pub fn cons(&self, mv: M) -> Self {
        MoveList {
            head: Some(Rc::new(Node {
                mv,
                tail: self.clone(),
                length: self.len() + 1,
            })),
        }
    }

    /// `qd p`: the position before the last move (the empty list stays empty).
    #[must_use]
    pub fn rest(&self) -> Self {
        match &self.head {
            Some(node) => node.tail.clone(),
            None => MoveList::new(),
        }
    }

    /// The number of moves from the starting position.
    #[must_use]
    pub fn len(&self) -> usize {
        self.head.as_ref().map_or(0, |node| node.length)
    }

    /// Whether this is the starting position (`qn p`).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.head.is_none()
    }

    /// The moves, the most recent first.
    pub fn iter(&self) -> impl Iterator<Item = &M> {
        let mut node = self.head.as_deref();
        std::iter::from_fn(move || {
            let here = node?;
            node = here.tail.head.as_deref();
            Some(&here.mv)
        })
    }

    /// Whether both lists are the same list structure (LISP's `eq`).
    #[must_use]
    pub fn shares(&self, other: &Self) -> bool {
        match (&self.head, &other.head) {
            (None, None) => true,
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl<M: Copy> MoveList<M> {
    /// McCarthy's `ext p ← qa p`: the move leading to this position, `None` at the start.
    #[must_use]
    pub fn ext(&self) -> Option<M> {
        self.head.as_ref().map(|node| node.mv)
    }

    /// The list of `moves`, given in game order (the first move first).
    #[must_use]
    pub fn from_game_order(moves: &[M]) -> Self {
        moves
            .iter()
            .fold(MoveList::new(), |position, &mv| position.cons(mv))
    }

    /// The moves in game order, the first move first.
    #[must_use]
    pub fn to_game_order(&self) -> Vec<M> {
        let mut moves: Vec<M> = self.iter().copied().collect();
        moves.reverse();
        moves
    }
}

impl<M> Clone for MoveList<M> {
    fn clone(&self) -> Self {
        MoveList {
            head: self.head.clone(),
        }
    }
}

impl<M> Default for MoveList<M> {
    fn default() -> Self {
        MoveList::new()
    }
}

impl<M> Drop for MoveList<M> {
    /// Frees a long unshared list iteratively, so dropping a game of any length cannot
    /// overflow the stack.
    fn drop(&mut self) {
        let mut next = self.head.take();
        while let Some(node) = next {
            match Rc::try_unwrap(node) {
                Ok(mut node) => next = node.tail.head.take(),
                Err(_) => break,
            }
        }
    }
}

impl<M: PartialEq> PartialEq for MoveList<M> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len()
            && (self.shares(other) || self.iter().zip(other.iter()).all(|(a, b)| a == b))
    }
}

impl<M: Eq> Eq for MoveList<M> {}

impl<M: fmt::Debug> fmt::Debug for MoveList<M> {
    /// The list as LISP prints it, newest move first: `(1 2)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for (place, mv) in self.iter().enumerate() {
            if place > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{mv:?}")?;
        }
        f.write_str(")")
    }
}

/// McCarthy's `commonhead[u, v]`: the longest common beginning of two lists.
///
/// # Example
/// ```
/// use gametree::hidden_board::commonhead;
/// assert_eq!(commonhead(&[2, 1, 5, 8], &[2, 1, 6]), &[2, 1]);
/// ```
#[must_use]
pub fn commonhead<'a, M: PartialEq>(u: &'a [M], v: &[M]) -> &'a [M] {
    let common = u.iter().zip(v).take_while(|(a, b)| a == b).count();
    &u[..common]
}

/// McCarthy's `commontail[u, v] ← reverse commonhead[reverse u, reverse v]`: the position
/// where the games of `u` and `v` part, as the tail of `u` (shared, not copied).
///
/// Computed without reversing: the lists are aligned by length and walked once; a shared
/// node ends the walk early, since everything below it is common.
///
/// # Example
/// ```
/// use gametree::hidden_board::{MoveList, commontail};
/// let u = MoveList::from_game_order(&[2, 1, 5, 8]);
/// let v = MoveList::from_game_order(&[2, 1, 6]);
/// assert_eq!(commontail(&u, &v).to_game_order(), vec![2, 1]);
/// ```
#[must_use]
pub fn commontail<M: PartialEq>(u: &MoveList<M>, v: &MoveList<M>) -> MoveList<M> {
    let mut a = u.head.as_ref();
    let mut b = v.head.as_ref();
    let length = |node: Option<&Rc<Node<M>>>| node.map_or(0, |node| node.length);
    while length(a) > length(b) {
        a = a.and_then(|node| node.tail.head.as_ref());
    }
    while length(b) > length(a) {
        b = b.and_then(|node| node.tail.head.as_ref());
    }
    // `start` begins the run of equal moves that reaches the end of both lists.
    let mut start = a;
    while let (Some(x), Some(y)) = (a, b) {
        if Rc::ptr_eq(x, y) {
            break;
        }
        if x.mv != y.mv {
            start = x.tail.head.as_ref();
        }
        a = x.tail.head.as_ref();
        b = y.tail.head.as_ref();
    }
    MoveList {
        head: start.cloned(),
    }
}

/// McCarthy's `listsubt[u, v] ← listsubta[u, length u − length v, qNIL]`: the moves of `u`
/// above its tail `v`, in the order they are to be played (the oldest first).
///
/// # Example
/// ```
/// use gametree::hidden_board::{MoveList, listsubt};
/// let v = MoveList::from_game_order(&[2, 1]);
/// let u = v.cons(5).cons(8);
/// assert_eq!(listsubt(&u, &v), vec![5, 8]);
/// ```
#[must_use]
pub fn listsubt<M: Copy>(u: &MoveList<M>, v: &MoveList<M>) -> Vec<M> {
    let mut moves = Vec::new();
    listsubt_into(u, u.len().saturating_sub(v.len()), &mut moves);
    moves
}

/// `listsubta` into a reused buffer: the first `n` moves of `u`, reversed.
fn listsubt_into<M: Copy>(u: &MoveList<M>, n: usize, moves: &mut Vec<M>) {
    moves.clear();
    moves.extend(u.iter().take(n).copied());
    moves.reverse();
}

/// The board and the list of moves it stands at (the seed's global tables and `p1`).
struct Board<G: Game> {
    game: G,
    current: MoveList<G::Move>,
    /// The moves `rectify` is about to play: a buffer reused between calls.
    pending: Vec<G::Move>,
}

impl<G: Game> Board<G> {
    /// McCarthy's `rectify`: take back moves until the board stands at the common tail of
    /// `position` and `p1`, then play the rest of `position`'s moves.
    fn rectify(&mut self, position: &MoveList<G::Move>) {
        if self.current.shares(position) {
            return;
        }
        let common = commontail(position, &self.current);
        // L1: `qif q = p1 qthen qgo L2; revert[]`. `q` is a tail of `p1`, so equal lengths
        // mean equal lists.
        while self.current.len() > common.len() {
            let last = self
                .current
                .ext()
                .expect("invariant: a longer list is not empty");
            self.game.revert(last);
            self.current = self.current.rest();
        }
        // L2, L3: `z ← listsubt[p, p1]`, then `update` each move of `z`.
        listsubt_into(position, position.len() - common.len(), &mut self.pending);
        for &mv in &self.pending {
            self.game.update(mv);
        }
        self.current = position.clone();
    }
}

/// A make/unmake board hidden behind positions given as [`MoveList`]s: McCarthy's
/// functional interface, where `successors p` returns positions and `ter`, `imval` take a
/// position, over any [`Game`].
///
/// Every method first [`HiddenBoard::rectify`]s the board to the position it is given.
/// The board is kept in a [`RefCell`], as the seed keeps it in global variables, so the
/// functional interface takes `&self`.
///
/// # Example
/// McCarthy's `valmax`/`valmin` written over positions, as the seed writes them:
/// ```
/// use gametree::hidden_board::{HiddenBoard, MoveList};
/// use gametree::{Game, Player, tic_tac_toe::TicTacToe};
///
/// fn valmax(board: &HiddenBoard<TicTacToe>, p: &MoveList<u8>, mut alpha: i32, mut beta: i32) -> i32 {
///     if board.is_terminal(p, alpha, beta) {
///         return board.value(p);
///     }
///     let maximizing = board.to_move(p) == Player::Max;
///     for successor in board.successors(p) {
///         let s = valmax(board, &successor, alpha, beta);
///         if maximizing {
///             if s >= beta { return beta; }
///             if s > alpha { alpha = s; }
///         } else {
///             if s <= alpha { return alpha; }
///             if s < beta { beta = s; }
///         }
///     }
///     if maximizing { alpha } else { beta }
/// }
///
/// let board = HiddenBoard::new(TicTacToe::from_moves(&[2, 1]).unwrap());
/// assert_eq!(valmax(&board, &MoveList::new(), -1000, 1000), 0);
/// ```
pub struct HiddenBoard<G: Game> {
    board: RefCell<Board<G>>,
}

impl<G: Game> HiddenBoard<G> {
    /// Hides `game`: its present position becomes the empty list, the starting position.
    pub fn new(game: G) -> Self {
        HiddenBoard {
            board: RefCell::new(Board {
                game,
                current: MoveList::new(),
                pending: Vec::new(),
            }),
        }
    }

    /// McCarthy's `rectify p`: returns `position` unchanged, and makes it the board's
    /// position as a side effect, through `commontail`, `revert` and `update`.
    ///
    /// # Panics
    /// When called while the board is borrowed through [`HiddenBoard::game`].
    pub fn rectify(&self, position: &MoveList<G::Move>) -> MoveList<G::Move> {
        self.board.borrow_mut().rectify(position);
        position.clone()
    }

    /// Rectifies the board to `position` and runs `look` on it.
    fn at<R>(&self, position: &MoveList<G::Move>, look: impl FnOnce(&G) -> R) -> R {
        let mut board = self.board.borrow_mut();
        board.rectify(position);
        look(&board.game)
    }

    /// Whose turn it is at `position`.
    pub fn to_move(&self, position: &MoveList<G::Move>) -> Player {
        self.at(position, Game::to_move)
    }

    /// McCarthy's `successors p`: the positions one move after `position`, in the game's
    /// order. Each shares `position` as its tail.
    pub fn successors(&self, position: &MoveList<G::Move>) -> Vec<MoveList<G::Move>> {
        let mut moves = Vec::new();
        self.at(position, |game| game.successors(&mut moves));
        moves.into_iter().map(|mv| position.cons(mv)).collect()
    }

    /// McCarthy's `ter[p, alpha, beta]` at `position`: the game is over, or the window
    /// lets the search stop ([`Game::is_terminal`], [`Game::stops_early`]).
    pub fn is_terminal(
        &self,
        position: &MoveList<G::Move>,
        alpha: G::Value,
        beta: G::Value,
    ) -> bool {
        self.at(position, |game| crate::game::ter(game, alpha, beta))
    }

    /// Whether the game is over at `position` (the rules alone).
    pub fn is_over(&self, position: &MoveList<G::Move>) -> bool {
        self.at(position, |game| game.is_terminal())
    }

    /// Whether the window lets a search stop at `position` ([`Game::stops_early`]).
    pub fn stops_early(
        &self,
        position: &MoveList<G::Move>,
        alpha: G::Value,
        beta: G::Value,
    ) -> bool {
        self.at(position, |game| game.stops_early(alpha, beta))
    }

    /// McCarthy's `imval p` at `position`.
    pub fn value(&self, position: &MoveList<G::Move>) -> G::Value {
        self.at(position, Game::value)
    }

    /// The hidden board, wherever it stands now (see [`HiddenBoard::current`]).
    ///
    /// # Panics
    /// When the board is being rectified (never, outside this module's own calls).
    pub fn game(&self) -> Ref<'_, G> {
        Ref::map(self.board.borrow(), |board| &board.game)
    }

    /// The position the hidden board stands at: the seed's `p1`.
    pub fn current(&self) -> MoveList<G::Move> {
        self.board.borrow().current.clone()
    }

    /// The hidden board, left at [`HiddenBoard::current`].
    pub fn into_game(self) -> G {
        self.board.into_inner().game
    }
}

/// A [`Game`] whose positions are [`MoveList`]s over a [`HiddenBoard`]: `update` conses
/// the move onto the position and `revert` takes the tail, as seed 004's VALMAX "get new
/// positions by consing moves onto old positions and by cdring to revert"; `to_move`,
/// `successors`, `is_terminal` and `value` first rectify the hidden board.
///
/// The generic searches run through it unchanged and see the same game: same value, line,
/// proof, and the same `update` calls on the hidden board in the same order. Unlike the
/// direct board, each `update` allocates one list cell — the price of persistent positions.
///
/// # Example
/// ```
/// use gametree::hidden_board::HiddenBoardGame;
/// use gametree::{Window, alphabeta_value, tic_tac_toe::TicTacToe};
///
/// let mut direct = TicTacToe::from_moves(&[3, 1]).unwrap();
/// let mut hidden = HiddenBoardGame::new(TicTacToe::from_moves(&[3, 1]).unwrap());
/// let window = Window::new(-1000, 1000);
/// assert_eq!(alphabeta_value(&mut hidden, window).value, alphabeta_value(&mut direct, window).value);
/// assert_eq!(hidden.hidden_board().game().count(), direct.count());
/// ```
pub struct HiddenBoardGame<G: Game> {
    hidden: HiddenBoard<G>,
    position: MoveList<G::Move>,
}

impl<G: Game> HiddenBoardGame<G> {
    /// Hides `game` and starts at its present position (the empty list).
    pub fn new(game: G) -> Self {
        HiddenBoardGame {
            hidden: HiddenBoard::new(game),
            position: MoveList::new(),
        }
    }

    /// The current position, as a list of moves from the start, newest first.
    pub fn position(&self) -> &MoveList<G::Move> {
        &self.position
    }

    /// The hidden board and its functional interface.
    pub fn hidden_board(&self) -> &HiddenBoard<G> {
        &self.hidden
    }

    /// The hidden board, rectified to the current position.
    pub fn into_game(self) -> G {
        self.hidden.rectify(&self.position);
        self.hidden.into_game()
    }
}

impl<G: Game> Game for HiddenBoardGame<G> {
    type Move = G::Move;
    type Value = G::Value;

    fn to_move(&self) -> Player {
        self.hidden.to_move(&self.position)
    }

    fn successors(&self, moves: &mut Vec<G::Move>) {
        self.hidden
            .at(&self.position, |game| game.successors(moves));
    }

    fn is_terminal(&self) -> bool {
        self.hidden.is_over(&self.position)
    }

    fn stops_early(&self, alpha: G::Value, beta: G::Value) -> bool {
        self.hidden.stops_early(&self.position, alpha, beta)
    }

    fn value(&self) -> G::Value {
        self.hidden.value(&self.position)
    }

    /// `mv . p`: no move is made on the hidden board until the position is looked at.
    fn update(&mut self, mv: G::Move) {
        self.position = self.position.cons(mv);
    }

    /// `qd p`: the hidden board takes the move back at the next `rectify`.
    fn revert(&mut self, _mv: G::Move) {
        self.position = self.position.rest();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Window;
    use crate::search::alphabeta::{alphabeta_line, alphabeta_proof, alphabeta_value};
    use crate::search::minimax::minimax;
    use crate::search::test_tree::{Node, TreeGame, small};

    /// The literal definition: `reverse commonhead[reverse u, reverse v]`.
    fn commontail_as_printed(u: &[u8], v: &[u8]) -> Vec<u8> {
        commonhead(u, v).to_vec()
    }

    #[test]
    fn commontail_agrees_with_the_seeds_definition_on_every_short_pair() {
        // Every pair of games (in game order) of up to 4 moves over 3 symbols.
        let mut games: Vec<Vec<u8>> = vec![Vec::new()];
        let mut frontier = games.clone();
        for _ in 0..4 {
            let mut next = Vec::new();
            for game in &frontier {
                for mv in 1..=3 {
                    let mut longer = game.clone();
                    longer.push(mv);
                    next.push(longer);
                }
            }
            games.extend(next.iter().cloned());
            frontier = next;
        }
        for u in &games {
            for v in &games {
                let common =
                    commontail(&MoveList::from_game_order(u), &MoveList::from_game_order(v));
                assert_eq!(
                    common.to_game_order(),
                    commontail_as_printed(u, v),
                    "{u:?} {v:?}"
                );
            }
        }
    }

    #[test]
    fn commontail_of_positions_sharing_structure_is_their_shared_tail() {
        let root = MoveList::from_game_order(&[4, 4]);
        let left = root.cons(1).cons(2);
        let right = root.cons(3);
        assert!(commontail(&left, &right).shares(&root));
    }

    #[test]
    fn rectify_moves_the_board_between_distant_positions() {
        let board = HiddenBoard::new(small());
        let deep = MoveList::new().cons(2).cons(1);
        assert_eq!(board.rectify(&deep), deep);
        assert_eq!(board.game().path, vec![2, 1]);
        let other = MoveList::new().cons(1).cons(2);
        board.rectify(&other);
        assert_eq!(board.game().path, vec![1, 2]);
        board.rectify(&MoveList::new());
        assert!(board.game().path.is_empty());
    }

    #[test]
    fn successors_return_positions_sharing_the_parent() {
        let board = HiddenBoard::new(small());
        let root = MoveList::new();
        let children = board.successors(&root);
        assert_eq!(children.len(), 2);
        for (index, child) in children.iter().enumerate() {
            assert_eq!(child.ext(), Some(index + 1));
            assert!(child.rest().shares(&root));
        }
        assert_eq!(board.value(&children[1].cons(2)), 9);
    }

    #[test]
    fn searching_through_the_hidden_board_matches_the_direct_search() {
        let tree = || {
            use Node::{Inner, Leaf};
            TreeGame {
                root: Inner(vec![
                    Inner(vec![Leaf(3), Inner(vec![Leaf(7), Leaf(-1)]), Leaf(5)]),
                    Inner(vec![Leaf(2), Leaf(9)]),
                    Inner(vec![Inner(vec![Leaf(4)]), Leaf(6)]),
                ]),
                path: Vec::new(),
            }
        };
        for window in [Window::full(), Window::new(2, 5), Window::new(4, 4)] {
            let mut direct = tree();
            let mut hidden = HiddenBoardGame::new(tree());
            assert_eq!(
                alphabeta_value(&mut hidden, window).value,
                alphabeta_value(&mut direct, window).value
            );
            let (a, b) = (
                alphabeta_line(&mut hidden, window),
                alphabeta_line(&mut direct, window),
            );
            assert_eq!((a.value, a.principal_line), (b.value, b.principal_line));
            let (a, b) = (
                alphabeta_proof(&mut hidden, window),
                alphabeta_proof(&mut direct, window),
            );
            assert_eq!(
                (a.value, a.at_least, a.at_most),
                (b.value, b.at_least, b.at_most)
            );
        }
        let mut hidden = HiddenBoardGame::new(tree());
        assert_eq!(minimax(&mut hidden).value, minimax(&mut tree()).value);
        assert!(hidden.into_game().path.is_empty());
    }

    #[test]
    fn dropping_a_long_list_does_not_overflow_the_stack() {
        let mut position = MoveList::new();
        for mv in 0..1_000_000u32 {
            position = position.cons(mv);
        }
        assert_eq!(position.len(), 1_000_000);
        drop(position);
    }
}
