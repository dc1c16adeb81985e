//! Gemma's own call syntax: `call:NAME{key:value,..}` between special tokens, with strings
//! quoted by a token rather than `"`.
//!
//! | format | markup | peers |
//! |---|---|---|
//! | [`Gemma4`](TextFormat::Gemma4) | `<\|tool_call>call:NAME{k:<\|"\|>v<\|"\|>,n:5}<tool_call\|>` | vLLM `gemma4` (`gemma4_utils.py`, `test_gemma4_tool_parser.py`), llama.cpp (`chat-peg-parser.cpp`, Gemma 4 in `test-chat.cpp`) |
//! | [`FunctionGemma`](TextFormat::FunctionGemma) | `<start_function_call>call:NAME{k:<escape>v<escape>}<end_function_call>` | vLLM `functiongemma` (`functiongemma_tool_parser.py` and its test) |
//!
//! Values: a quoted string, a bare token (number, `true`, `false`, `null`, or a word), a list
//! `[v,..]` or an object `{k:v,..}` whose keys are bare or quoted. Argument values are typed
//! with the tool's input schema through `coerce.rs` (vLLM reads every value as text and types
//! it at its engine layer): a bare token always, a quoted string when the tool's schema is
//! known. Without a schema a bare token reads as JSON when it is a JSON literal and a quoted
//! string stays a string for Gemma 4; FunctionGemma's template quotes every value, numbers
//! included, and vLLM reads each with `json.loads`, so there a quoted value is guessed too.
//! Inside lists and objects bare tokens are guessed the same way, quoted ones are strings.
//!
//! Where peers differ: llama.cpp types a bare token by its syntax (`42` is a number even
//! where the schema says string), vLLM by the schema, as here. vLLM's FunctionGemma parser
//! reads only `key:<escape>v<escape>` pairs (a bare or nested value is dropped); the full
//! syntax is read here. Both vLLM parsers give the arguments read so far for a call cut
//! off; here it is an error (`Truncated`). Gemma 4 sometimes ends a call with `<turn|>`
//! instead of `<tool_call|>` (vLLM's `gemma4_utils.py`): both close it. Gemma 4's reasoning,
//! `<|channel>thought..<channel|>`, is prose (see `scan.rs`).

use super::coerce::coerce;
use super::cursor::{prefix, region, skip_ws, Cx, Item, Need, Openers, Prefix, Reader, Step};
use super::error::{Cut, TextErrorKind};
use super::format::TextFormat;
use serde_json::{Map, Value};

/// Gemma 4's and FunctionGemma's calls.
pub(crate) const READER: Reader = Reader::new(b'<', 120, at, None);

/// One of the two dialects.
pub(crate) struct Dialect {
    pub format: TextFormat,
    pub open: &'static str,
    /// What closes a call; the first is the one written.
    pub close: &'static [&'static str],
    /// The token strings are quoted with.
    pub quote: &'static str,
    /// Whether a quoted value is typed even without a schema.
    guess_quoted: bool,
}

pub(crate) const GEMMA4: Dialect = Dialect {
    format: TextFormat::Gemma4,
    open: "<|tool_call>",
    close: &["<tool_call|>", "<turn|>"],
    quote: "<|\"|>",
    guess_quoted: false,
};

pub(crate) const FUNCTION_GEMMA: Dialect = Dialect {
    format: TextFormat::FunctionGemma,
    open: "<start_function_call>",
    close: &["<end_function_call>"],
    quote: "<escape>",
    guess_quoted: true,
};

const CALL: &str = "call:";
/// How deep values may nest.
const MAX_DEPTH: usize = 64;

/// A Gemma call opening at `pos` (a `<`), in a dialect the parse looks for.
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    let mut openers = Openers::new(cx, text, pos);
    for dialect in [&GEMMA4, &FUNCTION_GEMMA] {
        if openers.opens(dialect.format, dialect.open) {
            return read(cx, text, pos, dialect).in_format(dialect.format);
        }
    }
    openers.none()
}

