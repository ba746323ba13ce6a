//! Line-by-line input for the interactive `play` subcommands, so a game can be typed at a
//! terminal or piped in (and read back as a transcript).

use std::io::{BufRead, Write};

use super::CliError;

/// Reads one trimmed line, echoing it when asked (piped moves are not shown by a terminal);
/// `None` at the end of input, after ending the prompt's line.
///
/// A line that is not UTF-8 is read with its bad bytes replaced by `�`, so that it is
/// refused as a move like any other bad line and the game goes on. A read error ends the
/// game with an error that names standard input; a write error is an output error.
pub fn read_line(
    input: &mut impl BufRead,
    echo: bool,
    output: &mut impl Write,
) -> Result<Option<String>, CliError> {
    let mut bytes = Vec::new();
    let read = input
        .read_until(b'\n', &mut bytes)
        .map_err(|error| CliError::Usage(format!("cannot read standard input: {error}")))?;
    if read == 0 {
        writeln!(output)?;
        return Ok(None);
    }
    let line = String::from_utf8_lossy(&bytes).trim().to_string();
    if echo {
        writeln!(output, "{line}")?;
    }
    Ok(Some(line))
}

/// [`read_line`] for a game's prompts: `quit` ends the input too, so that every `play`
/// takes it (checkers' own prompt reads `quit` itself, to save the game first).
pub fn read_answer(
    input: &mut impl BufRead,
    echo: bool,
    output: &mut impl Write,
) -> Result<Option<String>, CliError> {
    Ok(read_line(input, echo, output)?.filter(|line| line != "quit"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_that_is_not_utf8_is_read_with_replacement_characters() {
        let mut input = std::io::Cursor::new(b"11-15\xff\n9-13\n".to_vec());
        let mut output = Vec::new();
        let first = read_line(&mut input, false, &mut output).expect("in memory");
        assert_eq!(first.as_deref(), Some("11-15\u{fffd}"));
        let second = read_line(&mut input, false, &mut output).expect("in memory");
        assert_eq!(second.as_deref(), Some("9-13"));
        assert!(matches!(
            read_line(&mut input, false, &mut output),
            Ok(None)
        ));
    }

    #[test]
    fn quit_ends_a_games_input() {
        let mut input = std::io::Cursor::new(b"5\nquit\n9\n".to_vec());
        let mut output = Vec::new();
        let first = read_answer(&mut input, false, &mut output).expect("in memory");
        assert_eq!(first.as_deref(), Some("5"));
        assert!(matches!(
            read_answer(&mut input, false, &mut output),
            Ok(None)
        ));
    }
}
