//! McCarthy's alpha-beta programs (seed 000 "Game trees", seed 004): the value
//! (`valmax`/`valmin`), the value and main line (`linemax`/`linemin`), and the value with a
//! proof (`treemax`/`treemin`).
//!
//! All three are fail-hard as McCarthy wrote them: the value returned for a window (α, β)
//! is the minimax value clamped to the window when the game's `ter` ignores the window.
//! Which of `valmax` or `valmin` runs at a position is decided by [`crate::Game::to_move`].

mod aspiration;
mod dot;
mod line;
mod proof;
mod value;
mod verify;

pub use line::{LineResult, alphabeta_line};
pub use proof::{Proof, ProofId, ProofResult, ProofStep, alphabeta_proof};
pub use value::{ValueResult, alphabeta_value, alphabeta_value_observed};

pub(crate) use aspiration::aspiration_search;
pub use aspiration::{AspirationResult, AspirationValue, aspiration_value};
pub use verify::{Claim, VerifyError, VerifyFailure, verify, verify_result};
