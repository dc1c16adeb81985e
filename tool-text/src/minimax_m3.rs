//! MiniMax-M3: XML whose every tag is preceded by the namespace token `]<]minimax[>[` (so that
//! markup the model quotes can't be taken for its own), one element per argument, objects and
//! arrays written as nested elements (an array's elements as `<item>`s):
//!
//! ```text
//! ]<]minimax[>[<tool_call>
//! ]<]minimax[>[<invoke name="f">]<]minimax[>[<city>Paris]<]minimax[>[</city>]<]minimax[>[<days>3]<]minimax[>[</days>]<]minimax[>[</invoke>
//! ]<]minimax[>[</tool_call>
//! ```
//!
//! Peers: llama.cpp's dedicated parser (a PEG grammar built from the tools' schemas, and
//! `common_chat_peg_minimax_m3_mapper`; the grammar's builder is not in the vendored source,
//! only the mapper and the tests), vLLM `minimax_m3` (an adapter over an engine module its
//! sdist doesn't ship; its tests were read). Values follow the schema as llama.cpp's grammar
//! does: a value the schema lets be a string is the text as written, nested markup included;
//! one that is an object or an array and written as elements is read as one (a key written
//! twice gathers its values in an array, as vLLM's test expects); leaves are typed
//! (`coerce.rs`), or guessed without a schema. `<mm:think>` is reasoning (`scan.rs`).
//!
//! The block is read when it closes (or the text ends): an invoke cut off is an error, the
//! ones before it are kept; an invoke whose elements don't nest is one error.

use super::coerce::coerce;
use super::cursor::{prefix, region, skip_ws, Cx, Item, Need, Prefix, Reader, Step};
use super::error::{Cut, TextErrorKind};
use super::format::TextFormat;
use memchr::memmem;
use serde_json::{json, Map, Value};

/// MiniMax-M3's namespaced `<tool_call>`, found as a word.
pub(crate) const READER: Reader = Reader::new(b']', 10, at, Some(TextFormat::MinimaxM3));

/// The namespace token before every tag.
pub(crate) const NS: &str = "]<]minimax[>[";
/// What opens a block, found as a word by the scan.
pub(crate) const OPEN: &str = "]<]minimax[>[<tool_call>";
const CLOSE: &str = "]<]minimax[>[</tool_call>";
const INVOKE: &str = "]<]minimax[>[<invoke name=";
const INVOKE_CLOSE: &str = "]<]minimax[>[</invoke>";
/// How deep elements may nest.
const DEPTH: usize = 64;

/// A block opening at `pos`.
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    match prefix(text, pos, OPEN, cx.eof) {
        Prefix::No => return Step::Prose(1),
        Prefix::Partial => return cx.more(Need::Any),
        Prefix::Yes => {}
    }
    let body = pos + OPEN.len();
    let (body_end, end) = match memmem::find(&text.as_bytes()[body..], CLOSE.as_bytes()) {
        Some(n) => (body + n, body + n + CLOSE.len()),
        None if !cx.eof => return Step::More(Need::Byte(b'>', b'>')),
        None => (text.len(), text.len()),
    };
    let mut items = Vec::new();
    let mut i = skip_ws(text, body).min(body_end);
    while i < body_end {
        let Some(n) = memmem::find(&text.as_bytes()[i..body_end], INVOKE.as_bytes()) else {
            break;
        };
        let start = i + n;
        let (next, item) =
            match memmem::find(&text.as_bytes()[start..body_end], INVOKE_CLOSE.as_bytes()) {
                Some(n) => {
                    let close = start + n;
                    let item = match invoke(cx, text, start + INVOKE.len(), close) {
                        Ok((name, arguments)) => Item::Call { name, arguments },
                        Err(kind) => Item::Error {
                            span: start..close + INVOKE_CLOSE.len(),
                            kind,
                        },
                    };
                    (close + INVOKE_CLOSE.len(), item)
                }
                None => {
                    let kind = match body_end == text.len() {
                        true => TextErrorKind::Truncated(Cut::InMarkup),
                        false => TextErrorKind::Syntax {
                            expected: "`</invoke>`",
                        },
                    };
                    let item = Item::Error {
                        span: start..body_end,
                        kind,
                    };
                    (body_end, item)
                }
            };
        items.push(item);
        i = next;
    }
    if items.is_empty() {
        let kind = match end == text.len() && body_end == end {
            true => TextErrorKind::Truncated(Cut::InMarkup),
            false => TextErrorKind::Empty,
        };
        items.push(Item::Error {
            span: pos..end,
            kind,
        });
    }
    region(pos, end, items)
}

