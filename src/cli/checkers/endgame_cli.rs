//! `gametree checkers endgame`: builds the endgame databases (win, draw or loss of every
//! position of up to N pieces) and `--endgame-pieces` / `--endgame` for the searches.

use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::json;

use gametree::games::checkers::endgame::{CheckersEndgame, EndgameBoard, MOST_ENDGAME_PIECES};
use gametree::search::retrograde::{Endgame, EndgameError, EndgameTable};

use crate::cli::kalah::{refuse_unwritable, write_table};
use crate::cli::output::outln;
use crate::cli::{CliError, Outcome, limits, progress};

fn usage(message: impl Into<String>) -> CliError {
    CliError::Usage(message.into())
}

/// The databases of up to `pieces` pieces, built on every core with a progress bar, and
/// the seconds it took.
pub fn build(pieces: usize) -> Result<(CheckersEndgame, f64), CliError> {
    build_resumable(pieces, None).map(|built| (built.endgame, built.seconds))
}

/// What [`build_resumable`] built.
struct Built {
    endgame: CheckersEndgame,
    seconds: f64,
    /// The slices read from the checkpoint instead of built.
    resumed_slices: usize,
}

/// The checkpoint of a build that writes `output`: `output` with `.partial` after its name.
fn checkpoint_path(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// [`build`], resumed from `checkpoint` when that file exists, and saving the slices done
/// to it as the build goes on: when the time since the last save is at least twenty times
/// what that save took, so that saving costs at most a twentieth of the build (the 6-piece
/// databases take over an hour; a stopped build loses a few minutes).
fn build_resumable(pieces: usize, checkpoint: Option<&Path>) -> Result<Built, CliError> {
    if !(2..=MOST_ENDGAME_PIECES).contains(&pieces) {
        return Err(usage(format!(
            "--endgame-pieces {pieces}: from 2 to {MOST_ENDGAME_PIECES}"
        )));
    }
    let board = EndgameBoard::new(pieces);
    let positions: u64 = (0..board.slice_count())
        .map(|slice| board.slice_len(slice))
        .sum();
    limits::check_memory(
        &format!("--endgame-pieces {pieces}"),
        "the endgame databases",
        positions,
        4096 * limits::MIB,
    )?;
    let done = match checkpoint {
        Some(path) if path.exists() => Some(read_checkpoint(path, &board)?),
        _ => None,
    };
    let resumed_slices = done.as_ref().map_or(0, EndgameTable::slices);
    let bar = progress::bar(positions, "endgame");
    bar.set_position(done.as_ref().map_or(0, EndgameTable::positions));
    let started = Instant::now();
    let mut last_save = (Instant::now(), Duration::ZERO);
    let endgame = CheckersEndgame::resume(
        pieces,
        limits::cores(),
        done,
        |done| bar.set_position(done.positions),
        |table| {
            let Some(path) = checkpoint else {
                return Ok(());
            };
            let (saved_at, took) = last_save;
            if saved_at.elapsed() < took * 20 {
                return Ok(());
            }
            let saving = Instant::now();
            save_checkpoint(table, path)?;
            last_save = (Instant::now(), saving.elapsed());
            Ok(())
        },
    )
    .map_err(|error| usage(error.to_string()))?;
    bar.finish_and_clear();
    Ok(Built {
        endgame,
        seconds: started.elapsed().as_secs_f64(),
        resumed_slices,
    })
}

/// The slices an earlier build saved to `path`.
fn read_checkpoint(path: &Path, board: &EndgameBoard) -> Result<EndgameTable, CliError> {
    let failed = |error: EndgameError| {
        usage(format!(
            "{} (the checkpoint of an earlier build: remove it to start again): {error}",
            path.display()
        ))
    };
    let file = std::fs::File::open(path).map_err(|error| failed(error.into()))?;
    EndgameTable::read_from(file, &board.endgame_id()).map_err(failed)
}

/// Saves the slices done to `path`, through a file beside it renamed over it, so that a
/// build stopped while saving keeps its last checkpoint.
fn save_checkpoint(table: &EndgameTable, path: &Path) -> Result<(), EndgameError> {
    let mut writing = path.as_os_str().to_owned();
    writing.push(".writing");
    let writing = PathBuf::from(writing);
    let saved = std::fs::File::create(&writing)
        .and_then(|file| table.write_to(BufWriter::new(file)))
        .and_then(|()| std::fs::rename(&writing, path));
    saved.map_err(|error| {
        EndgameError::Io(io::Error::new(
            error.kind(),
            format!("checkpoint {}: {error}", path.display()),
        ))
    })
}

/// Databases read from `path`, written by `checkers endgame --output`: the pieces are read
/// from the table's header.
pub fn read(path: &Path) -> Result<CheckersEndgame, CliError> {
    CheckersEndgame::read_file(path)
        .map_err(|error| usage(format!("--endgame {}: {error}", path.display())))
}

/// Runs `checkers endgame`.
pub fn run(
    pieces: usize,
    output: Option<&PathBuf>,
    json_output: bool,
) -> Result<Outcome, CliError> {
    if let Some(path) = output {
        refuse_unwritable(path)?;
    }
    let checkpoint = output.map(|path| checkpoint_path(path));
    let Built {
        endgame,
        seconds,
        resumed_slices,
    } = build_resumable(pieces, checkpoint.as_deref())?;
    let table = endgame.table();
    if let Some(path) = output {
        write_table(table, path)?;
    }
    if let Some(checkpoint) = checkpoint.as_deref().filter(|path| path.exists()) {
        std::fs::remove_file(checkpoint)
            .map_err(|error| usage(format!("{}: {error}", checkpoint.display())))?;
    }
    if json_output {
        outln!(
            "{}",
            json!({
                "table": table.id(),
                "pieces": pieces,
                "slices": table.slices(),
                "positions": table.positions(),
                "bytes": table.memory_bytes(),
                "seconds": seconds,
                "resumed_slices": resumed_slices,
            })
        )?;
        return Ok(Outcome::Found);
    }
    outln!("table     {}", table.id())?;
    if let Some(checkpoint) = checkpoint.as_deref().filter(|_| resumed_slices > 0) {
        outln!(
            "resumed   {resumed_slices} slices from {}",
            checkpoint.display()
        )?;
    }
    outln!("pieces    2 to {pieces}")?;
    outln!("slices    {}", table.slices())?;
    outln!("positions {}", table.positions())?;
    outln!("memory    {} bytes", table.memory_bytes())?;
    outln!("time      {seconds:.3} s")?;
    Ok(Outcome::Found)
}
