//! `phi4_mini`: Phi-4-mini, Firefunction v2: `functools[{"name": .., "arguments": {..}}]`, no closing
//! marker.

use super::Format;
use crate::format::TextFormat;
use crate::write::objects;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Phi4Mini,
    name: "phi4_mini",
    aliases: &["phi4_mini_json", "firefunction_v2"],
    // `functools[` is found as a word (`trigger_word`).
    triggers: b"<`",
    words: &[crate::phi4::MARKER.as_bytes()],
    models: &[(1, "phi-4-mini"), (2, "phi4-mini"), (3, "firefunction")],
    templates: &[(23, "functools[")],
    convention: concat!(
        "To call tools, write the functools marker followed by a single JSON list with one object per call, each with the tool's `name` and its `arguments` (no closing marker):\n\n",
        "functools[{\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}]"
    ),
    readers: &[crate::phi4::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::json_lists::prompt(tools, TextFormat::Phi4Mini)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    format!("functools[{}]", objects(calls, "arguments").join(", "))
}
