//! The `gametree` command-line tool: argument parsing and printing live in [`cli`].

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
