//! `gametree.Kalah`: Kalah(h, s), the game of Slagle and Dixon's M&N experiments, solved
//! as `gametree kalah solve`, `analyze` and `perft` solve it.

use std::time::Instant;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use gametree::games::kalah::{Ending, Kalah, KalahRules};
use gametree::text::excerpt;
use gametree::{Game, Player, SolveOptions, Solver};

use crate::InputError;
use crate::bind::{BindSearch, bind_rust_game};
use crate::convert::{PyPlayer, check_table_mib};

bind_rust_game!(Kalah, |py, mv| u32::from(mv) + 1);

impl BindSearch for Kalah {}

/// The deepest perft accepted (as `gametree kalah perft`).
const MAX_PERFT_DEPTH: u32 = 64;

/// Kalah(houses, seeds): South (MAX) moves first; a move is the house the player to move
/// sows, 1 to `houses` from the mover's left; a last seed in the mover's store gives
/// another move. Values are South's store less North's at the end of the game.
///
/// `rules` is "irving" (a last seed in an empty own house captures even when the opposite
/// house is empty; Irving, Donkers and Uiterwijk 2000) or "standard"; `ending` is
/// "either-side-empty" or "mover-has-no-seeds". `moves` plays houses from the start
/// ("3,1,4" or a list); `position` gives the pits in sowing order (South's houses, South's
/// store, North's houses, North's store) and "S" or "N": "4,4,4,4,4,4,0,4,4,4,4,4,4,0,S".
///
/// >>> Kalah(houses=3, seeds=2).analyze()
/// [-8, 4, 0]
#[pyclass(name = "Kalah", module = "gametree")]
pub struct PyKalah {
    /// The position.
    pub game: Kalah,
}

#[pymethods]
impl PyKalah {
    /// The position asked for; InputError with the command line's message when a move or
    /// the position is wrong.
    #[new]
    #[pyo3(signature = (houses = 6, seeds = 4, rules = "irving", ending = "either-side-empty", moves = None, position = None))]
    fn new(
        houses: usize,
        seeds: u8,
        rules: &str,
        ending: &str,
        moves: Option<&Bound<'_, PyAny>>,
        position: Option<&str>,
    ) -> PyResult<Self> {
        let rules = parse_rules(rules, ending)?;
        if let Some(text) = position {
            if moves.is_some() {
                return Err(InputError::new_err("give moves or position, not both"));
            }
            let game = parse_position(text, rules).map_err(InputError::new_err)?;
            return Ok(PyKalah { game });
        }
        let mut game = Kalah::new(houses, seeds, rules)
            .map_err(|error| InputError::new_err(error.to_string()))?;
        let moves: String = match moves {
            None => String::new(),
            Some(moves) => match moves.extract::<String>() {
                Ok(text) => text,
                Err(_) => {
                    let houses: Vec<i64> = moves.extract().map_err(|_| {
                        pyo3::exceptions::PyTypeError::new_err(
                            "moves must be a list of house numbers or text such as \"3,1,4\"",
                        )
                    })?;
                    houses
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(",")
                }
            },
        };
        for (index, field) in moves.split(',').enumerate() {
            let field = field.trim();
            if field.is_empty() && moves.trim().is_empty() {
                break;
            }
            let house: usize = field.parse().map_err(|_| {
                InputError::new_err(format!(
                    "moves: move {} ({}) is not a house number",
                    index + 1,
                    excerpt(field)
                ))
            })?;
            game.play(house).map_err(|error| {
                InputError::new_err(format!("moves: move {}: {error}", index + 1))
            })?;
        }
        Ok(PyKalah { game })
    }

    /// Sows `house` (1-based, from the mover's left) for the player to move.
    fn play(&mut self, house: usize) -> PyResult<()> {
        self.game
            .play(house)
            .map_err(|error| InputError::new_err(error.to_string()))
    }

    /// The position in the notation of `position`.
    #[getter]
    fn position(&self) -> String {
        position_text(&self.game)
    }

    /// The pits in sowing order: South's houses, South's store, North's houses, North's
    /// store.
    #[getter]
    fn pits(&self) -> Vec<u32> {
        self.game
            .pits()
            .iter()
            .map(|&seeds| u32::from(seeds))
            .collect()
    }

    /// Houses a side.
    #[getter]
    fn houses(&self) -> usize {
        self.game.houses()
    }

    /// The player to move: Player.MAX for South.
    #[getter]
    fn to_move(&self) -> PyPlayer {
        self.game.player_to_move().into()
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// South's store less North's (the final margin once the game is over).
    #[getter]
    fn value(&self) -> i32 {
        self.game.value()
    }

    fn __str__(&self) -> String {
        self.game.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Kalah(position={:?}, rules={:?})",
            position_text(&self.game),
            rules_name(self.game.rules())
        )
    }

