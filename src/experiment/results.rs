//! The result files of a run, in one directory, written as each item finishes so that a
//! rerun continues where the last one stopped (needs the default `cli` feature).
//!
//! | file | what |
//! |---|---|
//! | `config.json` | the configuration; a rerun must match it |
//! | `positions.fen` | the typical positions, PDN FEN one a line |
//! | `deep-values.jsonl` | v⁽ᵏ⁾ of each position, one JSON object a line |
//! | `samples.jsonl` | a₂, α and v of each position at each dmax |
//! | `fits.json`, `fits.csv`, `fit-dmax-K.svg` | the fitted functions and their charts |
//! | `parameters.json` | the learned functions ([`super::SlagleParameters`]) |
//! | `calibration.json` | 2&2's and 1&1's nodes per search at depth D |
//! | `games.jsonl` | every finished game ([`super::GameRecord`]), PDN included |
//! | `games-equal-*.pdn` | the games of each match as PDN files |
//! | `matches.json`, `matches.csv` | W/D/L, score, Elo of each match |
//! | `positions.txt`, `grading-positions.txt` | Kalah: typical and graded positions, pits notation |
//! | `grades.jsonl` | Kalah: each graded position's exact move values and graded moves |
//! | `grading.json`, `grading.csv`, `grading-*.svg` | Kalah: share and loss per player and depth |
//! | `run.json` | the machine and the time each phase took, over all reruns |

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::fitting::Fit;
use super::game::ExperimentEvaluation;
use super::positions::SamplingConfig;
use crate::game::Player;

/// The `format` of `config.json`.
pub const EXPERIMENT_FORMAT: &str = "gametree-slagle-experiment/1";

/// What a run computes; a rerun into the same directory must have the same.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExperimentConfig {
    /// Always [`EXPERIMENT_FORMAT`].
    pub format: String,
    /// D: the full depth (Slagle's 8).
    pub depth: u32,
    /// Typical positions asked for.
    pub positions: usize,
    /// The seed of the self-play games.
    pub seed: u64,
    /// Where the openings come from.
    pub openings_source: String,
    /// The openings, by name (with their moves).
    pub openings: Vec<String>,
    /// How the self-play games are played.
    pub sampling: SamplingConfig,
    /// Whether the fit is held to Slagle's monotonicity condition.
    pub monotone: bool,
    /// Typical positions searched by 2&2 and 1&1 at depth D to compare their costs.
    pub calibration_positions: usize,
    /// Plies after the opening at which a match game is scored a draw.
    pub max_plies: u32,
    /// Quiescence plies in every search (checkers); 0, and absent from older files, none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub quiescence_plies: u32,
    /// The evaluation of every search (checkers); Samuel's, and absent from older files,
    /// by default.
    #[serde(default, skip_serializing_if = "ExperimentEvaluation::is_samuel")]
    pub evaluation: ExperimentEvaluation,
    /// Whether the calibration and both match players order their moves (killers and the
    /// history heuristic below the root); absent, and false, in older files.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ordered: bool,
    /// The typical positions' shares, in percent, of openings, middle games and endgames
    /// ([`super::Phase`]), when they were sampled in stated proportions; absent, and
    /// as self-play gives them, in older files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase_shares: Option<[u32; 3]>,
    /// The Kalah board and the grading, for a run on Kalah; absent on checkers (so a
    /// checkers `config.json` reads and writes as before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kalah: Option<KalahConfig>,
}

/// Whether a flag is off (such fields are left out of `config.json`).
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_false(flag: &bool) -> bool {
    !*flag
}

/// Whether a count is 0 (such fields are left out of `config.json`).
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(count: &u32) -> bool {
    *count == 0
}

/// What a run on Kalah adds to [`ExperimentConfig`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KalahConfig {
    /// Houses a side.
    pub houses: usize,
    /// Seeds a house at the start.
    pub seeds: u8,
    /// The rules: `irving` (the default of `gametree kalah`).
    pub rules: String,
    /// Random moves from the start that make an opening.
    pub opening_plies: usize,
    /// Positions whose every move is graded against perfect play.
    pub grading_positions: usize,
    /// The most seeds a graded position has left in its houses (so that the solver
    /// values every move in moments).
    pub grading_max_seeds: u32,
    /// The seeds of the endgame table the solver uses; a graded position has more left
    /// in its houses, so that no graded position is simply looked up.
    pub endgame_seeds: u32,
    /// Graded depths: 1 to this.
    pub grading_depth: u32,
}

