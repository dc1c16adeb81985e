//! xLAM's bare JSON list: `[{"name": "f", "arguments": {..}}, ..]`, with no marker of its own
//! (vLLM `xlam`). vLLM's parser also takes the list in a ```` ```json ```` fence, after
//! `[TOOL_CALLS]` or inside `<tool_call>` tags; under [`TextFormat::Xlam`] those are read by
//! the fenced, Mistral and Hermes readers, which report their own format.
//!
//! A list has no marker, so it counts only when its first element starts like a call (its
//! first key is `name` or `function`, or it starts `"type": "function"`). Chosen explicitly,
//! the format reads such a list anywhere in the text (vLLM reads it when the whole reply, or
//! what follows `</think>`, is one). Under [`TextFormat::Auto`] a list is read only at the
//! start of the message, only when every element read is a call (no error), none is a tool's
//! definition, and, when the tool list is known, each names a known tool: the rule a bare JSON
//! object follows there, so a JSON list quoted in prose is never a call.

use super::cursor::{region, skip_ws, Cx, Item, Need, Reader, Step};
use super::format::TextFormat;
use super::object::{read_array, read_call, starts_like_a_call};

/// A bare list: anywhere when chosen, only at the start under Auto.
pub(crate) const READER: Reader = Reader::new(b'[', 20, at, Some(TextFormat::Xlam));

/// A `[` at `pos`: a bare list of calls, or prose.
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    let explicit = cx.format == TextFormat::Xlam;
    let at_start = cx.format == TextFormat::Auto && cx.at_start;
    if !explicit && !at_start {
        return Step::Prose(1);
    }
    let first = skip_ws(text, pos + 1);
    match text.as_bytes().get(first) {
        None => return cx.more(Need::Any),
        Some(b'{') => {}
        Some(_) => return Step::Prose(1),
    }
    match starts_like_a_call(text, first, cx.eof) {
        Err(need) => return cx.more(need),
        Ok(false) => return Step::Prose(1),
        Ok(true) => {}
    }
    let (end, items) = match read_array(cx, text, pos) {
        Ok(read) => read,
        Err(need) => return cx.more(need),
    };
    if !explicit && !all_calls(cx, text, pos, end, &items) {
        return Step::Prose(1);
    }
    region(pos, end, items)
}

/// Under `Auto`: whether the list at `pos..end` starts with a call and calls only known tools,
/// none of them a tool's definition echoed from the prompt (an element that can't be read
/// after the first call is its own error, as anywhere).
fn all_calls(cx: &Cx, text: &str, pos: usize, end: usize, items: &[Item]) -> bool {
    let known = |item: &Item| match item {
        Item::Call { name, .. } => cx.accepts(name),
        _ => true,
    };
    if !matches!(items.first(), Some(Item::Call { .. })) || !items.iter().all(known) {
        return false;
    }
    // A definition (`description` beside a schema as `parameters`) reads as a call too: look
    // at each element again.
    let Ok(values) = serde_json::from_str::<Vec<&serde_json::value::RawValue>>(&text[pos..end])
    else {
        return true;
    };
    !values
        .iter()
        .any(|value| read_call(value.get()).is_ok_and(|found| found.definition))
}

#[cfg(test)]
mod tests {
    use crate::{parse, TextFormat};
    use serde_json::json;
    use std::collections::HashMap;

    use crate::test_support::names;

    #[test]
    fn a_bare_list_is_read_at_the_start_and_anywhere_when_chosen() {
        let text =
            "[{\"name\": \"a\", \"arguments\": {\"x\": 1}}, {\"name\": \"b\", \"arguments\": {}}]";
        for format in [TextFormat::Xlam, TextFormat::Auto] {
            let (calls, prose, errors) = names(text, format);
            assert_eq!(calls, ["a{\"x\": 1}", "b{}"], "{format:?}");
            assert_eq!((prose.as_str(), errors), ("", 0), "{format:?}");
        }
        assert_eq!(
            parse(text, TextFormat::Auto, &()).format,
            Some(TextFormat::Xlam)
        );
        // After reasoning (vLLM's `</think>` case) or prose: only when chosen.
        let text = "<think>Weather.</think>[{\"name\": \"a\", \"arguments\": {}}]";
        assert_eq!(names(text, TextFormat::Xlam).0, ["a{}"]);
        let (calls, prose, _) = names(text, TextFormat::Auto);
        assert!(calls.is_empty());
        assert_eq!(prose, text);
    }

    #[test]
    fn the_other_places_vllm_reads_a_list_are_read_too() {
        for text in [
            "I'll check.\n```json\n[{\"name\": \"a\", \"arguments\": {}}]\n```",
            "I'll check.[TOOL_CALLS][{\"name\": \"a\", \"arguments\": {}}]",
            "I'll check.<tool_call>[{\"name\": \"a\", \"arguments\": {}}]</tool_call>",
        ] {
            let (calls, prose, errors) = names(text, TextFormat::Xlam);
            assert_eq!(calls, ["a{}"], "{text}");
            assert_eq!((prose.trim_end(), errors), ("I'll check.", 0), "{text}");
        }
    }

    #[test]
    fn auto_leaves_json_lists_in_prose_alone() {
        let tools = HashMap::from([("get_weather".to_owned(), json!({}))]);
        for text in [
            "[{\"name\": \"Bob\", \"arguments\": {}}]",
            "[{oops}, {\"name\": \"get_weather\", \"arguments\": {}}]",
            "[{\"name\": \"get_weather\", \"description\": \"d\", \"parameters\": {\"type\": \"object\", \"properties\": {}}}]",
            "The list: [{\"name\": \"get_weather\", \"arguments\": {}}]",
            "[{\"id\": 1}, {\"id\": 2}]",
        ] {
            let parsed = parse(text, TextFormat::Auto, &tools);
            assert_eq!(parsed.text, text);
            assert!(parsed.calls.is_empty() && parsed.errors.is_empty(), "{parsed:?}");
        }
    }

    #[test]
    fn one_bad_call_costs_one_error_when_chosen() {
        let text = "[{\"name\": \"a\", \"arguments\": {}}, {oops}, {\"name\": \"b\", \"arguments\": {}}] and then";
        let (calls, prose, errors) = names(text, TextFormat::Xlam);
        assert_eq!(calls, ["a{}", "b{}"]);
        assert_eq!((prose.as_str(), errors), (" and then", 1));
        // Prose lists that aren't calls stay prose even when chosen.
        let text = "Pick [1, 2] or [{\"id\": 1}].";
        assert_eq!(names(text, TextFormat::Xlam), (vec![], text.to_owned(), 0));
    }
}
