//! gametree's checkers player in a match against another engine: `gametree checkers engine`
//! with other settings (needs nothing but this repository), or a reference engine such as
//! Martin Fierz's cake++ 1.22 (github.com/hungerburg/capers) or Jonathan Kreuzer's GuiNN
//! 2.06 (github.com/jonkr2/GuiNN_Checkers) wrapped in a small line-protocol driver of your
//! own. Those engines are GPL and CC BY-NC-SA: they are not part of this project.
//!
//! ```sh
//! cargo build --release
//! GAMETREE_ENGINE=target/release/gametree cargo run --release --example checkers_match -- \
//!     --opponent gametree --opponent-args "--quiescence 0" --opponent-depth 8 --depth 8
//! GAMETREE_CAKE=/path/to/cake_cli \
//!     cargo run --release --example checkers_match -- --opponent cake --opponent-depth 7 --depth 6
//! GAMETREE_GUINN=/path/to/guinn_cli \
//!     cargo run --release --example checkers_match -- --opponent guinn --opponent-depth 8 --time 0.1
//! ```
//!
//! The first plays gametree against `gametree checkers engine` without quiescence: one
//! technique measured alone (`gametree checkers engine` runs in the match's directory, so a
//! file named in `--opponent-args` is found as the user sees it, and its error messages reach
//! stderr). The drivers the other two expect are started in their own directory, print
//! `ready` (after any other lines) and answer, one command a line:
//!
//! - cake (`GAMETREE_CAKE`), positions as `C BM BK WM WK`: the side to move (`b` or `w`)
//!   and four hex bitboards (black men, black kings, white men, white kings), bit i being
//!   square 4·(i/4) + 4 − (i mod 4). `moves POS` answers `moves N` and N lines
//!   `BM BK WM WK NOTATION` (the position after each legal move); `go POS DEPTH RESET`
//!   answers `result BM BK WM WK VALUE` then `info ...` (RESET 1 clears its tables).
//! - GuiNN (`GAMETREE_GUINN`), positions as PDN FEN: `newgame` answers `ok`; `moves FEN`
//!   answers `moves N` and N lines `FEN-AFTER MOVE`; `go DEPTH FEN1|FEN2|...|FENn` (the
//!   game so far, for repetitions) answers `result FEN-AFTER MOVE EVAL` then `info ...`.
//! - `quit` ends either.
//!
//! Every game starts from one of the ACF three-move ballots, each ballot played twice with
//! colours reversed. gametree searches with iterative deepening alpha-beta, quiescence and a
//! transposition table (`--depth D` plies or `--time S` seconds a move; `--history`,
//! `--pvs`, `--lmr` and `--extend-recaptures` add the history heuristic, principal variation
//! search, late move reductions and the recapture extension; `--eval learned` or
//! `--eval FILE` plays with the learned evaluation instead of Samuel's; `--endgame-pieces N`
//! reads endgame databases of up to N pieces, built at the start, `--endgame FILE` those
//! `gametree checkers endgame --output` saved); the engine searches
//! to `--opponent-depth` plies (both drivers take a depth, not a time). Each move is checked
//! by both move generators: the engine's move must lead to a position gametree's generator
//! lists, and gametree's move to one the engine's generator lists (`moves` in both
//! protocols). The game ends at a position without a move (a loss for the side to move), a
//! third repetition or 40 moves by each side without a capture or a man's move (draws), or,
//! adjudicated a draw, after `--max-plies`.
//!
//! To choose the engine's depth for a time a move, `--time-depths 20,22,24 --record FILE`
//! plays no match: it replays `--games N` games of an earlier match's record through the
//! engine and times its own moves at each depth (mean, median, longest).
//!
//! Games are appended to `--out` (JSON lines) in the order of their numbers, a game that
//! ends before one begun earlier waiting for it; a rerun with the same file plays only the
//! games it does not hold. `--ballots N` plays the first N ballots (default all
//! 156, so 312 games); `--jobs J` plays J games at once, each with its own engine process.
//! Prints W/D/L from gametree's side, the score, the Elo difference with its 95% interval,
//! and the same by gametree's colour. Without the engine's path in its variable it says so
//! and exits 0: nothing of the project needs these engines. An engine that is set but does
//! not start (a wrong path, an argument it refuses) stops the match at once with exit 2,
//! before the games file is touched.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

mod common {
    pub mod flags;
}
use common::flags::{Flags, fail};

use gametree::experiment::{InOrderLines, MatchScore, work_in_order};
use gametree::games::checkers::endgame::CheckersEndgame;
use gametree::games::checkers::{
    Ballot, Checkers, Color, Evaluation, GameResult, LearnedWeights, Position, squares_of,
    three_move_ballots,
};
use gametree::{Game, Search, TranspositionTable, VerifiedPruning};

/// The reference engines and their protocols.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// cake_cli.c: positions as four hex bitboards in cake's square order.
    Cake,
    /// guinn_cli.cpp: positions as PDN FEN; `go` takes the game so far.
    Guinn,
    /// `gametree checkers engine` (docs/checkers.md), with `--opponent-args`: gametree
    /// against itself with other settings, to measure one technique at a time.
    Gametree,
}

impl Kind {
    fn variable(self) -> &'static str {
        match self {
            Kind::Cake => "GAMETREE_CAKE",
            Kind::Guinn => "GAMETREE_GUINN",
            Kind::Gametree => "GAMETREE_ENGINE",
        }
    }
}

