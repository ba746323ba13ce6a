//! `--engine alphabeta|mcts` and the Monte Carlo budget flags, shared by every game's
//! `best` and `play`.

use std::time::Duration;

use clap::{Args, ValueEnum};
use serde_json::{Value as Json, json};

use gametree::search::mcts::{Budget, MctsOptions, MctsResult};

use super::CliError;

/// The searches that choose the computer's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Engine {
    /// The game's exact search (alpha-beta or the solver built on it)
    Alphabeta,
    /// Monte Carlo tree search: UCT with random playouts and MCTS-Solver
    Mcts,
}

/// Playouts per move when neither `--playouts` nor `--time` is given.
pub const DEFAULT_PLAYOUTS: u64 = 100_000;

/// The longest `--time` accepted, in seconds: a day.
const LONGEST_TIME: f64 = 86_400.0;

/// `--engine`, `--playouts`, `--time`, `--seed`.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// The search that chooses the move
    #[arg(long, value_enum, default_value = "alphabeta")]
    pub engine: Engine,
    /// mcts: playouts per move [default: 100000]
    #[arg(long, value_name = "N", conflicts_with = "time")]
    pub playouts: Option<u64>,
    /// mcts: seconds per move instead of a number of playouts
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
    /// mcts: the seed of the random playouts (the same seed and playouts, the same move)
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
}

impl EngineArgs {
    /// Refuses Monte Carlo flags for alpha-beta, no playouts, and times that are not a
    /// positive number of seconds up to a day.
    pub fn check(&self) -> Result<(), CliError> {
        let usage = |text: String| Err(CliError::Usage(text));
        if self.engine == Engine::Alphabeta
            && (self.playouts.is_some() || self.time.is_some() || self.seed.is_some())
        {
            return usage("--playouts, --time and --seed apply to --engine mcts".into());
        }
        if self.playouts == Some(0) {
            return usage("--playouts 0: the search needs at least one playout".into());
        }
        if let Some(seconds) = self.time
            && !(seconds > 0.0 && seconds <= LONGEST_TIME)
        {
            return usage(format!(
                "--time {seconds}: expected a number of seconds above 0 and at most {LONGEST_TIME}"
            ));
        }
        Ok(())
    }

    /// The budget of each Monte Carlo search.
    pub fn budget(&self) -> Budget {
        match (self.time, self.playouts) {
            (Some(seconds), _) => Budget::Time(Duration::from_secs_f64(seconds)),
            (None, playouts) => Budget::Playouts(playouts.unwrap_or(DEFAULT_PLAYOUTS)),
        }
    }

    /// The Monte Carlo options: the seed (0 by default), the rest as the library has them.
    pub fn mcts_options(&self) -> MctsOptions {
        MctsOptions {
            seed: self.seed.unwrap_or(0),
            ..MctsOptions::default()
        }
    }

    /// What the Monte Carlo search did, for `best --json`: playouts, seed, each move's
    /// visits (by `name_of` the move), the tree's size, positions, time.
    pub fn mcts_json<M: Copy>(&self, result: &MctsResult<M>, name_of: impl Fn(M) -> Json) -> Json {
        let moves: Vec<Json> = result
            .moves
            .iter()
            .map(|statistics| {
                json!({
                    "move": name_of(statistics.mv),
                    "visits": statistics.visits,
                    "mean_reward": statistics.mean_reward,
                    "proven": statistics.proven.map(|proven| format!("{proven:?}").to_lowercase()),
                })
            })
            .collect();
        json!({
            "playouts": result.playouts,
            "seed": self.seed.unwrap_or(0),
            "moves": moves,
            "tree_nodes": result.tree_nodes,
            "nodes": result.stats.nodes,
            "microseconds": result.stats.elapsed.as_micros() as u64,
        })
    }
}

/// The text lines of a Monte Carlo search for `best`: playouts, speed, each move's visits.
pub fn mcts_text<M: Copy>(result: &MctsResult<M>, name_of: impl Fn(M) -> String) -> String {
    let mut text = format!(
        "playouts  {}\ntree      {} nodes\nvisits   ",
        result.playouts, result.tree_nodes
    );
    for statistics in &result.moves {
        let proven = match statistics.proven {
            Some(proven) => format!(" {}", format!("{proven:?}").to_lowercase()),
            None => String::new(),
        };
        text.push_str(&format!(
            " {}:{}{proven}",
            name_of(statistics.mv),
            statistics.visits
        ));
    }
    text
}
