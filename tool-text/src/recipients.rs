//! Functionary v3.2's recipient lines: each part of a reply names its recipient on a line of its
//! own after `>>>`: `>>>get_weather\n{"city": "Paris"}` is a call, `>>>all\n` starts text for
//! the user. The chat template's generation prompt ends with `>>>`, so the first recipient,
//! at the start of the message, comes without it (`all\nHello`, `get_weather\n{..}`); llama.cpp
//! (a dedicated parser, `functionary_v3_2`; its body is read in the Aug 2025 source, the
//! current one only has its tests) reads both, as here.
//!
//! A call's arguments are the JSON object right after the name's line, read as JSON (a cut one
//! is an error); `python` may instead be followed by raw code, which runs to the end of the
//! message (llama.cpp's "raw python"), as `{"code": ..}`. `all`'s marker is cut from the text,
//! which is kept. A recipient line with anything else after it is prose.
//!
//! Under [`TextFormat::Auto`] only the `>>>` form counts, only with a JSON object after the
//! name's line, and, when the tool list is known, only for a known tool: a `>>>` in prose (a
//! quote, a Python prompt) is prose, and `>>>all` markers are left in the text.

use super::arguments;
use super::cursor::{prefix, region, skip_ws, Cx, Item, Need, Prefix, Reader, Step};
use super::error::TextErrorKind;
use super::format::TextFormat;
use serde_json::json;

/// `>>>`, found as a word.
pub(crate) const READER: Reader = Reader::new(b'>', 10, at, Some(TextFormat::FunctionaryV32));

/// What opens a recipient line after the first.
pub(crate) const MARKER: &str = ">>>";
/// The recipient of text for the user.
const ALL: &str = "all";
/// The tool that may take raw code.
const PYTHON: &str = "python";
/// The longest recipient name looked for.
const NAME_MAX: usize = 256;

/// `>>>` at `pos`.
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    match prefix(text, pos, MARKER, cx.eof) {
        Prefix::No => Step::Prose(1),
        Prefix::Partial => cx.more(Need::Any),
        Prefix::Yes => recipient(cx, text, pos, pos + MARKER.len()),
    }
}

/// The start of the message, at `pos`, where the first recipient comes without `>>>` (only
/// when the format is chosen).
pub(crate) fn first_at(cx: &Cx, text: &str, pos: usize) -> Step {
    let start = skip_ws(text, pos);
    match text.as_bytes().get(start) {
        None => cx.more(Need::Any),
        // The marker written anyway is found as one.
        Some(b'>') if start == pos => at(cx, text, pos),
        Some(b'>') => Step::Prose(start - pos),
        Some(_) => recipient(cx, text, pos, start),
    }
}

/// The recipient line whose name starts at `name` (its marker, if any, at `pos`).
fn recipient(cx: &Cx, text: &str, pos: usize, name: usize) -> Step {
    let bytes = text.as_bytes();
    let explicit = cx.format == TextFormat::FunctionaryV32;
    let len = bytes[name..]
        .iter()
        .take(NAME_MAX + 1)
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let line = name + len;
    if line == bytes.len() && len <= NAME_MAX {
        return cx.more(Need::Any);
    }
    if len == 0 || len > NAME_MAX {
        return Step::Prose(1);
    }
    let body = match bytes.get(line) {
        None => return cx.more(Need::Any),
        Some(b'\n') => line + 1,
        Some(b'\r') => match bytes.get(line + 1) {
            None => return cx.more(Need::Any),
            Some(b'\n') => line + 2,
            Some(_) => return Step::Prose(1),
        },
        Some(_) => return Step::Prose(1),
    };
    let recipient = &text[name..line];
    if recipient == ALL {
        // Text follows: the marker goes, the text stays.
        return match explicit {
            true => Step::Markup(body - pos),
            false => Step::Prose(1),
        };
    }
    match bytes.get(body) {
        None => cx.more(Need::Any),
        Some(b'{') => {
            if !explicit && !cx.accepts(recipient) {
                return Step::Prose(1);
            }
            let (end, read) = match arguments::read(cx, text, body) {
                Ok(read) => read,
                Err(need) => return Step::More(need),
            };
            let item = match read {
                Ok(arguments) => Item::Call {
                    name: recipient.to_owned(),
                    arguments,
                },
                Err(kind) => Item::Error {
                    span: pos..end,
                    kind,
                },
            };
            region(pos, end, vec![item])
        }
        Some(_) if explicit && recipient == PYTHON => {
            // Raw code: the rest of the message.
            if !cx.eof {
                return Step::More(Need::Eof);
            }
            let code = &text[body..];
            let item = match code.trim().is_empty() {
                true => Item::Error {
                    span: pos..text.len(),
                    kind: TextErrorKind::Empty,
                },
                false => Item::Call {
                    name: PYTHON.to_owned(),
                    arguments: json!({ "code": code }).to_string(),
                },
            };
            region(pos, text.len(), vec![item])
        }
        Some(_) => Step::Prose(1),
    }
}

#[cfg(test)]
mod tests {
    use crate::{parse, TextFormat};

    fn calls(text: &str, format: TextFormat) -> (Vec<String>, String, usize) {
        let parsed = parse(text, format, &());
        let calls = parsed
            .calls
            .iter()
            .map(|c| format!("{}{}", c.name, c.arguments))
            .collect();
        (calls, parsed.text, parsed.errors.len())
    }

    #[test]
    fn recipients_at_the_start_and_after_the_marker() {
        // llama.cpp's Functionary v3.2 tests (Aug 2025 and current).
        let text = "all\nHello, world!\nnono\nWhat's up?>>>special_function\n{\"arg1\": 1}\n";
        let (found, prose, errors) = calls(text, TextFormat::FunctionaryV32);
        assert_eq!(found, ["special_function{\"arg1\": 1}"]);
        assert_eq!(
            (prose.as_str(), errors),
            ("Hello, world!\nnono\nWhat's up?", 0)
        );
        let (found, prose, _) = calls(
            "special_function\n{\"arg1\": 1} \n  ",
            TextFormat::FunctionaryV32,
        );
        assert_eq!(found, ["special_function{\"arg1\": 1}"]);
        assert_eq!(prose.trim(), "");
        let (found, prose, _) = calls(
            "python\n# This is a program:\nprint('hey')",
            TextFormat::FunctionaryV32,
        );
        assert_eq!(
            found,
            ["python{\"code\":\"# This is a program:\\nprint('hey')\"}"]
        );
        assert_eq!(prose, "");
    }

    #[test]
    fn auto_reads_only_marked_calls_with_json() {
        let text = "Sure.>>>get_time\n{\"tz\": \"UTC\"}\n>>>all\nDone.";
        let (found, prose, _) = calls(text, TextFormat::Auto);
        assert_eq!(found, ["get_time{\"tz\": \"UTC\"}"]);
        assert_eq!(prose, "Sure.>>>all\nDone.");
        for text in [
            "get_time\n{\"tz\": \"UTC\"}",
            ">>> print({1: 2})",
            ">>>python\nprint(1)",
            "all\nHello",
        ] {
            let (found, prose, errors) = calls(text, TextFormat::Auto);
            assert!(found.is_empty() && errors == 0, "{text}");
            assert_eq!(prose, text);
        }
    }

    #[test]
    fn a_bad_call_is_one_error() {
        let text = ">>>a\n{\"x\": }\n>>>b\n{}";
        let (found, prose, errors) = calls(text, TextFormat::FunctionaryV32);
        assert_eq!(found, ["b{}"]);
        assert_eq!((prose.as_str(), errors), ("", 1));
    }
}
