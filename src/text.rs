//! Quoting what a person typed in an error message: a short excerpt, never the whole input.
//!
//! A parser's error names where the input went wrong (a line and column, a field, a move
//! number) and quotes a little of it, so that a 50 MB line is not echoed back to the
//! terminal.

/// The most characters [`excerpt`] quotes.
pub const EXCERPT_CHARS: usize = 40;

/// The most characters the quoted part of an [`excerpt`] takes once escaped, quotes
/// included: 40 characters that each need a `\u{…}` escape would otherwise take 400.
const QUOTED_CHARS: usize = 2 * EXCERPT_CHARS + 2;

/// `text` quoted for an error message, as Rust's `{:?}` quotes it, cut to its first
/// [`EXCERPT_CHARS`] characters with `…` after the closing quote when it is longer. When
/// escapes would make the quote longer than 82 characters, fewer characters are quoted: an
/// excerpt is at most 83 characters whatever the text.
///
/// # Example
/// ```
/// use gametree::text::excerpt;
/// assert_eq!(excerpt("11-15"), "\"11-15\"");
/// let long = "x".repeat(1000);
/// assert_eq!(excerpt(&long), format!("\"{}\"…", "x".repeat(40)));
/// assert!(excerpt(&"\u{1}".repeat(1000)).chars().count() <= 83);
/// ```
#[must_use]
pub fn excerpt(text: &str) -> String {
    let mut end = text
        .char_indices()
        .nth(EXCERPT_CHARS)
        .map_or(text.len(), |(end, _)| end);
    let mut quoted = format!("{:?}", &text[..end]);
    while quoted.chars().count() > QUOTED_CHARS {
        end = text[..end]
            .char_indices()
            .next_back()
            .map_or(0, |(last, _)| last);
        quoted = format!("{:?}", &text[..end]);
    }
    if end < text.len() {
        quoted.push('…');
    }
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_quoted_whole_and_long_text_is_cut_at_a_character_boundary() {
        assert_eq!(excerpt(""), "\"\"");
        assert_eq!(excerpt(&"é".repeat(40)), format!("{:?}", "é".repeat(40)));
        assert_eq!(excerpt(&"é".repeat(41)), format!("{:?}…", "é".repeat(40)));
        assert_eq!(excerpt("a\nb"), "\"a\\nb\"");
    }

    #[test]
    fn text_that_needs_escapes_is_cut_sooner_so_the_excerpt_stays_short() {
        // Each U+10FFFF escapes to `\u{10ffff}`, ten characters: eight fit in 82.
        let quoted = excerpt(&"\u{10ffff}".repeat(40));
        assert_eq!(quoted, format!("{:?}…", "\u{10ffff}".repeat(8)));
        assert!(quoted.chars().count() <= QUOTED_CHARS + 1);
        // Twenty newlines escape to forty characters: they fit whole.
        assert_eq!(excerpt(&"\n".repeat(20)), format!("{:?}", "\n".repeat(20)));
    }
}
