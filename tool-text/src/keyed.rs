//! JSON lists of calls whose objects are not `{"name", "arguments"}`, between special tokens.
//!
//! | format | markup | peers |
//! |---|---|---|
//! | [`Apertus`](TextFormat::Apertus) | `<\|tools_prefix\|>[{"NAME": {args}}, ..]<\|tools_suffix\|>` | vLLM `apertus` (`apertus_tool_parser.py`, `test_apertus_tool_parser.py`), SGLang, llama.cpp (autoparser) |
//! | [`CommandR`](TextFormat::CommandR) | `<\|START_ACTION\|>[{"tool_call_id": "0", "tool_name": "NAME", "parameters": {args}}, ..]<\|END_ACTION\|>` | llama.cpp (Command R7B, Cohere2 MoE in `test-chat.cpp`; `COMMAND_R7B` parser, Aug 2025); vLLM's `cohere_command3`/`cohere_command4` parsers are stubs over a library |
//!
//! Each object is read on its own, so one bad call costs one error; an object cut off is an
//! error (vLLM's Apertus parser reads a partial one with `partial_json_loads`). The
//! arguments are JSON, kept as written (a string holding an object is decoded).
//!
//! Command's replies wrap their answer in `<|START_RESPONSE|>..<|END_RESPONSE|>` (R7B) or
//! `<|START_TEXT|>..<|END_TEXT|>` (Cohere2 MoE): those markers are cut and the answer kept,
//! as llama.cpp does; `<|START_THINKING|>..<|END_THINKING|>` is reasoning, prose (`scan.rs`).
//! The `tool_call_id` the model writes is not kept: calls get this parser's ids.

use super::arguments;
use super::cursor::{region, skip_ws, Cx, Item, Need, Openers, Reader, Step};
use super::error::{Cut, TextErrorKind};
use super::format::TextFormat;
use super::json::{self, Extent};
use serde_json::value::RawValue;
use std::collections::HashMap;

/// Keyed JSON lists (Apertus, Command R).
pub(crate) const READER: Reader = Reader::new(b'<', 140, at, None);

/// One markup of this family.
struct Keyed {
    format: TextFormat,
    open: &'static str,
    close: &'static str,
    /// The call in one object's JSON text.
    call: fn(&str) -> Result<(String, String), TextErrorKind>,
}

const KEYED: [Keyed; 2] = [
    Keyed {
        format: TextFormat::Apertus,
        open: "<|tools_prefix|>",
        close: "<|tools_suffix|>",
        call: apertus,
    },
    Keyed {
        format: TextFormat::CommandR,
        open: "<|START_ACTION|>",
        close: "<|END_ACTION|>",
        call: cohere,
    },
];

/// Command's answer markers, cut from the text.
const COHERE_TEXT: [&str; 4] = [
    "<|START_RESPONSE|>",
    "<|END_RESPONSE|>",
    "<|START_TEXT|>",
    "<|END_TEXT|>",
];

/// A call list (or one of Command's answer markers) opening at `pos` (a `<`).
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    match text.as_bytes().get(pos + 1) {
        Some(b'|') => {}
        None if !cx.eof => return Step::More(Need::Any),
        _ => return Step::Prose(1),
    }
    let mut openers = Openers::new(cx, text, pos);
    for keyed in &KEYED {
        if openers.opens(keyed.format, keyed.open) {
            return read(cx, text, pos, keyed).in_format(keyed.format);
        }
    }
    for marker in COHERE_TEXT {
        if openers.opens(TextFormat::CommandR, marker) {
            return region(pos, pos + marker.len(), Vec::new());
        }
    }
    openers.none()
}

fn read(cx: &Cx, text: &str, pos: usize, keyed: &Keyed) -> Step {
    let first = skip_ws(text, pos + keyed.open.len());
    let bytes = text.as_bytes();
    let read = match bytes.get(first) {
        None if !cx.eof => return Step::More(Need::Any),
        None => Ok((
            text.len(),
            vec![error(
                pos..text.len(),
                TextErrorKind::Truncated(Cut::InMarkup),
            )],
        )),
        Some(b'[') => list(cx, text, first, keyed.call),
        Some(b'{') => object(cx.eof, text, first, keyed.call).map(|(end, item)| (end, vec![item])),
        Some(_) => {
            // Not JSON: the block runs to its closing marker.
            let end = match memchr::memmem::find(&bytes[first..], keyed.close.as_bytes()) {
                Some(n) => first + n + keyed.close.len(),
                None if !cx.eof => return Step::More(Need::Byte(b'>', b'>')),
                None => text.len(),
            };
            let kind = TextErrorKind::Syntax {
                expected: "a JSON list of calls",
            };
            return region(pos, end, vec![error(pos..end, kind)]);
        }
    };
    let (json_end, items) = match read {
        Ok(read) => read,
        Err(need) => return Step::More(need),
    };
    match arguments::closed_by(cx, text, json_end, &[keyed.close]) {
        Ok(end) => region(pos, end, items),
        Err(need) => Step::More(need),
    }
}

