//! `gametree kalah`: Kalah(h, s) solved by the generic solver (null windows over the final
//! margin, the table, the futility bounds of the seeds left), move by move, against a person,
//! and perft.
//!
//! Notation: a house is numbered 1..h from its owner's left; a move is the house the player
//! to move sows. `--moves 3,1,4` plays from the start, each number for whoever is to move
//! then (after a last seed in the store the same player moves again). `--position` gives
//! the pits in sowing order — South's houses 1..h, South's store, North's houses 1..h,
//! North's store — then `S` or `N` for the player to move: the start of Kalah(6,4) is
//! `4,4,4,4,4,4,0,4,4,4,4,4,4,0,S`. Values are South's store less North's at the end of the
//! game: South, the first player, is MAX.

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use serde_json::json;

use gametree::games::kalah::{Ending, Kalah, KalahRules};
use gametree::search::retrograde::{Endgame, EndgameTable};
use gametree::{Game, Player, SolveOptions, Solver};

use gametree::search::mcts::Mcts;

use super::engine::{Engine, EngineArgs, mcts_text};
use super::output::outln;
use super::{CliError, Outcome, Side, limits, progress, prompt};

/// Arguments of `gametree kalah`.
#[derive(Args, Debug)]
pub struct KalahArgs {
    #[command(subcommand)]
    command: KalahCommand,
}

#[derive(Subcommand, Debug)]
enum KalahCommand {
    /// The value of a position with perfect play (South's final store less North's; from
    /// the start, the first player's winning margin), its best moves, positions searched
    /// and time
    #[command(after_help = "Examples:\n  \
        $ gametree kalah solve --houses 3 --seeds 3\n  \
        position  3,3,3,0,3,3,3,0,S (Kalah(3,3), Irving's rules)\n  \
        value     [..]\n  \
        ...\n  \
        $ gametree kalah solve --houses 2 --seeds 2 --json\n  \
        {\"position\":\"2,2,0,2,2,0,S\",\"rules\":\"irving\",\"value\":-2,\"best_moves\":[2],\"nodes\":[..]}")]
    Solve(SolveArgs),
    /// The value of every move from a position (South's final margin after it, with perfect
    /// play), one field per house: `-` for an empty house
    #[command(after_help = "Example:\n  \
        $ gametree kalah analyze --houses 3 --seeds 2\n  \
        -8 4 0")]
    Analyze(SolveArgs),
    /// Count the positions DEPTH moves ahead (every sowing is a move, extra moves included)
    #[command(after_help = "Example:\n  \
        $ gametree kalah perft 3\n  \
        position 4,4,4,4,4,4,0,4,4,4,4,4,4,0,S\n  \
        depth    3\n  \
        nodes    185\n  \
        time     [..]")]
    Perft(PerftArgs),
    /// The computer's move in a position: by the solver within a budget (alphabeta: the
    /// move with the best proven bounds) or by Monte Carlo tree search
    #[command(after_help = "Examples:\n  \
        $ gametree kalah best --houses 3 --seeds 2\n  \
        best move 2\n  \
        engine    alphabeta\n  \
        value     4 (South wins by 4)\n  \
        $ gametree kalah best --houses 3 --seeds 2 --engine mcts --playouts 2000 --seed 1 --json\n  \
        {\"position\":\"2,2,2,0,2,2,2,0,S\",\"engine\":\"mcts\",\"move\":[..],\"search\":{[..]}}")]
    Best(BestArgs),
    /// Play against the computer, which solves each move within a budget (or, with
    /// --engine mcts, searches it by Monte Carlo tree search); type a house number per move
    #[command(after_help = "Examples:\n  \
        $ printf '2\\n1\\n' | gametree kalah play --houses 2 --seeds 1 --side first | tail -1\n  \
        You win by 2.\n  \
        $ printf '2\\n1\\n' | gametree kalah play --houses 2 --seeds 1 --side first --engine mcts --seed 1 | tail -1\n  \
        You win by 2.")]
    Play(PlayArgs),
    /// Build an endgame table: the value of every position with fewer than --endgame-seeds
    /// seeds left in the houses, for a number of houses and rules; save it with --output
    /// and read it with --endgame
    #[command(after_help = "Example:\n  \
        $ gametree kalah endgame --houses 3 --endgame-seeds 10\n  \
        table     kalah houses=3 empty-capture=true ending=either-side-empty\n  \
        seeds     0 to 9 in the houses\n  \
        positions 5005\n  \
        memory    5005 bytes\n  \
        time      [..]")]
    Endgame(EndgameBuildArgs),
}