/// How gametree searches.
#[derive(Clone, Copy, Debug)]
enum Budget {
    Depth(u32),
    Time(Duration),
    /// Positions a move, deepening until they are spent: unlike a time, the same on every
    /// host, so matches against an engine at a fixed depth compare across machines.
    Nodes(u64),
}

/// `--opponent gametree`'s budget a move when it is not a depth.
#[derive(Clone, Copy, Debug)]
enum OpponentBudget {
    Seconds(f64),
    Nodes(u64),
}

#[derive(Clone, Debug)]
struct Settings {
    kind: Kind,
    path: PathBuf,
    /// Extra arguments of the opponent's process (`--opponent-args`, split at spaces).
    opponent_args: Vec<String>,
    opponent_depth: u32,
    budget: Budget,
    quiescence: u32,
    table_mib: usize,
    /// gametree's side orders moves by the history heuristic too (`--history`).
    history: bool,
    /// gametree's side searches by principal variation search (`--pvs`).
    pvs: bool,
    /// gametree's side reduces late moves (`--lmr`).
    lmr: bool,
    /// gametree's side extends recaptures (`--extend-recaptures`).
    extend_recaptures: bool,
    /// gametree's side extends threatened positions at the horizon (`--extend-threats`).
    extend_threats: bool,
    /// gametree's side prunes by verified shallow searches (`--verified-pruning`, with
    /// `--prune-margin M`).
    verified_pruning: Option<VerifiedPruning>,
    /// gametree's evaluation (`--eval learned|samuel|FILE`, default samuel).
    evaluation: Evaluation,
    /// gametree's endgame databases (`--endgame-pieces N`), built at the start.
    endgame: Option<CheckersEndgame>,
    /// `--opponent gametree`: its time (`--opponent-time`) or positions
    /// (`--opponent-nodes`) a move instead of `--opponent-depth`.
    opponent_budget: Option<OpponentBudget>,
    max_plies: usize,
}

/// cake's bit for a square: bit i is square 4·(i/4) + 4 − (i mod 4).
fn cake_bit(square: u8) -> u32 {
    let index = u32::from(square - 1);
    let (row, column) = (index / 4, index % 4);
    1 << (4 * row + 3 - column)
}

fn to_cake(position: &Position) -> String {
    let board = |squares: u32| {
        squares_of(squares)
            .map(cake_bit)
            .fold(0, |all, bit| all | bit)
    };
    let kings = |color| position.kings(color);
    let men = |color| position.men(color);
    format!(
        "{} {:x} {:x} {:x} {:x}",
        match position.side_to_move() {
            Color::Black => 'b',
            Color::White => 'w',
        },
        board(men(Color::Black)),
        board(kings(Color::Black)),
        board(men(Color::White)),
        board(kings(Color::White))
    )
}

/// A position from cake's four bitboards, `side` to move.
fn from_cake(fields: &[&str], side: Color) -> Result<Position, String> {
    let mut boards = [0u32; 4];
    for (board, field) in boards.iter_mut().zip(fields) {
        let cake = u32::from_str_radix(field, 16).map_err(|_| format!("bad bitboard {field}"))?;
        *board = (1..=32u8)
            .filter(|&square| cake & cake_bit(square) != 0)
            .fold(0, |all, square| all | (1 << (square - 1)));
    }
    let [black_men, black_kings, white_men, white_kings] = boards;
    Position::from_bitboards(
        black_men | black_kings,
        white_men | white_kings,
        black_kings | white_kings,
        side,
    )
    .map_err(|error| error.to_string())
}

/// One engine process, spoken to line by line.
struct Opponent {
    settings: Settings,
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Opponent {
    fn start(settings: &Settings) -> Result<Opponent, String> {
        let mut command = Command::new(&settings.path);
        if settings.kind == Kind::Gametree {
            // gametree's engine runs where the match runs, so that the paths in
            // --opponent-args mean what they mean to the user, and says on stderr why it
            // stopped (a flag it does not know, a file it cannot read).
            command
                .args(["checkers", "engine"])
                .stderr(Stdio::inherit());
        } else {
            // The drivers read their databases from their own directory and talk on stderr.
            let directory = settings.path.parent().unwrap_or(Path::new("."));
            command.current_dir(directory).stderr(Stdio::null());
        }
        let mut child = command
            .args(&settings.opponent_args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|error| {
                format!(
                    "the engine {} cannot start: {error}",
                    settings.path.display()
                )
            })?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let output = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        let mut opponent = Opponent {
            settings: settings.clone(),
            child,
            input,
            output,
        };
        opponent.read_until("ready").map_err(|error| {
            format!(
                "the engine {} did not get ready ({error})",
                opponent.settings.path.display()
            )
        })?;
        Ok(opponent)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|error| format!("the engine's input: {error}"))
    }

    fn line(&mut self) -> Result<String, String> {
        let mut line = String::new();
        let read = self
            .output
            .read_line(&mut line)
            .map_err(|error| format!("the engine's output: {error}"))?;
        if read == 0 {
            return Err("the engine stopped".into());
        }
        Ok(line.trim_end().to_string())
    }

    /// Reads lines up to the first that starts with `word`, and returns it.
    fn read_until(&mut self, word: &str) -> Result<String, String> {
        loop {
            let line = self.line()?;
            if line.split_whitespace().next() == Some(word) {
                return Ok(line);
            }
            if line == "error" || line.starts_with("error ") {
                return Err(format!("the engine says {line}"));
            }
        }
    }