/// The list at `start` (a `[`), one object at a time.
pub(crate) fn list(
    cx: &Cx,
    text: &str,
    start: usize,
    call: fn(&str) -> Result<(String, String), TextErrorKind>,
) -> Result<(usize, Vec<Item>), Need> {
    // Nothing of the list is given out before it closes.
    let closed = match json::extent_or_wait(cx.eof, text, start)? {
        Extent::Closed(end) => Some(end),
        Extent::Open(_) => None,
        Extent::TooDeep => {
            return Ok((
                text.len(),
                vec![error(start..text.len(), TextErrorKind::TooDeep)],
            ))
        }
    };
    let bytes = text.as_bytes();
    let end = closed.unwrap_or(text.len());
    let mut items = Vec::new();
    let mut i = start + 1;
    loop {
        while i < end && (bytes[i].is_ascii_whitespace() || bytes[i] == b',') {
            i += 1;
        }
        match bytes.get(i) {
            _ if i >= end => {
                // A list cut off after whole calls keeps them, as `object::read_array` does.
                if closed.is_none() && items.is_empty() {
                    items.push(error(
                        start.min(i)..text.len(),
                        TextErrorKind::Truncated(Cut::InMarkup),
                    ));
                }
                return Ok((end, items));
            }
            None => return Ok((end, items)),
            Some(b']') => return Ok((i + 1, items)),
            Some(b'{') => {
                // The list has closed, or the text has ended: so has every object in it.
                let (object_end, item) = object(true, &text[..end], i, call)?;
                items.push(item);
                i = object_end;
            }
            Some(_) => {
                let next = bytes[i..end]
                    .iter()
                    .position(|&b| matches!(b, b',' | b']' | b'{'))
                    .map_or(end, |n| i + n);
                items.push(error(i..next, TextErrorKind::NotAnObject));
                i = next;
            }
        }
    }
}

/// One call object at `start` (a `{`).
fn object(
    eof: bool,
    text: &str,
    start: usize,
    call: fn(&str) -> Result<(String, String), TextErrorKind>,
) -> Result<(usize, Item), Need> {
    let (end, read) = match json::extent_or_wait(eof, text, start)? {
        Extent::Closed(end) => (end, call(&text[start..end])),
        Extent::Open(open) => {
            let cut = open.close(text, start).err().unwrap_or(Cut::InMarkup);
            (text.len(), Err(TextErrorKind::Truncated(cut)))
        }
        Extent::TooDeep => (text.len(), Err(TextErrorKind::TooDeep)),
    };
    Ok((
        end,
        match read {
            Ok((name, arguments)) => Item::Call { name, arguments },
            Err(kind) => error(start..end, kind),
        },
    ))
}

/// Apertus: `{"NAME": {args}}`, one key.
fn apertus(raw: &str) -> Result<(String, String), TextErrorKind> {
    let valid = json::to_valid(raw)?;
    let fields: HashMap<String, &RawValue> =
        serde_json::from_str(&valid).map_err(|_| TextErrorKind::NotAnObject)?;
    let mut fields = fields.into_iter();
    match (fields.next(), fields.next()) {
        (Some((name, arguments)), None) if !name.trim().is_empty() => Ok((
            name.trim().to_owned(),
            arguments::from_json(arguments.get())?,
        )),
        (Some(_), Some(_)) => Err(TextErrorKind::Syntax {
            expected: "one key, the tool's name",
        }),
        _ => Err(TextErrorKind::MissingName),
    }
}

/// Command: `{"tool_call_id": .., "tool_name": .., "parameters": {..}}`.
pub(crate) fn cohere(raw: &str) -> Result<(String, String), TextErrorKind> {
    let valid = json::to_valid(raw)?;
    let fields: HashMap<String, &RawValue> =
        serde_json::from_str(&valid).map_err(|_| TextErrorKind::NotAnObject)?;
    let name = fields
        .get("tool_name")
        .and_then(|raw| serde_json::from_str::<String>(raw.get()).ok())
        .filter(|name| !name.trim().is_empty())
        .ok_or(TextErrorKind::MissingName)?;
    let arguments = match fields.get("parameters") {
        Some(raw) => arguments::from_json(raw.get())?,
        None => "{}".to_owned(),
    };
    Ok((name.trim().to_owned(), arguments))
}

fn error(span: std::ops::Range<usize>, kind: TextErrorKind) -> Item {
    Item::Error { span, kind }
}
