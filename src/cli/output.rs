//! The one place the binary writes its results: standard output through [`outln!`] (and
//! [`write`] for text without a newline), every write checked.
//!
//! A reader that goes away (`gametree checkers perft 9 --divide | head -1`) ends the program
//! quietly, as `ls | head` does; any other write error (`> /dev/full`) is one line on
//! stderr and exit status 2. Rust ignores SIGPIPE, so a closed pipe arrives here as a
//! `BrokenPipe` error instead of killing the process.

use std::fmt;
use std::io::{self, Write};

use super::CliError;

/// Writes formatted text to standard output and flushes it, so that what was written has
/// reached the reader (or failed) before the program goes on: a long search then never
/// runs for a reader that has gone.
pub fn write(arguments: fmt::Arguments<'_>) -> Result<(), CliError> {
    let mut stdout = io::stdout().lock();
    stdout
        .write_fmt(arguments)
        .and_then(|()| stdout.flush())
        .map_err(CliError::Output)
}

/// `println!` that returns a [`CliError`] instead of panicking when standard output fails.
macro_rules! outln {
    () => {
        $crate::cli::output::write(format_args!("\n"))
    };
    ($($argument:tt)*) => {
        $crate::cli::output::write(format_args!("{}\n", format_args!($($argument)*)))
    };
}

pub(crate) use outln;