    fn new_game(&mut self) -> Result<(), String> {
        if matches!(self.settings.kind, Kind::Guinn | Kind::Gametree) {
            self.send("newgame")?;
            self.read_until("ok")?;
        }
        Ok(())
    }

    /// `position fen START moves ...` for `gametree checkers engine`: the game so far.
    fn send_game(&mut self, start: &Position, moves: &[String]) -> Result<(), String> {
        let mut line = format!("position fen {}", start.to_fen());
        if !moves.is_empty() {
            line.push_str(" moves ");
            line.push_str(&moves.join(" "));
        }
        self.send(&line)?;
        self.read_until("ok").map(|_| ())
    }

    /// The positions the engine's own move generator reaches from `position`.
    fn successors(&mut self, position: &Position) -> Result<Vec<Position>, String> {
        let side = position.side_to_move().opponent();
        match self.settings.kind {
            Kind::Cake => self.send(&format!("moves {}", to_cake(position)))?,
            Kind::Guinn => self.send(&format!("moves {}", position.to_fen()))?,
            Kind::Gametree => {
                self.send_game(position, &[])?;
                self.send("moves")?;
            }
        }
        let header = self.read_until("moves")?;
        let count: usize = header
            .split_whitespace()
            .nth(1)
            .and_then(|count| count.parse().ok())
            .ok_or_else(|| format!("bad header {header:?}"))?;
        (0..count)
            .map(|_| {
                let line = self.line()?;
                let fields: Vec<&str> = line.split_whitespace().collect();
                match self.settings.kind {
                    Kind::Cake => from_cake(&fields, side),
                    Kind::Guinn => fields
                        .first()
                        .ok_or_else(|| "an empty line".to_string())
                        .and_then(|fen| Position::from_fen(fen).map_err(|e| e.to_string())),
                    Kind::Gametree => fields
                        .get(1)
                        .ok_or_else(|| format!("no position in {line:?}"))
                        .and_then(|fen| Position::from_fen(fen).map_err(|e| e.to_string())),
                }
            })
            .collect()
    }

    /// The position after the engine's move from the last of `history`, the game that
    /// started at `history[0]` with `moves`.
    fn reply(
        &mut self,
        history: &[Position],
        moves: &[String],
        first_of_game: bool,
    ) -> Result<Position, String> {
        let position = history.last().ok_or("no position")?;
        let side = position.side_to_move().opponent();
        let depth = self.settings.opponent_depth;
        match self.settings.kind {
            Kind::Cake => self.send(&format!(
                "go {} {depth} {}",
                to_cake(position),
                u8::from(first_of_game)
            ))?,
            Kind::Guinn => {
                let fens: Vec<String> = history.iter().map(Position::to_fen).collect();
                self.send(&format!("go {depth} {}", fens.join("|")))?;
            }
            Kind::Gametree => {
                self.send_game(&history[0], moves)?;
                match self.settings.opponent_budget {
                    Some(OpponentBudget::Seconds(seconds)) => {
                        self.send(&format!("go time {seconds}"))?;
                    }
                    Some(OpponentBudget::Nodes(nodes)) => {
                        self.send(&format!("go nodes {nodes}"))?
                    }
                    None => self.send(&format!("go depth {depth}"))?,
                }
                let answer = self.read_until("bestmove")?;
                let text = answer.split_whitespace().nth(1).unwrap_or("none");
                let mv = position
                    .parse_move(text)
                    .map_err(|error| format!("bestmove {text}: {error}"))?;
                return Ok(position.play(mv));
            }
        }
        let result = self.read_until("result")?;
        self.read_until("info")?;
        let fields: Vec<&str> = result.split_whitespace().skip(1).collect();
        match self.settings.kind {
            Kind::Cake => from_cake(&fields, side),
            Kind::Guinn => fields
                .first()
                .ok_or_else(|| format!("bad result {result:?}"))
                .and_then(|fen| Position::from_fen(fen).map_err(|e| e.to_string())),
            Kind::Gametree => Err("answered above".into()),
        }
    }
}

