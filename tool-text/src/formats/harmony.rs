//! `harmony`: gpt-oss's harmony messages: `<|start|>assistant<|channel|>commentary
//! to=functions.f <|constrain|>json<|message|>{..}<|call|>`; the `analysis` channel is
//! reasoning (prose), the `final` channel's body is the answer.

use super::Format;
use crate::format::TextFormat;
use crate::write::Template;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Harmony,
    name: "harmony",
    aliases: &["openai", "gpt_oss"],
    triggers: b"<`",
    words: &[],
    models: &[(61, "gpt-oss")],
    templates: &[(1, "<|channel|>")],
    convention: concat!(
        "To call a tool, write a message to it in the commentary channel, its arguments as a JSON object:\n\n",
        "<|start|>assistant<|channel|>commentary to=functions.<tool name> <|constrain|>json<|message|>{<arguments as JSON>}<|call|>\n\n",
        "To call several tools, write one such message per call."
    ),
    readers: &[crate::harmony::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::typescript::prompt(tools, TextFormat::Harmony)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    Template::joined(concat!(
        "<|start|>assistant<|channel|>commentary to=functions.{name} ",
        "<|constrain|>json<|message|>{arguments}<|call|>",
    ))
    .write(calls)
}
