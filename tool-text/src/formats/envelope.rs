//! `envelope`: llama.cpp's generic format: `{"tool_call": {..}}`, `{"tool_calls": [..]}`, or a reply as
//! `{"response": ".."}` (taken as the text when it is the whole message).

use super::Format;
use crate::format::TextFormat;
use crate::write::objects;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Envelope,
    name: "envelope",
    aliases: &["generic"],
    triggers: b"{`",
    words: &[],
    models: &[],
    templates: &[],
    convention: concat!(
        "Respond in JSON. To call tools, respond with only ",
        "{\"tool_calls\": [{\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}]}, with one object per call. ",
        "To answer without calling a tool, respond with {\"response\": \"<your answer>\"}."
    ),
    readers: &[crate::envelope::READER],
    write,
    family_prompt: None,
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    format!(
        "{{\"tool_calls\": [{}]}}",
        objects(calls, "arguments").join(", ")
    )
}
