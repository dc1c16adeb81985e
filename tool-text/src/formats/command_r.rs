//! `command_r`: Command R7B, Command A, Command 4: `<|START_ACTION|>[{"tool_call_id": "0",
//! "tool_name": "f", "parameters": {..}}]<|END_ACTION|>`. Named `command_r`; `cohere`, its
//! name before, is still read as an alias (a `Cohere` provider would clash with it).

use super::Format;
use crate::format::TextFormat;
use crate::write::arguments;
use crate::ToolCall;
use serde_json::Value;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::CommandR,
    name: "command_r",
    // `cohere` was this format's name before it was `command_r`.
    aliases: &[
        "cohere",
        "cohere_command3",
        "cohere_command4",
        "command_r7b",
    ],
    triggers: b"<`",
    words: &[],
    models: &[(71, "command-r7b"), (73, "command-a"), (74, "c4ai-command")],
    templates: &[(11, "<|START_ACTION|>")],
    convention: concat!(
        "To call tools, write <|START_ACTION|>, a JSON array with one object per call, each with a `tool_call_id`, the `tool_name` and its `parameters`, then <|END_ACTION|>:\n\n",
        "<|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"<tool name>\", \"parameters\": {<arguments as JSON>}}]<|END_ACTION|>"
    ),
    readers: &[crate::keyed::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::json_lists::prompt(tools, TextFormat::CommandR)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    let objects: Vec<String> = calls
        .iter()
        .enumerate()
        .map(|(n, call)| {
            format!(
                "{{\"tool_call_id\": \"{n}\", \"tool_name\": {}, \"parameters\": {}}}",
                Value::from(call.name.as_str()),
                arguments(call)
            )
        })
        .collect();
    format!("<|START_ACTION|>[{}]<|END_ACTION|>", objects.join(", "))
}
