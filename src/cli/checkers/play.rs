//! `gametree checkers play`: a person against the computer in the terminal, one line of
//! standard notation per move, the game kept as PDN in its file after every move.
//!
//! The game is written when it starts (so a path that cannot be written is refused before
//! the first move) and again after every move, each time to a temporary file that then
//! replaces the old one: whatever ends the game — its end, the end of input, `quit`,
//! Ctrl-C, SIGTERM, SIGHUP, even a crash — the file holds every move played, whole.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use gametree::Game;
use gametree::games::checkers::{Checkers, Color, GameResult, MoveError, PdnGame, Position};

use super::best::{describe_value, line_text};
use super::engine::{Engine, SearchArgs};
use crate::cli::{CliError, Outcome, Side, progress, prompt};

/// The game so far and the file it is kept in, shared with the signal handler.
struct Record {
    game: PdnGame,
    path: PathBuf,
}

impl Record {
    /// Writes the game to a temporary file beside its file, then renames it over the file:
    /// the file always holds a whole game. Something that is not a plain file (`/dev/null`,
    /// a pipe) is written in place: a rename would replace it.
    fn save(&self) -> Result<(), String> {
        let fail = |error: std::io::Error| {
            format!("cannot save the game to {}: {error}", self.path.display())
        };
        let text = format!("{}\n", self.game);
        let special = std::fs::metadata(&self.path).is_ok_and(|metadata| !metadata.is_file());
        if special {
            return std::fs::write(&self.path, text).map_err(fail);
        }
        let temporary = temporary_path(&self.path);
        std::fs::write(&temporary, text).map_err(fail)?;
        std::fs::rename(&temporary, &self.path).map_err(|error| {
            let _ = std::fs::remove_file(&temporary);
            fail(error)
        })
    }
}

/// `.NAME.PID.tmp` in the directory of `path`, so that the rename stays on one file system.
fn temporary_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "game".into(), |name| name.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// The file a game is saved to when `--save` is not given: in the current directory, named
/// by the time the game began.
fn default_path() -> PathBuf {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs());
    PathBuf::from(format!("checkers-{seconds}.pdn"))
}

/// Locks the record, whatever a panicking holder left.
fn lock(record: &Mutex<Record>) -> std::sync::MutexGuard<'_, Record> {
    record.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Plays `mv` in the record and saves it; a failed save mid-game is a warning (the next
/// save tries again, and the last one decides the exit status).
fn record_move(record: &Mutex<Record>, mv: gametree::games::checkers::Move) {
    let mut record = lock(record);
    record.game.moves.push(mv);
    if let Err(error) = record.save() {
        eprintln!("gametree: warning: {error}");
    }
}

/// Runs `checkers play`.
pub fn run(
    so_far: &PdnGame,
    side: Side,
    save: Option<PathBuf>,
    search: &SearchArgs,
) -> Result<Outcome, CliError> {
    let mut engine = Engine::from_args(search)?;
    let person = match side {
        Side::First => Color::Black,
        Side::Second => Color::White,
    };
    // The game goes on from the moves played so far (--moves, --pdn), which the record
    // keeps and the search knows (the draw rules' history).
    let mut pdn = PdnGame::new(so_far.start);
    pdn.moves.clone_from(&so_far.moves);
    pdn.set_tag("Event", "gametree checkers play");
    let (black, white) = match person {
        Color::Black => ("You", "gametree"),
        Color::White => ("gametree", "You"),
    };
    pdn.set_tag("Black", black);
    pdn.set_tag("White", white);
    let record = Record {
        game: pdn,
        path: save.unwrap_or_else(default_path),
    };
    if record.path.is_dir() {
        return Err(CliError::Usage(format!(
            "--save {}: is a directory; name a file",
            record.path.display()
        )));
    }
    // Written now, so that a path that cannot be written is refused before the game.
    record.save().map_err(CliError::Usage)?;
    let path = record.path.display().to_string();
    let record = Arc::new(Mutex::new(record));
    let for_handler = Arc::clone(&record);
    let handler = ctrlc::set_handler(move || {
        // The file already holds every move: taking the lock waits for a save under way.
        let record = lock(&for_handler);
        eprintln!(
            "\ngametree: interrupted; the game is saved in {}",
            record.path.display()
        );
        std::process::exit(130);
    });
    if let Err(error) = handler {
        eprintln!("gametree: warning: a signal will end the game without a message: {error}");
    }
    let stdin = std::io::stdin();
    // Piped moves are not shown by a terminal: echo them so the transcript reads well.
    let echo = !stdin.is_terminal();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "You play {person}. Type moves as 11-15 or 15x24; `moves` lists the legal moves, \
         `quit` ends the game.\nThe game is saved as PDN in {path} after every move."
    )?;
    let ended = converse(
        engine.game(so_far),
        person,
        &mut engine,
        &record,
        &mut stdin.lock(),
        echo,
        &mut out,
    );
    // The last save decides: it reports what happened to the file.
    let record = lock(&record);
    let saved = record.save();
    ended?;
    saved.map_err(CliError::Usage)?;
    writeln!(out, "Game saved to {path}")?;
    Ok(Outcome::Found)
}