/// One position's v⁽ᵏ⁾, from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeepValue {
    /// The position's index.
    pub position: usize,
    /// Its 1&1 value at depth D, from the side to move.
    pub value: f64,
    /// Positions the search visited.
    pub nodes: u64,
}

/// One fitted dmax, as `fits.json` holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitRow {
    /// Plies below each successor.
    pub dmax: u32,
    /// The kind of position section 8 learns this dmax at.
    pub kind: String,
    /// The fit.
    pub fit: Fit,
    /// Positions left out because a value was a won or lost game.
    pub decided: usize,
}

impl FitRow {
    /// A row for `dmax`, learned at positions of `kind`.
    #[must_use]
    pub fn new(dmax: u32, kind: Player, fit: Fit, decided: usize) -> Self {
        FitRow {
            dmax,
            kind: match kind {
                Player::Max => "MAX",
                Player::Min => "MIN",
            }
            .to_string(),
            fit,
            decided,
        }
    }
}

/// What a search at depth D costs each side on typical positions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    /// Typical positions searched.
    pub positions: usize,
    /// 2&2's mean positions visited per search at depth D.
    pub two_two_mean_nodes: f64,
    /// 1&1's mean positions visited per search at depth D, on the same positions.
    pub one_one_mean_nodes: f64,
    /// 1&1's mean positions visited per search at depths D + 1, D + 2, …, on the same
    /// positions, as far as needed to pass 2&2's mean.
    pub one_one_deeper_mean_nodes: Vec<(u32, f64)>,
    /// The depth of 1&1 whose mean is nearest 2&2's (by ratio): its depth in the
    /// equal-cost-by-depth match.
    pub deeper_depth: u32,
}

/// The machine and the time spent, summed over every invocation that wrote to the
/// directory.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunLog {
    /// The processor, as the system names it.
    pub machine: String,
    /// Cores the system reports.
    pub cores: usize,
    /// Worker threads of the last invocation.
    pub jobs: usize,
    /// Wall-clock seconds per phase, over all invocations.
    pub seconds: BTreeMap<String, f64>,
    /// Invocations that wrote to the directory.
    pub invocations: u32,
    /// Shards (`--shard K/N`) whose games this directory holds, when merged.
    pub shards: Vec<String>,
}

/// The paths of a result directory.
#[derive(Clone, Debug)]
pub struct ResultsDir {
    root: PathBuf,
}

impl ResultsDir {
    /// The directory at `root` (not created).
    #[must_use]
    pub fn new(root: impl Into<PathBuf>) -> Self {
        ResultsDir { root: root.into() }
    }

    /// The directory.
    #[must_use]
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// A file of the directory.
    #[must_use]
    pub fn file(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }

