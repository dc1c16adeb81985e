//! `fenced`: A fenced ```` ```json ```` block holding `{"name": .., "arguments": {..}}` or an array of them.

use super::Format;
use crate::format::TextFormat;
use crate::write::objects;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Fenced,
    name: "fenced",
    aliases: &["fenced_json"],
    triggers: b"`",
    words: &[],
    models: &[],
    templates: &[],
    convention: concat!(
        "To call a tool, write a ```json code block holding a JSON object with the tool's `name` and its `arguments`:\n\n",
        "```json\n{\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}\n```\n\n",
        "To call several tools, put an array of such objects in the block."
    ),
    readers: &[],
    write,
    family_prompt: None,
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    match objects(calls, "arguments").as_slice() {
        [one] => format!("```json\n{one}\n```"),
        many => format!("```json\n[{}]\n```", many.join(", ")),
    }
}
