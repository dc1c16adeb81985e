//! `dots`: dots.llm: `<dots_function_call><invoke name="f"><parameter name="x">value</parameter></invoke></dots_function_call>`,
//! values typed with the tool's input schema, or a JSON call object in the same tags.

use super::Format;
use crate::format::TextFormat;
use crate::write::Template;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Dots,
    name: "dots",
    aliases: &[],
    triggers: b"<`",
    words: &[],
    models: &[(4, "dots.llm")],
    templates: &[(3, "<dots_function_call>")],
    convention: concat!(
        "To call tools, write a <dots_function_call> block with one invoke per call and one parameter per argument:\n\n",
        "<dots_function_call>\n<invoke name=\"TOOL_NAME\">\n<parameter name=\"ARGUMENT_NAME\">value</parameter>\n</invoke>\n</dots_function_call>\n\n",
        values!()
    ),
    readers: &[crate::dots::READER, crate::wrapped::READER, crate::invoke_xml::READER],
    write,
    family_prompt: None,
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    Template::lines("<invoke name=\"{name}\">\n{arguments}</invoke>")
        .argument("<parameter name=\"{key}\">{value}</parameter>\n")
        .within("<dots_function_call>\n", "\n</dots_function_call>")
        .write(calls)
}
