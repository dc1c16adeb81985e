//! A call written as a JSON object (`{"name": .., "arguments": {..}}` and its variants), and
//! arrays of them read one element at a time.

use super::cursor::{prefix, region, skip_ws, Cx, Item, Need, Prefix, Step};
use super::error::{Cut, TextErrorKind};
use super::json::{self, Extent};
use serde_json::value::RawValue;
use std::collections::HashMap;

/// The keys models put arguments under, in the order they are looked for.
const ARGUMENT_KEYS: [&str; 4] = ["arguments", "parameters", "args", "input"];

/// A call read from an object.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Found {
    pub name: String,
    /// JSON object text.
    pub arguments: String,
    /// Whether the object had an arguments key (bare objects need one to count as calls).
    pub has_arguments: bool,
    /// Whether it is a tool's definition rather than a call: a `description` beside
    /// `parameters` that hold a JSON Schema (what a model echoes from its prompt). Outside
    /// call markup (a fence, bare JSON) such an object is prose.
    pub definition: bool,
}

impl From<Found> for Item {
    fn from(found: Found) -> Item {
        Item::Call {
            name: found.name,
            arguments: found.arguments,
        }
    }
}

/// Reads a call from the text of a JSON object, repairing it if needed.
pub(crate) fn read_call(text: &str) -> Result<Found, TextErrorKind> {
    let valid = json::to_valid(text.trim())?;
    from_valid(&valid, false)
}

/// `wrapped`: the object is the `function` of OpenAI's `{"type": "function", "function":
/// {..}}`, a shape whose calls carry `arguments`: `parameters` holding a schema there is a
/// definition, description or not (a Llama 3 call writes its arguments as `parameters`
/// beside the name, so outside the wrapper a description is what tells the two apart).
fn from_valid(text: &str, wrapped: bool) -> Result<Found, TextErrorKind> {
    let fields: HashMap<String, &RawValue> =
        serde_json::from_str(text).map_err(|_| TextErrorKind::NotAnObject)?;
    let arguments = ARGUMENT_KEYS.iter().find_map(|key| fields.get(*key));
    let name = fields
        .get("name")
        .and_then(|raw| serde_json::from_str::<String>(raw.get()).ok());
    let name = match (name, fields.get("function")) {
        (Some(name), _) => name,
        // OpenAI's shape: {"type": "function", "function": {"name": .., "arguments": ..}}.
        (None, Some(function)) if function.get().starts_with('{') => {
            let mut inner = from_valid(function.get(), true)?;
            if !inner.has_arguments {
                if let Some(raw) = arguments {
                    inner.arguments = normalize_arguments(raw.get())?;
                    inner.has_arguments = true;
                }
            }
            return Ok(inner);
        }
        (None, Some(function)) => serde_json::from_str::<String>(function.get())
            .map_err(|_| TextErrorKind::MissingName)?,
        (None, None) => return Err(TextErrorKind::MissingName),
    };
    let name = name.trim();
    if name.is_empty() {
        return Err(TextErrorKind::MissingName);
    }
    let definition = (wrapped || fields.contains_key("description"))
        && fields.get("parameters").is_some_and(|p| is_schema(p.get()));
    Ok(Found {
        name: name.to_owned(),
        arguments: match arguments {
            Some(raw) => normalize_arguments(raw.get())?,
            None => "{}".to_owned(),
        },
        has_arguments: arguments.is_some(),
        definition,
    })
}

/// Whether JSON text is an object schema: `"type": "object"` with `properties`.
fn is_schema(raw: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct Schema<'a> {
        #[serde(rename = "type", borrow)]
        kind: Option<&'a str>,
        properties: Option<&'a RawValue>,
    }
    serde_json::from_str::<Schema<'_>>(raw)
        .is_ok_and(|schema| schema.kind == Some("object") && schema.properties.is_some())
}

