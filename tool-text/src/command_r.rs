//! Cohere Command R+: `Action:` and a fenced JSON list of calls,
//!
//! ````text
//! Action:
//! ```json
//! [{"tool_name": "f", "parameters": {"city": "Paris"}}]
//! ```
//! ````
//!
//! as its tool-use template asks (llama.cpp's `c4ai-command-r-plus-tool_use` template and its
//! test in `test-chat.cpp`). The list is Command's (`keyed.rs` reads its objects: `tool_name`,
//! `parameters`), one object at a time, so one bad call costs one error. `Action:` with no
//! fenced list after it is prose; under [`TextFormat::Auto`] the list's first object must also
//! start with `"tool_name"`. The marker starts with a letter: the scan finds it whole.
//! llama.cpp also drops the turn tokens around a plain answer (`<|CHATBOT_TOKEN|>`,
//! `<|END_OF_TURN_TOKEN|>`); here they stay, for the server to strip.

use super::arguments;
use super::cursor::{prefix, region, skip_ws, Cx, Need, Prefix, Reader, Step};
use super::fenced::FENCE;
use super::format::TextFormat;
use super::keyed;
use super::object::first_key;

/// Command R+'s `Action:`, found as a word.
pub(crate) const READER: Reader = Reader::new(b'A', 10, at, Some(TextFormat::CommandRPlus));

/// What opens the calls.
pub(crate) const MARKER: &str = "Action:";

/// `Action:` at `pos`.
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    match prefix(text, pos, MARKER, cx.eof) {
        Prefix::No => return Step::Prose(1),
        Prefix::Partial => return cx.more(Need::Any),
        Prefix::Yes => {}
    }
    let bytes = text.as_bytes();
    let fence = skip_ws(text, pos + MARKER.len());
    match prefix(text, fence, FENCE, cx.eof) {
        Prefix::Yes => {}
        Prefix::Partial => return Step::More(Need::Any),
        Prefix::No if fence == text.len() => return cx.more(Need::Any),
        Prefix::No => return Step::Prose(1),
    }
    let info = fence + FENCE.len();
    let line = match memchr::memchr(b'\n', &bytes[info..]) {
        Some(n) => info + n,
        None => return cx.more(Need::Byte(b'\n', b'\n')),
    };
    let language = text[info..line].trim();
    if !(language.is_empty() || language.eq_ignore_ascii_case("json")) {
        return Step::Prose(1);
    }
    let list = skip_ws(text, line + 1);
    match bytes.get(list) {
        None => return cx.more(Need::Any),
        Some(b'[') => {}
        Some(_) => return Step::Prose(1),
    }
    if cx.format == TextFormat::Auto {
        let first = skip_ws(text, list + 1);
        let key = match bytes.get(first) {
            None => return cx.more(Need::Any),
            Some(b'{') => first_key(text, first, cx.eof),
            Some(_) => Ok(None),
        };
        match key {
            Err(need) => return cx.more(need),
            Ok(Some("tool_name")) => {}
            Ok(_) => return Step::Prose(1),
        }
    }
    let (json_end, items) = match keyed::list(cx, text, list, keyed::cohere) {
        Ok(read) => read,
        Err(need) => return cx.more(need),
    };
    match arguments::closed_by(cx, text, json_end, &[FENCE]) {
        Ok(end) => region(pos, end, items),
        Err(need) => Step::More(need),
    }
}

#[cfg(test)]
mod tests {
    use crate::{parse, TextFormat};

    #[test]
    fn an_action_block_is_read_and_prose_around_it_kept() {
        let text = "I'll check.\nAction:\n```json\n[\n    {\"tool_name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}},\n    {\"tool_name\": \"get_time\", \"parameters\": {}}\n]\n```\nDone.";
        for format in [TextFormat::CommandRPlus, TextFormat::Auto] {
            let parsed = parse(text, format, &());
            let names: Vec<&str> = parsed.calls.iter().map(|c| c.name.as_str()).collect();
            assert_eq!(names, ["get_weather", "get_time"], "{format:?}");
            assert_eq!(parsed.calls[0].arguments, r#"{"city": "Paris"}"#);
            assert_eq!(parsed.text, "I'll check.\nDone.");
            assert_eq!(parsed.format, Some(TextFormat::CommandRPlus));
        }
    }

    #[test]
    fn other_actions_are_prose() {
        for text in [
            "Action: none needed.",
            "Action:\n```python\nprint(1)\n```",
            "Action:\n```json\n[1, {\"tool_name\": \"f\"}]\n```",
        ] {
            let parsed = parse(text, TextFormat::Auto, &());
            assert!(
                parsed.calls.is_empty() && parsed.errors.is_empty(),
                "{text}"
            );
        }
    }
}
