//! Mistral's `[TOOL_CALLS]`: followed by a JSON array of `{name, arguments}` (tokenizers before
//! v11), or by `name[ARGS]{..}` / `name{..}` (v11 and later, one marker per call; an optional
//! `[CALL_ID]id` after the name is skipped).

use super::cursor::{prefix, region, skip_ws, Cx, Item, Need, Prefix, Reader, Step};
use super::error::{Cut, TextErrorKind};
use super::format::TextFormat;
use super::json::{self, Extent};
use super::object::{normalize_arguments, read_array, read_object};

/// `[TOOL_CALLS]` (xLAM's list after it too).
pub(crate) const READER: Reader = Reader::new(b'[', 10, at, Some(TextFormat::Mistral));

const MARKER: &str = "[TOOL_CALLS]";
const ARGS: &str = "[ARGS]";
const CALL_ID: &str = "[CALL_ID]";

/// `[TOOL_CALLS]` at `pos`.
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    match prefix(text, pos, MARKER, cx.eof) {
        Prefix::No => return Step::Prose(1),
        Prefix::Partial => return cx.more(Need::Any),
        Prefix::Yes => {}
    }
    let start = skip_ws(text, pos + MARKER.len());
    let read = match text.as_bytes().get(start) {
        None if !cx.eof => return Step::More(Need::Any),
        None => Ok((
            text.len(),
            vec![error(pos..text.len(), TextErrorKind::Empty)],
        )),
        Some(b'[') => read_array(cx, text, start),
        Some(b'{') => read_object(cx, text, start).map(|(end, found)| {
            let item = match found {
                Ok(found) => found.into(),
                Err(kind) => error(pos..end, kind),
            };
            (end, vec![item])
        }),
        Some(_) => match named(cx, text, start) {
            // Not a call after all (the marker quoted in prose or code, say).
            Ok(None) => return Step::Prose(1),
            Ok(Some(read)) => Ok(read),
            Err(need) => Err(need),
        },
    };
    match read {
        Ok((end, items)) => region(pos, end, items),
        Err(need) => cx.more(need),
    }
}

/// The v11 form at `start`: `name`, maybe `[CALL_ID]id`, maybe `[ARGS]`, then `{..}`.
fn named(cx: &Cx, text: &str, start: usize) -> Result<Option<(usize, Vec<Item>)>, Need> {
    let bytes = text.as_bytes();
    let mut i = start;
    while i < bytes.len()
        && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'_' | b'-' | b'.' | b':'))
    {
        i += 1;
    }
    let name = &text[start..i];
    if name.is_empty() {
        return Ok(None);
    }
    if i == bytes.len() && !cx.eof {
        return Err(Need::Any);
    }
    match prefix(text, i, CALL_ID, cx.eof) {
        Prefix::Partial => return Err(Need::Any),
        Prefix::Yes => {
            i += CALL_ID.len();
            while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                i += 1;
            }
        }
        Prefix::No => {}
    }
    // Whitespace between the name and `[ARGS]` (or the object) is the model's, not a stop.
    let spaced = skip_ws(text, i);
    if spaced == bytes.len() && !cx.eof {
        return Err(Need::Any);
    }
    let marked = match prefix(text, spaced, ARGS, cx.eof) {
        Prefix::Partial => return Err(Need::Any),
        Prefix::Yes => {
            i = spaced + ARGS.len();
            true
        }
        Prefix::No => false,
    };
    let args = skip_ws(text, i);
    match bytes.get(args) {
        None if !cx.eof => Err(Need::Any),
        None => Ok(Some((
            text.len(),
            vec![error(
                start..text.len(),
                TextErrorKind::Truncated(Cut::InMarkup),
            )],
        ))),
        Some(b'{') => {
            let (end, arguments) = match json::extent_or_wait(cx.eof, text, args)? {
                Extent::Closed(end) => (end, arguments_object(&text[args..end])),
                // Cut by the end of the message: what came after is unknown.
                Extent::Open(open) if !cx.bounded => (
                    text.len(),
                    Err(TextErrorKind::Truncated(
                        open.close(text, args).err().unwrap_or(Cut::InMarkup),
                    )),
                ),
                Extent::Open(open) => (
                    text.len(),
                    open.close(text, args)
                        .map_err(TextErrorKind::Truncated)
                        .and_then(|closed| arguments_object(&closed)),
                ),
                Extent::TooDeep => (text.len(), Err(TextErrorKind::TooDeep)),
            };
            let item = match arguments {
                Ok(arguments) => Item::Call {
                    name: name.to_owned(),
                    arguments,
                },
                Err(kind) => error(start..end, kind),
            };
            Ok(Some((end, vec![item])))
        }
        // After `[ARGS]`, a JSON string holding the object is decoded once, as in the other
        // JSON formats; anything else is no object, and an error: the markup says it is a call.
        Some(_) if marked => {
            let end = value_end(text, args);
            if end == text.len() && !cx.eof {
                return Err(Need::Any);
            }
            let item = match normalize_arguments(&text[args..end]) {
                Ok(arguments) if bytes[args] == b'"' => Item::Call {
                    name: name.to_owned(),
                    arguments,
                },
                Ok(_) | Err(_) => error(start..end, TextErrorKind::ArgumentsNotObject),
            };
            Ok(Some((end, vec![item])))
        }
        // A word after the marker, not a call (the marker quoted in prose, say).
        Some(_) => Ok(None),
    }
}