#[derive(Args, Debug)]
struct EndgameBuildArgs {
    /// Houses a side, 1 to 6
    #[arg(long, default_value_t = 6)]
    houses: usize,
    /// The capture rule
    #[arg(long, value_enum, default_value_t = RulesArg::Irving)]
    rules: RulesArg,
    /// When the game ends
    #[arg(long, value_enum, default_value_t = EndingArg::EitherSideEmpty)]
    ending: EndingArg,
    /// Value every position with fewer than N seeds left in the houses
    #[arg(long, value_name = "N")]
    endgame_seeds: usize,
    /// Write the table to FILE
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Print one JSON object
    #[arg(long)]
    json: bool,
}

/// The rule variants (see `gametree::games::kalah`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum RulesArg {
    /// Irving, Donkers and Uiterwijk (2000): a last seed in an empty own house is captured
    /// even when the opposite house is empty
    Irving,
    /// The rules as commonly stated: a capture needs seeds in the opposite house
    Standard,
}

/// When the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum EndingArg {
    /// As soon as either side's houses are empty
    EitherSideEmpty,
    /// When the player to move has nothing to sow
    MoverHasNoSeeds,
}

/// The board, the rules and the position.
#[derive(Args, Debug)]
struct BoardArgs {
    /// Houses a side, 1 to 6
    #[arg(long, default_value_t = 6, conflicts_with = "position")]
    houses: usize,
    /// Seeds a house at the start, 1 to 20
    #[arg(long, default_value_t = 4, conflicts_with = "position", value_parser = clap::value_parser!(u8).range(1..=20))]
    seeds: u8,
    /// The capture rule
    #[arg(long, value_enum, default_value_t = RulesArg::Irving)]
    rules: RulesArg,
    /// When the game ends
    #[arg(long, value_enum, default_value_t = EndingArg::EitherSideEmpty)]
    ending: EndingArg,
    /// Moves played from the start: house numbers (1 = the mover's leftmost), comma
    /// separated, each for the player to move then
    #[arg(
        long,
        value_name = "HOUSES",
        default_value = "",
        conflicts_with = "position"
    )]
    moves: String,
    /// A position: the pits in sowing order (South's houses, South's store, North's houses,
    /// North's store) and S or N for the player to move, comma separated
    #[arg(long, value_name = "PITS")]
    position: Option<String>,
}

impl BoardArgs {
    fn rules(&self) -> KalahRules {
        rules_from(self.rules, self.ending)
    }

    /// The position asked for.
    fn game(&self) -> Result<Kalah, CliError> {
        let usage = |message: String| CliError::Usage(message);
        if let Some(text) = &self.position {
            return parse_position(text, self.rules()).map_err(usage);
        }
        let mut game =
            Kalah::new(self.houses, self.seeds, self.rules()).map_err(|e| usage(e.to_string()))?;
        for (index, field) in self.moves.split(',').enumerate() {
            let field = field.trim();
            if field.is_empty() && self.moves.trim().is_empty() {
                break;
            }
            let house: usize = field.parse().map_err(|_| {
                usage(format!(
                    "--moves: move {} ({}) is not a house number",
                    index + 1,
                    gametree::text::excerpt(field)
                ))
            })?;
            game.play(house)
                .map_err(|error| usage(format!("--moves: move {}: {error}", index + 1)))?;
        }
        Ok(game)
    }
}

