//! `gametree checkers engine`: the engine as a persistent process that speaks a line
//! protocol on standard input and output, so that a match harness or a GUI plays it without
//! starting a process a move, and its transposition table lives from move to move.
//!
//! ```text
//! position startpos|fen FEN [moves M1 M2 ...]   the game so far (its history: repetitions)
//! go depth D | go time S | go nodes N           -> bestmove M value V depth D nodes N seconds S
//! go clock LEFT [INCREMENT [MOVES]]              the same, the time allotted from a game
//!                                                  clock (seconds left, seconds added a
//!                                                  move, moves to the next control)
//!                                                  (bestmove none result R: the game is over)
//! moves                                         -> moves N, then N lines "MOVE FEN-AFTER"
//! newgame                                       -> ok (the table is cleared)
//! quit
//! ```
//!
//! It says `ready` when it starts. A bad line answers `error ` and the reason, and the engine
//! goes on. Values are from Black's side, as `checkers best`.

use std::io::{BufRead, Write};
use std::time::Duration;

use gametree::GameClock;
use gametree::games::checkers::{Checkers, PdnGame, Position};

use super::engine::{Algorithm, Engine, Limit, MAX_SEARCH_DEPTH};
use crate::cli::CliError;

/// The longest `go time` taken, in seconds.
const MAX_TIME_SECONDS: f64 = 3600.0;

/// The most time a `go clock` may give (left or added), in seconds: a day.
const MAX_CLOCK_SECONDS: f64 = 86_400.0;

/// Runs the protocol until `quit` or the end of input.
/// `table_mib` is the size of the table `newgame` makes afresh (0: none).
pub fn run(
    mut engine: Engine,
    table_mib: usize,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<(), CliError> {
    let mut game = PdnGame::new(Position::initial());
    writeln!(output, "ready")?;
    output.flush()?;
    for line in input.lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        let answer = match words.first().copied() {
            None => continue,
            Some("quit") => break,
            Some("newgame") => {
                if let Some((table, _)) = &mut engine.shared_table {
                    table.clear();
                } else if table_mib > 0 {
                    engine.table = Some(gametree::TranspositionTable::with_mib(table_mib));
                }
                Ok("ok".to_string())
            }
            Some("position") => position(&words[1..]).map(|read| {
                game = read;
                "ok".to_string()
            }),
            Some("moves") => Ok(moves(&game)),
            Some("go") => go(&mut engine, &game, &words[1..]),
            Some(other) => Err(format!("unknown command {other:?}")),
        };
        match answer {
            Ok(text) => writeln!(output, "{text}")?,
            Err(reason) => writeln!(output, "error {reason}")?,
        }
        output.flush()?;
    }
    Ok(())
}

/// `startpos|fen FEN [moves ...]`, every move checked.
fn position(words: &[&str]) -> Result<PdnGame, String> {
    let (start, rest) = match words {
        ["startpos", rest @ ..] => (Position::initial(), rest),
        ["fen", fen, rest @ ..] => (
            Position::from_fen(fen).map_err(|error| format!("fen {fen}: {error}"))?,
            rest,
        ),
        _ => return Err("position takes startpos or fen FEN, then moves ...".into()),
    };
    let moves = match rest {
        [] => &[][..],
        ["moves", moves @ ..] => moves,
        _ => return Err("after the position comes moves M1 M2 ...".into()),
    };
    let mut game = PdnGame::new(start);
    let mut now = start;
    for (index, text) in moves.iter().enumerate() {
        let mv = now
            .parse_move(text)
            .map_err(|error| format!("move {} ({text}): {error}", index + 1))?;
        now = now.play(mv);
        game.moves.push(mv);
    }
    Ok(game)
}

fn moves(game: &PdnGame) -> String {
    let position = game.final_position();
    let mut legal = Vec::new();
    if Checkers::from_pdn(game).result().is_none() {
        position.legal_moves(&mut legal);
    }
    let mut text = format!("moves {}", legal.len());
    for mv in legal {
        text.push_str(&format!("\n{mv} {}", position.play(mv).to_fen()));
    }
    text
}

