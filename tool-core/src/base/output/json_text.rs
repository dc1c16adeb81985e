//! Reading JSON text in place, token by token, for [`truncate_json`](super::truncate_json):
//! a cut that never builds the value it cuts, so its memory is bounded by the budget, not by
//! the output.
//!
//! The text is what serde_json wrote (a [`JsonOutput`](super::JsonOutput)'s): compact, one
//! value. Anything else (whitespace between tokens, a bad escape, a lone surrogate, nesting
//! past [`MAX_DEPTH`]) is [`Invalid`], and the caller falls back to cutting it as text.

use std::ops::Range;

/// The deepest nesting read, as serde_json's own parser: deeper output is cut as text.
pub(super) const MAX_DEPTH: usize = 128;

/// The text isn't JSON this reader takes.
#[derive(Debug)]
pub(super) struct Invalid;

/// A position in a JSON text.
pub(super) struct Reader<'a> {
    text: &'a str,
    at: usize,
    /// Line breaks read so far in strings and keys: what a reader of a dropped part loses.
    pub(super) lines: usize,
}

/// What skipping a value found.
pub(super) struct Skipped {
    /// Its items or keys (0 for a scalar).
    pub(super) entries: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn new(text: &'a str) -> Reader<'a> {
        Reader {
            text,
            at: 0,
            lines: 0,
        }
    }

    /// The next byte, not taken.
    pub(super) fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// Takes `byte` if it comes next.
    pub(super) fn eat(&mut self, byte: u8) -> bool {
        let next = self.peek() == Some(byte);
        self.at += usize::from(next);
        next
    }

    /// Takes `byte`, which must come next.
    pub(super) fn expect(&mut self, byte: u8) -> Result<(), Invalid> {
        if self.eat(byte) {
            Ok(())
        } else {
            Err(Invalid)
        }
    }

    /// Whether the whole text was read.
    pub(super) fn at_end(&self) -> bool {
        self.at == self.text.len()
    }

    /// The text of a span read.
    pub(super) fn slice(&self, span: Range<usize>) -> &'a str {
        &self.text[span]
    }

    /// Whether the container that comes next is empty (`[]` or `{}`).
    pub(super) fn empty_container_next(&self) -> bool {
        matches!(
            self.text.as_bytes().get(self.at..self.at + 2),
            Some(b"[]" | b"{}")
        )
    }

    /// Reads a number, `true`, `false` or `null`: its span.
    pub(super) fn scalar(&mut self) -> Result<Range<usize>, Invalid> {
        let start = self.at;
        let bytes = &self.text.as_bytes()[start..];
        let len = match bytes.first() {
            Some(b'-' | b'0'..=b'9') => bytes
                .iter()
                .take_while(|b| matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                .count(),
            Some(b't') if bytes.starts_with(b"true") => 4,
            Some(b'f') if bytes.starts_with(b"false") => 5,
            Some(b'n') if bytes.starts_with(b"null") => 4,
            _ => return Err(Invalid),
        };
        self.at += len;
        Ok(start..self.at)
    }

    /// Reads a string, handing its decoded text to `each` piece by piece: its span, quotes
    /// included.
    pub(super) fn string(&mut self, mut each: impl FnMut(&str)) -> Result<Range<usize>, Invalid> {
        let start = self.at;
        self.expect(b'"')?;
        let bytes = self.text.as_bytes();
        loop {
            let rest = &bytes[self.at..];
            let Some(special) = memchr::memchr2(b'"', b'\\', rest) else {
                return Err(Invalid);
            };
            if special > 0 {
                // `"` and `\` are ASCII, so the run before them is whole chars.
                let run = &self.text[self.at..self.at + special];
                self.lines += memchr::memchr_iter(b'\n', run.as_bytes()).count();
                each(run);
            }
            self.at += special + 1;
            if rest[special] == b'"' {
                return Ok(start..self.at);
            }
            let decoded = self.escape()?;
            self.lines += usize::from(decoded == '\n');
            each(decoded.encode_utf8(&mut [0; 4]));
        }
    }

    /// Reads a key's string and the `:` after it.
    pub(super) fn key(&mut self) -> Result<Range<usize>, Invalid> {
        let span = self.string(|_| ())?;
        self.expect(b':')?;
        Ok(span)
    }

    /// The char an escape after `\` stands for.
    fn escape(&mut self) -> Result<char, Invalid> {
        let byte = self.peek().ok_or(Invalid)?;
        self.at += 1;
        Ok(match byte {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let high = self.hex4()?;
                let code = if (0xD800..0xDC00).contains(&high) {
                    // A surrogate pair: the low half must follow.
                    if !(self.eat(b'\\') && self.eat(b'u')) {
                        return Err(Invalid);
                    }
                    let low = self.hex4()?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return Err(Invalid);
                    }
                    0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    high
                };
                char::from_u32(code).ok_or(Invalid)?
            }
            _ => return Err(Invalid),
        })
    }

    fn hex4(&mut self) -> Result<u32, Invalid> {
        let digits = self.text.get(self.at..self.at + 4).ok_or(Invalid)?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(Invalid);
        }
        self.at += 4;
        u32::from_str_radix(digits, 16).map_err(|_| Invalid)
    }

    /// Reads past the value that comes next, counting its entries (and, in
    /// [`lines`](Self::lines), the line breaks in its strings and keys).
    pub(super) fn skip(&mut self, depth: usize) -> Result<Skipped, Invalid> {
        let (close, is_object) = match self.peek() {
            Some(b'"') => {
                self.string(|_| ())?;
                return Ok(Skipped { entries: 0 });
            }
            Some(b'[') => (b']', false),
            Some(b'{') => (b'}', true),
            _ => {
                self.scalar()?;
                return Ok(Skipped { entries: 0 });
            }
        };
        if depth >= MAX_DEPTH {
            return Err(Invalid);
        }
        self.at += 1;
        if self.eat(close) {
            return Ok(Skipped { entries: 0 });
        }
        let mut entries = 0;
        loop {
            if is_object {
                self.key()?;
            }
            self.skip(depth + 1)?;
            entries += 1;
            if !self.eat(b',') {
                self.expect(close)?;
                return Ok(Skipped { entries });
            }
        }
    }
}

