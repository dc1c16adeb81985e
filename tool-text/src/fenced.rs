//! Backticks: fenced blocks holding calls (```` ```json ```` around `{"name": .., "arguments":
//! {..}}`, an array of them, or an envelope), and code, which is prose.
//!
//! Models show JSON in code blocks for many reasons, so a block is a call only when its content
//! starts like one and, when the tool list is known, names a known tool. Any other code, in a
//! block or in `inline` backticks, is prose in every format: a `<tool_call>` quoted in code is
//! not a call. A block whose content starts with a call marker is the exception: it is read
//! through, since models sometimes wrap their calls in one.

use super::cursor::{prefix, region, skip_ws, Cx, Fence, Item, Need, Prefix, Step};
use super::envelope;
use super::format::TextFormat;
use super::hermes_variants;
use super::object::{self, first_key, read_array_of, read_object};
use memchr::memmem;

pub(crate) const FENCE: &str = "```";
/// The languages a call block may be marked with.
const LANGUAGES: [&str; 4] = ["", "json", "tool_call", "tool_calls"];
/// Markers that make a code block one to read through.
const MARKERS: [&str; 5] = [
    "<tool_call>",
    "<function=",
    "[TOOL_CALLS]",
    "<|python_tag|>",
    "<|python_start|>",
];

/// A backtick at `pos`.
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    let bytes = text.as_bytes();
    let run = bytes[pos..].iter().take_while(|&&b| b == b'`').count();
    if pos + run == bytes.len() && !cx.eof {
        return Step::More(Need::Any);
    }
    if run < FENCE.len() {
        return inline(cx, text, pos, run);
    }
    if cx.in_fence {
        // The end of a block read through.
        return Step::Fence {
            len: run,
            fence: Fence::None,
        };
    }
    let info = pos + run;
    let line = match memchr::memchr(b'\n', &bytes[info..]) {
        Some(n) => info + n,
        None if !cx.eof => return Step::More(Need::Byte(b'\n', b'\n')),
        None => return Step::Prose(bytes.len() - pos),
    };
    let language = text[info..line].trim();
    // `JSON`, `Json`: the tag's case is the model's whim.
    // llama.cpp's old Hermes 2 Pro parser read ```xml blocks too.
    let variants = cx.format == TextFormat::HermesVariants;
    let call_language = LANGUAGES.iter().any(|l| l.eq_ignore_ascii_case(language))
        || (variants && language.eq_ignore_ascii_case("xml"));
    // xLAM's lists and the Hermes variants come fenced too.
    let reads_blocks =
        cx.format.includes(TextFormat::Fenced) || cx.format == TextFormat::Xlam || variants;
    if run == FENCE.len() && call_language && reads_blocks {
        match call_block(cx, text, pos, line + 1) {
            Step::Prose(_) => {}
            decided => return decided,
        }
    }
    let content = skip_ws(text, line + 1);
    let mut fence = Fence::Code;
    let variant_tags = hermes_variants::TAGS.iter().map(|(open, _)| *open);
    let extra = variant_tags.filter(|_| variants);
    for marker in MARKERS.into_iter().chain(extra) {
        match prefix(text, content, marker, cx.eof) {
            Prefix::Yes => fence = Fence::Open,
            Prefix::Partial => return Step::More(Need::Any),
            Prefix::No => {}
        }
    }
    if content == bytes.len() && !cx.eof {
        return Step::More(Need::Any);
    }
    Step::Fence {
        len: line + 1 - pos,
        fence,
    }
}

/// Inline code: `run` backticks at `pos`, up to the same run on the same line.
fn inline(cx: &Cx, text: &str, pos: usize, run: usize) -> Step {
    let bytes = text.as_bytes();
    let mut i = pos + run;
    loop {
        let Some(n) = memchr::memchr2(b'`', b'\n', &bytes[i..]) else {
            return cx.more(Need::Byte(b'`', b'\n'));
        };
        let at = i + n;
        if bytes[at] == b'\n' {
            return Step::Prose(run);
        }
        let close = bytes[at..].iter().take_while(|&&b| b == b'`').count();
        if at + close == bytes.len() && !cx.eof {
            return Step::More(Need::Any);
        }
        if close == run {
            return Step::Prose(at + close - pos);
        }
        i = at + close;
    }
}

/// A block opened at `pos` whose content starts at `start`, read as calls if it holds them.
fn call_block(cx: &Cx, text: &str, pos: usize, start: usize) -> Step {
    let bytes = text.as_bytes();
    let content = skip_ws(text, start);
    let read = match starts_like_a_call(text, content, cx.eof) {
        Err(need) => return cx.more(need),
        Ok(None) => return Step::Prose(1),
        Ok(Some(Start::Envelope)) => envelope::read(cx, text, content).map(calls),
        Ok(Some(Start::Array)) => read_array_of(cx, text, content),
        Ok(Some(Start::Object)) => objects(cx, text, content),
    };
    let (json_end, (items, definitions)) = match read {
        Ok((end, items)) => (end, items),
        Err(need) => return cx.more(need),
    };
    let names_known = items.iter().any(|item| match item {
        Item::Call { name, .. } => cx.accepts(name),
        _ => true,
    });
    if !names_known || definitions {
        return Step::Prose(1);
    }
    let after = skip_ws(text, json_end);
    let end = match prefix(text, after, FENCE, cx.eof) {
        Prefix::Yes => after + FENCE.len(),
        Prefix::Partial => return Step::More(Need::Any),
        // Something else before the closing fence is left out with the block.
        Prefix::No => match memmem::find(&bytes[after..], FENCE.as_bytes()) {
            Some(n) => after + n + FENCE.len(),
            None if !cx.eof => return Step::More(Need::Byte(b'`', b'`')),
            None => text.len(),
        },
    };
    region(pos, end, items)
}

