//! Python literals and calls, as pythonic tool calls write them: strings with either quote
//! (and triple quotes, escapes, `r` prefixes), ints, floats, `True`/`False`/`None`, lists,
//! tuples, dicts, nested; `name(key=value, ...)`.

use serde_json::{Map, Number, Value};

/// How deep literals may nest.
const MAX_DEPTH: usize = 64;

/// Why a literal could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PyError {
    /// The text ended first.
    End,
    /// Something else was there.
    Syntax(&'static str),
    /// Nested deeper than [`MAX_DEPTH`].
    TooDeep,
}

type Result<T> = std::result::Result<T, PyError>;

/// A reader over Python source, at byte `pos`.
pub(crate) struct Py<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pub pos: usize,
    depth: usize,
}

impl<'a> Py<'a> {
    /// A reader at `pos` in `text`.
    pub(super) fn new(text: &'a str, pos: usize) -> Self {
        Py {
            text,
            bytes: text.as_bytes(),
            pos,
            depth: 0,
        }
    }

    /// The byte at the reader, if any.
    pub(super) fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Skips whitespace, line continuations and comments.
    pub(super) fn ws(&mut self) {
        while let Some(b) = self.peek() {
            match b {
                b' ' | b'\t' | b'\n' | b'\r' => self.pos += 1,
                b'\\' if matches!(self.bytes.get(self.pos + 1), Some(b'\n')) => self.pos += 2,
                b'#' => {
                    self.pos = memchr::memchr(b'\n', &self.bytes[self.pos..])
                        .map_or(self.bytes.len(), |n| self.pos + n)
                }
                _ => break,
            }
        }
    }

    /// Takes `b` if it is next.
    pub(super) fn eat(&mut self, b: u8) -> bool {
        let next = self.peek() == Some(b);
        if next {
            self.pos += 1;
        }
        next
    }

    /// Takes `b`, which must be next.
    fn expect(&mut self, b: u8, expected: &'static str) -> Result<()> {
        match self.peek() {
            None => Err(PyError::End),
            Some(c) if c == b => {
                self.pos += 1;
                Ok(())
            }
            Some(_) => Err(PyError::Syntax(expected)),
        }
    }

