//! `granite`: Granite 3.x: `<|tool_call|>[{"name": .., "arguments": {..}}]` (Granite 3.1+ spells the
//! token `<tool_call>`).

use super::Format;
use crate::format::TextFormat;
use crate::write::objects;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Granite,
    name: "granite",
    aliases: &[],
    triggers: b"<`",
    words: &[],
    models: &[(42, "granite")],
    templates: &[(16, "<|tool_call|>")],
    convention: concat!(
        "To call tools, write <|tool_call|> followed by a JSON array with one object per call, each with the tool's `name` and its `arguments`:\n\n",
        "<|tool_call|>[{\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}]"
    ),
    readers: &[crate::wrapped::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::json_lists::prompt(tools, TextFormat::Granite)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    format!("<|tool_call|>[{}]", objects(calls, "arguments").join(", "))
}
