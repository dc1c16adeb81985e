//! `llama3`: Llama 3.x and 4: `<|python_tag|>` and/or bare `{"name": .., "parameters": {..}}` objects,
//! several separated by `;`. Bare objects count anywhere in the text.

use super::Format;
use crate::format::TextFormat;
use crate::write::objects;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Llama3,
    name: "llama3",
    aliases: &["llama3_json", "llama4_json", "llama_3_x"],
    triggers: b"<{`",
    words: &[],
    models: &[(52, "llama-3"), (53, "llama3")],
    templates: &[(21, "<|python_tag|>")],
    convention: concat!(
        "To call a tool, respond with only a JSON object of the form ",
        "{\"name\": \"<tool name>\", \"parameters\": {<arguments as JSON>}}, and nothing else. ",
        "To call several tools, separate the objects with \"; \". Do not use variables."
    ),
    readers: &[
        crate::llama3::TAG,
        crate::llama3::BARE,
        crate::llama3::BARE_AT_START,
    ],
    write,
    family_prompt: Some(|tools| {
        crate::prompt_templates::json_lists::prompt(tools, TextFormat::Llama3)
    }),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    objects(calls, "parameters").join("; ")
}