fn read(cx: &Cx, text: &str, pos: usize, dialect: &Dialect) -> Step {
    let start = skip_ws(text, pos + dialect.open.len());
    let bytes = text.as_bytes();
    // `call:NAME{`, or `:NAME{`: Gemma 4 sometimes leaves out `call`, and vLLM's parser
    // (`TestBareAndMalformedOpeners`) reads the bare opener too; the name and arguments are
    // all there, nothing is guessed.
    let syntax = |expected| TextErrorKind::Syntax { expected };
    let opener = match prefix(text, start, CALL, cx.eof) {
        Prefix::No if bytes.get(start) == Some(&b':') => Prefix::Yes,
        other => other,
    };
    let head = match opener {
        Prefix::Partial => return Step::More(Need::Any),
        _ if start == text.len() && !cx.eof => return Step::More(Need::Any),
        _ if start == text.len() => Err(TextErrorKind::Truncated(Cut::InMarkup)),
        Prefix::No => Err(syntax("`call:` and the function name")),
        Prefix::Yes => {
            let name = if bytes[start] == b':' {
                start + 1
            } else {
                start + CALL.len()
            };
            match bytes[name..].iter().position(|&b| !is_name(b)) {
                None if !cx.eof => return Step::More(Need::Any),
                None => Err(TextErrorKind::Truncated(Cut::InMarkup)),
                Some(0) => Err(TextErrorKind::MissingName),
                Some(n) if bytes[name + n] == b'{' => Ok((&text[name..name + n], name + n)),
                Some(_) => Err(syntax("`{` after the function name")),
            }
        }
    };
    let (name, open) = match head {
        Ok(head) => head,
        Err(kind) => return bad(cx, text, pos, dialect, kind),
    };
    let schema = cx.tools.input_schema(name);
    let mut reader = ValueReader {
        text,
        pos: open + 1,
        quote: dialect.quote,
        depth: 0,
    };
    let arguments = match reader.object() {
        Ok(pairs) => pairs,
        Err(Fail::End(_)) if !cx.eof => return Step::More(Need::Byte(b'}', b'}')),
        Err(Fail::End(cut)) => {
            let kind = TextErrorKind::Truncated(cut);
            return region(
                pos,
                text.len(),
                vec![Item::Error {
                    span: pos..text.len(),
                    kind,
                }],
            );
        }
        Err(Fail::Syntax(expected)) => return bad(cx, text, pos, dialect, syntax(expected)),
        Err(Fail::TooDeep) => return bad(cx, text, pos, dialect, TextErrorKind::TooDeep),
    };
    let mut map = Map::new();
    for (key, raw) in arguments {
        let value = match raw {
            Raw::Quoted(s) if schema.is_some() || dialect.guess_quoted => coerce(&s, schema, &key),
            Raw::Quoted(s) => Value::String(s),
            Raw::Bare(s) => coerce(&s, schema, &key),
            Raw::Value(value) => value,
        };
        map.insert(key, value);
    }
    let end = reader.pos;
    let after = skip_ws(text, end);
    let end = if after == text.len() && !cx.eof {
        return Step::More(Need::Any);
    } else {
        let mut end_at = end;
        for close in dialect.close {
            match prefix(text, after, close, cx.eof) {
                Prefix::Yes => {
                    end_at = after + close.len();
                    break;
                }
                Prefix::Partial => return Step::More(Need::Any),
                Prefix::No => {}
            }
        }
        end_at
    };
    let item = Item::Call {
        name: name.to_owned(),
        arguments: Value::Object(map).to_string(),
    };
    region(pos, end, vec![item])
}

/// A call that can't be read: an error up to its closing token (or the end of the text).
fn bad(cx: &Cx, text: &str, pos: usize, dialect: &Dialect, kind: TextErrorKind) -> Step {
    let from = pos + dialect.open.len();
    // The nearest closer, at the cost of the distance to it (`find_first`).
    let end = super::arguments::find_first(text, from, dialect.close).map(|(_, end)| end);
    let end = match end {
        Some(end) => end,
        None if !cx.eof => return Step::More(Need::Byte(b'>', b'>')),
        None => text.len(),
    };
    region(
        pos,
        end,
        vec![Item::Error {
            span: pos..end,
            kind,
        }],
    )
}

fn is_name(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':')
}

/// A value as written: quoted, bare, or a list or object already read.
enum Raw {
    Quoted(String),
    Bare(String),
    Value(Value),
}

enum Fail {
    /// The text ends first.
    End(Cut),
    Syntax(&'static str),
    TooDeep,
}

/// A reader over Gemma's value syntax.
struct ValueReader<'a> {
    text: &'a str,
    pos: usize,
    quote: &'a str,
    depth: usize,
}

