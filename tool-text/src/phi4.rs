//! Phi-4-mini and Firefunction v2: `functools[{"name": "f", "arguments": {..}}, ..]`, a JSON
//! list of calls after the word `functools`, with no closing marker (vLLM `phi4_mini_json`,
//! llama.cpp's Firefunction v2).
//!
//! The marker starts with a letter, too common to stop the scan at: it is found whole, with
//! the one search over every trigger (`triggers.rs`, `TextFormat::automaton`), so prose costs what it did. vLLM reads the list with a regex
//! that ends at its first `]` and `json.loads`; here the list is read as JSON, element by
//! element, so a `]` in a string is not its end and one bad element costs one error. A
//! marker not followed by an object (`functools[int]`, a type hint) is prose; under
//! [`TextFormat::Auto`] the object must also start like a call (its first key is `name`,
//! say), so a sentence about Python's `functools` stays prose.

use super::cursor::{prefix, region, skip_ws, Cx, Item, Need, Prefix, Reader, Step};
use super::error::TextErrorKind;
use super::format::TextFormat;
use super::object::{read_array, starts_like_a_call};

/// `functools[`, found as a word.
pub(crate) const READER: Reader = Reader::new(b'f', 10, at, Some(TextFormat::Phi4Mini));

/// The marker, and the list's `[` after it.
pub(crate) const MARKER: &str = "functools[";

/// `functools[` at `pos`.
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    match prefix(text, pos, MARKER, cx.eof) {
        Prefix::No => return Step::Prose(1),
        Prefix::Partial => return cx.more(Need::Any),
        Prefix::Yes => {}
    }
    let list = pos + MARKER.len() - 1;
    let first = skip_ws(text, list + 1);
    let starts = match text.as_bytes().get(first) {
        None => return cx.more(Need::Any),
        // Chosen, the marker and an object are a call (a bad one is an error); under Auto
        // the object must start like one.
        Some(b'{') if cx.format == TextFormat::Auto => starts_like_a_call(text, first, cx.eof),
        Some(b'{' | b']') => Ok(true),
        // `functools[int]`: a type hint in prose.
        Some(_) => Ok(false),
    };
    match starts {
        Err(need) => return cx.more(need),
        Ok(false) => return Step::Prose(1),
        Ok(true) => {}
    }
    match read_array(cx, text, list) {
        Ok((end, items)) if items.is_empty() => region(
            pos,
            end,
            vec![Item::Error {
                span: pos..end,
                kind: TextErrorKind::Empty,
            }],
        ),
        Ok((end, items)) => region(pos, end, items),
        Err(need) => cx.more(need),
    }
}

#[cfg(test)]
mod tests {
    use crate::{parse, TextErrorKind, TextFormat, TextStream};

    #[test]
    fn the_list_after_the_marker_is_read_and_the_prose_kept() {
        // vLLM `test_surrounding_text`, and its `]` inside a string.
        let text = "Let me check.\nfunctools[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"a]b\"}}, {\"name\": \"get_time\", \"arguments\": {}}]\nWould you like more?";
        for format in [TextFormat::Phi4Mini, TextFormat::Auto] {
            let parsed = parse(text, format, &());
            let calls: Vec<String> = parsed
                .calls
                .iter()
                .map(|c| format!("{}{}", c.name, c.arguments))
                .collect();
            assert_eq!(
                calls,
                ["get_weather{\"city\": \"a]b\"}", "get_time{}"],
                "{format:?}"
            );
            assert_eq!(parsed.text, "Let me check.\nWould you like more?");
            assert_eq!(parsed.format, Some(TextFormat::Phi4Mini));
        }
    }

    #[test]
    fn the_word_split_across_pieces_is_found() {
        let text = "ok functools[{\"name\": \"f\", \"arguments\": {}}] done";
        for cut in 1..text.len() {
            let mut stream = TextStream::new(TextFormat::Auto, &());
            let mut events = stream.push(&text[..cut]);
            events.extend(stream.push(&text[cut..]));
            events.extend(stream.finish());
            let parsed: crate::TextParse = events.into_iter().collect();
            assert_eq!(parsed.calls.len(), 1, "cut at {cut}");
            assert_eq!(parsed.text, "ok  done", "cut at {cut}");
        }
    }

    #[test]
    fn prose_about_functools_stays_prose_under_auto() {
        for text in [
            "Use functools[int] as a type hint? No: functools.partial.",
            "functools[{\"a\": 1}]",
            "functool",
        ] {
            let parsed = parse(text, TextFormat::Auto, &());
            assert_eq!(parsed.text, text);
            assert!(parsed.calls.is_empty() && parsed.errors.is_empty());
        }
        // Chosen, the marker is a call: what follows it that isn't one is an error.
        let parsed = parse("functools[] then", TextFormat::Phi4Mini, &());
        assert_eq!(parsed.errors[0].kind, TextErrorKind::Empty);
        assert_eq!(parsed.text, " then");
    }
}
