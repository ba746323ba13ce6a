//! `gametree checkers endgame`: builds the endgame databases (win, draw or loss of every
//! position of up to N pieces) and `--endgame-pieces` / `--endgame` for the searches.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::json;

use gametree::games::checkers::endgame::{CheckersEndgame, EndgameBoard, MOST_ENDGAME_PIECES};
use gametree::search::retrograde::Endgame;

use crate::cli::kalah::{refuse_unwritable, write_table};
use crate::cli::output::outln;
use crate::cli::{CliError, Outcome, limits, progress};

fn usage(message: impl Into<String>) -> CliError {
    CliError::Usage(message.into())
}

/// The databases of up to `pieces` pieces, built on every core with a progress bar, and
/// the seconds it took.
pub fn build(pieces: usize) -> Result<(CheckersEndgame, f64), CliError> {
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
    let bar = progress::bar(positions, "endgame");
    let started = Instant::now();
    let endgame = CheckersEndgame::build(pieces, limits::cores(), |done| {
        bar.set_position(done.positions);
    })
    .map_err(|error| usage(error.to_string()))?;
    bar.finish_and_clear();
    Ok((endgame, started.elapsed().as_secs_f64()))
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
    let (endgame, seconds) = build(pieces)?;
    let table = endgame.table();
    if let Some(path) = output {
        write_table(table, path)?;
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
            })
        )?;
        return Ok(Outcome::Found);
    }
    outln!("table     {}", table.id())?;
    outln!("pieces    2 to {pieces}")?;
    outln!("slices    {}", table.slices())?;
    outln!("positions {}", table.positions())?;
    outln!("memory    {} bytes", table.memory_bytes())?;
    outln!("time      {seconds:.3} s")?;
    Ok(Outcome::Found)
}
