//! Reading lines from a program or a person without trusting them: a line is bounded in
//! length (so memory is too), and need not be text.
//!
//! `BufRead::lines` does neither: it reads a line of any length into memory, and fails
//! on one that is not UTF-8, which ends the loop reading it, where KEI (and a person
//! typing) wants a bad line ignored and the next one read.

use std::io::{self, BufRead, Read};

/// One line of input, without its line ending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputLine {
    Text(String),
    /// Bytes that are not UTF-8.
    NotText,
    /// Longer than the limit; the rest of the line has been skipped.
    TooLong,
}

/// Reads the next line of at most `max_bytes` bytes (line ending excluded); `None` at the
/// end of the input. A longer line is read to its end and dropped, a piece at a time, so
/// it costs no more memory than a line of `max_bytes`.
pub fn read_line(input: &mut impl BufRead, max_bytes: usize) -> io::Result<Option<InputLine>> {
    let mut buf = Vec::new();
    // One byte more than allowed, and the line ending (`\r\n`).
    let limit = max_bytes as u64 + 3;
    if input.by_ref().take(limit).read_until(b'\n', &mut buf)? == 0 {
        return Ok(None);
    }
    let ended = buf.last() == Some(&b'\n');
    if ended {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    }
    if buf.len() > max_bytes {
        if !ended {
            skip_rest_of_line(input)?;
        }
        return Ok(Some(InputLine::TooLong));
    }
    Ok(Some(match String::from_utf8(buf) {
        Ok(text) => InputLine::Text(text),
        Err(_) => InputLine::NotText,
    }))
}

fn skip_rest_of_line(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(());
        }
        match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => {
                input.consume(at + 1);
                return Ok(());
            }
            None => {
                let n = chunk.len();
                input.consume(n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(bytes: &[u8], max: usize) -> Vec<InputLine> {
        let mut input = bytes;
        std::iter::from_fn(|| read_line(&mut input, max).unwrap()).collect()
    }

    #[test]
    fn lines_are_bounded_and_need_not_be_text() {
        let text = |t: &str| InputLine::Text(t.to_owned());
        assert_eq!(
            all(b"kei\r\n\xff\xfe go\nxxxxxxxxxxxx\ngo\n\nquit", 8),
            [
                text("kei"),
                InputLine::NotText,
                InputLine::TooLong,
                text("go"),
                text(""),
                text("quit")
            ]
        );
        // A line exactly at the limit is whole; an endless one ends with the input.
        assert_eq!(all(b"12345678\n", 8), [text("12345678")]);
        assert_eq!(all(&[b'x'; 100_000], 8), [InputLine::TooLong]);
    }
}
