//! `nemotron`: NVIDIA Nemotron Nano v2: `<TOOLCALL>[{"name": .., "arguments": {..}}]</TOOLCALL>`.

use super::Format;
use crate::format::TextFormat;
use crate::write::objects;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Nemotron,
    name: "nemotron",
    aliases: &["nemotron_v2"],
    triggers: b"<`",
    words: &[],
    models: &[(60, "nemotron-nano")],
    templates: &[(20, "<TOOLCALL>")],
    convention: concat!(
        "To call tools, write <TOOLCALL>, a JSON array with one object per call, each with the tool's `name` and its `arguments`, then </TOOLCALL>:\n\n",
        "<TOOLCALL>[{\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}]</TOOLCALL>"
    ),
    readers: &[crate::wrapped::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::json_lists::prompt(tools, TextFormat::Nemotron)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    format!(
        "<TOOLCALL>[{}]</TOOLCALL>",
        objects(calls, "arguments").join(", ")
    )
}
