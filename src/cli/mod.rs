//! Argument parsing and printing for the `gametree` binary. Only this module knows every
//! game; each subcommand lives in a file of its own.

mod checkers;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Game-tree and puzzle search after McCarthy and Slagle.
#[derive(Parser, Debug)]
#[command(name = "gametree", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// English draughts (checkers): perft over the legal-move tree.
    #[command(after_help = "Example:\n  gametree checkers perft 9")]
    Checkers(checkers::CheckersArgs),
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
                print!("{error}");
                return ExitCode::SUCCESS;
            }
            // One line on stderr: clap's first line says what was wrong.
            let rendered = error.to_string();
            let first = rendered.lines().next().unwrap_or("invalid arguments");
            eprintln!("gametree: {}", first.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    let result: Result<Outcome, CliError> = match cli.command {
        Command::Checkers(args) => checkers::run(args),
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
