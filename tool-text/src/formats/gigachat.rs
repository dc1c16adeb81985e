//! `gigachat`: GigaChat 3 and 3.5: `<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": .., "arguments": {..}}`;
//! GigaChat 3.1: `<|function_call|>{"name": .., "arguments": {..}}`.

use super::Format;
use crate::format::TextFormat;
use crate::write::{each, objects};
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::GigaChat,
    name: "gigachat",
    aliases: &["gigachat3", "gigachat35"],
    triggers: b"<`",
    words: &[],
    models: &[(5, "gigachat")],
    templates: &[(4, "<|role_sep|>")],
    convention: concat!(
        "To call a tool, write <|message_sep|>, a blank line, function call<|role_sep|>, a line break, and a JSON object with the tool's `name` and its `arguments`:\n\n",
        "<|message_sep|>\n\nfunction call<|role_sep|>\n{\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}\n\n",
        "To call several tools, write one such message per call."
    ),
    readers: &[crate::gigachat::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::typescript::prompt(tools, TextFormat::GigaChat)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    each(
        &objects(calls, "arguments"),
        "<|message_sep|>\n\nfunction call<|role_sep|>\n",
        "",
    )
}