impl Drop for Opponent {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

/// How one game ended, from gametree's side.
struct Record {
    index: usize,
    ballot: u16,
    gametree: Color,
    points: f64,
    result: &'static str,
    reason: String,
    plies: usize,
    moves: Vec<String>,
    /// Seconds each side spent choosing its moves, and how many moves it chose.
    gametree_seconds: f64,
    gametree_moves: usize,
    opponent_seconds: f64,
    opponent_moves: usize,
}

impl Record {
    fn json(&self) -> String {
        serde_json::json!({
            "index": self.index,
            "ballot": self.ballot,
            "gametree": match self.gametree { Color::Black => "black", Color::White => "white" },
            "points": self.points,
            "result": self.result,
            "reason": self.reason,
            "plies": self.plies,
            "moves": self.moves,
            "gametree_seconds": self.gametree_seconds,
            "gametree_moves": self.gametree_moves,
            "opponent_seconds": self.opponent_seconds,
            "opponent_moves": self.opponent_moves,
        })
        .to_string()
    }
}

/// gametree's move in `game`.
fn gametree_move(
    game: &mut Checkers,
    settings: &Settings,
    table: &mut TranspositionTable<gametree::games::checkers::Move, i32>,
) -> Option<gametree::games::checkers::Move> {
    game.mark_root();
    let search = Search::new(game)
        .quiescence(settings.quiescence)
        .history(settings.history)
        .pvs(settings.pvs)
        .late_move_reductions(settings.lmr)
        .extend_recaptures(settings.extend_recaptures)
        .extend_threats(settings.extend_threats)
        .verified_pruning(settings.verified_pruning)
        .table(table);
    let search = match settings.budget {
        Budget::Depth(depth) => search.depth(depth),
        Budget::Time(limit) => search.time_limit(limit),
        Budget::Nodes(nodes) => search.max_nodes(nodes),
    };
    search.run().best_move
}

fn play(
    index: usize,
    ballot: &Ballot,
    gametree: Color,
    settings: &Settings,
    opponent: &mut Opponent,
) -> Result<Record, String> {
    let mut game = Checkers::new().with_evaluation(settings.evaluation.clone());
    if let Some(endgame) = &settings.endgame {
        game = game.with_endgame(endgame.clone());
    }
    for &mv in &ballot.moves {
        game.update(mv);
    }
    let mut history: Vec<Position> = vec![Position::initial()];
    for &mv in &ballot.moves {
        let next = history[history.len() - 1].play(mv);
        history.push(next);
    }
    let mut moves: Vec<String> = ballot.moves.iter().map(ToString::to_string).collect();
    let mut table = TranspositionTable::with_mib(settings.table_mib);
    opponent.new_game()?;
    let mut first_of_game = true;
    let (mut gametree_seconds, mut gametree_moves) = (0.0, 0);
    let (mut opponent_seconds, mut opponent_moves) = (0.0, 0);
    let (result, reason) = loop {
        if let Some(result) = game.result() {
            let reason = match result {
                GameResult::Draw => "draw by repetition or the 40-move rule",
                _ => "no move left",
            };
            break (result, reason.to_string());
        }
        if moves.len() >= settings.max_plies {
            break (
                GameResult::Draw,
                format!("adjudicated after {} plies", moves.len()),
            );
        }
        let position = *game.position();
        let mut legal = Vec::new();
        position.legal_moves(&mut legal);
        let mv = if position.side_to_move() == gametree {
            let thinking = Instant::now();
            let mv =
                gametree_move(&mut game, settings, &mut table).ok_or("gametree found no move")?;
            gametree_seconds += thinking.elapsed().as_secs_f64();
            gametree_moves += 1;
            // The engine's generator must list the position gametree's move leads to.
            let theirs = opponent.successors(&position)?;
            if !theirs.contains(&position.play(mv)) {
                return Err(format!(
                    "the engine's generator does not list gametree's {mv} at {}",
                    position.to_fen()
                ));
            }
            mv
        } else {
            let thinking = Instant::now();
            let reached = opponent.reply(&history, &moves, first_of_game)?;
            opponent_seconds += thinking.elapsed().as_secs_f64();
            opponent_moves += 1;
            first_of_game = false;
            *legal
                .iter()
                .find(|&&mv| position.play(mv) == reached)
                .ok_or_else(|| {
                    format!(
                        "the engine's move to {} is not legal at {}",
                        reached.to_fen(),
                        position.to_fen()
                    )
                })?
        };
        game.update(mv);
        history.push(*game.position());
        moves.push(mv.to_string());
    };
    let winner = match result {
        GameResult::BlackWins => Some(Color::Black),
        GameResult::WhiteWins => Some(Color::White),
        _ => None,
    };
    let points = match winner {
        Some(color) if color == gametree => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    Ok(Record {
        index,
        ballot: ballot.number,
        gametree,
        points,
        result: result.token(),
        reason,
        plies: moves.len(),
        moves,
        gametree_seconds,
        gametree_moves,
        opponent_seconds,
        opponent_moves,
    })
}

/// gametree's budget a move: at most one of `--depth`, `--time` and `--nodes` (a second one
/// would be silently ignored), `--depth 6` when none is given.
fn budget(flags: &Flags) -> Budget {
    let given: Vec<&str> = ["--depth", "--time", "--nodes"]
        .into_iter()
        .filter(|name| flags.value(name).is_some())
        .collect();
    match given.as_slice() {
        [] | ["--depth"] => Budget::Depth(flags.number("--depth", 6)),
        ["--time"] => Budget::Time(Duration::from_secs_f64(seconds(flags, "--time"))),
        ["--nodes"] => match flags.number("--nodes", 0u64) {
            0 => fail("checkers_match", "--nodes 0: at least one position a move"),
            nodes => Budget::Nodes(nodes),
        },
        several => fail(
            "checkers_match",
            &format!("{}: give one budget a move", several.join(" and ")),
        ),
    }
}

/// A time a move in seconds: a positive number of at most a day (`Duration` takes no other).
fn seconds(flags: &Flags, name: &str) -> f64 {
    let seconds: f64 = flags.number(name, 0.1);
    if !(seconds > 0.0 && seconds <= 86_400.0) {
        fail(
            "checkers_match",
            &format!("{name} {seconds}: from above 0 to 86400 seconds"),
        );
    }
    seconds
}

fn summary(label: &str, records: &[(Color, f64)]) {
    let mut score = MatchScore {
        wins: 0,
        draws: 0,
        losses: 0,
    };
    for &(_, points) in records {
        score.record(points);
    }
    let Some(points) = score.score() else {
        println!("{label}: no games");
        return;
    };
    let elo = score.elo().map_or("-".to_string(), |elo| {
        format!("{:+.0} Elo [{:+.0}, {:+.0}]", elo.elo, elo.low, elo.high)
    });
    println!(
        "{label}: {} games, gametree +{} ={} -{}, score {:.3}, {elo}",
        score.games(),
        score.wins,
        score.draws,
        score.losses,
        points
    );
}

/// `--time-depths`: the engine's own time a move at each depth, measured on games it played.
/// Each chosen game of `--record` is replayed from its start; at every ply after the ballot
/// where the engine was to move, the engine is asked for its move at the depth being timed
/// (its tables kept through the game, as in a match) and the recorded move is played on.
/// A depth's mean is what a match at that depth would cost a move; the median and longest
/// show how uneven it is. Exits 2 on a record it cannot read.
fn time_depths(settings: &Settings, timing: &Timing) {
    let Timing {
        depths,
        record,
        games: wanted,
    } = timing;
    let text = std::fs::read_to_string(record)
        .unwrap_or_else(|error| fail("checkers_match", &format!("--record {record}: {error}")));
    let games: Vec<RecordedGame> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(number, line)| {
            RecordedGame::parse(line).unwrap_or_else(|error| {
                fail(
                    "checkers_match",
                    &format!("--record {record} line {}: {error}", number + 1),
                )
            })
        })
        .collect();
    let chosen: Vec<&RecordedGame> = games
        .iter()
        .step_by((games.len() / wanted).max(1))
        .take(*wanted)
        .collect();
    let mut opponent =
        Opponent::start(settings).unwrap_or_else(|error| fail("checkers_match", &error));
    for &depth in depths {
        opponent.settings.opponent_depth = depth;
        let mut seconds = Vec::new();
        for game in &chosen {
            let measured = game
                .time_engine_moves(&mut opponent)
                .unwrap_or_else(|error| {
                    fail("checkers_match", &format!("game {}: {error}", game.index))
                });
            seconds.extend(measured);
        }
        if seconds.is_empty() {
            println!("depth {depth}: no move of the engine's in the games chosen");
            continue;
        }
        seconds.sort_by(f64::total_cmp);
        let mean = seconds.iter().sum::<f64>() / seconds.len() as f64;
        println!(
            "depth {depth}: {} moves over {} games, mean {:.0} ms, median {:.0} ms, longest {:.0} ms",
            seconds.len(),
            chosen.len(),
            1000.0 * mean,
            1000.0 * seconds[seconds.len() / 2],
            1000.0 * seconds[seconds.len() - 1],
        );
    }
}

/// What `--time-depths` measures: the engine's depths, the record of games replayed
/// (`--record`) and how many of them (`--games`).
struct Timing {
    depths: Vec<u32>,
    record: String,
    games: usize,
}

/// `--time-depths D1,D2,..` with its `--record FILE` and `--games N`, if given.
fn timing(flags: &Flags) -> Option<Timing> {
    let Some(text) = flags.value("--time-depths") else {
        for flag in ["--record", "--games"] {
            if flags.value(flag).is_some() {
                fail(
                    "checkers_match",
                    &format!("{flag} goes with --time-depths (--ballots N plays fewer games)"),
                );
            }
        }
        return None;
    };
    let depths = text
        .split(',')
        .map(|depth| {
            depth.trim().parse().unwrap_or_else(|_| {
                fail(
                    "checkers_match",
                    &format!("--time-depths {text:?}: depths separated by commas"),
                )
            })
        })
        .collect();
    let Some(record) = flags.value("--record") else {
        fail("checkers_match", "--time-depths needs --record FILE");
    };
    Some(Timing {
        depths,
        record: record.to_string(),
        games: flags.number("--games", 5usize).max(1),
    })
}

/// One game of an earlier match's record, as far as `--time-depths` needs it.
struct RecordedGame {
    index: usize,
    /// The engine's colour in that game: the other side from gametree's.
    engine: Color,
    moves: Vec<String>,
}

impl RecordedGame {
    fn parse(line: &str) -> Result<RecordedGame, String> {
        let value: serde_json::Value =
            serde_json::from_str(line).map_err(|error| error.to_string())?;
        let index = value["index"].as_u64().ok_or("no \"index\"")? as usize;
        let engine = match value["gametree"].as_str() {
            Some("black") => Color::White,
            Some("white") => Color::Black,
            _ => return Err("\"gametree\" is neither \"black\" nor \"white\"".into()),
        };
        let moves = value["moves"]
            .as_array()
            .ok_or("no \"moves\"")?
            .iter()
            .map(|mv| {
                mv.as_str()
                    .map(str::to_string)
                    .ok_or("a move that is not text")
            })
            .collect::<Result<_, _>>()?;
        Ok(RecordedGame {
            index,
            engine,
            moves,
        })
    }

