//! # Writing your own game
//!
//! gametree's searches never know the game (McCarthy's separation, seed 000): a game is the
//! [`Game`](crate::Game) trait — McCarthy's `successors`, `ter`, `imval`, and the hidden
//! board's `update` and `revert` — and optional capabilities for what some searches need.
//! This chapter writes a small game from nothing and runs every search on it. A longer
//! example, Dots and Boxes, is `examples/own_game.rs` (`cargo run --release --example
//! own_game`).
//!
//! ## 1. The rules: `Game`
//!
//! The game here is a Nim with an extra turn: a heap of stones, each move takes 1, 2 or 3;
//! taking exactly 3 lets the same player move again; whoever takes the last stone wins.
//! Values are from MAX's side: +1 when MAX wins, −1 when MIN wins.
//!
//! ```
//! use gametree::prelude::*;
//!
//! #[derive(Clone, Debug)]
//! pub struct Nim {
//!     stones: u32,
//!     to_move: Player,
//!     /// Who moved before each move: what `revert` needs to undo it. The search plays a
//!     /// move with `update` and takes it back with `revert`, on one board (the seed's
//!     /// hidden board trick), so a game keeps what it cannot recompute.
//!     movers: Vec<Player>,
//! }
//!
//! impl Nim {
//!     pub fn new(stones: u32) -> Self {
//!         Nim { stones, to_move: Player::Max, movers: Vec::new() }
//!     }
//! }
//!
//! impl Game for Nim {
//!     type Move = u32; // stones taken
//!     type Value = i32;
//!
//!     /// Asked at every position: players need not alternate.
//!     fn to_move(&self) -> Player {
//!         self.to_move
//!     }
//!
//!     /// The moves, in the order the search tries them: move ordering lives here.
//!     fn successors(&self, moves: &mut Vec<u32>) {
//!         moves.extend((1..=3).rev().filter(|&take| take <= self.stones));
//!     }
//!
//!     /// McCarthy's `ter`: the window (alpha, beta) lets a game stop early; most ignore it.
//!     fn is_terminal(&self) -> bool {
//!         self.stones == 0
//!     }
//!
//!     /// McCarthy's `imval`, at a terminal position: the player who took the last stone
//!     /// won, and that is the one who just moved — not to move now.
//!     fn value(&self) -> i32 {
//!         let winner = *self.movers.last().expect("a finished game had a move");
//!         if winner == Player::Max { 1 } else { -1 }
//!     }
//!
//!     fn update(&mut self, take: u32) {
//!         self.movers.push(self.to_move);
//!         self.stones -= take;
//!         if take != 3 {
//!             self.to_move = self.to_move.opponent();
//!         }
//!     }
//!
//!     fn revert(&mut self, take: u32) {
//!         self.stones += take;
//!         self.to_move = self.movers.pop().expect("revert follows update");
//!     }
//! }
//!
//! // Alpha-beta to the end of the game, with the main line: McCarthy's linemax.
//! let mut nim = Nim::new(7);
//! let result = Search::new(&mut nim).run_to_end();
//! assert_eq!(result.value, Some(1));
//! assert_eq!(result.principal_line.first(), result.best_move.as_ref());
//! // The reference every search is tested against: plain minimax.
//! assert_eq!(gametree::minimax(&mut nim).value, 1);
//! ```
//!
//! A check worth copying into your tests: every search must agree with
//! [`minimax`](crate::minimax) on positions small enough for it, and `update` followed by
//! `revert` must give back the same position.
//!
//! ## 2. Deeper than the end is in sight: `Evaluate`
//!
//! A depth-limited search values the positions at its horizon with
//! [`Evaluate::evaluate`](crate::Evaluate::evaluate); then [`Search::run`](crate::Search::run)
//! deepens iteratively, each depth ordered by the last (principal line first, killers),
//! within a depth, a time or a node budget, and always returns a move.
//!
//! ```
//! # use gametree::prelude::*;
//! # #[derive(Clone, Debug)] pub struct Nim { stones: u32, to_move: Player, movers: Vec<Player> }
//! # impl Nim { pub fn new(stones: u32) -> Self { Nim { stones, to_move: Player::Max, movers: Vec::new() } } }
//! # impl Game for Nim {
//! #     type Move = u32; type Value = i32;
//! #     fn to_move(&self) -> Player { self.to_move }
//! #     fn successors(&self, moves: &mut Vec<u32>) { moves.extend((1..=3).rev().filter(|&t| t <= self.stones)); }
//! #     fn is_terminal(&self) -> bool { self.stones == 0 }
//! #     fn value(&self) -> i32 { if *self.movers.last().unwrap() == Player::Max { 1 } else { -1 } }
//! #     fn update(&mut self, t: u32) { self.movers.push(self.to_move); self.stones -= t; if t != 3 { self.to_move = self.to_move.opponent(); } }
//! #     fn revert(&mut self, t: u32) { self.stones += t; self.to_move = self.movers.pop().unwrap(); }
//! # }
//! use std::time::Duration;
//!
//! impl Evaluate for Nim {
//!     /// No opinion before the end: every unfinished position is worth 0.
//!     fn evaluate(&self) -> i32 {
//!         0
//!     }
//! }
//!
//! let mut nim = Nim::new(40);
//! let result = Search::new(&mut nim)
//!     .depth(30)
//!     .time_limit(Duration::from_secs(5))
//!     .run();
//! assert!(result.best_move.is_some());
//! assert!(result.depth >= 1);
//! ```
//!
//! ## 3. A transposition table and the solver: `PositionKey`, `Solvable`
//!
//! Positions reached by different move orders meet in a
//! [`TranspositionTable`](crate::TranspositionTable) when the game gives each position a
//! 64-bit key ([`PositionKey`](crate::PositionKey); any key that differs between positions
//! that differ in value will do — here, exact). With a key and integer values the game is
//! [`Solvable`](crate::Solvable): [`Search::solve`](crate::Search::solve) finds its exact
//! value by null-window searches.
//!
//! ```
//! # use gametree::prelude::*;
//! # #[derive(Clone, Debug)] pub struct Nim { stones: u32, to_move: Player, movers: Vec<Player> }
//! # impl Nim { pub fn new(stones: u32) -> Self { Nim { stones, to_move: Player::Max, movers: Vec::new() } } }
//! # impl Game for Nim {
//! #     type Move = u32; type Value = i32;
//! #     fn to_move(&self) -> Player { self.to_move }
//! #     fn successors(&self, moves: &mut Vec<u32>) { moves.extend((1..=3).rev().filter(|&t| t <= self.stones)); }
//! #     fn is_terminal(&self) -> bool { self.stones == 0 }
//! #     fn value(&self) -> i32 { if *self.movers.last().unwrap() == Player::Max { 1 } else { -1 } }
//! #     fn update(&mut self, t: u32) { self.movers.push(self.to_move); self.stones -= t; if t != 3 { self.to_move = self.to_move.opponent(); } }
//! #     fn revert(&mut self, t: u32) { self.stones += t; self.to_move = self.movers.pop().unwrap(); }
//! # }
//! # impl Evaluate for Nim { fn evaluate(&self) -> i32 { 0 } }
//! impl PositionKey for Nim {
//!     /// The stones left, who is to move, and who moved last (the value of a finished
//!     /// game depends on it).
//!     fn hash_key(&self) -> u64 {
//!         let code = |player: Option<&Player>| match player {
//!             None => 0,
//!             Some(Player::Max) => 1,
//!             Some(Player::Min) => 2,
//!         };
//!         u64::from(self.stones) << 4
//!             | code(Some(&self.to_move)) << 2
//!             | code(self.movers.last())
//!     }
//! }
//!
//! // Nothing more to say to the solver: the default outlook asks `is_terminal`.
//! impl Solvable for Nim {
//!     type Candidates = ();
//! }
//!
//! let mut nim = Nim::new(25);
//! let mut table = TranspositionTable::with_mib(1);
//! let deepened = Search::new(&mut nim).table(&mut table).run();
//! let solved = Search::new(&mut nim).solve();
//! assert_eq!(deepened.value, solved.value);
//! ```
//!
//! ## 4. Slagle's m&n: `run_m_and_n`
//!
//! [`Search::run_m_and_n`](crate::Search::run_m_and_n) backs up a MAX position's m best
//! successor values and a MIN position's n best through Slagle's function a₁ + 2^(x − (a₁ −
//! a₂)·y) (seed 003); choose x and y in the units of your values — and monotone
//! ((m − 1)·y·2^x·ln 2 ≤ 1) to give m&n alpha-beta its extra cutoffs.
//!
//! ```
//! # use gametree::prelude::*;
//! # #[derive(Clone, Debug)] pub struct Nim { stones: u32, to_move: Player, movers: Vec<Player> }
//! # impl Nim { pub fn new(stones: u32) -> Self { Nim { stones, to_move: Player::Max, movers: Vec::new() } } }
//! # impl Game for Nim {
//! #     type Move = u32; type Value = i32;
//! #     fn to_move(&self) -> Player { self.to_move }
//! #     fn successors(&self, moves: &mut Vec<u32>) { moves.extend((1..=3).rev().filter(|&t| t <= self.stones)); }
//! #     fn is_terminal(&self) -> bool { self.stones == 0 }
//! #     fn value(&self) -> i32 { if *self.movers.last().unwrap() == Player::Max { 1 } else { -1 } }
//! #     fn update(&mut self, t: u32) { self.movers.push(self.to_move); self.stones -= t; if t != 3 { self.to_move = self.to_move.opponent(); } }
//! #     fn revert(&mut self, t: u32) { self.stones += t; self.to_move = self.movers.pop().unwrap(); }
//! # }
//! # impl Evaluate for Nim { fn evaluate(&self) -> i32 { 0 } }
//! let tenth = Exponents::new(-3.0, 1.0)?; // a bonus of at most 1/8 of a win
//! let two_and_two = Slagle::new(2, 2, tenth, tenth)?;
//! let mut nim = Nim::new(9);
//! let result = Search::new(&mut nim).depth(6).run_m_and_n(&two_and_two);
//! assert!(result.best_move.is_some());
//! // 1&1 is ordinary minimaxing.
//! let plain = Search::new(&mut nim).depth(9).run_m_and_n(&Slagle::one_and_one());
//! assert_eq!(plain.value, Some(1.0));
//! # Ok::<(), gametree::BackingUpError>(())
//! ```
//!
//! ## 5. What else a game may tell
//!
//! - [`Solvable::outlook`](crate::Solvable::outlook) and
//!   [`Solvable::search_moves`](crate::Solvable::search_moves): bounds on the value and moves
//!   not worth searching, which save the solver most of its work (Connect Four's and Kalah's
//!   implementations show how).
//! - [`PositionKey::hash_key_after`](crate::PositionKey::hash_key_after): the key after a
//!   move without playing it, for the solver's enhanced transposition cutoffs; with
//!   [`KEY_AFTER_IS_CHEAP`](crate::PositionKey::KEY_AFTER_IS_CHEAP) set, the depth-limited
//!   search also loads the next move's table entry while it searches the current one.
//! - [`UndoableGame`](crate::UndoableGame) and [`Undoing`](crate::Undoing): a game whose
//!   moves return what undoing them needs (a token, or the whole previous position:
//!   copy-make) instead of keeping its own history for [`Game::revert`](crate::Game::revert).
//! - The searches over closures, for puzzles rather than games:
//!   [`puzzle_search`](crate::puzzle_search) and [`all_solutions`](crate::all_solutions)
//!   (seed 001's `search` and `allsol`).
