//! `command_r_plus`: Cohere Command R+: `Action:` then a ```` ```json ```` block holding
//! `[{"tool_name": .., "parameters": {..}}]`.

use super::Format;
use crate::format::TextFormat;
use crate::write::arguments;
use crate::ToolCall;
use serde_json::Value;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::CommandRPlus,
    name: "command_r_plus",
    // llama.cpp's test names it by its template.
    aliases: &["cohereforai_c4ai_command_r_plus_tool_use"],
    // `Action:` is found as a word (`trigger_words`).
    triggers: b"<`",
    words: &[crate::command_r::MARKER.as_bytes()],
    models: &[(72, "command-r-plus")],
    templates: &[(24, "Action:")],
    convention: concat!(
        "To call tools, write 'Action:' followed by a ```json code block holding a JSON list of actions, each with the tool's `tool_name` and its `parameters`:\n\n",
        "Action:\n```json\n[{\"tool_name\": \"<tool name>\", \"parameters\": {<arguments as JSON>}}]\n```"
    ),
    readers: &[crate::command_r::READER],
    write,
    family_prompt: None,
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    let objects: Vec<String> = calls
        .iter()
        .map(|call| {
            format!(
                "{{\"tool_name\": {}, \"parameters\": {}}}",
                Value::from(call.name.as_str()),
                arguments(call)
            )
        })
        .collect();
    format!("Action:\n```json\n[{}]\n```", objects.join(", "))
}