/// Whether the object at `text[start]` (a `{`) begins like a call: its first key is `name`
/// or `function`, or `arguments` or `parameters` (a call written arguments first; one that
/// then names no tool is a `MissingName` error, not prose), or it is `"type": "function"`
/// (Llama 3.x's and OpenAI's shapes write it first); `None` when it doesn't. `Err` when the
/// text seen so far can't tell.
pub(crate) fn starts_like_a_call(text: &str, start: usize, eof: bool) -> Result<bool, Need> {
    match first_key(text, start, eof)? {
        Some("name" | "function" | "arguments" | "parameters") => Ok(true),
        Some("type") => {
            // `{"type"` then `:` then `"function"`.
            let bytes = text.as_bytes();
            let key = memchr::memchr(b':', &bytes[start..])
                .map(|n| start + n + 1)
                .filter(|&colon| colon - start < 16);
            let Some(colon) = key else {
                return if eof || bytes.len() - start >= 16 {
                    Ok(false)
                } else {
                    Err(Need::Any)
                };
            };
            let value = skip_ws(text, colon);
            match prefix(text, value, "\"function\"", eof) {
                Prefix::Yes => Ok(true),
                Prefix::Partial => Err(Need::Any),
                Prefix::No if value == bytes.len() && !eof => Err(Need::Any),
                Prefix::No => Ok(false),
            }
        }
        _ => Ok(false),
    }
}

/// The arguments as JSON object text: an object as written, a string holding one (double
/// encoded) as decoded, `null` or `""` as `{}`.
pub(crate) fn normalize_arguments(raw: &str) -> Result<String, TextErrorKind> {
    let raw = raw.trim();
    if raw.starts_with('{') {
        return Ok(raw.to_owned());
    }
    if raw == "null" {
        return Ok("{}".to_owned());
    }
    let Ok(inner) = serde_json::from_str::<String>(raw) else {
        return Err(TextErrorKind::ArgumentsNotObject);
    };
    let inner = inner.trim();
    if inner.is_empty() {
        return Ok("{}".to_owned());
    }
    if !inner.starts_with('{') {
        return Err(TextErrorKind::ArgumentsNotObject);
    }
    let valid = json::to_valid(inner).map_err(|_| TextErrorKind::ArgumentsNotObject)?;
    if serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(&valid).is_err() {
        return Err(TextErrorKind::ArgumentsNotObject);
    }
    Ok(valid.into_owned())
}

/// The first key of the object at `text[start]` (a `{`), when it has a quoted one; `Err` when
/// the text seen so far ends before the key does.
pub(crate) fn first_key(text: &str, start: usize, eof: bool) -> Result<Option<&str>, Need> {
    // Longer than any key looked for.
    const LONGEST: usize = 32;
    let bytes = text.as_bytes();
    let at = skip_ws(text, start + 1);
    let quote = match bytes.get(at) {
        None if eof => return Ok(None),
        None => return Err(Need::Any),
        Some(&quote @ (b'"' | b'\'')) => quote,
        Some(_) => return Ok(None),
    };
    let window = &bytes[at + 1..bytes.len().min(at + 1 + LONGEST)];
    match memchr::memchr(quote, window) {
        Some(n) => Ok(text.get(at + 1..at + 1 + n)),
        None if window.len() == LONGEST || eof => Ok(None),
        None => Err(Need::Any),
    }
}

/// Reads one object at `start` (a `{`) whose end may not have arrived: `Ok((end, result))`, or
/// what to wait for. An object the end of the message cuts is an error (`Truncated`), even
/// between values: what came after the cut is unknown. Only where the text is
/// [`bounded`](Cx::bounded) by the call's own end marker is an object cut between values
/// closed and read, if it has its arguments; one cut inside a value, or before its
/// arguments, is reported.
pub(crate) fn read_object(
    cx: &Cx,
    text: &str,
    start: usize,
) -> Result<(usize, Result<Found, TextErrorKind>), Need> {
    match json::extent_or_wait(cx.eof, text, start)? {
        Extent::Closed(end) => Ok((end, read_call(&text[start..end]))),
        Extent::Open(open) if !cx.bounded => {
            let cut = open.close(text, start).err().unwrap_or(Cut::InMarkup);
            Ok((text.len(), Err(TextErrorKind::Truncated(cut))))
        }
        Extent::Open(open) => Ok((
            text.len(),
            open.close(text, start)
                .map_err(TextErrorKind::Truncated)
                .and_then(|closed| read_call(&closed))
                .and_then(|found| match found.has_arguments {
                    true => Ok(found),
                    // The arguments may have been next.
                    false => Err(TextErrorKind::Truncated(Cut::BeforeValue)),
                }),
        )),
        Extent::TooDeep => Ok((text.len(), Err(TextErrorKind::TooDeep))),
    }
}