/// The game itself: the board, the person's moves read line by line, the computer's
/// searched; every move recorded. Returns when the game ends, at the end of input or on
/// `quit`.
fn converse(
    mut game: Checkers,
    person: Color,
    engine: &mut Engine,
    record: &Mutex<Record>,
    input: &mut impl BufRead,
    echo: bool,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let mut legal = Vec::new();
    let mut show_board = true;
    loop {
        let position: Position = *game.position();
        if show_board {
            write!(
                out,
                "\n{}{} to move\n",
                position.diagram(),
                position.side_to_move()
            )?;
        }
        show_board = false;
        if let Some(result) = game.result() {
            let how = match result {
                GameResult::Draw => "Drawn".to_string(),
                _ => format!("{} has no move and loses", position.side_to_move()),
            };
            writeln!(out, "Game over: {how} ({}).", result.token())?;
            lock(record).game.set_result(result);
            return Ok(());
        }
        if position.side_to_move() == person {
            write!(out, "Your move ({person}): ")?;
            out.flush()?;
            let Some(text) = prompt::read_line(input, echo, out)? else {
                writeln!(out, "End of input.")?;
                return Ok(());
            };
            legal.clear();
            position.legal_moves(&mut legal);
            let legal_text = line_text(&legal);
            match text.as_str() {
                "" => continue,
                "quit" => return Ok(()),
                "moves" => {
                    writeln!(out, "Legal moves: {legal_text}")?;
                    continue;
                }
                _ => {}
            }
            match position.parse_move(&text) {
                Ok(mv) => {
                    game.update(mv);
                    engine.played(mv);
                    show_board = true;
                    record_move(record, mv);
                }
                Err(error @ MoveError::Illegal { .. }) => writeln!(out, "Refused: {error}")?,
                Err(error) => writeln!(out, "Refused: {error}\nLegal moves: {legal_text}")?,
            }
        } else {
            let spinner = progress::spinner("thinking");
            let report = engine.search(&mut game, |iteration| {
                spinner.set_message(format!(
                    "depth {} done, {} nodes",
                    iteration.depth,
                    progress::si(iteration.nodes as f64)
                ));
            });
            spinner.finish_and_clear();
            let Some(mv) = report.best_move else {
                // A position with a legal move always gives one; stop rather than loop.
                return Ok(());
            };
            // Saved before it is announced: what is reported has happened.
            game.update(mv);
            engine.played(mv);
            show_board = true;
            record_move(record, mv);
            if let Some(playouts) = report.playouts {
                writeln!(
                    out,
                    "gametree plays {mv} ({playouts} playouts, {} nodes, {:.2} s)",
                    report.nodes,
                    report.elapsed.as_secs_f64(),
                )?;
                continue;
            }
            let last = report.iterations.last();
            writeln!(
                out,
                "gametree plays {mv} (depth {}, value {}, {} nodes, {:.2} s; line {})",
                last.map_or(0, |iteration| iteration.depth),
                last.map_or("-".to_string(), |iteration| describe_value(iteration.value)),
                report.nodes,
                report.elapsed.as_secs_f64(),
                last.map_or(String::new(), |iteration| line_text(
                    &iteration.principal_line
                )),
            )?;
        }
    }
}
