//! Python calls with keyword arguments inside markers of their own, read with `pylit.rs` as
//! pythonic lists are (`pythonic.rs`): values are Python literals (JSON's `true`, `false` and
//! `null` too), typed by how they are written, as the peers' `ast` readers type them.
//!
//! | format | markup | peers |
//! |---|---|---|
//! | [`Lfm2`](TextFormat::Lfm2) | `<\|tool_call_start\|>[name(k=v), ..]<\|tool_call_end\|>` | vLLM `lfm2` (`lfm2_tool_parser.py`, `test_lfm2_tool_parser.py`), llama.cpp (LFM2) |
//! | [`Olmo3`](TextFormat::Olmo3) | `<function_calls>name(k=v)\nname2(k=v)</function_calls>` | vLLM `olmo3` (`olmo3_tool_parser.py`, `test_olmo3_tool_parser.py`) |
//!
//! Where peers differ: vLLM repairs what isn't Python (a raw newline or an unescaped quote
//! inside a string, leading zeros in ints) and drops LFM2's echo of a call body after the
//! end token; neither is guessed here, so such a call is an error and an echo stays prose.
//! vLLM's OLMo 3 parser reads a block with one bad line as no calls at all (the whole output
//! is then text); here the bad line is one error and the other lines are calls. OLMo 3 calls
//! may also be separated by `,` (vLLM joins the lines with `, ` before reading them).

use super::cursor::{prefix, region, Cx, Item, Need, Openers, Prefix, Reader, Step};
use super::error::{Cut, TextErrorKind};
use super::format::TextFormat;
use super::pylit::{Py, PyError};
use super::pythonic;
use serde_json::Value;

/// Python calls in LFM2's and OLMo 3's tags.
pub(crate) const READER: Reader = Reader::new(b'<', 130, at, None);

const LFM2_OPEN: &str = "<|tool_call_start|>";
const LFM2_CLOSE: &str = "<|tool_call_end|>";
const OLMO3_OPEN: &str = "<function_calls>";
const OLMO3_CLOSE: &str = "</function_calls>";

/// An LFM2 or OLMo 3 call block opening at `pos` (a `<`).
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    let mut openers = Openers::new(cx, text, pos);
    if openers.opens(TextFormat::Lfm2, LFM2_OPEN) {
        return pythonic::between(cx, text, pos, LFM2_OPEN, LFM2_CLOSE).in_format(TextFormat::Lfm2);
    }
    if openers.opens(TextFormat::Olmo3, OLMO3_OPEN) {
        return olmo3(cx, text, pos).in_format(TextFormat::Olmo3);
    }
    openers.none()
}

/// OLMo 3's calls, one a line, from `pos` (its `<function_calls>`) to `</function_calls>`.
fn olmo3(cx: &Cx, text: &str, pos: usize) -> Step {
    let mut py = Py::new(text, pos + OLMO3_OPEN.len());
    let mut items = Vec::new();
    loop {
        py.ws();
        match prefix(text, py.pos, OLMO3_CLOSE, cx.eof) {
            Prefix::Yes => return region(pos, py.pos + OLMO3_CLOSE.len(), items),
            Prefix::Partial => return Step::More(Need::Any),
            Prefix::No => {}
        }
        if py.pos == text.len() {
            if !cx.eof {
                return Step::More(Need::Any);
            }
            // Never closed: the calls end with the last one, or the text.
            if items.is_empty() {
                let kind = TextErrorKind::Truncated(Cut::InMarkup);
                items.push(Item::Error {
                    span: pos..text.len(),
                    kind,
                });
            }
            return region(pos, text.len(), items);
        }
        let start = py.pos;
        match py.call() {
            Ok((name, arguments)) => {
                items.push(Item::Call {
                    name,
                    arguments: Value::Object(arguments).to_string(),
                });
                py.ws();
                if py.peek() == Some(b',') {
                    py.pos += 1;
                }
            }
            Err(PyError::End) if !cx.eof => return Step::More(Need::Byte(b')', b'>')),
            Err(PyError::End) => {
                items.push(Item::Error {
                    span: start..text.len(),
                    kind: TextErrorKind::Truncated(Cut::InMarkup),
                });
                return region(pos, text.len(), items);
            }
            Err(error) => {
                // One bad line costs only itself: the next line is read on.
                let bytes = text.as_bytes();
                let line_end = memchr::memchr(b'\n', &bytes[start..]).map(|n| start + n);
                // The close is looked for on this line only: searching the rest of the text
                // for each bad line made a text of bad lines cost its square.
                let line = &bytes[start..line_end.unwrap_or(bytes.len())];
                let close = memchr::memmem::find(line, OLMO3_CLOSE.as_bytes()).map(|n| start + n);
                let end = match (line_end, close) {
                    (Some(a), Some(b)) => a.min(b),
                    (a, b) => match a.or(b) {
                        Some(end) => end,
                        None if !cx.eof => return Step::More(Need::Byte(b'\n', b'>')),
                        None => text.len(),
                    },
                };
                let kind = match error {
                    PyError::Syntax(expected) => TextErrorKind::Syntax { expected },
                    _ => TextErrorKind::TooDeep,
                };
                items.push(Item::Error {
                    span: start..end,
                    kind,
                });
                py.pos = end;
            }
        }
    }
}
