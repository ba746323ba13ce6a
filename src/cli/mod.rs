//! Argument parsing and printing for the `gametree` binary. Only this module knows every
//! game; each subcommand lives in a file of its own.

mod checkers;
mod experiment;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod connect4;
mod insanity;
mod path;
mod prompt;
mod tree;
mod ttt;

/// Game-tree and puzzle search after McCarthy and Slagle.
#[derive(Parser, Debug)]
#[command(
    name = "gametree",
    version,
    about,
    long_about = None,
    after_help = "Examples:\n  gametree insanity\n    ((G W R B) (R W G B) (B R G W) (W B G R))\n  \
        gametree ttt line --moves 2,1\n    (0 5 10 6 4 7 3 11)\n\n\
        `gametree help COMMAND` or `gametree COMMAND --help` says more about each command."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// McCarthy's tic-tac-toe (seed 000): the value, main line or proof of a position, or
    /// a game against the computer
    #[command(after_help = "Example:\n  gametree ttt line --moves 2,1\n  (0 5 10 6 4 7 3 11)")]
    Ttt(ttt::TttArgs),
    /// Find paths between two nodes of a graph file by McCarthy's depth-first search.
    ///
    /// A position is a path, kept newest node first; a path that revisits a node loses.
    #[command(
        after_help = "Example:\n  gametree path tests/data/diamond.graph --from A --to D --all\n\n\
        The graph file has one line per node: `A B C` for the edges A→B and A→C."
    )]
    Path(path::PathArgs),
    /// Solve Instant Insanity: stack cubes so each side of the tower shows every colour.
    ///
    /// Prints the four sides of the tower, each newest cube first, as McCarthy's program
    /// does.
    #[command(after_help = "Examples:\n  gametree insanity\n    \
        ((G W R B) (R W G B) (B R G W) (W B G R))\n  \
        gametree insanity GBBWRG GGBGWR GWWRBR GGRBWW --repr list --all")]
    Insanity(insanity::InsanityArgs),
    /// Search an explicit game tree written as an S-expression: leaves are numbers,
    /// `(child child ...)` a position, MAX at the root, moves 1..k from the left.
    #[command(
        after_help = "Example:\n  echo '((3 5) (2 9))' | gametree tree proof --json\n  \
        {\"value\": 3, \"bound\": \"exact\", \"move\": 1, \"pfmax\": [1, [2, 5], [1, 3]], \
        \"pfmin\": [[2, 1, 2], [1, 1, 3]], \"leaves\": 3, \"nodes\": 6, \"cutoffs\": 1}"
    )]
    Tree(tree::TreeArgs),
    /// English draughts (checkers): perft over the legal-move tree, the best move of a
    /// position, a game against the computer.
    #[command(
        after_help = "Examples:\n  gametree checkers perft 9\n  gametree checkers best --depth 12\n  \
        gametree checkers play --side white --time 2"
    )]
    Checkers(checkers::CheckersArgs),
    /// Connect Four solved by the generic solver: benchmark files, move analysis, a game
    /// against the computer.
    ///
    /// Moves are 1-based columns, first player first; scores are for the player to move:
    /// 0 a draw, 22 - k a win with the k-th stone at the earliest (7×6), negative a loss.
    #[command(
        after_help = "Example:\n  gametree connect4 analyze 5554224333234511764415115\n  -8 -8 -8 -8 - 4 -8"
    )]
    Connect4(connect4::Connect4Args),
    /// Slagle's proposed experiment (seed 003, section 8): learn 2&2 backing-up functions
    /// on checkers, play 2&2 against 1&1 alpha-beta, and report.
    #[command(
        after_help = "Example:\n  gametree experiment slagle --quick --out /tmp/slagle-quick\n  \
        gametree experiment report /tmp/slagle-quick --output /tmp/slagle-quick/report.md"
    )]
    Experiment(experiment::ExperimentArgs),
}

/// A failure the binary reports on stderr in one line.
#[derive(Debug)]
pub enum CliError {
    /// Bad input from the user: exit status 2.
    Usage(String),
}

/// What a subcommand reports on success: exit status 0, or 1 when it found nothing.
pub enum Outcome {
    /// The search found what was asked for.
    Found,
    /// The search found nothing (no path, no solution): exit status 1.
    NotFound,
}

/// Parses the command line, runs the subcommand, and maps its result to an exit status:
/// 0 found, 1 not found, 2 bad input.
pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            use clap::error::ErrorKind;
            if matches!(
                error.kind(),
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
            ) {
                // A closed pipe (`gametree --help | head`) is not an error.
                let _ = std::io::Write::write_fmt(&mut std::io::stdout(), format_args!("{error}"));
                return ExitCode::SUCCESS;
            }
            // One line on stderr: clap's first paragraph says what was wrong (for a missing
            // argument it names the argument on the lines after the first).
            let rendered = error.to_string();
            let message = rendered
                .lines()
                .take_while(|line| !line.trim().is_empty())
                .map(str::trim)
                .collect::<Vec<_>>()
                .join(" ");
            let message = message.trim_start_matches("error: ");
            eprintln!(
                "gametree: {}",
                if message.is_empty() {
                    "invalid arguments"
                } else {
                    message
                }
            );
            return ExitCode::from(2);
        }
    };
    let result: Result<Outcome, CliError> = match cli.command {
        Command::Ttt(args) => ttt::run(args),
        Command::Path(args) => path::run(args),
        Command::Insanity(args) => insanity::run(args),
        Command::Tree(args) => tree::run(&args),
        Command::Checkers(args) => checkers::run(args),
        Command::Connect4(args) => connect4::run(args),
        Command::Experiment(args) => experiment::run(args),
    };
    match result {
        Ok(Outcome::Found) => ExitCode::SUCCESS,
        Ok(Outcome::NotFound) => ExitCode::from(1),
        Err(CliError::Usage(message)) => {
            eprintln!("gametree: {message}");
            ExitCode::from(2)
        }
    }
}