/// One invoke: its name's attribute value starts at `at`, its elements end at `end`.
fn invoke(cx: &Cx, text: &str, at: usize, end: usize) -> Result<(String, String), TextErrorKind> {
    let syntax = |expected| TextErrorKind::Syntax { expected };
    let (attribute, after) =
        super::kv::attribute(text, at, end).ok_or(syntax("the tool name's end"))?;
    let name = text[attribute].trim();
    if name.is_empty() {
        return Err(TextErrorKind::MissingName);
    }
    let tag_end =
        super::kv::find(text, after..end, ">").ok_or(syntax("`>` after the tool name"))?;
    let schema = cx.tools.input_schema(name);
    let arguments = container(text, tag_end + 1, end, schema, false, 0)?;
    match arguments {
        Value::Object(_) => Ok((name.to_owned(), arguments.to_string())),
        _ => Err(TextErrorKind::ArgumentsNotObject),
    }
}

/// The elements between `start` and `end`, as an object (or, `array`, as an array of their
/// values), each value read with its part of `schema`.
fn container(
    text: &str,
    start: usize,
    end: usize,
    schema: Option<&Value>,
    array: bool,
    depth: usize,
) -> Result<Value, TextErrorKind> {
    if depth > DEPTH {
        return Err(TextErrorKind::TooDeep);
    }
    let mut object: Map<String, Value> = Map::new();
    let mut gathered: Vec<&str> = Vec::new();
    let mut items = Vec::new();
    let mut i = start;
    loop {
        i = skip_ws(text, i).min(end);
        if i == end {
            break;
        }
        let (key, value_start, value_end, next) = element(text, i, end)?;
        let part = match array {
            true => schema.and_then(|s| s.get("items")),
            false => schema.and_then(|s| {
                s.get("properties")
                    .and_then(|p| p.get(key))
                    .or_else(|| s.get("additionalProperties").filter(|a| a.is_object()))
            }),
        };
        let value = value(text, value_start, value_end, part, depth + 1)?;
        if array {
            items.push(value);
        } else {
            // A key written twice gathers its values in an array.
            match (object.get_mut(key), gathered.contains(&key)) {
                (Some(Value::Array(values)), true) => values.push(value),
                (Some(first), _) => {
                    *first = Value::Array(vec![first.take(), value]);
                    gathered.push(key);
                }
                (None, _) => {
                    object.insert(key.to_owned(), value);
                }
            }
        }
        i = next;
    }
    Ok(match array {
        true => Value::Array(items),
        false => Value::Object(object),
    })
}

/// The element at `at` (its namespace token first): its tag name, where its value starts and
/// ends, and where the element ends.
fn element(
    text: &str,
    at: usize,
    end: usize,
) -> Result<(&str, usize, usize, usize), TextErrorKind> {
    let syntax = |expected| TextErrorKind::Syntax { expected };
    let tag = at + NS.len() + 1;
    if !text[at..end].starts_with(NS) || text.as_bytes().get(at + NS.len()) != Some(&b'<') {
        return Err(syntax("an argument element"));
    }
    let close = super::kv::find(text, tag..end, ">").ok_or(syntax("`>` after a tag name"))?;
    let key = &text[tag..close];
    if key.is_empty() || key.starts_with('/') || key.contains(['<', ' ']) {
        return Err(syntax("an argument's tag name"));
    }
    let open = format!("{NS}<{key}>");
    let closer = format!("{NS}</{key}>");
    // The matching closer: nested elements of the same name open and close in between.
    let mut depth = 0usize;
    let mut i = close + 1;
    loop {
        let hay = &text.as_bytes()[i..end];
        let next_close = memmem::find(hay, closer.as_bytes()).map(|n| i + n);
        let next_open = memmem::find(hay, open.as_bytes()).map(|n| i + n);
        match (next_open, next_close) {
            (_, None) => return Err(syntax("an argument's closing tag")),
            (Some(o), Some(c)) if o < c => {
                depth += 1;
                i = o + open.len();
            }
            (_, Some(c)) if depth == 0 => return Ok((key, close + 1, c, c + closer.len())),
            (_, Some(c)) => {
                depth -= 1;
                i = c + closer.len();
            }
        }
    }
}

