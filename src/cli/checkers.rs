//! `gametree checkers ...`: English draughts from the command line: perft, the best move of
//! a position, and a game against the computer.

pub(super) mod best;
pub(super) mod endgame_cli;
pub(super) mod engine;
mod learn;
mod play;
mod protocol;
mod selfplay;

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};
use serde_json::json;

use gametree::games::checkers::{PdnGame, Position, perft, read_pdn};

use super::cpu_time::thread_cpu_time;
use super::output::outln;
use super::{CliError, Outcome, Side, progress};

/// The deepest perft the command accepts: far beyond what finishes in a day (depth 12
/// already counts 388 million leaves), and a bound on the recursion.
const MAX_PERFT_DEPTH: u32 = 40;

/// Arguments of `gametree checkers`.
#[derive(Args, Debug)]
pub struct CheckersArgs {
    #[command(subcommand)]
    command: CheckersCommand,
}

#[derive(Subcommand, Debug)]
enum CheckersCommand {
    /// Count the leaf nodes of the legal-move tree DEPTH plies deep (perft), with the time
    /// taken and nodes per second.
    #[command(after_help = "Examples:\n  \
        $ gametree checkers perft 2 --divide --fen 'B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29'\n  \
        position B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29\n  \
        depth    2\n  \
        16-19      6\n  \
        22-26      8\n  \
        25-30      8\n  \
        22-17      8\n  \
        25-21      8\n  \
        nodes    38\n  \
        ...\n  \
        $ gametree checkers perft 9 --json\n  \
        {\"position\":\"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\",\"depth\":9,\"nodes\":3963680,[..]}")]
    Perft {
        /// Plies to look ahead.
        depth: u32,
        /// Start from this PDN FEN position instead of the initial position.
        #[arg(long)]
        fen: Option<String>,
        /// Also print each legal move with the count below it.
        #[arg(long)]
        divide: bool,
        /// Print one JSON object: position, depth, nodes, seconds, nodes_per_second,
        /// cpu_seconds, and divide (each move with its count) with --divide.
        #[arg(long)]
        json: bool,
    },
    /// The computer's best move, its value (from Black's side: positive favours Black) and
    /// principal line, depth by depth as it deepens, with nodes, nodes per second and the
    /// effective branching factor.
    #[command(after_help = "Examples:\n  \
        $ gametree checkers best --depth 6\n  \
        position  B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n  \
        algorithm alphabeta\n  \
        depth                   value       nodes       nodes/s    ebf  line\n  \
        ...\n      \
        6                       0        2454 [..]  10-15 23-18 9-14 18x9 5x14 24-19 15x24 28x19\n  \
        best move 10-15\n  \
        value     0\n  \
        ...\n  \
        $ gametree checkers best --fen 'W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29' --depth 4 --json\n  \
        {\"position\":\"W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29\",\"algorithm\":\"alphabeta\",\"best_move\":\"10-7\",\"value\":52,\"depth\":4,[..]}\n  \
        $ gametree checkers best --depth 4 --params results/slagle/parameters.json | grep 'best move'\n  \
        best move 9-13\n  \
        $ gametree checkers best --engine mcts --playouts 10000 --seed 1 | grep -v time\n  \
        position  B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n  \
        algorithm mcts\n  \
        best move 11-16\n  \
        playouts  10000\n  \
        stop      playouts done\n  \
        nodes     707215")]
    Best {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        search: engine::SearchArgs,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Play against the computer in the terminal: the board is drawn with its square
    /// numbers, moves are typed in standard notation (`11-15`, `15x24`), and the game is
    /// saved as PDN when it ends, at end of input, on `quit` and on Ctrl-C.
    #[command(after_help = "Example:\n  \
        $ printf '11-15\\nquit\\n' | gametree checkers play --depth 4 --save /tmp/gametree-game.pdn | tail -2\n  \
        Your move (Black): quit\n  \
        Game saved to /tmp/gametree-game.pdn")]
    Play {
        /// Your side: first (Black, who moves first) or second (White).
        #[arg(long, value_enum, ignore_case = true, default_value_t = Side::First)]
        side: Side,
        #[command(flatten)]
        game: GameArgs,
        /// Save the game to this PDN file (default: checkers-SECONDS.pdn in the current
        /// directory, the name printed at the start).
        #[arg(long)]
        save: Option<PathBuf>,
        /// The computer plays to a game clock instead of --depth or --time: MINUTES for
        /// the game, with +SECONDS added after each move (`5`, `5+2`, `0.5+0.1`); each move
        /// gets its share of what is left, and a flag that falls loses the game
        #[arg(long, value_name = "MINUTES[+SECONDS]")]
        clock: Option<String>,
        #[command(flatten)]
        search: engine::SearchArgs,
    },
    /// Run as an engine process for a match harness or a GUI: commands on standard input,
    /// one a line (`position startpos|fen FEN [moves ...]`, `go depth D|time S|nodes N|clock LEFT [INC [MOVES]]`, `moves`,
    /// `newgame`, `quit`), answers on standard output (docs/checkers.md); the table is kept
    /// from move to move.
    #[command(after_help = "Example:\n  \
        $ printf 'position startpos moves 11-15\\ngo depth 6\\nquit\\n' | gametree checkers engine\n  \
        ready\n  \
        ok\n  \
        bestmove 24-19 value 2 depth 6 nodes [..] seconds [..]")]
    Engine {
        /// The transposition table's size in MiB (0: no table), cleared by `newgame`.
        #[arg(long, default_value_t = 16)]
        table_mib: usize,
        /// Quiescence: the most plies searched past the depth while the side to move must
        /// capture (0: none; at most 64) [default: 16]
        #[arg(long, value_name = "PLIES")]
        quiescence: Option<u32>,
        /// Order moves by the history heuristic too
        #[arg(long)]
        history: bool,
        /// Principal variation search (null windows after each position's first move)
        #[arg(long)]
        pvs: bool,
        /// Late move reductions (the moves after the first three searched a ply shallower
        /// first in quiet positions; may change the value)
        #[arg(long)]
        lmr: bool,
        /// A capture answering a capture costs no ply (the recapture extension; may change
        /// the value)
        #[arg(long)]
        extend_recaptures: bool,
        /// Verified pruning (as `checkers best --verified-pruning`; may change the value)
        #[arg(long)]
        verified_pruning: bool,
        /// Search threads sharing the table (Lazy SMP) [default: 1; at most four per core]
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
        /// The evaluation: learned, network, samuel or a weights file (as `checkers best
        /// --eval`) [default: samuel]
        #[arg(long, value_name = "NAME|FILE")]
        eval: Option<String>,
        /// Build the endgame databases of up to N pieces at the start and read them at the
        /// leaves (as `checkers best --endgame-pieces`)
        #[arg(long, value_name = "N", conflicts_with = "endgame")]
        endgame_pieces: Option<usize>,
        /// Read the endgame databases from FILE (`checkers endgame --output`)
        #[arg(long, value_name = "FILE")]
        endgame: Option<PathBuf>,
    },
    /// Build the endgame databases: win, draw or loss with best play for every position of
    /// up to --pieces pieces (retrograde analysis; no draw rules), on every core; save them
    /// with --output and search with them with --endgame (or build them at the start of a
    /// search with --endgame-pieces)
    #[command(after_help = "Example:\n  \
        $ gametree checkers endgame --pieces 3\n  \
        table     checkers english pieces=3 no-draw-rules\n  \
        pieces    2 to 3\n  \
        ...")]
    Endgame {
        /// The most pieces on the board, both sides together (2 to 6; up to 5 take 151 MB and
        /// 2 minutes on 2 cores, up to 6 2.7 GB)
        #[arg(long, value_name = "N")]
        pieces: usize,
        /// Write the databases to FILE. The slices done are saved to FILE.partial as the
        /// build goes on, and a rerun with the same FILE resumes from there
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Print one JSON object
        #[arg(long)]
        json: bool,
    },
    /// Play gametree against itself for the learned evaluation to be fitted to: each game
    /// from an ACF ballot and --random-plies random moves, then the search's moves, each
    /// kept with the search's value (`checkers learn --score-weight` fits to those too).
    /// Games are appended to --out as JSON lines in the order of their numbers (one that
    /// ends early waits for the few begun before it); a rerun plays only the games missing,
    /// so a long run can be stopped and resumed.
    #[command(after_help = "Example:\n  \
        $ gametree checkers selfplay --games 4 --depth 4 --out /tmp/gametree-selfplay.jsonl --jobs 1 | head -3\n  \
        out              /tmp/gametree-selfplay.jsonl\n  \
        made by          checkers selfplay --depth 4 --eval samuel --quiescence 16 --table-mib 16 --random-plies 2 --seed 1 --max-plies 300\n  \
        played           [..]")]
    Selfplay {
        /// The games the file holds when the run is done (game i starts from ballot i mod
        /// 156)
        #[arg(long, value_name = "N")]
        games: u64,
        /// Append the games to this file (JSON lines; the games it already holds are not
        /// played again)
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Search each move this many plies (default 6 when neither --time nor --max-nodes
        /// is given)
        #[arg(long, conflicts_with_all = ["time", "max_nodes"])]
        depth: Option<u32>,
        /// Search each move for this many seconds (iterative deepening)
        #[arg(long, conflicts_with = "max_nodes")]
        time: Option<f64>,
        /// Search each move until this many positions have been visited (iterative
        /// deepening; the same games on any machine)
        #[arg(long, value_name = "N")]
        max_nodes: Option<u64>,
        /// The evaluation: samuel, learned, network or a weights file (as `checkers best
        /// --eval`) [default: samuel]
        #[arg(long, value_name = "NAME|FILE")]
        eval: Option<String>,
        /// Quiescence: the most plies searched past the depth while a capture is forced
        /// [default: 16]
        #[arg(long, value_name = "PLIES")]
        quiescence: Option<u32>,
        /// Each game's transposition table in MiB, kept over the game
        #[arg(long, default_value_t = 16)]
        table_mib: usize,
        /// Build the endgame databases of up to N pieces at the start: the search reads
        /// them, and a game they hold ends with their value
        #[arg(long, value_name = "N", conflicts_with = "endgame")]
        endgame_pieces: Option<usize>,
        /// Read the endgame databases from FILE (`checkers endgame --output`) instead of
        /// building them
        #[arg(long, value_name = "FILE")]
        endgame: Option<PathBuf>,
        /// Order moves by the history heuristic too (as `checkers best --history`)
        #[arg(long)]
        history: bool,
        /// Late move reductions (as `checkers best --lmr`)
        #[arg(long)]
        lmr: bool,
        /// The recapture extension (as `checkers best --extend-recaptures`)
        #[arg(long)]
        extend_recaptures: bool,
        /// Verified pruning (as `checkers best --verified-pruning`)
        #[arg(long)]
        verified_pruning: bool,
        /// Random moves after the ballot's three, so that the games of a ballot differ
        #[arg(long, value_name = "PLIES", default_value_t = 2)]
        random_plies: usize,
        /// The seed of the random moves (game i's are the ith stream under it)
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once, each on its own thread [default: all cores]
        #[arg(long, value_name = "N")]
        jobs: Option<usize>,
        /// A game still going after this many plies is adjudicated a draw
        #[arg(long, value_name = "PLIES", default_value_t = 300)]
        max_plies: usize,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Fit the learned evaluation's weights to the results of games (logistic regression of
    /// each quiet position's result on its features, "Texel tuning") and print them, with
    /// how well they predict results held out; `--out` writes them for `--eval FILE`.
    #[command(after_help = "Example:\n  \
        $ gametree checkers learn results/checkers-learning/selfplay-round[12]-*.jsonl --out /tmp/gametree-learned.txt | head -3\n  \
        games            936\n  \
        positions        115187\n  \
        log loss         0.45193\n  \
        $ gametree checkers best --depth 8 --eval /tmp/gametree-learned.txt | grep 'best move'\n  \
        best move 9-14")]
    Learn {
        /// Game files: match records as JSON lines (a `moves` list from the start or a
        /// `fen`, and a `result`) or PDN; unfinished games are skipped.
        files: Vec<PathBuf>,
        /// Write the weights to this file, in the format --eval reads.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Leave out each game's first plies (the ballot's opening moves).
        #[arg(long, default_value_t = 6, value_name = "PLIES")]
        skip_plies: usize,
        /// How a draw enters the fit: `logistic`, a draw counted as half a win, or `draws`,
        /// a draw margin that grows as pieces leave the board (it played worse here:
        /// docs/checkers.md)
        #[arg(long, value_enum, default_value = "logistic")]
        model: learn::Model,
        /// Fit square tables too: what a man or a king adds on each square (60 more weights
        /// for each phase; with --model logistic)
        #[arg(long)]
        squares: bool,
        /// Fit patterns too, with the square tables: what a man adds on each square with
        /// its own man ahead of it, an enemy piece ahead or an enemy piece behind (168 more
        /// weights for each phase)
        #[arg(long, requires = "squares")]
        patterns: bool,
        /// The ridge penalty on the square tables' and the patterns' weights (in logits², per
        /// position): more pulls each square towards its piece's mean weight, each pattern
        /// towards none
        #[arg(long, value_name = "PENALTY", default_value_t = learn::SQUARE_RIDGE, requires = "squares", value_parser = learn::parse_fraction)]
        square_ridge: f64,
        /// Blend each position's target with the search's value of it, where the game file
        /// has one (`checkers selfplay` records them): this share of the target is
        /// logistic(value × a fitted scale), the rest the game's result (0: the result
        /// alone; needs --model logistic). Held-out losses stay measured against results
        #[arg(long, value_name = "SHARE", default_value_t = 0.0, value_parser = learn::parse_fraction)]
        score_weight: f64,
        /// Fit a hidden layer of 32 units on the board (each kind of piece on each square,
        /// the side to move, the phase) together with the linear weights (Adam, stopped by
        /// the loss on every fifth training game; with --model logistic): what
        /// `--eval network` plays with
        #[arg(long)]
        hidden: bool,
        /// With --hidden: fit the hidden layer K times, from seeds 1 to K, and keep the fit
        /// whose loss on the validation games is lowest (fits from different seeds differ
        /// by up to 0.002 in held-out loss, which is worth games: docs/checkers.md)
        #[arg(long, value_name = "K", default_value_t = 1, requires = "hidden", value_parser = clap::value_parser!(u64).range(1..=100))]
        restarts: u64,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
    },
}

/// Runs a `gametree checkers` subcommand.
pub fn run(args: CheckersArgs) -> Result<Outcome, CliError> {
    match args.command {
        CheckersCommand::Perft {
            depth,
            fen,
            divide,
            json,
        } => run_perft(depth, fen.as_deref(), divide, json),
        CheckersCommand::Best { game, search, json } => best::run(&game.read()?, &search, json),
        CheckersCommand::Play {
            side,
            game,
            save,
            clock,
            search,
        } => play::run(&game.read()?, side, save, clock.as_deref(), &search),
        CheckersCommand::Endgame {
            pieces,
            output,
            json,
        } => endgame_cli::run(pieces, output.as_ref(), json),
        CheckersCommand::Learn {
            files,
            out,
            skip_plies,
            model,
            squares,
            patterns,
            square_ridge,
            score_weight,
            hidden,
            restarts,
            json,
        } => learn::run(
            &files,
            out.as_deref(),
            &learn::FitOptions {
                skip_plies,
                model,
                squares,
                patterns,
                square_ridge,
                score_weight,
                hidden,
                restarts,
            },
            json,
        ),
        CheckersCommand::Selfplay {
            games,
            out,
            depth,
            time,
            max_nodes,
            eval,
            quiescence,
            table_mib,
            endgame_pieces,
            endgame,
            history,
            lmr,
            extend_recaptures,
            verified_pruning,
            random_plies,
            seed,
            jobs,
            max_plies,
            json,
        } => {
            let depth = depth.or((time.is_none() && max_nodes.is_none()).then_some(6));
            let mut search = engine::SearchArgs::alphabeta(depth, time, table_mib, quiescence);
            search.max_nodes = max_nodes;
            search.eval = eval;
            search.endgame_pieces = endgame_pieces;
            search.endgame = endgame;
            search.history = history;
            search.lmr = lmr;
            search.extend_recaptures = extend_recaptures;
            search.verified_pruning = verified_pruning;
            selfplay::run(
                &search,
                &selfplay::SelfplayOptions {
                    games,
                    random_plies,
                    seed,
                    jobs,
                    max_plies,
                },
                &out,
                json,
            )
        }
        CheckersCommand::Engine {
            table_mib,
            quiescence,
            history,
            pvs,
            lmr,
            extend_recaptures,
            verified_pruning,
            threads,
            eval,
            endgame_pieces,
            endgame,
        } => {
            let mut settings = engine::SearchArgs::alphabeta(Some(1), None, table_mib, quiescence);
            settings.history = history;
            settings.pvs = pvs;
            settings.lmr = lmr;
            settings.extend_recaptures = extend_recaptures;
            settings.verified_pruning = verified_pruning;
            settings.threads = threads;
            settings.eval = eval;
            settings.endgame_pieces = endgame_pieces;
            settings.endgame = endgame;
            let searcher = engine::Engine::from_args(&settings)?;
            let stdin = std::io::stdin();
            protocol::run(searcher, table_mib, stdin.lock(), std::io::stdout().lock())?;
            Ok(Outcome::Found)
        }
    }
}

fn run_perft(depth: u32, fen: Option<&str>, divide: bool, json: bool) -> Result<Outcome, CliError> {
    if depth > MAX_PERFT_DEPTH {
        return Err(CliError::Usage(format!(
            "perft depth {depth} is too deep (at most {MAX_PERFT_DEPTH})"
        )));
    }
    let position = read_position(fen)?;
    if !json {
        outln!("position {}", position.to_fen())?;
        outln!("depth    {depth}")?;
    }
    let cpu_started = thread_cpu_time();
    let started = Instant::now();
    // Counted one first move at a time, so that progress can be shown and `--divide`
    // prints each move as soon as it is counted.
    let mut split = Vec::new();
    let nodes = if depth == 0 {
        perft(&position, 0)
    } else {
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        let bar = progress::bar(moves.len() as u64, "perft");
        let mut nodes = 0;
        for mv in moves {
            let count = perft(&position.play(mv), depth - 1);
            nodes += count;
            if divide && !json {
                outln!("{:<10} {count}", mv.to_string())?;
            }
            split.push((mv, count));
            bar.inc(1);
            bar.set_message(format!("{} leaves", progress::si(nodes as f64)));
        }
        bar.finish_and_clear();
        nodes
    };
    let seconds = started.elapsed().as_secs_f64();
    // On a shared machine the wall clock counts time spent waiting for a core; the CPU
    // time of the thread does not.
    let cpu_seconds = thread_cpu_time()
        .zip(cpu_started)
        .map(|(now, then)| now.saturating_sub(then).as_secs_f64())
        .filter(|&cpu| cpu > 0.0);
    let per_second =
        |seconds: f64| (seconds > 0.0).then(|| (nodes as f64 / seconds).round() as u64);
    if json {
        let mut document = json!({
            "position": position.to_fen(),
            "depth": depth,
            "nodes": nodes,
            "seconds": seconds,
            "nodes_per_second": per_second(seconds),
            "cpu_seconds": cpu_seconds,
        });
        if divide {
            document["divide"] = split
                .iter()
                .map(|(mv, count)| json!({"move": mv.to_string(), "nodes": count}))
                .collect();
        }
        outln!("{document}")?;
        return Ok(Outcome::Found);
    }
    outln!("nodes    {nodes}")?;
    outln!("time     {seconds:.3} s")?;
    if let Some(rate) = per_second(seconds) {
        outln!("nodes/s  {rate}")?;
    }
    if let Some(cpu) = cpu_seconds {
        outln!(
            "cpu      {cpu:.3} s ({:.0} nodes per cpu second)",
            nodes as f64 / cpu
        )?;
    }
    Ok(Outcome::Found)
}

/// The position of `--fen`, or the initial position.
/// The game so far for `best` and `play`: where it starts and the moves played since, so
/// that the search knows the draw rules' history (repetitions, the 40-move rule).
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// Start from this PDN FEN position instead of the initial position.
    #[arg(long, conflicts_with = "pdn")]
    fen: Option<String>,
    /// The moves played so far (from the start, or from --fen), in standard notation and
    /// separated by spaces: `'11-15 23-19 8-11'`. The search then knows the game's
    /// history: a third repetition or the 40th move by each side without a capture or a
    /// man moving is a draw
    #[arg(long, value_name = "MOVES", conflicts_with = "pdn")]
    moves: Option<String>,
    /// The game so far from a PDN file (its last game, as `play --save` writes it): its
    /// start, its moves and so its history
    #[arg(long, value_name = "FILE")]
    pdn: Option<PathBuf>,
}

impl GameArgs {
    /// The game so far, every move checked.
    pub fn read(&self) -> Result<PdnGame, CliError> {
        let usage = |text: String| CliError::Usage(text);
        if let Some(path) = &self.pdn {
            let text = std::fs::read_to_string(path)
                .map_err(|error| usage(format!("cannot read {}: {error}", path.display())))?;
            let games =
                read_pdn(&text).map_err(|error| usage(format!("{}: {error}", path.display())))?;
            return games
                .into_iter()
                .last()
                .ok_or_else(|| usage(format!("{}: no game in the file", path.display())));
        }
        let start = read_position(self.fen.as_deref())?;
        let mut game = PdnGame::new(start);
        let mut position = start;
        for (index, text) in self
            .moves
            .as_deref()
            .unwrap_or_default()
            .split_whitespace()
            .enumerate()
        {
            let mv = position
                .parse_move(text)
                .map_err(|error| usage(format!("--moves: move {} ({text}): {error}", index + 1)))?;
            position = position.play(mv);
            game.moves.push(mv);
        }
        Ok(game)
    }
}

pub fn read_position(fen: Option<&str>) -> Result<Position, CliError> {
    match fen {
        Some(fen) => Position::from_fen(fen).map_err(|error| CliError::Usage(error.to_string())),
        None => Ok(Position::initial()),
    }
}
