//! `inkling`: Inkling: `<|message_model|>f<|content_invoke_tool_json|>{"name": .., "args": {..}}<|end_message|>`.

use super::Format;
use crate::format::TextFormat;
use crate::write::arguments;
use crate::ToolCall;
use serde_json::Value;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Inkling,
    name: "inkling",
    aliases: &[],
    triggers: b"<`",
    words: &[],
    models: &[(6, "inkling")],
    templates: &[(5, "<|content_invoke_tool_json|>")],
    convention: concat!(
        "To call a tool, write a message of its own: <|message_model|>, the tool's name, <|content_invoke_tool_json|>, a JSON object with the tool's `name` and its `args`, then <|end_message|>:\n\n",
        "<|message_model|>TOOL_NAME<|content_invoke_tool_json|>{\"name\": \"<tool name>\", \"args\": {<arguments as JSON>}}<|end_message|>\n\n",
        "To call several tools, write one such message per call."
    ),
    readers: &[crate::inkling::READER],
    write,
    family_prompt: None,
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    calls
    .iter()
    .map(|call| {
        format!(
            "<|message_model|>{}<|content_invoke_tool_json|>{{\"name\": {}, \"args\": {}}}<|end_message|>",
            call.name,
            Value::from(call.name.as_str()),
            arguments(call)
        )
    })
    .collect::<Vec<_>>()
    .join("\n")
}
