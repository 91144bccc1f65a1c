//! Text a user or a program gave, inside a message: cut short and with control
//! characters escaped.
//!
//! Error messages quote the word they reject, so that the reader sees what is wrong. A
//! word can be anything, though: ten thousand characters, a NUL, an escape sequence that
//! repaints the terminal. Quoted through here, a message stays one short, readable line
//! whatever it quotes; the error values themselves keep the whole text for programs.

use std::fmt;

/// The most characters of a text a message shows; longer texts end in `...`.
pub const QUOTED_CHARS: usize = 60;

/// `text` for a message: at most [`QUOTED_CHARS`] characters, then `...`; control and
/// other invisible characters escaped as in Rust (`\0`, `\n`, `\u{1b}`).
pub fn quote(text: &str) -> Quoted<'_> {
    Quoted(text)
}

/// Displays a text as [`quote`] says.
#[derive(Clone, Copy, Debug)]
pub struct Quoted<'a>(&'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.0.chars().enumerate() {
            if i == QUOTED_CHARS {
                return f.write_str("...");
            }
            write_visible(f, c)?;
        }
        Ok(())
    }
}

/// A whole message (not cut short) as one printable line: control and other invisible
/// characters escaped as [`quote`] escapes them, so that a message is one line on a
/// terminal or in a page whatever it quotes.
pub fn printable(text: &str) -> String {
    struct Printable<'a>(&'a str);
    impl fmt::Display for Printable<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            self.0.chars().try_for_each(|c| write_visible(f, c))
        }
    }
    Printable(text).to_string()
}

/// `c`, or its escape if it is a control or other invisible character.
fn write_visible(f: &mut fmt::Formatter<'_>, c: char) -> fmt::Result {
    // `escape_debug` also escapes quotes and backslashes, which are visible and are left
    // as they are.
    if c.is_control() || (c.escape_debug().nth(1).is_some() && !"'\"\\".contains(c)) {
        write!(f, "{}", c.escape_debug())
    } else {
        write!(f, "{c}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_texts_are_cut_and_control_characters_escaped() {
        assert_eq!(quote("a1-a5").to_string(), "a1-a5");
        assert_eq!(quote("a\0b\n\u{1b}[2J").to_string(), "a\\0b\\n\\u{1b}[2J");
        assert_eq!(quote("it's \"x\" \\").to_string(), "it's \"x\" \\");
        let long = "é".repeat(1000);
        let shown = quote(&long).to_string();
        assert_eq!(shown.chars().count(), QUOTED_CHARS + 3);
        assert!(shown.ends_with("..."));
        assert_eq!(
            quote(&"x".repeat(QUOTED_CHARS)).to_string().len(),
            QUOTED_CHARS
        );
    }

    #[test]
    fn a_printable_message_is_whole_and_one_line() {
        let long = format!("{}\n{}", "x".repeat(100), "y\u{1b}[2J");
        assert_eq!(
            printable(&long),
            format!("{}\\n{}", "x".repeat(100), "y\\u{1b}[2J")
        );
        assert_eq!(printable("it's \"x\" \\"), "it's \"x\" \\");
    }
}
