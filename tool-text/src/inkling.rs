//! Inkling: a call is a model message whose content is a tool invocation,
//! `<|message_model|>NAME<|content_invoke_tool_json|>{"name": "f", "args": {..}}<|end_message|>`
//! (vLLM `inkling`, SGLang `inkling`).
//!
//! Neither peer's implementation is in the snapshots read here (vLLM 0.33's `inkling` parser is
//! an adapter over an engine module its package doesn't ship, and no test of it is): this
//! reader follows the markup as the research note gives it, and these details are choices, not
//! a peer's behaviour. The call's name is the JSON's `name` (its arguments under `args`, or
//! `arguments`/`parameters`); the `NAME` in the header (up to 64 bytes without `<`) is not
//! checked against it. A header that opens no tool invocation (another content kind) is prose.
//! `<|end_message|>` ends the call; without it the call ends with its JSON. A header followed by
//! no JSON object is an error for the header alone.

use super::cursor::{prefix, Cx, Need, Prefix, Reader, Step};
use super::format::TextFormat;
use super::object::object_then;

/// Inkling's messages.
pub(crate) const READER: Reader = Reader::new(b'<', 160, at, Some(TextFormat::Inkling));

const MESSAGE: &str = "<|message_model|>";
const INVOKE: &str = "<|content_invoke_tool_json|>";
const END: &str = "<|end_message|>";
/// The longest header name looked for.
const NAME_MAX: usize = 64;

/// A call message opening at `pos` (a `<`).
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    match prefix(text, pos, MESSAGE, cx.eof) {
        Prefix::No => return Step::Prose(1),
        Prefix::Partial => return cx.more(Need::Any),
        Prefix::Yes => {}
    }
    let name = pos + MESSAGE.len();
    let bytes = text.as_bytes();
    let window = &bytes[name..bytes.len().min(name + NAME_MAX + 1)];
    let Some(lt) = memchr::memchr(b'<', window) else {
        return match window.len() > NAME_MAX {
            true => Step::Prose(1),
            false => cx.more(Need::Byte(b'<', b'<')),
        };
    };
    let body = match prefix(text, name + lt, INVOKE, cx.eof) {
        Prefix::Yes => name + lt + INVOKE.len(),
        Prefix::Partial => return Step::More(Need::Any),
        Prefix::No => return Step::Prose(1),
    };
    object_then(cx, text, pos, body, END)
}

#[cfg(test)]
mod tests {
    use crate::{parse, TextFormat};

    #[test]
    fn a_tool_message_is_a_call_and_other_messages_are_prose() {
        let text = "Checking.<|message_model|>get_weather<|content_invoke_tool_json|>{\"name\": \"get_weather\", \"args\": {\"city\": \"Paris\"}}<|end_message|>\n<|message_model|>get_time<|content_invoke_tool_json|>{\"name\": \"get_time\", \"args\": {}}<|end_message|>";
        for format in [TextFormat::Inkling, TextFormat::Auto] {
            let parsed = parse(text, format, &());
            let calls: Vec<String> = parsed
                .calls
                .iter()
                .map(|c| format!("{}{}", c.name, c.arguments))
                .collect();
            assert_eq!(calls, ["get_weather{\"city\": \"Paris\"}", "get_time{}"]);
            assert_eq!(parsed.text, "Checking.");
            assert_eq!(parsed.format, Some(TextFormat::Inkling));
        }
        let text = "<|message_model|>assistant<|content_text|>Hi.<|end_message|>";
        assert_eq!(parse(text, TextFormat::Inkling, &()).text, text);
    }
}
