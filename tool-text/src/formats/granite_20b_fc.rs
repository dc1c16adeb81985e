//! `granite_20b_fc`: granite-20b-functioncalling: `<function_call> {"name": .., "arguments": {..}}`, repeated.

use super::Format;
use crate::format::TextFormat;
use crate::write::{each, objects};
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::GraniteFc,
    name: "granite_20b_fc",
    aliases: &["granite-20b-fc"],
    triggers: b"<`",
    words: &[],
    models: &[(41, "granite-20b-functioncalling")],
    templates: &[(17, "<function_call>")],
    convention: concat!(
        "To call a tool, write <function_call> followed by a JSON object with the tool's `name` and its `arguments`:\n\n",
        "<function_call> {\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}\n\n",
        "To call several tools, write one such line per call."
    ),
    readers: &[crate::wrapped::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::json_lists::prompt(tools, TextFormat::GraniteFc)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    each(&objects(calls, "arguments"), "<function_call> ", "")
}
