//! `jamba`: Jamba, Hunyuan-A13B, Apriel 1.5: `<tool_calls>[{"name": .., "arguments": {..}}]</tool_calls>`.

use super::Format;
use crate::format::TextFormat;
use crate::write::objects;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Jamba,
    name: "jamba",
    aliases: &["hunyuan_a13b", "hunyuan"],
    triggers: b"<`",
    words: &[],
    models: &[(54, "jamba"), (55, "hunyuan-a13b"), (56, "apriel")],
    templates: &[(13, "<tool_calls>")],
    convention: concat!(
        "To call tools, write <tool_calls>, a JSON array with one object per call, each with the tool's `name` and its `arguments`, then </tool_calls>:\n\n",
        "<tool_calls>[{\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}]</tool_calls>"
    ),
    readers: &[crate::wrapped::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::json_lists::prompt(tools, TextFormat::Jamba)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    format!(
        "<tool_calls>[{}]</tool_calls>",
        objects(calls, "arguments").join(", ")
    )
}
