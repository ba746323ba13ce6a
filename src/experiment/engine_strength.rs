//! How strong the experiment's players are: a match of its 1&1 player against an
//! independent engine, named in the result directory's `engine.json`.
//!
//! A result about backing-up rules between weak players may not hold between strong ones,
//! so the report states the players' strength against an engine outside the project
//! (cake++ 1.22 in results/). The games are played by `examples/checkers_match.rs`, which
//! needs the engine; the report reads only its game file, so it regenerates anywhere.

use serde::{Deserialize, Serialize};

use super::{EloEstimate, MatchScore, ResultsDir};

/// `engine.json`: which games measure the 1&1 player against an engine, and how they were
/// played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineMatch {
    /// The project's player as it played, in words (its depth, quiescence and evaluation).
    pub player: String,
    /// The engine and its setting, in words.
    pub engine: String,
    /// The games, relative to the result directory: JSON lines, each with the `points` the
    /// project's player scored (1, ½ or 0), as `examples/checkers_match.rs` writes them.
    pub games: String,
    /// The command that played them.
    pub command: String,
}

/// An [`EngineMatch`] with the score its games add up to.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineStrength {
    /// What was played.
    pub description: EngineMatch,
    /// The project's player's wins, draws and losses.
    pub score: MatchScore,
}

/// One line of the game file: only the points are read.
#[derive(Deserialize)]
struct GamePoints {
    points: f64,
}

impl EngineStrength {
    /// Reads `engine.json` and the games it names; `Ok(None)` when the directory has no
    /// `engine.json`.
    ///
    /// # Errors
    /// A message naming the file that cannot be read or parsed, or a game whose points are
    /// not 0, ½ or 1.
    pub fn read(results: &ResultsDir) -> Result<Option<Self>, String> {
        let Some(description) = results.read_json::<EngineMatch>("engine.json")? else {
            return Ok(None);
        };
        let games: Vec<GamePoints> = results.read_jsonl(&description.games)?;
        let mut score = MatchScore::default();
        for (line, game) in games.iter().enumerate() {
            if ![0.0, 0.5, 1.0].contains(&game.points) {
                return Err(format!(
                    "{}: line {}: points {} is not 0, 0.5 or 1",
                    results.file(&description.games).display(),
                    line + 1,
                    game.points
                ));
            }
            score.record(game.points);
        }
        Ok(Some(Self { description, score }))
    }

    /// The sentence the report gives: the match, and the other player's strength as the sum
    /// of its Elo over 1&1 (`over_one_one`, from the equal-depth match) and 1&1's against
    /// the engine. `link` leads from the report to the result directory.
    #[must_use]
    pub fn sentence(&self, link: &str, over_one_one: Option<EloEstimate>) -> String {
        let Some(elo) = self.score.elo() else {
            return format!(
                "No game of {} against {} has been played yet.",
                self.description.player, self.description.engine
            );
        };
        let mut text = format!(
            "Measured: {} against {} scored {}/{}/{} (W/D/L), {:.3}, {:+.0} Elo [{:+.0}, {:+.0}] \
             over {} games ([{}]({link}/{})).",
            self.description.player,
            self.description.engine,
            self.score.wins,
            self.score.draws,
            self.score.losses,
            self.score.score().unwrap_or(0.5),
            elo.elo,
            elo.low,
            elo.high,
            self.score.games(),
            self.description.games.trim_start_matches("../"),
            self.description.games,
        );
        if let Some(difference) = over_one_one.filter(|difference| difference.elo.is_finite()) {
            text.push_str(&format!(
                " 2&2 at the same depth scored {:+.0} Elo against 1&1, so about {:+.0} against \
                 the engine: the sum of two measurements, not a match of its own.",
                difference.elo,
                elo.elo + difference.elo
            ));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn directory(name: &str, games: &str) -> (std::path::PathBuf, ResultsDir) {
        let root = std::env::temp_dir().join(format!(
            "gametree-engine-strength-{name}-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(root.join("run")).expect("a temporary directory");
        let description = EngineMatch {
            player: "1&1 alpha-beta at depth 6".to_string(),
            engine: "an engine at depth 7".to_string(),
            games: "../games.jsonl".to_string(),
            command: "checkers_match --depth 6".to_string(),
        };
        std::fs::write(
            root.join("run/engine.json"),
            serde_json::to_string(&description).expect("serializable"),
        )
        .expect("written");
        std::fs::write(root.join("games.jsonl"), games).expect("written");
        let results = ResultsDir::new(root.join("run"));
        (root, results)
    }

    #[test]
    fn the_score_is_read_from_the_named_game_file() {
        let (root, results) = directory(
            "read",
            "{\"index\":0,\"points\":1.0}\n{\"index\":1,\"points\":0.5}\n{\"index\":2,\"points\":0.0}\n{\"index\":3,\"points\":0.0}\n",
        );
        let strength = EngineStrength::read(&results)
            .expect("readable")
            .expect("present");
        assert_eq!(
            strength.score,
            MatchScore {
                wins: 1,
                draws: 1,
                losses: 2
            }
        );
        // 1.5 of 4 is 0.375: 400·log₁₀(0.375/0.625) = −89 Elo; 2&2 is +50 over 1&1.
        let over = EloEstimate {
            elo: 50.0,
            low: 0.0,
            high: 100.0,
        };
        let sentence = strength.sentence("../results/run", Some(over));
        assert!(
            sentence.contains("1/1/2 (W/D/L), 0.375, -89 Elo"),
            "{sentence}"
        );
        assert!(
            sentence.contains("about -39 against the engine"),
            "{sentence}"
        );
        assert!(
            sentence.contains("(../results/run/../games.jsonl)"),
            "{sentence}"
        );
        std::fs::remove_dir_all(root).ok();
    }

    #[test]
    fn no_file_is_no_strength_and_bad_points_are_refused() {
        let empty = std::env::temp_dir().join(format!(
            "gametree-engine-strength-none-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&empty).expect("a temporary directory");
        assert_eq!(EngineStrength::read(&ResultsDir::new(&empty)), Ok(None));
        std::fs::remove_dir_all(empty).ok();
        let (root, results) = directory("bad", "{\"points\":0.7}\n");
        let error = EngineStrength::read(&results).expect_err("0.7 is not a game's points");
        assert!(error.contains("line 1: points 0.7"), "{error}");
        std::fs::remove_dir_all(root).ok();
    }
}
