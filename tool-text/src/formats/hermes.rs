//! `hermes`: Hermes, Qwen2.5, QwQ, Granite 4: `<tool_call>{"name": .., "arguments": {..}}</tool_call>`.

use super::Format;
use crate::format::TextFormat;
use crate::write::objects;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Hermes,
    name: "hermes",
    aliases: &[
        "qwen",
        "qwen25",
        "qwen3_json",
        "granite4",
        "ernie45",
        "hermes_2_pro",
    ],
    triggers: b"<`",
    words: &[],
    models: &[(35, "qwen"), (36, "qwq"), (37, "hermes"), (38, "granite-4"), (39, "granite4"), (40, "ernie-4.5")],
    templates: &[(14, "<tool_call>")],
    convention: concat!(
        "To call a tool, write a JSON object with the tool's `name` and its `arguments` inside <tool_call></tool_call> tags:\n\n",
        "<tool_call>\n{\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}\n</tool_call>\n\n",
        "To call several tools, write one such block per call."
    ),
    readers: &[crate::hermes::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::json_lists::prompt(tools, TextFormat::Hermes)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    objects(calls, "arguments")
        .iter()
        .map(|object| format!("<tool_call>\n{object}\n</tool_call>"))
        .collect::<Vec<_>>()
        .join("\n")
}
