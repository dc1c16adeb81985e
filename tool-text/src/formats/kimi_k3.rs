//! `kimi_k3`: Kimi K3's XTML: `<|open|>tools<|sep|><|open|>call tool="NAME" index="1"<|sep|>`, then
//! `<|open|>argument key="k" type="string"<|sep|>v<|close|>argument<|sep|>` per argument
//! (typed by `type`), `<|close|>call<|sep|>`, `<|close|>tools<|sep|>`; the markers of its
//! `response` channel are cut from the prose.

use super::Format;
use crate::format::TextFormat;
use crate::write::k3_call;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::KimiK3,
    name: "kimi_k3",
    aliases: &[],
    triggers: b"<`",
    words: &[],
    models: &[(19, "kimi-k3")],
    templates: &[],
    convention: concat!(
        "To call tools, write:\n\n",
        "<|open|>tools<|sep|><|open|>call tool=\"TOOL_NAME\" index=\"1\"<|sep|><|open|>argument key=\"ARGUMENT_NAME\" type=\"string\"<|sep|>value<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>\n\n",
        "Write one argument block per argument, with its type (string, number, boolean, null, object or array): strings as they are, without quotes or escaping, other values as JSON. ",
        "Write one call block per call, numbered from 1."
    ),
    readers: &[crate::special::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::special_tokens::prompt(tools, TextFormat::KimiK3)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    let calls: String = calls
        .iter()
        .enumerate()
        .map(|(index, call)| k3_call(call, index + 1))
        .collect();
    format!("<|open|>tools<|sep|>{calls}<|close|>tools<|sep|>")
}
