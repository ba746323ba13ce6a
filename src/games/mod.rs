//! Games searched by the game-independent control programs: McCarthy's tic-tac-toe
//! (seed 000).

pub mod tic_tac_toe;
