//! `olmo3`: OLMo 3: `<function_calls>f(city="Paris")\ng()</function_calls>`, one call a line.

use super::Format;
use crate::format::TextFormat;
use crate::write::python_call;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Olmo3,
    name: "olmo3",
    aliases: &[],
    triggers: b"<`",
    words: &[],
    models: &[(67, "olmo-3"), (68, "olmo3")],
    templates: &[(9, "<function_calls>")],
    convention: concat!(
        "To call tools, write <function_calls>, one Python call with keyword arguments per line, then </function_calls>:\n\n",
        "<function_calls>\ntool_name(argument=value)\nother_tool(argument=value)\n</function_calls>\n\n",
        "Write values as Python literals: strings in quotes, numbers, True, False, None, lists and dicts."
    ),
    readers: &[crate::pytags::READER],
    write,
    family_prompt: None,
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    let calls: Vec<String> = calls.iter().map(python_call).collect();
    format!("<function_calls>\n{}\n</function_calls>", calls.join("\n"))
}
