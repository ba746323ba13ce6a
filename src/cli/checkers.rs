//! `gametree checkers ...`: English draughts from the command line: perft, the best move of
//! a position, and a game against the computer.

mod best;
mod engine;
mod play;

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};

use gametree::games::checkers::{Position, perft, perft_divide};

use super::{CliError, Outcome};

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
    #[command(after_help = "Examples:\n  gametree checkers perft 9\n  \
        gametree checkers perft 2 --divide --fen 'B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29'")]
    Perft {
        /// Plies to look ahead.
        depth: u32,
        /// Start from this PDN FEN position instead of the initial position.
        #[arg(long)]
        fen: Option<String>,
        /// Also print each legal move with the count below it.
        #[arg(long)]
        divide: bool,
    },
    /// The computer's best move, its value (from Black's side: positive favours Black) and
    /// principal line, depth by depth as it deepens, with nodes, nodes per second and the
    /// effective branching factor.
    #[command(after_help = "Examples:\n  gametree checkers best --depth 12\n  \
        gametree checkers best --fen 'W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29' --time 1 --json\n  \
        gametree checkers best --depth 8 --algorithm m-and-n --m 2 --n 2 --x 3 --y 0.1")]
    Best {
        /// Search from this PDN FEN position instead of the initial position.
        #[arg(long)]
        fen: Option<String>,
        #[command(flatten)]
        search: engine::SearchArgs,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Play against the computer in the terminal: the board is drawn with its square
    /// numbers, moves are typed in standard notation (`11-15`, `15x24`), and the game is
    /// saved as PDN when it ends, at end of input, on `quit` and on Ctrl-C.
    #[command(
        after_help = "Examples:\n  gametree checkers play --side black --depth 10\n  \
        printf '11-15\\n' | gametree checkers play --depth 4 --save game.pdn"
    )]
    Play {
        /// The side you play; Black moves first.
        #[arg(long, value_enum, default_value_t = play::Side::Black)]
        side: play::Side,
        /// Start from this PDN FEN position instead of the initial position.
        #[arg(long)]
        fen: Option<String>,
        /// Save the game to this PDN file (default: checkers-SECONDS.pdn in the current
        /// directory, the name printed at the start).
        #[arg(long)]
        save: Option<PathBuf>,
        #[command(flatten)]
        search: engine::SearchArgs,
    },
}

/// Runs a `gametree checkers` subcommand.
pub fn run(args: CheckersArgs) -> Result<Outcome, CliError> {
    match args.command {
        CheckersCommand::Perft { depth, fen, divide } => run_perft(depth, fen.as_deref(), divide),
        CheckersCommand::Best { fen, search, json } => best::run(fen.as_deref(), &search, json),
        CheckersCommand::Play {
            side,
            fen,
            save,
            search,
        } => play::run(fen.as_deref(), side, save, &search),
    }
}

fn run_perft(depth: u32, fen: Option<&str>, divide: bool) -> Result<Outcome, CliError> {
    if depth > MAX_PERFT_DEPTH {
        return Err(CliError::Usage(format!(
            "perft depth {depth} is too deep (at most {MAX_PERFT_DEPTH})"
        )));
    }
    let position = match fen {
        Some(fen) => Position::from_fen(fen).map_err(|error| CliError::Usage(error.to_string()))?,
        None => Position::initial(),
    };
    println!("position {}", position.to_fen());
    println!("depth    {depth}");
    let cpu_started = thread_cpu_seconds();
    let started = Instant::now();
    let nodes = if divide && depth > 0 {
        let split = perft_divide(&position, depth);
        for (mv, count) in &split {
            println!("{mv:<10} {count}");
        }
        split.iter().map(|(_, count)| count).sum()
    } else {
        perft(&position, depth)
    };
    let seconds = started.elapsed().as_secs_f64();
    let cpu_seconds = thread_cpu_seconds().map(|now| now - cpu_started.unwrap_or(0.0));
    println!("nodes    {nodes}");
    println!("time     {seconds:.3} s");
    if seconds > 0.0 {
        println!("nodes/s  {:.0}", nodes as f64 / seconds);
    }
    // On a shared machine the wall clock counts time spent waiting for a core; the CPU
    // time of the thread does not.
    if let Some(cpu) = cpu_seconds.filter(|&cpu| cpu > 0.0) {
        println!(
            "cpu      {cpu:.3} s ({:.0} nodes per cpu second)",
            nodes as f64 / cpu
        );
    }
    Ok(Outcome::Found)
}

/// CPU time this thread has run, in seconds, where the system tells (Linux's
/// `/proc/thread-self/schedstat`); `None` elsewhere.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanoseconds: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(nanoseconds as f64 / 1e9)
}