/// A call region from `pos` whose call object comes after a header ending at `body`: the object
/// (an error when something else is there, or nothing), then `end`, an end marker that may
/// follow it. GigaChat's and Inkling's messages.
pub(crate) fn object_then(cx: &Cx, text: &str, pos: usize, body: usize, end: &str) -> Step {
    let start = skip_ws(text, body);
    let (object_end, item) = match text.as_bytes().get(start) {
        None if !cx.eof => return Step::More(Need::Any),
        Some(b'{') => match read_object(cx, text, start) {
            Ok((object_end, Ok(found))) => (object_end, found.into()),
            Ok((object_end, Err(kind))) => (
                object_end,
                Item::Error {
                    span: pos..object_end,
                    kind,
                },
            ),
            Err(need) => return cx.more(need),
        },
        _ => {
            let kind = match start == text.len() {
                true => TextErrorKind::Empty,
                false => TextErrorKind::Syntax {
                    expected: "a JSON object after the marker",
                },
            };
            let item = Item::Error {
                span: pos..start,
                kind,
            };
            return region(pos, start, vec![item]);
        }
    };
    let after = skip_ws(text, object_end);
    let region_end = match prefix(text, after, end, cx.eof) {
        Prefix::Yes => after + end.len(),
        Prefix::Partial => return Step::More(Need::Any),
        Prefix::No if after == text.len() && !cx.eof => return Step::More(Need::Any),
        Prefix::No => object_end,
    };
    region(pos, region_end, vec![item])
}

/// An array of call objects at `start` (a `[`), read one element at a time so one bad element
/// doesn't spoil the others. Returns where the array ends and what it held.
///
/// The elements are read no further than the array's own closer, found by the bracket count
/// a stream's walk (`json::Closing`) uses: an element left open (`[{"name": "f"]`) is cut
/// where the array closes, not read on into the text after it. Read on, it waited for a `}`
/// while the walk said the array had closed, and a stream read the held text again at every
/// `]` that came after: quadratic in the text (issue 32: `]` runs after a cut Phi-4-mini call,
/// 64 KiB pushed 7 bytes at a time, took 2 s).
pub(crate) fn read_array(cx: &Cx, text: &str, start: usize) -> Result<(usize, Vec<Item>), Need> {
    read_array_of(cx, text, start).map(|(end, (items, _))| (end, items))
}