impl ValueReader<'_> {
    fn ws(&mut self) {
        self.pos = skip_ws(self.text, self.pos);
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn quoted(&self) -> bool {
        self.text.as_bytes()[self.pos..].starts_with(self.quote.as_bytes())
    }

    /// The key-value pairs of an object, after its `{`, through its `}`.
    fn object(&mut self) -> Result<Vec<(String, Raw)>, Fail> {
        let mut pairs = Vec::new();
        loop {
            self.ws();
            match self.peek() {
                None => return Err(Fail::End(Cut::InMarkup)),
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(pairs);
                }
                Some(_) => {}
            }
            let key = if self.quoted() {
                self.string()?
            } else {
                let start = self.pos;
                let bytes = self.text.as_bytes();
                while self.pos < bytes.len()
                    && !matches!(bytes[self.pos], b':' | b',' | b'}' | b'{' | b'[' | b']')
                {
                    self.pos += 1;
                }
                self.text[start..self.pos].trim().to_owned()
            };
            self.ws();
            match self.peek() {
                None => return Err(Fail::End(Cut::BeforeValue)),
                Some(b':') if !key.is_empty() => self.pos += 1,
                Some(_) => return Err(Fail::Syntax("`key:` before a value")),
            }
            let value = self.value()?;
            pairs.push((key, value));
            self.ws();
            match self.peek() {
                None => return Err(Fail::End(Cut::InMarkup)),
                Some(b',') => self.pos += 1,
                Some(b'}') => {}
                Some(_) => return Err(Fail::Syntax("`,` or `}` after a value")),
            }
        }
    }

    fn value(&mut self) -> Result<Raw, Fail> {
        self.ws();
        if self.quoted() {
            return self.string().map(Raw::Quoted);
        }
        match self.peek() {
            None => Err(Fail::End(Cut::BeforeValue)),
            Some(b'{') => {
                self.pos += 1;
                let pairs = self.nested(ValueReader::object)?;
                let map = pairs
                    .into_iter()
                    .map(|(key, raw)| (key, plain(raw)))
                    .collect();
                Ok(Raw::Value(Value::Object(map)))
            }
            Some(b'[') => {
                self.pos += 1;
                let items = self.nested(ValueReader::list)?;
                Ok(Raw::Value(Value::Array(
                    items.into_iter().map(plain).collect(),
                )))
            }
            Some(_) => {
                let start = self.pos;
                let bytes = self.text.as_bytes();
                while self.pos < bytes.len() && !matches!(bytes[self.pos], b',' | b'}' | b']') {
                    if self.quoted() {
                        return Err(Fail::Syntax("a value, not text and a string"));
                    }
                    self.pos += 1;
                }
                if self.pos == bytes.len() {
                    return Err(Fail::End(Cut::InToken));
                }
                let token = self.text[start..self.pos].trim();
                if token.is_empty() {
                    return Err(Fail::Syntax("a value"));
                }
                Ok(Raw::Bare(token.to_owned()))
            }
        }
    }

    /// The items of a list, after its `[`, through its `]`.
    fn list(&mut self) -> Result<Vec<Raw>, Fail> {
        let mut items = Vec::new();
        loop {
            self.ws();
            match self.peek() {
                None => return Err(Fail::End(Cut::InMarkup)),
                Some(b']') => {
                    self.pos += 1;
                    return Ok(items);
                }
                Some(_) => {}
            }
            items.push(self.value()?);
            self.ws();
            match self.peek() {
                None => return Err(Fail::End(Cut::InMarkup)),
                Some(b',') => self.pos += 1,
                Some(b']') => {}
                Some(_) => return Err(Fail::Syntax("`,` or `]` after a value")),
            }
        }
    }

    fn nested<T>(&mut self, read: impl FnOnce(&mut Self) -> Result<T, Fail>) -> Result<T, Fail> {
        if self.depth >= MAX_DEPTH {
            return Err(Fail::TooDeep);
        }
        self.depth += 1;
        let read = read(self);
        self.depth -= 1;
        read
    }

    /// A quoted string, from its opening quote: what is between the quotes, as written.
    fn string(&mut self) -> Result<String, Fail> {
        let start = self.pos + self.quote.len();
        match memchr::memmem::find(&self.text.as_bytes()[start..], self.quote.as_bytes()) {
            Some(n) => {
                self.pos = start + n + self.quote.len();
                Ok(self.text[start..start + n].to_owned())
            }
            None => Err(Fail::End(Cut::InString)),
        }
    }
}

/// A value inside a list or an object: quoted strings stay strings, bare tokens read as
/// JSON literals when they are one.
fn plain(raw: Raw) -> Value {
    match raw {
        Raw::Quoted(s) => Value::String(s),
        Raw::Bare(s) => coerce(&s, None, ""),
        Raw::Value(value) => value,
    }
}

#[cfg(test)]
mod tests {
    use crate::{parse, TextFormat};
    use serde_json::{json, Value};
    use std::collections::HashMap;

    #[test]
    fn values_are_typed_with_the_schema() {
        let tools = HashMap::from([(
            "f".to_owned(),
            json!({"type": "object", "properties": {"s": {"type": "string"}, "n": {"type": "integer"}}}),
        )]);
        let text = "<|tool_call>call:f{s:42,n:<|\"|>7<|\"|>,<|\"|>k y<|\"|>:[1,<|\"|>2<|\"|>]}<tool_call|>";
        let parsed = parse(text, TextFormat::Gemma4, &tools);
        let arguments: Value = serde_json::from_str(&parsed.calls[0].arguments).unwrap();
        assert_eq!(arguments, json!({"s": "42", "n": 7, "k y": [1, "2"]}));
        // Without a schema, quoted stays a string in Gemma 4 and is guessed in FunctionGemma.
        let parsed = parse(
            "<|tool_call>call:f{n:<|\"|>7<|\"|>}<tool_call|>",
            TextFormat::Auto,
            &(),
        );
        assert_eq!(parsed.calls[0].arguments, r#"{"n":"7"}"#);
        let parsed = parse(
            "<start_function_call>call:f{n:<escape>7<escape>}<end_function_call>",
            TextFormat::Auto,
            &(),
        );
        assert_eq!(parsed.calls[0].arguments, r#"{"n":7}"#);
    }
}