    /// A name: letters, digits and `_`, not starting with a digit; with `dotted`, also `.`
    /// between parts (`brave_search.call`). Empty when there is none.
    pub(super) fn ident(&mut self, dotted: bool) -> &'a str {
        let start = self.pos;
        while let Some(b) = self.peek() {
            let ok = b.is_ascii_alphabetic()
                || b == b'_'
                || (self.pos > start && (b.is_ascii_digit() || (dotted && b == b'.')));
            if !ok {
                break;
            }
            self.pos += 1;
        }
        &self.text[start..self.pos]
    }

    /// A call with keyword arguments: `name(key=value, ...)`. Returns the (dotted) name and
    /// the arguments.
    pub(super) fn call(&mut self) -> Result<(String, Map<String, Value>)> {
        let name = self.ident(true);
        if name.is_empty() {
            return Err(self.syntax_or_end("a function name"));
        }
        self.ws();
        self.expect(b'(', "`(` after the function name")?;
        let mut arguments = Map::new();
        loop {
            self.ws();
            if self.eat(b')') {
                return Ok((name.to_owned(), arguments));
            }
            let key = self.ident(false);
            if key.is_empty() {
                return Err(self.syntax_or_end("a keyword argument (`name=value`)"));
            }
            self.ws();
            self.expect(b'=', "`=` after the argument name")?;
            if self.peek() == Some(b'=') {
                return Err(PyError::Syntax("a value, not `==`"));
            }
            self.ws();
            let value = self.value()?;
            arguments.insert(key.to_owned(), value);
            self.ws();
            if !self.eat(b',') {
                self.ws();
                match self.peek() {
                    Some(b')') => {}
                    None => return Err(PyError::End),
                    Some(_) => return Err(PyError::Syntax("`,` or `)` after an argument")),
                }
            }
        }
    }

    /// One literal.
    pub(super) fn value(&mut self) -> Result<Value> {
        self.ws();
        let Some(b) = self.peek() else {
            return Err(PyError::End);
        };
        match b {
            b'"' | b'\'' => self.string(false).map(Value::String),
            b'0'..=b'9' | b'-' | b'+' | b'.' => self.number(),
            b'[' => self.nested(|py| py.sequence(b']')),
            b'(' => self.nested(|py| py.sequence(b')')),
            b'{' => self.nested(Py::dict),
            _ => {
                let start = self.pos;
                let word = self.ident(false);
                match word {
                    "True" | "true" => Ok(Value::Bool(true)),
                    "False" | "false" => Ok(Value::Bool(false)),
                    "None" | "null" => Ok(Value::Null),
                    "r" | "R" | "u" | "U" | "rb" | "br" | "b" | "B"
                        if matches!(self.peek(), Some(b'"' | b'\'')) =>
                    {
                        let raw = word.contains(['r', 'R']);
                        self.string(raw).map(Value::String)
                    }
                    _ if self.pos == self.bytes.len() && self.pos > start => Err(PyError::End),
                    _ => Err(PyError::Syntax("a literal value")),
                }
            }
        }
    }

    fn nested(&mut self, read: impl FnOnce(&mut Self) -> Result<Value>) -> Result<Value> {
        if self.depth >= MAX_DEPTH {
            return Err(PyError::TooDeep);
        }
        self.depth += 1;
        let value = read(self);
        self.depth -= 1;
        value
    }

    /// A list or tuple, from its opening bracket.
    fn sequence(&mut self, close: u8) -> Result<Value> {
        self.pos += 1;
        let mut items = Vec::new();
        loop {
            self.ws();
            if self.eat(close) {
                return Ok(Value::Array(items));
            }
            items.push(self.value()?);
            self.ws();
            if !self.eat(b',') {
                self.ws();
                self.expect(close, "`,` or a closing bracket")?;
                return Ok(Value::Array(items));
            }
        }
    }

    /// A dict (or a set, as a list), from its `{`.
    fn dict(&mut self) -> Result<Value> {
        self.pos += 1;
        let mut map = Map::new();
        let mut set = Vec::new();
        loop {
            self.ws();
            if self.eat(b'}') {
                break;
            }
            let key = self.value()?;
            self.ws();
            if self.peek() != Some(b':') {
                set.push(key);
            } else {
                self.expect(b':', "`:` after a dict key")?;
                let value = self.value()?;
                let key = match key {
                    Value::String(key) => key,
                    Value::Array(_) | Value::Object(_) => {
                        return Err(PyError::Syntax("a literal dict key"))
                    }
                    other => other.to_string(),
                };
                map.insert(key, value);
            }
            self.ws();
            if !self.eat(b',') {
                self.ws();
                self.expect(b'}', "`,` or `}`")?;
                break;
            }
        }
        if !set.is_empty() && !map.is_empty() {
            return Err(PyError::Syntax("a dict or a set, not both"));
        }
        Ok(if set.is_empty() {
            Value::Object(map)
        } else {
            Value::Array(set)
        })
    }

    fn number(&mut self) -> Result<Value> {
        let start = self.pos;
        let bytes = self.bytes;
        let mut end = start;
        if matches!(bytes.get(end), Some(b'-' | b'+')) {
            end += 1;
        }
        let digits = end;
        while end < bytes.len()
            && (bytes[end].is_ascii_alphanumeric()
                || matches!(bytes[end], b'_' | b'.')
                || (matches!(bytes[end], b'-' | b'+') && matches!(bytes[end - 1], b'e' | b'E')))
        {
            end += 1;
        }
        self.pos = end;
        if end == bytes.len() {
            // The number may go on.
            return Err(PyError::End);
        }
        let literal: String = self.text[digits..end]
            .chars()
            .filter(|&c| c != '_')
            .collect();
        let negative = bytes[start] == b'-';
        let radix = match literal.get(..2) {
            Some("0x" | "0X") => 16,
            Some("0o" | "0O") => 8,
            Some("0b" | "0B") => 2,
            _ => 10,
        };
        let number = if radix != 10 {
            i64::from_str_radix(&literal[2..], radix)
                .ok()
                .map(|n| Number::from(if negative { -n } else { n }))
        } else if let Ok(n) = literal.parse::<u64>() {
            if negative {
                i64::try_from(n).ok().map(|n| Number::from(-n))
            } else {
                Some(Number::from(n))
            }
        } else {
            literal
                .parse::<f64>()
                .ok()
                .filter(|_| {
                    !literal.contains(|c: char| c.is_ascii_alphabetic() && !"eE".contains(c))
                })
                .and_then(|f| Number::from_f64(if negative { -f } else { f }))
        };
        number.map(Value::Number).ok_or(PyError::Syntax("a number"))
    }

    /// A string from its opening quote; `raw` keeps backslashes as written.
    fn string(&mut self, raw: bool) -> Result<String> {
        let bytes = self.bytes;
        let quote = bytes[self.pos];
        let triple = bytes.get(self.pos..self.pos + 3) == Some(&[quote; 3][..]);
        self.pos += if triple { 3 } else { 1 };
        let mut out = String::new();
        loop {
            let rest = &bytes[self.pos..];
            let hit = memchr::memchr2(quote, b'\\', rest).ok_or(PyError::End)?;
            out.push_str(&self.text[self.pos..self.pos + hit]);
            self.pos += hit;
            if bytes[self.pos] == quote {
                if !triple {
                    self.pos += 1;
                    return Ok(out);
                }
                if bytes.get(self.pos..self.pos + 3) == Some(&[quote; 3][..]) {
                    self.pos += 3;
                    return Ok(out);
                }
                if self.pos + 3 > bytes.len() && bytes[self.pos..].iter().all(|&b| b == quote) {
                    return Err(PyError::End);
                }
                out.push(quote as char);
                self.pos += 1;
                continue;
            }
            // A backslash.
            let Some(&escaped) = bytes.get(self.pos + 1) else {
                return Err(PyError::End);
            };
            if raw {
                out.push('\\');
                self.pos += 1;
                if escaped == quote || escaped == b'\\' {
                    out.push(escaped as char);
                    self.pos += 1;
                }
                continue;
            }
            self.pos += 2;
            match escaped {
                b'\n' => {}
                b'n' => out.push('\n'),
                b't' => out.push('\t'),
                b'r' => out.push('\r'),
                b'0' => out.push('\0'),
                b'a' => out.push('\x07'),
                b'b' => out.push('\x08'),
                b'f' => out.push('\x0c'),
                b'v' => out.push('\x0b'),
                b'\\' | b'\'' | b'"' => out.push(escaped as char),
                b'x' => out.push(self.hex_char(2)?),
                b'u' => out.push(self.hex_char(4)?),
                b'U' => out.push(self.hex_char(8)?),
                _ => {
                    // Python keeps unknown escapes as written.
                    out.push('\\');
                    self.pos -= 1;
                }
            }
        }
    }

    /// The character written as `digits` hex digits at the reader.
    fn hex_char(&mut self, digits: usize) -> Result<char> {
        let hex = self
            .text
            .get(self.pos..self.pos + digits)
            .ok_or(PyError::End)?;
        let code = u32::from_str_radix(hex, 16).map_err(|_| PyError::Syntax("hex digits"))?;
        self.pos += digits;
        Ok(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER))
    }

    /// An error for the reader's position: the end of the text, or `expected`.
    fn syntax_or_end(&self, expected: &'static str) -> PyError {
        if self.pos >= self.bytes.len() {
            PyError::End
        } else {
            PyError::Syntax(expected)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn value(text: &str) -> Result<Value> {
        // A trailing space so numbers know they ended.
        let text = format!("{text} ");
        Py::new(&text, 0).value()
    }

    #[test]
    fn literals_read_as_json() {
        assert_eq!(value(r#"'it\'s'"#), Ok(json!("it's")));
        assert_eq!(value(r#""say \"hi\"\n""#), Ok(json!("say \"hi\"\n")));
        assert_eq!(value(r#"'a "b" c'"#), Ok(json!("a \"b\" c")));
        assert_eq!(value(r#"r'C:\new'"#), Ok(json!("C:\\new")));
        assert_eq!(value("'''two\nlines'''"), Ok(json!("two\nlines")));
        assert_eq!(value(r#"'\u00e9\x41\d'"#), Ok(json!("éA\\d")));
        assert_eq!(value("-12"), Ok(json!(-12)));
        assert_eq!(value("1_000"), Ok(json!(1000)));
        assert_eq!(value("2.5e3"), Ok(json!(2500.0)));
        assert_eq!(value("0x1f"), Ok(json!(31)));
        assert_eq!(
            value("[True, False, None, (1, 2)]"),
            Ok(json!([true, false, null, [1, 2]]))
        );
        assert_eq!(
            value("{'a': {'b': [1]}, 2: 'x'}"),
            Ok(json!({"a": {"b": [1]}, "2": "x"}))
        );
        assert_eq!(value("{}"), Ok(json!({})));
        assert_eq!(value("{1, 2}"), Ok(json!([1, 2])));
    }

    #[test]
    fn bad_or_cut_literals_say_so() {
        assert_eq!(value("'open"), Err(PyError::End));
        assert_eq!(value("[1, 2"), Err(PyError::End));
        assert!(matches!(value("x"), Err(PyError::Syntax(_))));
        assert!(matches!(value("1.2.3"), Err(PyError::Syntax(_))));
        assert_eq!(value(&"[".repeat(100)), Err(PyError::TooDeep));
        assert_eq!(Py::new("12", 0).value(), Err(PyError::End));
    }

    #[test]
    fn calls_take_keyword_arguments() {
        let mut py = Py::new("get_weather(city='Paris', days=3) ", 0);
        assert_eq!(
            py.call(),
            Ok((
                "get_weather".to_owned(),
                json!({"city": "Paris", "days": 3})
                    .as_object()
                    .unwrap()
                    .clone()
            ))
        );
        assert!(matches!(Py::new("f(1)", 0).call(), Err(PyError::Syntax(_))));
        assert_eq!(Py::new("f(a=1", 0).call(), Err(PyError::End));
    }
}
