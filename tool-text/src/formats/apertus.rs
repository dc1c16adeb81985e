//! `apertus`: Apertus: `<|tools_prefix|>[{"f": {"city": "Paris"}}]<|tools_suffix|>`.

use super::Format;
use crate::format::TextFormat;
use crate::write::Template;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Apertus,
    name: "apertus",
    aliases: &["apertus2509"],
    triggers: b"<`",
    words: &[],
    models: &[(70, "apertus")],
    templates: &[(10, "<|tools_prefix|>")],
    convention: concat!(
        "To call tools, write <|tools_prefix|>, a JSON array with one object per call mapping the tool's name to its arguments, then <|tools_suffix|>:\n\n",
        "<|tools_prefix|>[{\"<tool name>\": {<arguments as JSON>}}]<|tools_suffix|>"
    ),
    readers: &[crate::keyed::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::typescript::prompt(tools, TextFormat::Apertus)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    Template::joined("{{json_name}: {arguments}}")
        .between(", ")
        .within("<|tools_prefix|>[", "]<|tools_suffix|>")
        .write(calls)
}