    /// Reads a JSON file; `Ok(None)` when it does not exist.
    ///
    /// # Errors
    /// A message naming the file when it cannot be read or parsed.
    pub fn read_json<T: DeserializeOwned>(&self, name: &str) -> Result<Option<T>, String> {
        let path = self.file(name);
        match fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text)
                .map(Some)
                .map_err(|error| format!("{}: {error}", path.display())),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(format!("{}: {error}", path.display())),
        }
    }

    /// Writes a JSON file whole, through a temporary file and a rename, so an
    /// interruption leaves the old file or the new one, never half of one.
    ///
    /// # Errors
    /// A message naming the file.
    pub fn write_json<T: Serialize>(&self, name: &str, value: &T) -> Result<(), String> {
        let text = serde_json::to_string_pretty(value).map_err(|error| error.to_string())? + "\n";
        self.write_text(name, &text)
    }

    /// Writes a text file whole, through a temporary file and a rename.
    ///
    /// # Errors
    /// A message naming the file.
    pub fn write_text(&self, name: &str, text: &str) -> Result<(), String> {
        let path = self.file(name);
        let temporary = self.file(&format!(".{name}.partial"));
        fs::write(&temporary, text)
            .and_then(|()| fs::rename(&temporary, &path))
            .map_err(|error| format!("{}: {error}", path.display()))
    }

    /// Reads a JSON-lines file, one record a line; an empty list when it does not exist.
    /// A last line cut short (the run was killed while writing it) is dropped from the
    /// file, so appending continues on a clean line.
    ///
    /// # Errors
    /// A message naming the file and line when a complete line is not a record.
    pub fn read_jsonl<T: DeserializeOwned>(&self, name: &str) -> Result<Vec<T>, String> {
        let path = self.file(name);
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => return Err(format!("{}: {error}", path.display())),
        };
        let complete = text.rfind('\n').map_or(0, |end| end + 1);
        if complete < text.len() {
            let file = OpenOptions::new()
                .write(true)
                .open(&path)
                .map_err(|error| format!("{}: {error}", path.display()))?;
            file.set_len(complete as u64)
                .map_err(|error| format!("{}: {error}", path.display()))?;
        }
        text[..complete]
            .lines()
            .enumerate()
            .filter(|(_, line)| !line.trim().is_empty())
            .map(|(number, line)| {
                serde_json::from_str(line)
                    .map_err(|error| format!("{} line {}: {error}", path.display(), number + 1))
            })
            .collect()
    }

    /// An appender to a JSON-lines file, created if missing.
    ///
    /// # Errors
    /// A message naming the file.
    pub fn appender(&self, name: &str) -> Result<Appender, String> {
        let path = self.file(name);
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|error| format!("{}: {error}", path.display()))?;
        Ok(Appender {
            path,
            file: Mutex::new(file),
        })
    }
}

/// `record` as a later run will read it back from a result file: JSON does not carry
/// every floating point number exactly, so a run that goes on with the values it computed
/// and a rerun that goes on with the values it read could differ in the last bit — and a
/// last bit can break a tie between two moves. Every run goes on with the stored values.
///
/// # Errors
/// serde_json's message (not expected for plain data).
pub fn as_stored<T: Serialize + DeserializeOwned>(record: &T) -> Result<T, String> {
    let text = serde_json::to_string(record).map_err(|error| error.to_string())?;
    serde_json::from_str(&text).map_err(|error| error.to_string())
}

/// Appends records to a JSON-lines file, one whole line per write, from any thread.
#[derive(Debug)]
pub struct Appender {
    path: PathBuf,
    file: Mutex<File>,
}

impl Appender {
    /// Appends `record` as one line and flushes it to the operating system, so a record
    /// once appended survives the process being killed.
    ///
    /// # Errors
    /// A message naming the file.
    pub fn append<T: Serialize>(&self, record: &T) -> Result<(), String> {
        let mut line = serde_json::to_string(record).map_err(|error| error.to_string())?;
        line.push('\n');
        let mut file = self
            .file
            .lock()
            .map_err(|_| format!("{}: a writer panicked", self.path.display()))?;
        file.write_all(line.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|error| format!("{}: {error}", self.path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_cut_short_is_dropped_and_appending_continues_cleanly() {
        let root = std::env::temp_dir().join(format!("gametree-results-{}", std::process::id()));
        fs::create_dir_all(&root).expect("temporary directory");
        let dir = ResultsDir::new(&root);
        fs::write(
            dir.file("r.jsonl"),
            "{\"position\":0,\"value\":1.0,\"nodes\":3}\n{\"posi",
        )
        .expect("write");
        let records: Vec<DeepValue> = dir.read_jsonl("r.jsonl").expect("readable");
        assert_eq!(records.len(), 1);
        dir.appender("r.jsonl")
            .expect("open")
            .append(&DeepValue {
                position: 1,
                value: -2.0,
                nodes: 5,
            })
            .expect("append");
        let records: Vec<DeepValue> = dir.read_jsonl("r.jsonl").expect("readable");
        assert_eq!(
            records.iter().map(|r| r.position).collect::<Vec<_>>(),
            [0, 1]
        );
        fs::remove_dir_all(&root).expect("clean up");
    }
}
