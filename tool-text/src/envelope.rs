//! llama.cpp's generic format: `{"tool_call": {"name": .., "arguments": {..}}}` or
//! `{"tool_calls": [{..}, ..]}`, and `{"response": ".."}` for a plain answer.

use super::cursor::{region, skip_ws, Cx, Item, Need, Reader, Step};
use super::error::TextErrorKind;
use super::format::TextFormat;
use super::json::{self, Extent};
use super::object::{first_key, read_array, read_object};

/// llama.cpp's `{"tool_calls": ..}` envelope.
pub(crate) const READER: Reader = Reader::new(b'{', 10, at, Some(TextFormat::Envelope));

/// A `{` at `pos`.
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    match first_key(text, pos, cx.eof) {
        Err(need) => cx.more(need),
        Ok(Some("tool_call" | "tool_calls")) => match read(cx, text, pos) {
            Ok((end, items)) => region(pos, end, items),
            Err(need) => cx.more(need),
        },
        Ok(Some("response")) if cx.format == TextFormat::Envelope && cx.at_start => {
            response(cx, text, pos)
        }
        Ok(_) => Step::Prose(1),
    }
}

/// The envelope at `pos` (a `{` whose first key is `tool_call` or `tool_calls`): where it ends
/// and its calls.
pub(crate) fn read(cx: &Cx, text: &str, pos: usize) -> Result<(usize, Vec<Item>), Need> {
    let (end, bounded) = match json::extent_or_wait(cx.eof, text, pos)? {
        Extent::Closed(end) => (end, true),
        Extent::Open(_) | Extent::TooDeep => (text.len(), false),
    };
    // Inside it, the envelope is all there is; closed, it bounds the calls in it.
    let inner = &text[..end];
    let cx = Cx {
        eof: true,
        bounded,
        ..*cx
    };
    let bytes = inner.as_bytes();
    let value = memchr::memchr(b':', &bytes[pos..]).map(|n| skip_ws(inner, pos + n + 1));
    let items = match value.and_then(|v| bytes.get(v).map(|b| (v, b))) {
        Some((v, b'[')) => read_array(&cx, inner, v)?.1,
        Some((v, b'{')) => {
            let (object_end, found) = read_object(&cx, inner, v)?;
            vec![match found {
                Ok(found) => found.into(),
                Err(kind) => Item::Error {
                    span: v..object_end,
                    kind,
                },
            }]
        }
        _ => vec![Item::Error {
            span: pos..end,
            kind: TextErrorKind::Syntax {
                expected: "a call object or an array of them",
            },
        }],
    };
    Ok((end, items))
}

/// `{"response": ".."}` as the whole message: the answer, as text.
fn response(cx: &Cx, text: &str, pos: usize) -> Step {
    let end = match json::extent(text, pos) {
        Extent::Closed(end) => end,
        Extent::Open(_) => return cx.more(Need::Byte(b'}', b'}')),
        Extent::TooDeep => return Step::Prose(1),
    };
    if skip_ws(text, end) < text.len() {
        return Step::Prose(1);
    }
    if !cx.eof {
        return Step::More(Need::Eof);
    }
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Response {
        response: String,
    }
    match json::to_valid(&text[pos..end])
        .ok()
        .and_then(|valid| serde_json::from_str::<Response>(&valid).ok())
    {
        Some(Response { response }) => region(pos, text.len(), vec![Item::Text(response)]),
        None => Step::Prose(1),
    }
}

#[cfg(test)]
mod tests {
    use crate::{parse, TextFormat};

    #[test]
    fn both_envelopes_are_read() {
        let text = r#"{"tool_call": {"name": "get_weather", "arguments": {"city": "Paris"}}}"#;
        let parsed = parse(text, TextFormat::Envelope, &());
        assert_eq!(parsed.calls[0].name, "get_weather");
        let text = r#"Calling. {"tool_calls": [{"name": "a", "arguments": {"x": 1}, "id": "123456789"}, {"name": "b", "arguments": "{}"}]}"#;
        let parsed = parse(text, TextFormat::Auto, &());
        assert_eq!(parsed.calls.len(), 2);
        assert_eq!(parsed.calls[1].arguments, "{}");
        assert_eq!(parsed.text, "Calling. ");
    }

    #[test]
    fn a_response_is_the_text() {
        let parsed = parse(
            "{\"response\": \"Hello!\\nHow can I help?\"}\n",
            TextFormat::Envelope,
            &(),
        );
        assert_eq!(parsed.text, "Hello!\nHow can I help?");
        assert!(parsed.calls.is_empty());
        // Only as the whole message, and only when the format was asked for.
        let text = "{\"response\": \"Hello!\"} and more";
        assert_eq!(parse(text, TextFormat::Envelope, &()).text, text);
        let text = "{\"response\": \"Hello!\"}";
        assert_eq!(parse(text, TextFormat::Auto, &()).text, text);
    }
}