/// Reads `PITS,...,S|N`; every error names the field.
fn parse_position(text: &str, rules: KalahRules) -> Result<Kalah, String> {
    let fields: Vec<&str> = text.split(',').map(str::trim).collect();
    let Some((side, pits)) = fields.split_last() else {
        return Err("--position: empty".into());
    };
    let to_move = match *side {
        "S" | "s" => Player::Max,
        "N" | "n" => Player::Min,
        other => {
            return Err(format!(
                "--position: field {} ({}) must be S or N, the player to move",
                fields.len(),
                gametree::text::excerpt(other)
            ));
        }
    };
    let mut counts = Vec::with_capacity(pits.len());
    for (index, field) in pits.iter().enumerate() {
        counts.push(field.parse::<u8>().map_err(|_| {
            format!(
                "--position: field {} ({}) is not a number of seeds 0 to 255",
                index + 1,
                gametree::text::excerpt(field)
            )
        })?);
    }
    Kalah::from_pits(&counts, to_move, rules).map_err(|error| format!("--position: {error}"))
}

/// The position in the notation of `--position`.
fn position_text(game: &Kalah) -> String {
    let mut fields: Vec<String> = game.pits().iter().map(ToString::to_string).collect();
    fields.push(
        match game.player_to_move() {
            Player::Max => "S",
            Player::Min => "N",
        }
        .to_string(),
    );
    fields.join(",")
}

fn rules_name(rules: KalahRules) -> &'static str {
    if rules.empty_capture {
        "irving"
    } else {
        "standard"
    }
}

/// A value for people: who wins by how much.
fn describe(value: i32) -> String {
    match value.signum() {
        1 => format!("{value} (South wins by {value})"),
        -1 => format!("{value} (North wins by {})", -value),
        _ => "0 (a draw)".to_string(),
    }
}

#[derive(Args, Debug)]
struct SolveArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Greatest transposition table size in MiB (the table starts at 1 MiB and grows)
    #[arg(long, value_name = "MIB", default_value_t = SolveOptions::default().table_mib)]
    table_mib: usize,
    /// Search threads, sharing the table (each null-window search is run by all of them
    /// and the first to finish answers)
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    #[command(flatten)]
    endgame: EndgameArgs,
    /// Print one JSON object
    #[arg(long)]
    json: bool,
}