/// A value written between `start` and `end`, read as `schema` has it.
fn value(
    text: &str,
    start: usize,
    end: usize,
    schema: Option<&Value>,
    depth: usize,
) -> Result<Value, TextErrorKind> {
    let raw = &text[start..end];
    let nested =
        raw.trim_start().starts_with(NS) && !raw.trim_start()[NS.len()..].starts_with("</");
    if nested && schema_is(schema, "string").is_none() {
        // An array's elements are `<item>`s: that decides where the schema doesn't.
        let items = raw.trim_start()[NS.len()..].starts_with("<item>");
        let array = match (schema_is(schema, "array"), schema_is(schema, "object")) {
            (Some(_), None) => true,
            (None, Some(_)) => false,
            _ => items,
        };
        return container(
            text,
            start,
            end,
            schema.and_then(|s| schema_is(Some(s), if array { "array" } else { "object" })),
            array,
            depth,
        );
    }
    Ok(match schema {
        Some(schema) => coerce(raw, Some(&json!({ "properties": { "v": schema } })), "v"),
        None => coerce(raw, None, ""),
    })
}

/// The part of `schema` of type `kind`: itself, or one of its `anyOf`/`oneOf` alternatives.
fn schema_is<'a>(schema: Option<&'a Value>, kind: &str) -> Option<&'a Value> {
    let schema = schema?;
    let is = |s: &Value| match s.get("type") {
        Some(Value::String(t)) => t == kind,
        Some(Value::Array(types)) => types.iter().any(|t| t == kind),
        _ => false,
    };
    if is(schema) {
        return Some(schema);
    }
    ["anyOf", "oneOf"]
        .iter()
        .filter_map(|k| schema.get(*k).and_then(Value::as_array))
        .flatten()
        .find(|alternative| is(alternative))
}

#[cfg(test)]
mod tests {
    use crate::{parse, TextFormat};
    use serde_json::{json, Value};
    use std::collections::HashMap;

    fn ns(text: &str) -> String {
        text.replace('§', super::NS)
    }

    #[test]
    fn nested_values_follow_the_schema() {
        let text = ns("I will create it.\n§<tool_call>\n§<invoke name=\"order\">§<id>42§</id>§<note>§<b>hi§</b>§</note>§<ship>§<zip>018956§</zip>§</ship>§<items>§<item>§<sku>a§</sku>§</item>§<item>§<sku>b§</sku>§</item>§</items>§<tags>§<tag>x§</tag>§<tag>y§</tag>§</tags>§</invoke>\n§</tool_call>");
        let tools = HashMap::from([(
            "order".to_owned(),
            json!({"type": "object", "properties": {
                "id": {"type": "integer"},
                "note": {"type": "string"},
                "ship": {"type": "object", "properties": {"zip": {"type": "integer"}}},
                "items": {"type": "array", "items": {"type": "object"}},
                "tags": {"type": "object"},
            }}),
        )]);
        for format in [TextFormat::MinimaxM3, TextFormat::Auto] {
            let parsed = parse(&text, format, &tools);
            assert_eq!(parsed.calls.len(), 1, "{format:?}: {parsed:?}");
            let arguments: Value = serde_json::from_str(&parsed.calls[0].arguments).unwrap();
            assert_eq!(
                arguments,
                json!({"id": 42, "note": ns("§<b>hi§</b>"), "ship": {"zip": 18956},
                    "items": [{"sku": "a"}, {"sku": "b"}], "tags": {"tag": ["x", "y"]}})
            );
            assert_eq!(parsed.text, "I will create it.\n");
            assert_eq!(parsed.format, Some(TextFormat::MinimaxM3));
        }
    }

    #[test]
    fn a_broken_invoke_is_one_error_and_a_cut_one_too() {
        let text = ns("§<tool_call>§<invoke name=\"a\">§<x>1§</x>§</invoke>§<invoke name=\"b\">§<x>1§</invoke>§<invoke name=\"c\">§</invoke>§</tool_call> then §<tool_call>§<invoke name=\"d\">§<x>1");
        let parsed = parse(&text, TextFormat::MinimaxM3, &());
        let names: Vec<&str> = parsed.calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a", "c"]);
        assert_eq!(parsed.errors.len(), 2, "{parsed:?}");
        assert_eq!(parsed.text, " then ");
    }
}