/// How deep containers nest in `text` (0 for a scalar, 1 for a flat array or object), or
/// `None` past [`MAX_DEPTH`]. Reads brackets only: the syntax is checked by the reading after.
pub(super) fn depth(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let (mut at, mut depth, mut deepest) = (0, 0usize, 0);
    while let Some(found) = memchr::memchr3(b'"', b'[', b'{', &bytes[at..]) {
        // Closing brackets between here and `found` end containers.
        let closed = bytes[at..at + found]
            .iter()
            .filter(|&&b| b == b']' || b == b'}')
            .count();
        depth = depth.saturating_sub(closed);
        at += found;
        if bytes[at] == b'"' {
            at = string_end(bytes, at)?;
        } else {
            depth += 1;
            deepest = deepest.max(depth);
            if deepest > MAX_DEPTH {
                return None;
            }
            at += 1;
        }
    }
    Some(deepest)
}

/// The byte after the string that opens at `bytes[at]` (with the quote found there), or
/// `None` when the text ends inside it.
#[doc(hidden)]
pub fn string_end(bytes: &[u8], at: usize) -> Option<usize> {
    let quote = bytes[at];
    let mut i = at + 1;
    loop {
        let hit = i + memchr::memchr2(quote, b'\\', bytes.get(i..)?)?;
        if bytes[hit] == b'\\' {
            i = hit + 2;
        } else {
            return Some(hit + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_decode_every_escape() {
        let text = r#""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83e\udd80x""#;
        let mut reader = Reader::new(text);
        let mut decoded = String::new();
        let span = reader.string(|piece| decoded.push_str(piece)).unwrap();
        assert_eq!(span, 0..text.len());
        assert_eq!(decoded, "a\"b\\c/d\u{8}\u{c}\n\r\té🦀x");
        assert_eq!(reader.lines, 1);
        assert_eq!(
            serde_json::from_str::<String>(text).unwrap(),
            decoded,
            "as serde_json reads it"
        );
    }

    #[test]
    fn bad_strings_are_invalid() {
        for text in [
            r#""\ud83e""#,
            r#""\udd80""#,
            r#""\x""#,
            r#""\u12""#,
            r#""open"#,
        ] {
            assert!(Reader::new(text).string(|_| ()).is_err(), "{text}");
        }
    }

    #[test]
    fn skipping_counts_entries_and_line_breaks() {
        let text = r#"{"a\nb":[1,"x\ny\n",{"k":null}],"c":true}"#;
        let mut reader = Reader::new(text);
        let skipped = reader.skip(0).unwrap();
        assert_eq!(skipped.entries, 2);
        assert_eq!(reader.lines, 3);
        assert!(reader.at_end());
    }

    #[test]
    fn depth_counts_brackets_outside_strings() {
        assert_eq!(depth("1"), Some(0));
        assert_eq!(depth("[]"), Some(1));
        assert_eq!(depth(r#"{"a[":["]\"",{"b":[1]}],"c":[]}"#), Some(4));
        assert_eq!(depth(&"[".repeat(129)), None);
    }
}