/// Where the endgame table comes from.
#[derive(Args, Debug)]
struct EndgameArgs {
    /// Value every position with fewer than N seeds left in the houses before searching
    /// (an endgame table built in memory, its time reported apart); 0 for none
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        conflicts_with = "endgame"
    )]
    endgame_seeds: usize,
    /// Read the endgame table from FILE (written by `gametree kalah endgame`)
    #[arg(long, value_name = "FILE")]
    endgame: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct PerftArgs {
    /// Moves to look ahead
    depth: u32,
    #[command(flatten)]
    board: BoardArgs,
    /// Print one JSON object
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct BestArgs {
    #[command(flatten)]
    board: BoardArgs,
    #[command(flatten)]
    computer: ComputerArgs,
    /// Print one JSON object: position, engine, move (a house, 1-based), then the value's
    /// bounds (alphabeta) or what the Monte Carlo search did
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct PlayArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Your side: first (South) or second (North); asked for when absent
    #[arg(long, value_enum, ignore_case = true, value_name = "SIDE")]
    side: Option<Side>,
    #[command(flatten)]
    computer: ComputerArgs,
}

/// How the computer chooses a move, for `best` and `play`.
#[derive(Args, Debug)]
struct ComputerArgs {
    #[command(flatten)]
    engine: EngineArgs,
    /// alphabeta: the most positions the computer searches for each move it considers
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    max_nodes: u64,
    /// alphabeta: greatest transposition table size in MiB
    #[arg(long, value_name = "MIB", default_value_t = SolveOptions::default().table_mib)]
    table_mib: usize,
}

impl ComputerArgs {
    /// Refuses an engine's flags that do not fit and a budget of no positions.
    fn check(&self) -> Result<(), CliError> {
        self.engine.check()?;
        if self.max_nodes == 0 {
            return Err(CliError::Usage(
                "--max-nodes 0: the computer needs to search at least one position".into(),
            ));
        }
        Ok(())
    }
}

/// The deepest perft accepted: far beyond what finishes.
const MAX_PERFT_DEPTH: u32 = 64;

/// Runs `gametree kalah`.
pub fn run(args: KalahArgs) -> Result<Outcome, CliError> {
    match args.command {
        KalahCommand::Solve(args) => solve(&args),
        KalahCommand::Analyze(args) => analyze(&args),
        KalahCommand::Perft(args) => perft(&args),
        KalahCommand::Best(args) => best(&args),
        KalahCommand::Play(args) => play(&args),
        KalahCommand::Endgame(args) => build_endgame(&args),
    }
}

fn rules_from(rules: RulesArg, ending: EndingArg) -> KalahRules {
    let base = match rules {
        RulesArg::Irving => KalahRules::irving(),
        RulesArg::Standard => KalahRules::standard(),
    };
    KalahRules {
        ending: match ending {
            EndingArg::EitherSideEmpty => Ending::EitherSideEmpty,
            EndingArg::MoverHasNoSeeds => Ending::MoverHasNoSeeds,
        },
        ..base
    }
}

/// How an endgame table was made: what `solve` reports beside the search.
struct EndgameReport {
    slices: usize,
    positions: u64,
    bytes: usize,
    seconds: f64,
}

/// Builds the table of positions with fewer than `seeds` seeds in the houses of `board`'s
/// kind, checking its memory first, with a progress bar.
fn build_table(board: &Kalah, seeds: usize) -> Result<(EndgameTable, f64), CliError> {
    const MOST_SEEDS: usize = 64;
    if seeds > MOST_SEEDS {
        return Err(CliError::Usage(format!(
            "--endgame-seeds {seeds}: at most {MOST_SEEDS}"
        )));
    }
    let positions: u64 = (0..seeds)
        .map(|slice| board.slice_len(slice))
        .fold(0, u64::saturating_add);
    limits::check_memory(
        &format!("--endgame-seeds {seeds}"),
        "the endgame table",
        positions,
        4096 * limits::MIB,
    )?;
    let bar = progress::bar(positions, "endgame");
    let started = Instant::now();
    let table = EndgameTable::build_parallel(board, seeds, limits::cores(), |done| {
        bar.set_position(done.positions);
    })
    .map_err(|error| CliError::Usage(error.to_string()))?;
    bar.finish_and_clear();
    Ok((table, started.elapsed().as_secs_f64()))
}

impl EndgameArgs {
    /// `game` valued from the table asked for, if any, and how the table was made.
    fn attach(&self, game: Kalah) -> Result<(Kalah, Option<EndgameReport>), CliError> {
        let (table, seconds) = if let Some(path) = &self.endgame {
            let started = Instant::now();
            let file = std::fs::File::open(path).map_err(|error| {
                CliError::Usage(format!("--endgame {}: {error}", path.display()))
            })?;
            let table = EndgameTable::read_from(file, &game.endgame_id()).map_err(|error| {
                CliError::Usage(format!("--endgame {}: {error}", path.display()))
            })?;
            (table, started.elapsed().as_secs_f64())
        } else if self.endgame_seeds > 0 {
            build_table(&game, self.endgame_seeds)?
        } else {
            return Ok((game, None));
        };
        let report = EndgameReport {
            slices: table.slices(),
            positions: table.positions(),
            bytes: table.memory_bytes(),
            seconds,
        };
        let game = game
            .with_endgame(Arc::new(table))
            .map_err(|error| CliError::Usage(error.to_string()))?;
        Ok((game, Some(report)))
    }
}

/// `--output PATH` refused before a long build rather than after it.
pub(crate) fn refuse_unwritable(path: &std::path::Path) -> Result<(), CliError> {
    std::fs::File::create(path)
        .map(drop)
        .map_err(|error| CliError::Usage(format!("--output {}: {error}", path.display())))
}

/// Writes an endgame table to `--output PATH`.
pub(crate) fn write_table(table: &EndgameTable, path: &std::path::Path) -> Result<(), CliError> {
    let failed =
        |error: io::Error| CliError::Usage(format!("--output {}: {error}", path.display()));
    let file = std::fs::File::create(path).map_err(failed)?;
    table.write_to(io::BufWriter::new(file)).map_err(failed)
}

fn build_endgame(args: &EndgameBuildArgs) -> Result<Outcome, CliError> {
    let board = Kalah::new(args.houses, 1, rules_from(args.rules, args.ending))
        .map_err(|error| CliError::Usage(error.to_string()))?;
    if let Some(path) = &args.output {
        refuse_unwritable(path)?;
    }
    let (table, seconds) = build_table(&board, args.endgame_seeds)?;
    if let Some(path) = &args.output {
        write_table(&table, path)?;
    }
    if args.json {
        outln!(
            "{}",
            json!({
                "table": table.id(),
                "endgame_seeds": table.slices(),
                "positions": table.positions(),
                "bytes": table.memory_bytes(),
                "seconds": seconds,
            })
        )?;
        return Ok(Outcome::Found);
    }
    outln!("table     {}", table.id())?;
    outln!(
        "seeds     0 to {} in the houses",
        table.slices().saturating_sub(1)
    )?;
    outln!("positions {}", table.positions())?;
    outln!("memory    {} bytes", table.memory_bytes())?;
    outln!("time      {seconds:.3} s")?;
    Ok(Outcome::Found)
}

pub(super) fn solver(table_mib: usize) -> Result<Solver<Kalah>, CliError> {
    limits::check_table_mib(table_mib)?;
    Ok(Solver::new(SolveOptions {
        table_mib,
        // Measured on Kalah(6,4) with a 21-seed endgame table: 17.4 M positions in 7.2 s
        // with enhanced transposition cutoffs, 18.6 M in 4.5 s without; probing every
        // successor costs more than the few positions it saves.
        enhanced_transposition_cutoffs: false,
        ..SolveOptions::default()
    }))
}

fn solve(args: &SolveArgs) -> Result<Outcome, CliError> {
    let game = args.board.game()?;
    let mut solver = solver(args.table_mib)?;
    let threads = limits::check_threads(args.threads)?;
    let (mut game, endgame) = args.endgame.attach(game)?;
    let spinner = progress::spinner("solving");
    let watch = progress::watch_solve(&spinner, solver.progress());
    let started = Instant::now();
    let root = solver
        .solve_parallel_reporting(&mut game, threads, u64::MAX, |_| {})
        .map_err(|_| CliError::Usage("the search stopped without a value".into()))?;
    drop(watch);
    let value_seconds = started.elapsed().as_secs_f64();
    // The best moves: those whose value is the root's.
    spinner.set_message("the best moves");
    let analysis_started = Instant::now();
    let (best_moves, move_stats) = solver.best_moves_parallel(&mut game, root.value, threads);
    let move_nodes = move_stats.nodes;
    let mut best: Vec<usize> = best_moves.iter().map(|&mv| usize::from(mv) + 1).collect();
    best.sort_unstable();
    let moves_seconds = analysis_started.elapsed().as_secs_f64();
    spinner.finish_and_clear();
    let position = position_text(&game);
    let rules = rules_name(game.rules());
    if args.json {
        let endgame_json = endgame.as_ref().map(|report| {
            json!({
                "endgame_seeds": report.slices,
                "positions": report.positions,
                "bytes": report.bytes,
                "seconds": report.seconds,
            })
        });
        outln!(
            "{}",
            json!({
                "position": position,
                "rules": rules,
                "value": root.value,
                "best_moves": best,
                "nodes": root.stats.nodes,
                "seconds": value_seconds,
                "threads": threads,
                "best_moves_nodes": move_nodes,
                "best_moves_seconds": moves_seconds,
                "table_bytes": solver.table_memory_bytes(),
                "endgame": endgame_json,
            })
        )?;
        return Ok(Outcome::Found);
    }
    let board = if args.board.position.is_some() {
        format!("{} houses", game.houses())
    } else {
        format!("Kalah({},{})", game.houses(), args.board.seeds)
    };
    let rules_text = if rules == "irving" {
        "Irving's"
    } else {
        "standard"
    };
    outln!("position  {position} ({board}, {rules_text} rules)")?;
    outln!("value     {}", describe(root.value))?;
    outln!("positions {}", root.stats.nodes)?;
    outln!("time      {value_seconds:.3} s")?;
    let best_text: Vec<String> = best.iter().map(ToString::to_string).collect();
    outln!(
        "best      {} ({move_nodes} positions, {moves_seconds:.3} s more)",
        if best_text.is_empty() {
            "none (the game is over)".to_string()
        } else {
            best_text.join(" ")
        }
    )?;
    if let Some(report) = endgame {
        outln!(
            "endgame   fewer than {} seeds in the houses: {} positions, {:.1} MiB, {:.3} s",
            report.slices,
            report.positions,
            report.bytes as f64 / limits::MIB as f64,
            report.seconds
        )?;
    }
    Ok(Outcome::Found)
}

fn analyze(args: &SolveArgs) -> Result<Outcome, CliError> {
    let (mut game, _) = args.endgame.attach(args.board.game()?)?;
    if game.is_over() {
        return Err(CliError::Usage(format!(
            "{}: the game is over; there is no move to analyse",
            position_text(&game)
        )));
    }
    let mut solver = solver(args.table_mib)?;
    let threads = limits::check_threads(args.threads)?;
    let spinner = progress::spinner("analysing");
    let watch = progress::watch_solve(&spinner, solver.progress());
    let mut values: Vec<Option<i32>> = vec![None; game.houses()];
    let mut moves = Vec::new();
    game.successors(&mut moves);
    for mv in moves {
        spinner.set_prefix(format!("analysing house {}", mv + 1));
        game.update(mv);
        let solution = solver.solve_parallel(&mut game, threads);
        game.revert(mv);
        values[usize::from(mv)] = Some(solution.value);
    }
    drop(watch);
    spinner.finish_and_clear();
    if args.json {
        outln!(
            "{}",
            json!({ "position": position_text(&game), "values": values })
        )?;
    } else {
        let fields: Vec<String> = values
            .iter()
            .map(|value| value.map_or_else(|| "-".to_string(), |value| value.to_string()))
            .collect();
        outln!("{}", fields.join(" "))?;
    }
    Ok(Outcome::Found)
}

/// Leaves `depth` moves below `game`.
fn count_leaves(game: &mut Kalah, depth: u32, moves: &mut Vec<Vec<u8>>) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut buffer = moves.pop().unwrap_or_default();
    buffer.clear();
    game.successors(&mut buffer);
    let mut leaves = 0;
    for &mv in &buffer {
        game.update(mv);
        leaves += count_leaves(game, depth - 1, moves);
        game.revert(mv);
    }
    moves.push(buffer);
    leaves
}

