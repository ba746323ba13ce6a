//! `gametree checkers play`: a person against the computer in the terminal, one line of
//! standard notation per move, the game saved as PDN when it ends, at end of input, on
//! `quit`, or on Ctrl-C.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use clap::ValueEnum;

use gametree::Game;
use gametree::games::checkers::{Checkers, Color, GameResult, MoveError, PdnGame, Position};

use super::best::{describe_value, line_text};
use super::engine::{Engine, SearchArgs};
use crate::cli::{CliError, Outcome};

/// The side the person plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Side {
    /// Black, who moves first.
    Black,
    /// White.
    White,
}

impl Side {
    fn color(self) -> Color {
        match self {
            Side::Black => Color::Black,
            Side::White => Color::White,
        }
    }
}

/// The game so far and where it goes, shared with the Ctrl-C handler.
struct Record {
    game: PdnGame,
    path: PathBuf,
    saved: bool,
}

impl Record {
    /// Writes the game to its file (once).
    fn save(&mut self) -> Result<(), String> {
        if self.saved {
            return Ok(());
        }
        self.saved = true;
        std::fs::write(&self.path, format!("{}\n", self.game))
            .map_err(|error| format!("cannot save the game to {}: {error}", self.path.display()))
    }
}

/// The file a game is saved to when `--save` is not given: in the current directory, named
/// by the time the game began.
fn default_path() -> PathBuf {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs());
    PathBuf::from(format!("checkers-{seconds}.pdn"))
}

fn say(out: &mut impl Write, text: &str) {
    // A closed terminal or pipe ends the conversation, not the program with a panic.
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

fn save_and_report(record: &Mutex<Record>, out: &mut impl Write) -> Result<(), CliError> {
    let mut record = record
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let path = record.path.display().to_string();
    record.save().map_err(CliError::Usage)?;
    say(out, &format!("Game saved to {path}\n"));
    Ok(())
}

/// Runs `checkers play`.
pub fn run(
    fen: Option<&str>,
    side: Side,
    save: Option<PathBuf>,
    search: &SearchArgs,
) -> Result<Outcome, CliError> {
    let start = match fen {
        Some(fen) => Position::from_fen(fen).map_err(|error| CliError::Usage(error.to_string()))?,
        None => Position::initial(),
    };
    let mut engine = Engine::from_args(search)?;
    let person = side.color();
    let mut pdn = PdnGame::new(start);
    pdn.set_tag("Event", "gametree checkers play");
    let (black, white) = match person {
        Color::Black => ("You", "gametree"),
        Color::White => ("gametree", "You"),
    };
    pdn.set_tag("Black", black);
    pdn.set_tag("White", white);
    let record = Arc::new(Mutex::new(Record {
        game: pdn,
        path: save.unwrap_or_else(default_path),
        saved: false,
    }));
    let for_handler = Arc::clone(&record);
    let handler = ctrlc::set_handler(move || {
        let mut record = for_handler
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match record.save() {
            Ok(()) => eprintln!("\ninterrupted: game saved to {}", record.path.display()),
            Err(error) => eprintln!("\ninterrupted: {error}"),
        }
        std::process::exit(130);
    });
    let mut out = std::io::stdout().lock();
    if let Err(error) = handler {
        eprintln!("gametree: warning: Ctrl-C will not save the game: {error}");
    }
    let path = record
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .path
        .display()
        .to_string();
    say(
        &mut out,
        &format!(
            "You play {person}. Type moves as 11-15 or 15x24; `moves` lists the legal moves, \
             `quit` ends the game.\nThe game will be saved as PDN to {path} (on exit and on Ctrl-C).\n"
        ),
    );
    let mut game = Checkers::from_position(start).with_weights(engine.weights);
    let mut input = std::io::stdin().lock();
    let mut line = String::new();
    let mut legal = Vec::new();
    let mut show_board = true;
    loop {
        let position = *game.position();
        if show_board {
            say(
                &mut out,
                &format!(
                    "\n{}{} to move\n",
                    position.diagram(),
                    position.side_to_move()
                ),
            );
        }
        show_board = false;
        if let Some(result) = game.result() {
            let how = match result {
                GameResult::Draw => "Drawn".to_string(),
                _ => format!("{} has no move and loses", position.side_to_move()),
            };
            say(
                &mut out,
                &format!("Game over: {how} ({}).\n", result.token()),
            );
            let mut record = record
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            record.game.set_result(result);
            break;
        }
        if position.side_to_move() == person {
            say(&mut out, &format!("Your move ({person}): "));
            line.clear();
            match input.read_line(&mut line) {
                Ok(0) | Err(_) => {
                    say(&mut out, "\nEnd of input.\n");
                    break;
                }
                Ok(_) => {}
            }
            let text = line.trim();
            legal.clear();
            position.legal_moves(&mut legal);
            let legal_text = line_text(&legal);
            match text {
                "" => continue,
                "quit" => break,
                "moves" => {
                    say(&mut out, &format!("Legal moves: {legal_text}\n"));
                    continue;
                }
                _ => {}
            }
            match position.parse_move(text) {
                Ok(mv) => {
                    game.update(mv);
                    show_board = true;
                    let mut record = record
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    record.game.moves.push(mv);
                }
                Err(error @ MoveError::Illegal { .. }) => {
                    say(&mut out, &format!("Refused: {error}\n"));
                }
                Err(error) => {
                    say(
                        &mut out,
                        &format!("Refused: {error}\nLegal moves: {legal_text}\n"),
                    );
                }
            }
        } else {
            let report = engine.search(&mut game, |_| {});
            let Some(mv) = report.best_move else {
                // A position with a legal move always gives one; stop rather than loop.
                break;
            };
            let last = report.iterations.last();
            say(
                &mut out,
                &format!(
                    "gametree plays {mv} (depth {}, value {}, {} nodes, {:.2} s; line {})\n",
                    last.map_or(0, |iteration| iteration.depth),
                    last.map_or("-".to_string(), |iteration| describe_value(iteration.value)),
                    report.nodes,
                    report.elapsed.as_secs_f64(),
                    last.map_or(String::new(), |iteration| line_text(
                        &iteration.principal_line
                    )),
                ),
            );
            game.update(mv);
            show_board = true;
            let mut record = record
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            record.game.moves.push(mv);
        }
    }
    save_and_report(&record, &mut out)?;
    Ok(Outcome::Found)
}