/// `word` as a number of seconds from 0 to `max`; `what` names it in the error.
fn seconds(word: &str, what: &str, max: f64) -> Result<Duration, String> {
    let seconds: f64 = word
        .parse()
        .map_err(|_| format!("{what} {word:?} is not a number of seconds"))?;
    if !(0.0..=max).contains(&seconds) {
        return Err(format!("{what} must be 0 to {max} seconds, not {seconds}"));
    }
    Ok(Duration::from_secs_f64(seconds))
}

fn go(engine: &mut Engine, so_far: &PdnGame, words: &[&str]) -> Result<String, String> {
    engine.limit = match words {
        ["depth", depth] => {
            let depth: u32 = depth
                .parse()
                .map_err(|_| format!("depth {depth:?} is not a whole number"))?;
            if !(1..=MAX_SEARCH_DEPTH).contains(&depth) {
                return Err(format!(
                    "depth must be 1 to {MAX_SEARCH_DEPTH}, not {depth}"
                ));
            }
            Limit::Depth(depth)
        }
        ["time", word] => {
            let time = seconds(word, "time", MAX_TIME_SECONDS)?;
            if time.is_zero() {
                return Err("time must be more than 0".into());
            }
            Limit::Time(time)
        }
        ["nodes", word] => {
            let nodes: u64 = word
                .parse()
                .ok()
                .filter(|&nodes| nodes > 0)
                .ok_or_else(|| format!("nodes {word:?} is not a count above 0"))?;
            if engine.mcts.is_some() || engine.algorithm != Algorithm::Alphabeta {
                return Err("go nodes applies to the alphabeta search".into());
            }
            Limit::Nodes(nodes)
        }
        ["clock", rest @ ..] if (1..=3).contains(&rest.len()) => {
            let remaining = seconds(rest[0], "clock time left", MAX_CLOCK_SECONDS)?;
            if remaining.is_zero() {
                return Err("clock time left must be more than 0".into());
            }
            let increment = rest.get(1).map_or(Ok(Duration::ZERO), |word| {
                seconds(word, "clock increment", MAX_CLOCK_SECONDS)
            })?;
            let moves_to_go = rest
                .get(2)
                .map(|word| {
                    word.parse::<u32>()
                        .ok()
                        .filter(|&moves| moves > 0)
                        .ok_or_else(|| format!("clock moves {word:?} is not a count above 0"))
                })
                .transpose()?;
            Limit::Clock(GameClock {
                remaining,
                increment,
                moves_to_go,
            })
        }
        _ => {
            return Err(
                "go takes depth D, time S, nodes N or clock LEFT [INCREMENT [MOVES]]".into(),
            );
        }
    };
    let mut game = engine.game(so_far);
    if let Some(result) = game.result() {
        return Ok(format!("bestmove none result {}", result.token()));
    }
    let report = engine.search(&mut game, |_| {});
    let best = report
        .best_move
        .ok_or("the search found no move in a game that goes on")?;
    // The depth whose move is played, so that value and depth go with the move.
    let last = report.deciding();
    Ok(format!(
        "bestmove {best} value {} depth {} nodes {} seconds {:.3}",
        last.map_or(0.0, |iteration| iteration.value),
        last.map_or(0, |iteration| iteration.depth),
        report.nodes,
        report.elapsed.as_secs_f64()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::checkers::engine::SearchArgs;

    fn engine() -> Engine {
        let args = SearchArgs::alphabeta(Some(4), None, 1, None);
        Engine::from_args(&args).expect("valid settings")
    }

    fn session(input: &str) -> Vec<String> {
        let mut output = Vec::new();
        run(engine(), 1, input.as_bytes(), &mut output).expect("the session");
        String::from_utf8(output)
            .expect("UTF-8")
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn a_session_sets_positions_searches_and_lists_moves() {
        let lines = session(
            "position startpos moves 11-15 23-19\ngo depth 4\nmoves\nposition fen W:W19:B11\ngo depth 2\nquit\ngo depth 1\n",
        );
        assert_eq!(lines[0], "ready");
        assert_eq!(lines[1], "ok");
        assert!(
            lines[2].starts_with("bestmove ") && lines[2].contains(" depth 4 "),
            "{lines:?}"
        );
        assert_eq!(lines[3], "moves 7");
        assert_eq!(lines[11], "ok");
        // White's man on 19 has two moves; the search picks one.
        assert!(lines[12].starts_with("bestmove 19-"), "{lines:?}");
        assert_eq!(lines.len(), 13, "nothing after quit: {lines:?}");
    }

    #[test]
    fn a_game_clock_allots_the_move_its_time() {
        // Three seconds left for 30 moves: a tenth of a second, and no new depth after
        // 0.05 s; the answer is a move within the allotment (with the clock's slack).
        let lines = session("position startpos\ngo clock 3\ngo clock 3 0.5 2\n");
        for line in &lines[2..4] {
            let seconds: f64 = line
                .rsplit(' ')
                .next()
                .and_then(|word| word.parse().ok())
                .expect("seconds last");
            assert!(line.starts_with("bestmove "), "{lines:?}");
            assert!(seconds < 2.0, "{line}");
        }
        let bad = session(
            "go clock\ngo clock 0\ngo clock -1\ngo clock 10 x\ngo clock 10 1 0\ngo clock 1 2 3 4\n",
        );
        assert!(bad[1].starts_with("error go takes"), "{bad:?}");
        assert!(
            bad[2].starts_with("error clock time left must be more"),
            "{bad:?}"
        );
        assert!(
            bad[3].starts_with("error clock time left must be 0 to"),
            "{bad:?}"
        );
        assert!(bad[4].starts_with("error clock increment \"x\""), "{bad:?}");
        assert!(bad[5].starts_with("error clock moves \"0\""), "{bad:?}");
        assert!(bad[6].starts_with("error go takes"), "{bad:?}");
    }

    #[test]
    fn bad_lines_answer_an_error_and_the_engine_goes_on() {
        let lines = session(
            "position startpos moves 11-18\nposition\ngo depth 0\ngo fast\nfly\nposition fen W:W19:B11 moves 19-15 11x18\ngo depth 3\n",
        );
        assert!(lines[1].starts_with("error move 1 (11-18)"), "{lines:?}");
        assert!(lines[2].starts_with("error position takes"), "{lines:?}");
        assert!(lines[3].starts_with("error depth must be"), "{lines:?}");
        assert!(lines[4].starts_with("error go takes"), "{lines:?}");
        assert!(lines[5].starts_with("error unknown command"), "{lines:?}");
        assert_eq!(lines[6], "ok");
        // White has nothing left: the game is over.
        assert_eq!(lines[7], "bestmove none result 1-0");
    }

    #[test]
    fn two_threads_search_after_a_new_game_clears_their_shared_table() {
        let mut args = SearchArgs::alphabeta(Some(4), None, 1, None);
        args.threads = Some(2);
        let engine = Engine::from_args(&args).expect("valid settings");
        let mut output = Vec::new();
        let input = "position startpos\ngo depth 8\nnewgame\nposition startpos\ngo depth 8\nquit\n";
        run(engine, 1, input.as_bytes(), &mut output).expect("the session");
        let lines: Vec<String> = String::from_utf8(output)
            .expect("UTF-8")
            .lines()
            .map(str::to_string)
            .collect();
        assert_eq!(lines.len(), 6, "{lines:?}");
        for line in [&lines[2], &lines[5]] {
            assert!(
                line.starts_with("bestmove ") && line.contains(" depth 8 "),
                "{lines:?}"
            );
        }
    }
}