fn perft(args: &PerftArgs) -> Result<Outcome, CliError> {
    if args.depth > MAX_PERFT_DEPTH {
        return Err(CliError::Usage(format!(
            "perft depth {} is too deep (at most {MAX_PERFT_DEPTH})",
            args.depth
        )));
    }
    let mut game = args.board.game()?;
    let spinner = progress::spinner("perft");
    let started = Instant::now();
    let nodes = count_leaves(&mut game, args.depth, &mut Vec::new());
    let seconds = started.elapsed().as_secs_f64();
    spinner.finish_and_clear();
    if args.json {
        outln!(
            "{}",
            json!({
                "position": position_text(&game),
                "depth": args.depth,
                "nodes": nodes,
                "seconds": seconds,
            })
        )?;
    } else {
        outln!("position {}", position_text(&game))?;
        outln!("depth    {}", args.depth)?;
        outln!("nodes    {nodes}")?;
        outln!("time     {seconds:.3} s")?;
    }
    Ok(Outcome::Found)
}

/// The computer's house (0-based) and what it proved of it: each move solved within
/// `max_nodes` positions; the best guaranteed value for the mover, then the best possible.
pub(super) fn computer_move(
    solver: &mut Solver<Kalah>,
    game: &mut Kalah,
    max_nodes: u64,
) -> (u8, i32, i32) {
    let mover = game.to_move();
    let sign = if mover == Player::Max { 1 } else { -1 };
    let mut moves = Vec::new();
    game.successors(&mut moves);
    let mut best: Option<(u8, i32, i32)> = None;
    for mv in moves {
        game.update(mv);
        // Bounds on South's final margin, turned to the mover's side.
        let (low, high) = match solver.solve_within(game, max_nodes) {
            Ok(solution) => (solution.value, solution.value),
            Err(unsolved) => {
                let to_max = |score: i32| {
                    if game.to_move() == Player::Max {
                        score
                    } else {
                        -score
                    }
                };
                let (a, b) = (to_max(unsolved.at_least), to_max(unsolved.at_most));
                (a.min(b), a.max(b))
            }
        };
        game.revert(mv);
        let (at_least, at_most) = if sign == 1 {
            (low, high)
        } else {
            (-high, -low)
        };
        if best
            .is_none_or(|(_, best_least, best_most)| (at_least, at_most) > (best_least, best_most))
        {
            best = Some((mv, at_least, at_most));
        }
    }
    best.expect("invariant: a game that is not over has a move")
}