    /// The value with perfect play and the best moves, as `gametree kalah solve --json`:
    /// {position, rules, value, best_moves, nodes, seconds} (`seconds` here includes the
    /// best moves' search).
    #[pyo3(signature = (table_mib = SolveOptions::default().table_mib))]
    fn solve<'py>(&mut self, py: Python<'py>, table_mib: usize) -> PyResult<Bound<'py, PyDict>> {
        let mut solver = solver(table_mib)?;
        let game = &mut self.game;
        let (value, best, nodes, seconds) = py.detach(|| {
            let started = Instant::now();
            let root = solver.solve(game);
            let (best_moves, _) = solver.best_moves(game, root.value);
            let mut best: Vec<usize> = best_moves.iter().map(|&mv| usize::from(mv) + 1).collect();
            best.sort_unstable();
            (
                root.value,
                best,
                root.stats.nodes,
                started.elapsed().as_secs_f64(),
            )
        });
        let dict = PyDict::new(py);
        dict.set_item("position", position_text(&self.game))?;
        dict.set_item("rules", rules_name(self.game.rules()))?;
        dict.set_item("value", value)?;
        dict.set_item("best_moves", best)?;
        dict.set_item("nodes", nodes)?;
        dict.set_item("seconds", seconds)?;
        Ok(dict)
    }

    /// The value of every move (South's final margin after it, with perfect play), None
    /// for an empty house, as `gametree kalah analyze` prints them.
    #[pyo3(signature = (table_mib = SolveOptions::default().table_mib))]
    fn analyze(&mut self, py: Python<'_>, table_mib: usize) -> PyResult<Vec<Option<i32>>> {
        if self.game.is_over() {
            return Err(InputError::new_err(format!(
                "{}: the game is over; there is no move to analyse",
                position_text(&self.game)
            )));
        }
        let mut solver = solver(table_mib)?;
        let houses = self.game.houses();
        let game = &mut self.game;
        Ok(py.detach(|| {
            let mut values = vec![None; houses];
            for (mv, solution) in solver.analyze(game) {
                values[usize::from(mv)] = Some(solution.value);
            }
            values
        }))
    }

    /// Positions `depth` moves ahead (every sowing a move, extra moves included).
    fn perft(&mut self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        if depth > MAX_PERFT_DEPTH {
            return Err(InputError::new_err(format!(
                "perft depth {depth} is too deep (at most {MAX_PERFT_DEPTH})"
            )));
        }
        let game = &mut self.game;
        Ok(py.detach(|| count_leaves(game, depth, &mut Vec::new())))
    }
}

fn parse_rules(rules: &str, ending: &str) -> PyResult<KalahRules> {
    let base = match rules {
        "irving" => KalahRules::irving(),
        "standard" => KalahRules::standard(),
        other => {
            return Err(InputError::new_err(format!(
                "rules must be \"irving\" or \"standard\", not {other:?}"
            )));
        }
    };
    let ending = match ending {
        "either-side-empty" => Ending::EitherSideEmpty,
        "mover-has-no-seeds" => Ending::MoverHasNoSeeds,
        other => {
            return Err(InputError::new_err(format!(
                "ending must be \"either-side-empty\" or \"mover-has-no-seeds\", not {other:?}"
            )));
        }
    };
    Ok(KalahRules { ending, ..base })
}

/// Reads `PITS,...,S|N` (as `gametree kalah --position`); every error names the field.
fn parse_position(text: &str, rules: KalahRules) -> Result<Kalah, String> {
    let fields: Vec<&str> = text.split(',').map(str::trim).collect();
    let Some((side, pits)) = fields.split_last() else {
        return Err("position: empty".into());
    };
    let to_move = match *side {
        "S" | "s" => Player::Max,
        "N" | "n" => Player::Min,
        other => {
            return Err(format!(
                "position: field {} ({}) must be S or N, the player to move",
                fields.len(),
                excerpt(other)
            ));
        }
    };
    let mut counts = Vec::with_capacity(pits.len());
    for (index, field) in pits.iter().enumerate() {
        counts.push(field.parse::<u8>().map_err(|_| {
            format!(
                "position: field {} ({}) is not a number of seeds 0 to 255",
                index + 1,
                excerpt(field)
            )
        })?);
    }
    Kalah::from_pits(&counts, to_move, rules).map_err(|error| format!("position: {error}"))
}

/// The position in the notation of `position`.
fn position_text(game: &Kalah) -> String {
    let mut fields: Vec<String> = game.pits().iter().map(ToString::to_string).collect();
    fields.push(
        match game.player_to_move() {
            Player::Max => "S",
            Player::Min => "N",
        }
        .to_string(),
    );
    fields.join(",")
}

fn rules_name(rules: KalahRules) -> &'static str {
    if rules.empty_capture {
        "irving"
    } else {
        "standard"
    }
}

fn solver(table_mib: usize) -> PyResult<Solver<Kalah>> {
    check_table_mib(table_mib)?;
    Ok(Solver::new(SolveOptions {
        table_mib,
        // As `gametree kalah solve`: enhanced transposition cutoffs cost Kalah more than
        // they save (docs/kalah.md).
        enhanced_transposition_cutoffs: false,
        ..SolveOptions::default()
    }))
}

/// Leaves `depth` moves below `game`.
fn count_leaves(game: &mut Kalah, depth: u32, moves: &mut Vec<Vec<u8>>) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut buffer = moves.pop().unwrap_or_default();
    buffer.clear();
    game.successors(&mut buffer);
    let mut leaves = 0;
    for &mv in &buffer {
        game.update(mv);
        leaves += count_leaves(game, depth - 1, moves);
        game.revert(mv);
    }
    moves.push(buffer);
    leaves
}
