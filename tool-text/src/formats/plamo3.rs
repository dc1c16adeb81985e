//! `plamo3`: PLaMo 3: `<|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>f<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{..}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|><|plamo:end_tool_requests:plamo|>`.

use super::Format;
use crate::format::TextFormat;
use crate::write::Template;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Plamo3,
    name: "plamo3",
    aliases: &[],
    triggers: b"<`",
    words: &[],
    models: &[(27, "plamo-3")],
    templates: &[],
    convention: concat!(
        "To call tools, write <|plamo:begin_tool_requests:plamo|>, then for each call the tool's name and its arguments as a JSON object in these markers, then <|plamo:end_tool_requests:plamo|>:\n\n",
        "<|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>TOOL_NAME<|plamo:end_tool_name:plamo|>",
        "<|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{<arguments as JSON>}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|><|plamo:end_tool_requests:plamo|>"
    ),
    readers: &[crate::plamo::READER],
    write,
    family_prompt: None,
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    Template::joined(concat!(
        "<|plamo:begin_tool_request:plamo|>",
        "<|plamo:begin_tool_name:plamo|>{name}<|plamo:end_tool_name:plamo|>",
        "<|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>",
        "{arguments}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>",
    ))
    .within(
        "<|plamo:begin_tool_requests:plamo|>",
        "<|plamo:end_tool_requests:plamo|>",
    )
    .write(calls)
}