/// Where the JSON value at `start` (not an object) ends: a string's closing quote, an
/// array's bracket, or the end of a token.
fn value_end(text: &str, start: usize) -> usize {
    let bytes = text.as_bytes();
    match bytes[start] {
        b'"' => json::string_end(bytes, start).unwrap_or(text.len()),
        b'[' => match json::extent(text, start) {
            Extent::Closed(end) => end,
            _ => text.len(),
        },
        _ => bytes[start..]
            .iter()
            .position(|b| b.is_ascii_whitespace() || *b == b'[')
            .map_or(text.len(), |n| start + n),
    }
}

/// Arguments written as a JSON object, repaired if need be.
fn arguments_object(text: &str) -> Result<String, TextErrorKind> {
    let valid = json::to_valid(text)?;
    normalize_arguments(&valid)
}

fn error(span: std::ops::Range<usize>, kind: TextErrorKind) -> Item {
    Item::Error { span, kind }
}

#[cfg(test)]
mod tests {
    use crate::{parse, TextErrorKind, TextFormat};

    #[test]
    fn the_array_form_is_read() {
        let text = "Let me check.[TOOL_CALLS] [{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}, {\"name\": \"get_time\", \"arguments\": {}}]";
        let parsed = parse(text, TextFormat::Mistral, &());
        assert_eq!(parsed.text, "Let me check.");
        assert_eq!(parsed.calls.len(), 2);
        assert_eq!(parsed.calls[0].arguments, r#"{"city": "Paris"}"#);
    }

    #[test]
    fn the_v11_form_is_read_with_or_without_args_tokens() {
        let text = "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}[TOOL_CALLS]get_time{\"tz\": \"CET\"}[TOOL_CALLS]add[CALL_ID]a1b2c3d4e[ARGS]{\"a\": 1}";
        let parsed = parse(text, TextFormat::Auto, &());
        let names: Vec<&str> = parsed.calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["get_weather", "get_time", "add"]);
        assert_eq!(parsed.calls[1].arguments, r#"{"tz": "CET"}"#);
        assert_eq!(parsed.text, "");
        assert!(parsed.errors.is_empty());
    }

    #[test]
    fn a_bad_call_among_good_ones_is_an_error() {
        let text = "[TOOL_CALLS]a{\"x\": 1}[TOOL_CALLS]b{\"x\": [1, 2}[TOOL_CALLS]c{\"y\": \"cut";
        let parsed = parse(text, TextFormat::Mistral, &());
        let names: Vec<&str> = parsed.calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a"], "{parsed:?}");
        assert_eq!(parsed.errors.len(), 2);
        // `[1, 2}`: which bracket was meant is a guess.
        assert_eq!(parsed.errors[0].kind, TextErrorKind::InvalidJson);
        assert!(matches!(parsed.errors[1].kind, TextErrorKind::Truncated(_)));
        assert!(parsed.errors[1].raw.starts_with("[TOOL_CALLS]c"));
    }

    #[test]
    fn a_marker_with_nothing_after_it_is_reported() {
        let parsed = parse("Hmm [TOOL_CALLS]", TextFormat::Mistral, &());
        assert_eq!(parsed.text, "Hmm ");
        assert_eq!(parsed.errors[0].kind, TextErrorKind::Empty);
    }
}
