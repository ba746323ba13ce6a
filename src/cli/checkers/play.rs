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
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use gametree::games::checkers::{Checkers, Color, GameResult, MoveError, PdnGame, Position};
use gametree::{Game, GameClock};

use super::best::{describe_value, line_text};
use super::engine::{Engine, EngineName, Limit, SearchArgs};
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
    clock: Option<&str>,
    search: &SearchArgs,
) -> Result<Outcome, CliError> {
    let clock = clock.map(parse_clock).transpose()?;
    if clock.is_some() && (search.depth.is_some() || search.time.is_some()) {
        return Err(CliError::Usage(
            "give --clock or --depth/--time, not both".to_string(),
        ));
    }
    if clock.is_some() && search.engine == EngineName::Mcts {
        return Err(CliError::Usage(
            "--clock applies to the depth-first searches, not --engine mcts".to_string(),
        ));
    }
    let mut engine = Engine::from_args(search)?;
    if let Some(clock) = clock {
        engine.limit = Limit::Clock(clock);
    }
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

/// The longest game clock `--clock` takes, in minutes: a day.
const MAX_CLOCK_MINUTES: f64 = 1440.0;

/// `--clock MINUTES[+SECONDS]`: the time for the game and the increment a move.
fn parse_clock(text: &str) -> Result<GameClock, CliError> {
    let bad = |why: &str| CliError::Usage(format!("--clock {text:?}: {why}"));
    let (minutes, seconds) = text.split_once('+').unwrap_or((text, "0"));
    let minutes: f64 = minutes
        .trim()
        .parse()
        .map_err(|_| bad("the minutes are not a number"))?;
    let seconds: f64 = seconds
        .trim()
        .parse()
        .map_err(|_| bad("the seconds after + are not a number"))?;
    if !(minutes > 0.0 && minutes <= MAX_CLOCK_MINUTES) {
        return Err(bad("the minutes must be more than 0 and at most a day"));
    }
    if !(0.0..=60.0 * MAX_CLOCK_MINUTES).contains(&seconds) {
        return Err(bad("the seconds must be 0 or more, at most a day"));
    }
    Ok(GameClock::new(
        Duration::from_secs_f64(minutes * 60.0),
        Duration::from_secs_f64(seconds),
    ))
}

/// `m:ss` (or `h:mm:ss`) of a clock.
fn clock_text(time: Duration) -> String {
    let seconds = time.as_secs();
    if seconds >= 3600 {
        format!(
            "{}:{:02}:{:02}",
            seconds / 3600,
            seconds / 60 % 60,
            seconds % 60
        )
    } else {
        format!("{}:{:02}", seconds / 60, seconds % 60)
    }
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
            let started = Instant::now();
            let report = engine.search(&mut game, |iteration| {
                spinner.set_message(format!(
                    "depth {} done, {} nodes",
                    iteration.depth,
                    progress::si(iteration.nodes as f64)
                ));
            });
            spinner.finish_and_clear();
            // The clock counts the whole move, not only the search's own time.
            let clock_left = match &mut engine.limit {
                Limit::Clock(clock) => {
                    if !clock.after_move(started.elapsed()) {
                        let result = match person {
                            Color::Black => GameResult::BlackWins,
                            Color::White => GameResult::WhiteWins,
                        };
                        writeln!(
                            out,
                            "Game over: gametree's flag fell; it loses on time ({}).",
                            result.token()
                        )?;
                        let mut record = lock(record);
                        record.game.set_result(result);
                        record.game.set_tag("Termination", "time forfeit");
                        return Ok(());
                    }
                    format!("; clock {}", clock_text(clock.remaining))
                }
                _ => String::new(),
            };
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
            let last = report.deciding();
            let cut_short = if report.partial.is_some() {
                " cut short"
            } else {
                ""
            };
            writeln!(
                out,
                "gametree plays {mv} (depth {}{cut_short}, value {}, {} nodes, {:.2} s{clock_left}; line {})",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_is_minutes_and_seconds_added_a_move() {
        let clock = parse_clock("5+2").expect("valid");
        assert_eq!(clock.remaining, Duration::from_secs(300));
        assert_eq!(clock.increment, Duration::from_secs(2));
        let clock = parse_clock("0.5").expect("valid");
        assert_eq!(clock.remaining, Duration::from_secs(30));
        assert_eq!(clock.increment, Duration::ZERO);
        for bad in ["", "x", "5+", "5+x", "0", "-1", "inf", "1e9", "5+-1", "NaN"] {
            assert!(parse_clock(bad).is_err(), "{bad:?} accepted");
        }
        assert_eq!(clock_text(Duration::from_secs(65)), "1:05");
        assert_eq!(clock_text(Duration::from_secs(3725)), "1:02:05");
    }
}
