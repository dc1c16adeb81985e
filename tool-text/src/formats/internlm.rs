//! `internlm`: InternLM 2/2.5, Intern-S1: `<|action_start|><|plugin|>\n{"name": .., "parameters": {..}}<|action_end|>`.

use super::Format;
use crate::format::TextFormat;
use crate::write::{each, objects};
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::InternLm,
    name: "internlm",
    aliases: &["interns1"],
    triggers: b"<`",
    words: &[],
    models: &[(57, "internlm"), (58, "intern-s1")],
    templates: &[(18, "<|action_start|>")],
    convention: concat!(
        "To call a tool, write <|action_start|><|plugin|>, a line break, a JSON object with the tool's `name` and its `parameters`, then <|action_end|>:\n\n",
        "<|action_start|><|plugin|>\n{\"name\": \"<tool name>\", \"parameters\": {<arguments as JSON>}}<|action_end|>"
    ),
    readers: &[crate::wrapped::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::json_lists::prompt(tools, TextFormat::InternLm)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    each(
        &objects(calls, "parameters"),
        "<|action_start|><|plugin|>\n",
        "<|action_end|>",
    )
}
