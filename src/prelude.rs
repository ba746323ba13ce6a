//! The items nearly every program written against gametree uses, for a glob import:
//!
//! ```
//! use gametree::prelude::*;
//! ```
//!
//! The game interface ([`Game`], [`Evaluate`], [`Player`], [`Value`]), the one entry point to
//! the searches ([`Search`] and its [`SearchResult`]), windows and bounds, the
//! transposition table and position keys, the solver's interface, and Slagle's backing-up
//! functions. Games and puzzles stay in their modules ([`crate::games`], [`crate::puzzles`]).

pub use crate::game::{Evaluate, Game, Player, Value};
pub use crate::search::builder::{Search, SearchResult};
pub use crate::search::deepening::{Iteration, StopReason};
pub use crate::search::m_and_n::{BackingUp, Exponents, Slagle};
pub use crate::search::solver::{Outlook, Solvable};
pub use crate::search::transposition::{PositionKey, TranspositionTable};
pub use crate::search::{Bound, SearchStats, Window};
