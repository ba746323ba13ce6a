//! Line-by-line input for the interactive `play` subcommands, so a game can be typed at a
//! terminal or piped in (and read back as a transcript).

use std::io::{self, BufRead, Write};

/// Reads one trimmed line, echoing it when asked (piped moves are not shown by a terminal);
/// `None` at the end of input, after ending the prompt's line.
pub fn read_line(
    input: &mut impl BufRead,
    echo: bool,
    output: &mut impl Write,
) -> io::Result<Option<String>> {
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 {
        writeln!(output)?;
        return Ok(None);
    }
    let line = line.trim().to_string();
    if echo {
        writeln!(output, "{line}")?;
    }
    Ok(Some(line))
}