fn best(args: &BestArgs) -> Result<Outcome, CliError> {
    args.computer.check()?;
    let computer = &args.computer;
    let mut game = args.board.game()?;
    if game.is_over() {
        return Err(CliError::Usage(format!(
            "{}: the game is over; there is no move to choose",
            position_text(&game)
        )));
    }
    let position = position_text(&game);
    match computer.engine.engine {
        Engine::Alphabeta => {
            let mut solver = solver(computer.table_mib)?;
            let (mv, at_least, at_most) = computer_move(&mut solver, &mut game, computer.max_nodes);
            // South's final margin after the move: exact when the bounds meet.
            let (low, high) = if game.to_move() == Player::Max {
                (at_least, at_most)
            } else {
                (-at_most, -at_least)
            };
            if args.json {
                outln!(
                    "{}",
                    json!({
                        "position": position,
                        "engine": "alphabeta",
                        "move": usize::from(mv) + 1,
                        "at_least": low,
                        "at_most": high,
                    })
                )?;
            } else {
                outln!("best move {}\nengine    alphabeta", usize::from(mv) + 1)?;
                if low == high {
                    outln!("value     {}", describe(low))?;
                } else {
                    outln!("value     between {low} and {high}")?;
                }
            }
        }
        Engine::Mcts => {
            let mut mcts = Mcts::new(computer.engine.mcts_options());
            let result = mcts.search(&mut game, computer.engine.budget());
            let mv = result
                .best_move
                .expect("invariant: a game that is not over has a move");
            if args.json {
                outln!(
                    "{}",
                    json!({
                        "position": position,
                        "engine": "mcts",
                        "move": usize::from(mv) + 1,
                        "search": computer.engine.mcts_json(&result, |mv| json!(usize::from(mv) + 1)),
                    })
                )?;
            } else {
                outln!("best move {}\nengine    mcts", usize::from(mv) + 1)?;
                outln!(
                    "{}",
                    mcts_text(&result, |mv| (usize::from(mv) + 1).to_string())
                )?;
            }
        }
    }
    Ok(Outcome::Found)
}

