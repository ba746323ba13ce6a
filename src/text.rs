//! Quoting what a person typed in an error message: a short excerpt, never the whole input.
//!
//! A parser's error names where the input went wrong (a line and column, a field, a move
//! number) and quotes a little of it, so that a 50 MB line is not echoed back to the
//! terminal.

/// The most characters [`excerpt`] quotes.
pub const EXCERPT_CHARS: usize = 40;

/// `text` quoted for an error message, as Rust's `{:?}` quotes it, cut to its first
/// [`EXCERPT_CHARS`] characters with `…` after the closing quote when it is longer.
///
/// # Example
/// ```
/// use gametree::text::excerpt;
/// assert_eq!(excerpt("11-15"), "\"11-15\"");
/// let long = "x".repeat(1000);
/// assert_eq!(excerpt(&long), format!("\"{}\"…", "x".repeat(40)));
/// ```
#[must_use]
pub fn excerpt(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        None => format!("{text:?}"),
        Some((end, _)) => format!("{:?}…", &text[..end]),
    }
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
}