/// [`read_array`], and whether every element is a tool's definition (a list of definitions
/// echoed in a fence is prose there, as one definition is).
pub(crate) fn read_array_of(
    cx: &Cx,
    text: &str,
    start: usize,
) -> Result<(usize, (Vec<Item>, bool)), Need> {
    let (cx, text, closed) = match json::extent_or_wait(cx.eof, text, start)? {
        // Everything the array holds has come: the text before its `]` is read to its end.
        Extent::Closed(end) => (Cx { eof: true, ..*cx }, &text[..end - 1], Some(end)),
        // Open at the end of the text, or too deep to find its end: read it all.
        _ => (Cx { ..*cx }, text, None),
    };
    let bytes = text.as_bytes();
    let mut items = Vec::new();
    let mut definitions = true;
    let mut i = start + 1;
    loop {
        while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b',') {
            i += 1;
        }
        if let (None, Some(end)) = (bytes.get(i), closed) {
            let definitions = definitions && !items.is_empty();
            return Ok((end, (items, definitions)));
        }
        match bytes.get(i) {
            None if !cx.eof => return Err(Need::Close(start)),
            None => {
                if items.is_empty() {
                    items.push(Item::Error {
                        span: start..text.len(),
                        kind: TextErrorKind::Truncated(Cut::InMarkup),
                    });
                }
                return Ok((text.len(), (items, false)));
            }
            Some(b']') => {
                let definitions = definitions && !items.is_empty();
                return Ok((i + 1, (items, definitions)));
            }
            Some(b'{') if closed.is_some() && matches!(json::extent(text, i), Extent::Open(_)) => {
                // Still open at the array's `]`: a bracket is missing, and which one would be
                // a guess (closing it as if the text ended there could run a call the model
                // never finished writing).
                definitions = false;
                items.push(Item::Error {
                    span: i..text.len(),
                    kind: TextErrorKind::InvalidJson,
                });
                i = text.len();
            }
            Some(b'{') => {
                // Nothing of the array is given out before it closes: wait for that.
                let (end, read) = read_object(&cx, text, i).map_err(|need| match need {
                    Need::Close(_) => Need::Close(start),
                    need => need,
                })?;
                definitions &= matches!(&read, Ok(found) if found.definition);
                items.push(match read {
                    Ok(found) => found.into(),
                    Err(kind) => Item::Error { span: i..end, kind },
                });
                i = end;
            }
            Some(_) => {
                // Not an object: report it up to the next element.
                let end = bytes[i..]
                    .iter()
                    .position(|&b| matches!(b, b',' | b']' | b'{'))
                    .map_or(text.len(), |n| i + n);
                if end == text.len() && !cx.eof {
                    return Err(Need::Byte(b']', b','));
                }
                definitions = false;
                items.push(Item::Error {
                    span: i..end,
                    kind: TextErrorKind::NotAnObject,
                });
                i = end;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(text: &str) -> (String, String) {
        let found = read_call(text).unwrap();
        (found.name, found.arguments)
    }

    #[test]
    fn every_spelling_of_a_call_is_read() {
        let expected = ("f".to_owned(), r#"{"x": 1}"#.to_owned());
        assert_eq!(call(r#"{"name": "f", "arguments": {"x": 1}}"#), expected);
        assert_eq!(call(r#"{"name": "f", "parameters": {"x": 1}}"#), expected);
        assert_eq!(call(r#"{"name": "f", "args": {"x": 1}}"#), expected);
        assert_eq!(call(r#"{"input": {"x": 1}, "name": "f"}"#), expected);
        assert_eq!(
            call(r#"{"type": "function", "function": {"name": "f", "arguments": {"x": 1}}}"#),
            expected
        );
        assert_eq!(
            call(r#"{"function": "f", "arguments": {"x": 1}}"#),
            expected
        );
    }

    #[test]
    fn double_encoded_arguments_are_decoded() {
        assert_eq!(
            call(r#"{"name": "f", "arguments": "{\"x\": 1}"}"#).1,
            r#"{"x": 1}"#
        );
        assert_eq!(call(r#"{"name": "f", "arguments": ""}"#).1, "{}");
        assert_eq!(call(r#"{"name": "f", "arguments": null}"#).1, "{}");
        assert_eq!(call(r#"{"name": "f"}"#).1, "{}");
        // Double-encoded text that isn't JSON is not guessed at.
        assert_eq!(
            read_call(r#"{"name": "f", "arguments": "{'x': 1,}"}"#),
            Err(TextErrorKind::ArgumentsNotObject)
        );
    }

    #[test]
    fn what_is_not_a_call_says_why() {
        assert_eq!(
            read_call(r#"{"arguments": {}}"#),
            Err(TextErrorKind::MissingName)
        );
        assert_eq!(
            read_call(r#"{"name": "f", "arguments": [1]}"#),
            Err(TextErrorKind::ArgumentsNotObject)
        );
        assert_eq!(
            read_call(r#"{"name": "f", "arguments": "x"}"#),
            Err(TextErrorKind::ArgumentsNotObject)
        );
        assert_eq!(read_call("[1]"), Err(TextErrorKind::NotAnObject));
    }

    #[test]
    fn first_keys_are_read_as_far_as_the_text_goes() {
        assert_eq!(first_key(r#"{ "name": 1}"#, 0, false), Ok(Some("name")));
        assert_eq!(first_key(r#"{"na"#, 0, false), Err(Need::Any));
        assert_eq!(first_key(r#"{"na"#, 0, true), Ok(None));
        assert_eq!(first_key("{", 0, false), Err(Need::Any));
        assert_eq!(first_key("{1: 2}", 0, false), Ok(None));
    }
}
