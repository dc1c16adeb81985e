//! `mistral`: Mistral: `[TOOL_CALLS][{"name": .., "arguments": {..}}]` or `[TOOL_CALLS]f[ARGS]{..}`.

use super::Format;
use crate::format::TextFormat;
use crate::write::objects;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Mistral,
    name: "mistral",
    aliases: &["mistral_v11", "mistral_nemo"],
    triggers: b"[`",
    words: &[],
    models: &[(43, "mistral"), (44, "mixtral"), (45, "ministral"), (46, "magistral"), (47, "devstral"), (48, "codestral")],
    templates: &[(15, "[TOOL_CALLS]")],
    convention: concat!(
        "To call tools, write [TOOL_CALLS] followed by a JSON array with one object per call, each with the tool's `name` and its `arguments`:\n\n",
        "[TOOL_CALLS][{\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}]"
    ),
    readers: &[crate::mistral::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::json_lists::prompt(tools, TextFormat::Mistral)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    format!("[TOOL_CALLS][{}]", objects(calls, "arguments").join(", "))
}
