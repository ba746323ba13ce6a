//! `gametree.ConnectFour`: Connect Four on bitboards, solved as `gametree connect4 solve`
//! and `analyze` solve it.

use std::time::Instant;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use gametree::text::excerpt;
use gametree::{ConnectFour, Player, SolveOptions, Solver};

use crate::InputError;
use crate::bind::bind_rust_game;
use crate::convert::{PyPlayer, check_table_mib};

bind_rust_game!(ConnectFour, |py, mv| u32::from(mv) + 1);

/// Connect Four on a board of `width` columns and `height` rows (7×6 by default): the
/// first player (X, MAX) moves first; moves are columns 1 to the width, a position the
/// digits of its moves ("4453"). Scores are for the player to move, as in Pascal Pons'
/// benchmarks: 0 a draw, positive a win (the sooner, the greater), negative a loss.
///
/// >>> ConnectFour("5554224333234511764415115").analyze()
/// [-8, -8, -8, -8, None, 4, -8]
#[pyclass(name = "ConnectFour", module = "gametree")]
pub struct PyConnectFour {
    /// The position.
    pub game: ConnectFour,
    /// The moves played, as digits.
    moves: String,
}

#[pymethods]
impl PyConnectFour {
    /// The position after `moves` (1-based column digits); InputError with the command
    /// line's message for a bad size or an illegal move.
    #[new]
    #[pyo3(signature = (moves = "", width = ConnectFour::WIDTH, height = ConnectFour::HEIGHT))]
    fn new(moves: &str, width: u32, height: u32) -> PyResult<Self> {
        let mut game = ConnectFour::with_size(width, height)
            .map_err(|error| InputError::new_err(error.to_string()))?;
        game.play_moves(moves)
            .map_err(|error| InputError::new_err(format!("{}: {error}", excerpt(moves))))?;
        Ok(PyConnectFour {
            game,
            moves: moves.to_string(),
        })
    }

    /// Plays a column (1 to the width) for the player to move.
    fn play(&mut self, column: u32) -> PyResult<()> {
        self.game
            .play(column)
            .map_err(|error| InputError::new_err(error.to_string()))?;
        self.moves.push_str(&column.to_string());
        Ok(())
    }

    /// The moves played, as digits.
    #[getter]
    fn moves(&self) -> String {
        self.moves.clone()
    }

    /// Columns of the board.
    #[getter]
    fn width(&self) -> u32 {
        self.game.width()
    }

    /// Rows of the board.
    #[getter]
    fn height(&self) -> u32 {
        self.game.height()
    }

    /// Stones played.
    #[getter]
    fn moves_played(&self) -> u32 {
        self.game.moves_played()
    }

    /// The player to move: Player.MAX for the first player.
    #[getter]
    fn to_move(&self) -> PyPlayer {
        gametree::Game::to_move(&self.game).into()
    }

    /// Whether someone has four in a row or the board is full.
    #[getter]
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The player with four in a row, or None.
    #[getter]
    fn winner(&self) -> Option<PyPlayer> {
        self.game.winner().map(PyPlayer::from)
    }

    /// Whether `column` (1-based) has room for a stone.
    fn can_play(&self, column: u32) -> bool {
        (1..=self.game.width()).contains(&column)
            && u8::try_from(column - 1).is_ok_and(|index| self.game.can_play(index))
    }

    fn __str__(&self) -> String {
        self.game.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "ConnectFour({:?}, width={}, height={})",
            self.moves,
            self.game.width(),
            self.game.height()
        )
    }

    /// The position's score with perfect play, as one line of `gametree connect4 solve
    /// --json`: {moves, score, value, nodes, microseconds} (value is the score from the
    /// first player's side). weak=True finds only the sign.
    #[pyo3(signature = (weak = false, table_mib = SolveOptions::default().table_mib))]
    fn solve<'py>(
        &mut self,
        py: Python<'py>,
        weak: bool,
        table_mib: usize,
    ) -> PyResult<Bound<'py, PyDict>> {
        self.check_not_over()?;
        let mut solver = solver(weak, table_mib)?;
        let game = &mut self.game;
        let (solution, elapsed) = py.detach(|| {
            let started = Instant::now();
            let solution = solver.solve(game);
            (solution, started.elapsed())
        });
        let dict = PyDict::new(py);
        dict.set_item("moves", &self.moves)?;
        dict.set_item("score", solution.score)?;
        dict.set_item("value", solution.value)?;
        dict.set_item("nodes", solution.stats.nodes)?;
        dict.set_item(
            "microseconds",
            u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX),
        )?;
        Ok(dict)
    }

    /// The score of every column for the player to move (None for a full column), as
    /// `gametree connect4 analyze` prints them.
    #[pyo3(signature = (weak = false, table_mib = SolveOptions::default().table_mib))]
    fn analyze(
        &mut self,
        py: Python<'_>,
        weak: bool,
        table_mib: usize,
    ) -> PyResult<Vec<Option<i32>>> {
        self.check_not_over()?;
        let mut solver = solver(weak, table_mib)?;
        let width = self.game.width() as usize;
        let game = &mut self.game;
        Ok(py.detach(|| {
            let mut scores = vec![None; width];
            for (column, solution) in solver.analyze(game) {
                scores[usize::from(column)] = Some(solution.score);
            }
            scores
        }))
    }
}

impl PyConnectFour {
    /// `gametree connect4`'s refusal of a finished game.
    fn check_not_over(&self) -> PyResult<()> {
        if !self.game.is_over() {
            return Ok(());
        }
        let how = match self.game.winner() {
            Some(Player::Max) => "the first player has four in a row",
            Some(Player::Min) => "the second player has four in a row",
            None => "the board is full",
        };
        Err(InputError::new_err(format!(
            "{}: the game is over after move {} ({how}): there is nothing to solve",
            excerpt(&self.moves),
            self.game.moves_played()
        )))
    }
}

fn solver(weak: bool, table_mib: usize) -> PyResult<Solver<ConnectFour>> {
    check_table_mib(table_mib)?;
    Ok(Solver::new(SolveOptions {
        weak,
        table_mib,
        ..SolveOptions::default()
    }))
}
