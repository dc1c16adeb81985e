//! GigaChat 3, 3.1 and 3.5: a call is a message of its own, `<|message_sep|>\n\nfunction
//! call<|role_sep|>\n{"name": "f", "arguments": {..}}` (GigaChat 3 and 3.5), or
//! `<|function_call|>{"name": "f", "arguments": {..}}` (GigaChat 3.1); vLLM `gigachat3`,
//! SGLang, llama.cpp (a dedicated parser, `common_chat_params_init_gigachat_v3`, whose body is
//! not in the vendored snapshot: only its tests and templates were read).
//!
//! vLLM reads one call, the JSON after the first marker, and ends the content there. Here
//! each marker opens a call, so a model that writes two is read twice over, once per call,
//! and the prose after a call is kept. Whitespace around `function call` is not significant.
//! `</s>`, the end of the turn, right after a call goes with it (vLLM strips it before
//! parsing). A marker followed by anything but a JSON object is an error for the marker
//! alone, and what follows is prose.

use super::cursor::{prefix, skip_ws, Cx, Need, Prefix, Reader, Step};
use super::format::TextFormat;
use super::object::object_then;

/// GigaChat's function-call messages.
pub(crate) const READER: Reader = Reader::new(b'<', 150, at, Some(TextFormat::GigaChat));

/// GigaChat 3's call message header, in its parts.
const MESSAGE_SEP: &str = "<|message_sep|>";
const FUNCTION_CALL: &str = "function call";
const ROLE_SEP: &str = "<|role_sep|>";
/// GigaChat 3.1's call token.
const FUNCTION_CALL_TOKEN: &str = "<|function_call|>";
/// The end of the turn.
const EOS: &str = "</s>";

/// A call opening at `pos` (a `<`).
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    let body = match header(cx, text, pos) {
        Ok(Some(body)) => body,
        Ok(None) => return Step::Prose(1),
        Err(need) => return cx.more(need),
    };
    object_then(cx, text, pos, body, EOS)
}

/// Where the call's JSON may start, when a call header opens at `pos`; `None` when none does.
fn header(cx: &Cx, text: &str, pos: usize) -> Result<Option<usize>, Need> {
    match prefix(text, pos, FUNCTION_CALL_TOKEN, cx.eof) {
        Prefix::Yes => return Ok(Some(pos + FUNCTION_CALL_TOKEN.len())),
        Prefix::Partial => return Err(Need::Any),
        Prefix::No => {}
    }
    let mut at = match prefix(text, pos, MESSAGE_SEP, cx.eof) {
        Prefix::Yes => pos + MESSAGE_SEP.len(),
        Prefix::Partial => return Err(Need::Any),
        Prefix::No => return Ok(None),
    };
    for part in [FUNCTION_CALL, ROLE_SEP] {
        at = skip_ws(text, at);
        // Blank lines may be long; a header can't be decided before its next part arrives.
        if at == text.len() && !cx.eof {
            return Err(Need::Any);
        }
        match prefix(text, at, part, cx.eof) {
            Prefix::Yes => at += part.len(),
            Prefix::Partial => return Err(Need::Any),
            Prefix::No => return Ok(None),
        }
    }
    Ok(Some(at))
}

#[cfg(test)]
mod tests {
    use crate::{parse, TextFormat};

    #[test]
    fn both_headers_are_read_with_the_prose_and_the_end_of_turn() {
        for text in [
            "I'll check.<|message_sep|>\n\nfunction call<|role_sep|>\n{\"name\": \"f\", \"arguments\": {\"a\": 1}}</s>",
            "I'll check.<|function_call|>{\"name\": \"f\", \"arguments\": {\"a\": 1}} </s>",
        ] {
            for format in [TextFormat::GigaChat, TextFormat::Auto] {
                let parsed = parse(text, format, &());
                assert_eq!(parsed.calls.len(), 1, "{format:?}: {text}");
                assert_eq!(parsed.calls[0].arguments, r#"{"a": 1}"#);
                assert_eq!(parsed.text, "I'll check.", "{format:?}: {text}");
                assert_eq!(parsed.format, Some(TextFormat::GigaChat));
            }
        }
    }

    #[test]
    fn a_message_that_is_no_call_stays_prose_and_a_bad_call_is_one_error() {
        let text = "<|message_sep|>\n\nassistant<|role_sep|>\nHi.";
        let parsed = parse(text, TextFormat::GigaChat, &());
        assert_eq!((parsed.text.as_str(), parsed.calls.len()), (text, 0));
        let text = "<|function_call|>get_weather(city=Paris)\n<|function_call|>{\"name\": \"f\", \"arguments\": {}}";
        let parsed = parse(text, TextFormat::GigaChat, &());
        assert_eq!(parsed.calls.len(), 1);
        assert_eq!(parsed.errors.len(), 1);
        assert_eq!(parsed.errors[0].raw, "<|function_call|>");
        assert_eq!(parsed.text, "get_weather(city=Paris)\n");
    }
}