fn play(args: &PlayArgs) -> Result<Outcome, CliError> {
    let game = args.board.game()?;
    args.computer.check()?;
    let solver = solver(args.computer.table_mib)?;
    let stdin = io::stdin();
    let echo = !stdin.is_terminal();
    let stdout = io::stdout();
    play_game(
        game,
        Computer {
            solver,
            engine: &args.computer.engine,
            max_nodes: args.computer.max_nodes,
        },
        args.side,
        echo,
        &mut stdin.lock(),
        &mut stdout.lock(),
    )?;
    Ok(Outcome::Found)
}

fn side_name(player: Player) -> &'static str {
    match player {
        Player::Max => "South",
        Player::Min => "North",
    }
}

/// How the computer chooses its moves in `play`.
struct Computer<'a> {
    solver: Solver<Kalah>,
    engine: &'a EngineArgs,
    /// The solver's budget a move considered.
    max_nodes: u64,
}

/// A person plays the computer, one house per line; bad input is answered with the reason
/// and asked for again; the end of input ends the game quietly.
fn play_game(
    mut game: Kalah,
    mut computer: Computer<'_>,
    side: Option<Side>,
    echo: bool,
    input: &mut impl BufRead,
    output: &mut impl Write,
) -> Result<(), CliError> {
    let human = match side {
        Some(Side::First) => Player::Max,
        Some(Side::Second) => Player::Min,
        None => loop {
            write!(output, "Play first (South) or second (North)? [1/2] ")?;
            output.flush()?;
            let Some(answer) = prompt::read_answer(input, echo, output)? else {
                return Ok(());
            };
            match answer.to_ascii_lowercase().as_str() {
                "1" | "first" | "south" | "s" => break Player::Max,
                "2" | "second" | "north" | "n" => break Player::Min,
                _ => writeln!(output, "{answer:?} is neither 1 nor 2; try again.")?,
            }
        },
    };
    writeln!(
        output,
        "You are {}. Type a house number, 1 to {}, counted from your left.",
        side_name(human),
        game.houses()
    )?;
    loop {
        writeln!(output, "\n{game}\n")?;
        if game.is_over() {
            let value = game.value();
            let verdict = match (value.signum(), human) {
                (0, _) => "A draw.".to_string(),
                (1, Player::Max) | (-1, Player::Min) => format!("You win by {}.", value.abs()),
                _ => format!("The computer wins by {}.", value.abs()),
            };
            writeln!(output, "{verdict}")?;
            return Ok(());
        }
        if game.to_move() == human {
            write!(output, "Your move ({}): ", side_name(human))?;
            output.flush()?;
            let Some(answer) = prompt::read_answer(input, echo, output)? else {
                return Ok(());
            };
            let played = match answer.parse::<usize>() {
                Ok(house) => game.play(house).map_err(|error| error.to_string()),
                Err(_) => Err(format!(
                    "{} is not a house number 1 to {}",
                    gametree::text::excerpt(&answer),
                    game.houses()
                )),
            };
            if let Err(reason) = played {
                writeln!(output, "{reason}; try again.")?;
            }
        } else {
            let spinner = progress::spinner("thinking");
            let Computer {
                ref mut solver,
                engine,
                max_nodes,
            } = computer;
            if engine.engine == Engine::Mcts {
                let result = Mcts::new(engine.mcts_options()).search(&mut game, engine.budget());
                spinner.finish_and_clear();
                let mv = result
                    .best_move
                    .expect("invariant: a game that is not over has a move");
                writeln!(
                    output,
                    "The computer ({}) sows house {} (Monte Carlo tree search, {} playouts).",
                    side_name(game.to_move()),
                    mv + 1,
                    result.playouts
                )?;
                game.update(mv);
                continue;
            }
            let (mv, at_least, at_most) = computer_move(solver, &mut game, max_nodes);
            spinner.finish_and_clear();
            let outlook = if at_least == at_most {
                format!("with best play it ends {at_least:+} for it")
            } else {
                format!(
                    "between {at_least:+} and {at_most:+} for it: not solved within {max_nodes} positions"
                )
            };
            writeln!(
                output,
                "The computer ({}) sows house {} ({outlook}).",
                side_name(game.to_move()),
                mv + 1
            )?;
            game.update(mv);
        }
    }
}