    /// Replays the game through `opponent`, timing its move wherever it was to move after
    /// the ballot's three plies.
    fn time_engine_moves(&self, opponent: &mut Opponent) -> Result<Vec<f64>, String> {
        const BALLOT_PLIES: usize = 3;
        opponent.new_game()?;
        let mut history = vec![Position::initial()];
        let mut seconds = Vec::new();
        for (ply, text) in self.moves.iter().enumerate() {
            let position = history[history.len() - 1];
            if ply >= BALLOT_PLIES && position.side_to_move() == self.engine {
                let thinking = Instant::now();
                opponent.reply(&history, &self.moves[..ply], seconds.is_empty())?;
                seconds.push(thinking.elapsed().as_secs_f64());
            }
            let mv = position
                .parse_move(text)
                .map_err(|error| format!("ply {}: {text}: {error}", ply + 1))?;
            history.push(position.play(mv));
        }
        Ok(seconds)
    }
}

/// What `--help` prints: the flags, their defaults and the engines' variables.
const USAGE: &str = "\
checkers_match: gametree's checkers player against another engine, from the ACF ballots

Usage: checkers_match [FLAGS]   (the engine's driver in GAMETREE_CAKE, GAMETREE_GUINN
                                 or GAMETREE_ENGINE; without it the match is skipped)