/// Items read from a block that holds no definitions.
fn calls((end, items): (usize, Vec<Item>)) -> (usize, (Vec<Item>, bool)) {
    (end, (items, false))
}

/// What a block's content starts with.
enum Start {
    Object,
    Array,
    Envelope,
}

/// Whether the content at `at` starts like a call: an object that does
/// ([`object::starts_like_a_call`]: a call missing its name is an error, not prose), an
/// array of those, or an envelope.
fn starts_like_a_call(text: &str, at: usize, eof: bool) -> Result<Option<Start>, Need> {
    let bytes = text.as_bytes();
    let object = |at: usize| object::starts_like_a_call(text, at, eof);
    match bytes.get(at) {
        None if !eof => Err(Need::Any),
        Some(b'{') => Ok(match first_key(text, at, eof)? {
            Some("tool_call" | "tool_calls") => Some(Start::Envelope),
            _ if object(at)? => Some(Start::Object),
            _ => None,
        }),
        Some(b'[') => {
            let first = skip_ws(text, at + 1);
            match bytes.get(first) {
                None if !eof => Err(Need::Any),
                Some(b'{') if object(first)? => Ok(Some(Start::Array)),
                _ => Ok(None),
            }
        }
        _ => Ok(None),
    }
}

/// One or more call objects in a row from `at`, and whether they are all tool definitions
/// (which a model shows, not calls).
fn objects(cx: &Cx, text: &str, mut at: usize) -> Result<(usize, (Vec<Item>, bool)), Need> {
    let mut items = Vec::new();
    let mut definitions = true;
    loop {
        let (end, found) = read_object(cx, text, at)?;
        items.push(match found {
            Ok(found) => {
                definitions &= found.definition;
                found.into()
            }
            Err(kind) => {
                definitions = false;
                Item::Error {
                    span: at..end,
                    kind,
                }
            }
        });
        let next = skip_ws(text, end);
        match starts_like_a_call(text, next, cx.eof) {
            Ok(Some(Start::Object)) => at = next,
            Err(need) => return Err(need),
            _ => return Ok((end, (items, definitions))),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{parse, TextFormat};
    use serde_json::json;
    use std::collections::HashMap;

    #[test]
    fn a_json_block_with_a_call_is_a_call() {
        let text = "I'll use the tool:\n```json\n{\n  \"name\": \"get_weather\",\n  \"arguments\": {\"city\": \"Paris\"}\n}\n```\nOne moment.";
        let parsed = parse(text, TextFormat::Fenced, &());
        assert_eq!(parsed.calls[0].name, "get_weather");
        assert_eq!(parsed.text, "I'll use the tool:\nOne moment.");
        let text = "```\n[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {}}]\n```";
        assert_eq!(parse(text, TextFormat::Auto, &()).calls.len(), 2);
    }

    #[test]
    fn other_blocks_stay_prose() {
        let tools = HashMap::from([("get_weather".to_owned(), json!({}))]);
        for text in [
            "```json\n{\"city\": \"Paris\"}\n```",
            "```python\nprint({\"name\": 1})\n```",
            "```json\n{\"name\": \"Bob\", \"arguments\": {}}\n```",
            "Use `code` and ``more``.",
        ] {
            let parsed = parse(text, TextFormat::Auto, &tools);
            assert_eq!(
                (parsed.text.as_str(), parsed.calls.len()),
                (text, 0),
                "{text}"
            );
        }
    }

    #[test]
    fn markers_quoted_in_code_are_not_calls() {
        for format in TextFormat::ALL.into_iter().chain([TextFormat::Auto]) {
            for text in [
                "Write `<tool_call>` then JSON.",
                "```python\nparser.feed('<tool_call>{\"name\": \"f\"')\nprint('[TOOL_CALLS]x{')\n```\nDone.",
                "```\nsee <tool_call>\n```",
            ] {
                let parsed = parse(text, format, &());
                assert_eq!(parsed.text, text, "{format:?}");
                assert!(parsed.calls.is_empty() && parsed.errors.is_empty(), "{format:?}: {parsed:?}");
            }
        }
    }

    #[test]
    fn a_call_wrapped_in_a_block_is_read() {
        let text = "```xml\n<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>\n```\nAfter ```python\nx = '<tool_call>'\n```";
        let parsed = parse(text, TextFormat::Hermes, &());
        assert_eq!(parsed.calls.len(), 1, "{parsed:?}");
        assert_eq!(
            parsed.text,
            "```xml\n```\nAfter ```python\nx = '<tool_call>'\n```"
        );
    }

    #[test]
    fn an_unclosed_block_at_the_end_still_counts() {
        let parsed = parse(
            "```json\n{\"name\": \"f\", \"arguments\": {\"a\": 1}}",
            TextFormat::Fenced,
            &(),
        );
        assert_eq!(parsed.calls[0].arguments, r#"{"a": 1}"#);
        assert!(parsed.errors.is_empty());
    }
}
