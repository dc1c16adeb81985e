//! `longcat`: LongCat-Flash: `<longcat_tool_call>{"name": .., "arguments": {..}}</longcat_tool_call>`.

use super::Format;
use crate::format::TextFormat;
use crate::write::{each, objects};
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::LongCat,
    name: "longcat",
    aliases: &[],
    triggers: b"<`",
    words: &[],
    models: &[(59, "longcat")],
    templates: &[(19, "<longcat_tool_call>")],
    convention: concat!(
        "To call a tool, write a JSON object with the tool's `name` and its `arguments` inside <longcat_tool_call></longcat_tool_call> tags:\n\n",
        "<longcat_tool_call>{\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}</longcat_tool_call>\n\n",
        "To call several tools, write one such block per call."
    ),
    readers: &[crate::wrapped::READER],
    write,
    family_prompt: None,
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    each(
        &objects(calls, "arguments"),
        "<longcat_tool_call>",
        "</longcat_tool_call>",
    )
}