  --opponent NAME        cake (default), guinn or gametree
  --opponent-depth D     the engine's depth a move (default 7)
  --opponent-time S      seconds a move for --opponent gametree instead of a depth
  --opponent-nodes N     positions a move for --opponent gametree instead of a depth
  --opponent-args ARGS   extra arguments of `gametree checkers engine`, split at spaces
  --depth D              gametree's depth a move (default 6), or
  --time S               gametree's seconds a move (iterative deepening)
  --nodes N              gametree's positions a move (iterative deepening; the same on
                         every host, where a time is not)
  --quiescence N         capture plies searched past the horizon (default 16)
  --table-mib M          gametree's transposition table (default 16)
  --history, --pvs, --lmr  history heuristic, principal variation search, late move reductions
  --extend-recaptures    a capture answering a capture costs no ply
  --extend-threats       a quiet position at the horizon whose player to move is
                         threatened with a capture is searched a ply more
  --verified-pruning     a quiet position far beyond its bound is cut after a search 4
                         plies shallower agrees (`--prune-margin M`, default 28;
                         `--prune-reduction R`, default 4; `--prune-min-depth D`,
                         the fewest plies left at which a position is cut, default 3;
                         `--prune-one-way`: only positions bad for the side to move,
                         as GuiNN; before 2026-11-28 the default was
                         `--prune-min-depth 5 --prune-one-way`)
  --eval E               samuel (default), learned, or a weights file of `checkers learn`
  --endgame-pieces N     endgame databases of up to N pieces (2 to 6), built at the start
  --endgame FILE         endgame databases read from FILE (`gametree checkers endgame
                         --output`) instead of built (6 pieces: about half an hour)
  --max-plies N          a game still going after N plies is a draw (default 300)
  --ballots N            the first N ballots, each played with both colours (default 156)
  --jobs J               games played at once (default 1)
  --out FILE             games as JSON lines; a rerun plays only the missing ones
                         (default target/checkers-match.jsonl)

  --time-depths D1,D2,.. plays no match: times the engine's own moves at each depth,
                         replaying --games N (default 5) games spread over --record FILE
                         (an earlier match's --out), to choose the depth nearest a time";

/// `--eval`: `samuel` (the default), `learned` or a weights file of `checkers learn`.
fn evaluation(name: Option<&str>) -> Evaluation {
    match name {
        None | Some("samuel") => Evaluation::default(),
        Some("learned") => Evaluation::Learned(LearnedWeights::shipped()),
        Some(path) => {
            let weights = std::fs::read_to_string(path)
                .map_err(|error| error.to_string())
                .and_then(|text| LearnedWeights::parse(&text).map_err(|error| error.to_string()))
                .unwrap_or_else(|error| fail("checkers_match", &format!("--eval {path}: {error}")));
            Evaluation::Learned(weights)
        }
    }
}

/// Where gametree's endgame databases come from: `--endgame FILE` or `--endgame-pieces N`.
enum EndgameSource {
    Read(String),
    Build(usize),
}

/// The endgame flags, checked (one of the two, a number of pieces the databases cover)
/// before anything is read or built.
fn endgame_source(flags: &Flags) -> Option<EndgameSource> {
    match (flags.value("--endgame"), flags.value("--endgame-pieces")) {
        (Some(_), Some(_)) => fail(
            "checkers_match",
            "--endgame and --endgame-pieces: one or the other",
        ),
        (Some(path), None) => Some(EndgameSource::Read(path.to_string())),
        (None, Some(_)) => {
            let pieces = flags.number("--endgame-pieces", 4usize);
            let most = gametree::games::checkers::endgame::MOST_ENDGAME_PIECES;
            if !(2..=most).contains(&pieces) {
                fail(
                    "checkers_match",
                    &format!("--endgame-pieces {pieces}: from 2 to {most}"),
                );
            }
            Some(EndgameSource::Build(pieces))
        }
        (None, None) => None,
    }
}

/// gametree's endgame databases: read from the file, or built (on two threads).
fn load_endgame(source: &EndgameSource) -> CheckersEndgame {
    let loaded = match source {
        EndgameSource::Read(path) => CheckersEndgame::read_file(Path::new(path))
            .map_err(|error| format!("--endgame {path}: {error}")),
        EndgameSource::Build(pieces) => CheckersEndgame::build(*pieces, 2, |_| {})
            .map_err(|error| format!("--endgame-pieces {pieces}: {error}")),
    };
    loaded.unwrap_or_else(|error| fail("checkers_match", &error))
}

/// `--verified-pruning` with its margin (`--prune-margin M`, 0 or more), reduction
/// (`--prune-reduction R`, 1 or more plies), least depth (`--prune-min-depth D`, 2 or
/// more plies) and `--prune-one-way`, or none; a setting without the pruning is refused
/// rather than ignored.
fn verified_pruning(flags: &Flags) -> Option<VerifiedPruning> {
    let margin: Option<i32> = flags.optional_number("--prune-margin");
    let reduction: Option<u32> = flags.optional_number("--prune-reduction");
    let min_depth: Option<u32> = flags.optional_number("--prune-min-depth");
    if !flags.switch("--verified-pruning") {
        if margin.is_some()
            || reduction.is_some()
            || min_depth.is_some()
            || flags.switch("--prune-one-way")
        {
            fail(
                "checkers_match",
                "--prune-margin, --prune-reduction, --prune-min-depth and --prune-one-way apply to --verified-pruning",
            );
        }
        return None;
    }
    if let Some(depth) = min_depth.filter(|&depth| depth < 2) {
        fail(
            "checkers_match",
            &format!(
                "--prune-min-depth {depth}: 2 or more plies (the search that verifies is shallower)"
            ),
        );
    }
    if let Some(margin) = margin.filter(|&margin| margin < 0) {
        fail(
            "checkers_match",
            &format!("--prune-margin {margin}: 0 or more points"),
        );
    }
    if reduction == Some(0) {
        fail(
            "checkers_match",
            "--prune-reduction 0: the search that verifies is at least a ply shallower",
        );
    }
    let defaults = VerifiedPruning::default();
    Some(VerifiedPruning {
        margin: margin.unwrap_or(defaults.margin),
        reduction: reduction.unwrap_or(defaults.reduction),
        min_depth: min_depth.unwrap_or(defaults.min_depth),
        fail_high: defaults.fail_high && !flags.switch("--prune-one-way"),
    })
}

/// `--opponent-time S` or `--opponent-nodes N`, for `--opponent gametree` only (the other
/// engines' drivers take a depth): refused rather than ignored elsewhere, and one at most.
fn opponent_budget(flags: &Flags, kind: Kind) -> Option<OpponentBudget> {
    let budget = match (
        flags.value("--opponent-time"),
        flags.optional_number::<u64>("--opponent-nodes"),
    ) {
        (None, None) => return None,
        (Some(_), None) => OpponentBudget::Seconds(seconds(flags, "--opponent-time")),
        (None, Some(0)) => fail(
            "checkers_match",
            "--opponent-nodes 0: at least one position a move",
        ),
        (None, Some(nodes)) => OpponentBudget::Nodes(nodes),
        (Some(_), Some(_)) => fail(
            "checkers_match",
            "--opponent-time and --opponent-nodes: give one budget a move",
        ),
    };
    if kind != Kind::Gametree {
        fail(
            "checkers_match",
            "--opponent-time and --opponent-nodes apply to --opponent gametree (the other drivers take --opponent-depth)",
        );
    }
    Some(budget)
}

fn main() {
    let flags = Flags::parse(
        "checkers_match",
        USAGE,
        &[
            "--opponent",
            "--opponent-args",
            "--opponent-depth",
            "--opponent-time",
            "--opponent-nodes",
            "--time",
            "--nodes",
            "--depth",
            "--quiescence",
            "--table-mib",
            "--eval",
            "--endgame-pieces",
            "--endgame",
            "--max-plies",
            "--ballots",
            "--jobs",
            "--out",
            "--time-depths",
            "--record",
            "--games",
            "--prune-margin",
            "--prune-reduction",
            "--prune-min-depth",
        ],
        &[
            "--history",
            "--pvs",
            "--lmr",
            "--extend-recaptures",
            "--extend-threats",
            "--verified-pruning",
            "--prune-one-way",
        ],
    );
    let kind = match flags.value("--opponent").unwrap_or("cake") {
        "cake" => Kind::Cake,
        "guinn" => Kind::Guinn,
        "gametree" => Kind::Gametree,
        other => fail(
            "checkers_match",
            &format!("--opponent {other:?}: cake, guinn or gametree"),
        ),
    };
    // Every flag is read before the engine is looked for, so that a mistyped one stops
    // the run (exit 2) whether or not the engine is there.
    let budget = budget(&flags);
    let endgame_source = endgame_source(&flags);
    let timing = timing(&flags);
    let opponent_depth = flags.number("--opponent-depth", 7);
    let quiescence = flags.number("--quiescence", 16);
    let table_mib = flags.number("--table-mib", 16);
    let evaluation = evaluation(flags.value("--eval"));
    let verified_pruning = verified_pruning(&flags);
    let opponent_budget = opponent_budget(&flags, kind);
    let max_plies = flags.number("--max-plies", 300);
    let ballots = three_move_ballots();
    let count = flags.number("--ballots", ballots.len()).min(ballots.len());
    let jobs = flags.number("--jobs", 1usize).max(1);
    let Some(path) = std::env::var_os(kind.variable()) else {
        println!(
            "checkers_match: skipped: set {} to the engine's driver (this file's header says what it speaks)",
            kind.variable()
        );
        return;
    };
    let settings = Settings {
        kind,
        path: PathBuf::from(path),
        opponent_args: flags
            .value("--opponent-args")
            .map(|text| text.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default(),
        opponent_depth,
        budget,
        quiescence,
        table_mib,
        history: flags.switch("--history"),
        pvs: flags.switch("--pvs"),
        lmr: flags.switch("--lmr"),
        extend_recaptures: flags.switch("--extend-recaptures"),
        extend_threats: flags.switch("--extend-threats"),
        verified_pruning,
        evaluation,
        // Built or read after the engine is found: it takes minutes.
        endgame: endgame_source.as_ref().map(load_endgame),
        opponent_budget,
        max_plies,
    };
    if let Some(timing) = &timing {
        return time_depths(&settings, timing);
    }
    let out = PathBuf::from(
        flags
            .value("--out")
            .unwrap_or("target/checkers-match.jsonl"),
    );
    let done: Vec<serde_json::Value> = std::fs::read_to_string(&out)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect();
    let finished: HashSet<usize> = done
        .iter()
        .filter_map(|record| record["index"].as_u64().map(|index| index as usize))
        .collect();
    let to_play: Vec<usize> = (0..2 * count)
        .filter(|index| !finished.contains(index))
        .collect();
    // The techniques on gametree's side beyond the defaults, and the opponent's limit.
    let mut techniques: String = [
        (settings.history, ", history"),
        (settings.pvs, ", pvs"),
        (settings.lmr, ", lmr"),
        (settings.extend_recaptures, ", recaptures extended"),
        (settings.extend_threats, ", threats extended"),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .map(|(_, name)| *name)
    .collect();
    if let Some(pruning) = settings.verified_pruning {
        techniques.push_str(&format!(
            ", verified pruning (margin {}, reduction {}, from depth {}{})",
            pruning.margin,
            pruning.reduction,
            pruning.min_depth,
            if pruning.fail_high {
                ", fail high too"
            } else {
                ""
            }
        ));
    }
    let opponent_limit = match settings.opponent_budget {
        Some(OpponentBudget::Seconds(seconds)) => format!("{seconds} s a move"),
        Some(OpponentBudget::Nodes(nodes)) => format!("{nodes} positions a move"),
        None => format!("depth {}", settings.opponent_depth),
    };
    println!(
        "gametree ({:?}, quiescence {}{techniques}) against {:?} at {opponent_limit}: {} games, {} already played",
        settings.budget,
        settings.quiescence,
        settings.kind,
        2 * count,
        2 * count - to_play.len()
    );
    // Each job's engine, started before the file is touched: one that cannot start would
    // fail every game, so the match stops at once (exit 2: its path or --opponent-args are
    // wrong).
    let opponents: Vec<Opponent> = (0..jobs.min(to_play.len()))
        .map(|_| Opponent::start(&settings).unwrap_or_else(|error| fail("checkers_match", &error)))
        .collect();
    // The games are written in the order of their numbers whatever order they end in, so
    // that a match's file is the same on every run and with any --jobs.
    let file = Mutex::new(InOrderLines::new(
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&out)
            .unwrap_or_else(|error| {
                fail(
                    "checkers_match",
                    &format!("cannot open {}: {error}", out.display()),
                )
            }),
    ));
    let played = AtomicUsize::new(0);
    let started = Instant::now();
    // The games are taken in order, one engine a job: a game whose engine failed is left
    // out (the games after it are written without it) and its job goes on with a fresh
    // engine; one that cannot be started again stops the match.
    let outcome = work_in_order(
        opponents,
        to_play.len(),
        |opponent, place| {
            let index = to_play[place];
            let colour = if index.is_multiple_of(2) {
                Color::Black
            } else {
                Color::White
            };
            match play(index, &ballots[index / 2], colour, &settings, opponent) {
                Ok(record) => {
                    println!(
                        "game {index:3} ballot {:3} gametree {:5}: {} ({}, {} plies)",
                        record.ballot,
                        format!("{colour:?}").to_lowercase(),
                        record.points,
                        record.reason,
                        record.plies
                    );
                    played.fetch_add(1, Ordering::Relaxed);
                    Ok(Some(record.json()))
                }
                Err(error) => {
                    eprintln!("checkers_match: game {index}: {error}");
                    *opponent = Opponent::start(&settings)?;
                    Ok(None)
                }
            }
        },
        &file,
        |error| format!("cannot write {}: {error}", out.display()),
    );
    if let Err(error) = outcome {
        fail("checkers_match", &error);
    }
    let played = played.load(Ordering::Relaxed);
    println!(
        "played {played} games in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    // The summary covers every game of the match in the file: this run's and earlier runs'.
    let records: Vec<serde_json::Value> = std::fs::read_to_string(out)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|record| {
            record["index"]
                .as_u64()
                .is_some_and(|index| (index as usize) < 2 * count)
        })
        .collect();
    let all: Vec<(Color, f64)> = records
        .iter()
        .map(|record| {
            let colour = if record["gametree"] == "black" {
                Color::Black
            } else {
                Color::White
            };
            (colour, record["points"].as_f64().unwrap_or(0.0))
        })
        .collect();
    summary("all", &all);
    let seconds = |side: &str| {
        let (time, moves) = records.iter().fold((0.0, 0.0), |(time, moves), record| {
            (
                time + record[format!("{side}_seconds")].as_f64().unwrap_or(0.0),
                moves + record[format!("{side}_moves")].as_f64().unwrap_or(0.0),
            )
        });
        if moves > 0.0 {
            format!("{:.1} ms", 1000.0 * time / moves)
        } else {
            "-".to_string()
        }
    };
    println!(
        "time a move: gametree {}, the engine {}",
        seconds("gametree"),
        seconds("opponent")
    );
    for colour in [Color::Black, Color::White] {
        let some: Vec<(Color, f64)> = all.iter().copied().filter(|(c, _)| *c == colour).collect();
        summary(&format!("gametree {colour:?}").to_lowercase(), &some);
    }
}
