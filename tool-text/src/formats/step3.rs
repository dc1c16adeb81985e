//! `step3`: Step-3: `<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="f"><steptml:parameter name="x">value</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>`.

use super::Format;
use crate::format::TextFormat;
use crate::write::Template;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Step3,
    name: "step3",
    aliases: &[],
    triggers: b"<`",
    words: &[],
    models: &[],
    templates: &[],
    convention: concat!(
        "To call tools, write:\n\n",
        "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"TOOL_NAME\"><steptml:parameter name=\"ARGUMENT_NAME\">value</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>\n\n",
        "Write one <steptml:parameter> per argument. ",
        values!(),
        " To call several tools, write one <｜tool_call_begin｜>...<｜tool_call_end｜> block per call."
    ),
    readers: &[crate::invoke_xml::READER],
    write,
    family_prompt: None,
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    Template::joined(concat!(
        "<｜tool_call_begin｜>function<｜tool_sep｜>",
        "<steptml:invoke name=\"{name}\">{arguments}</steptml:invoke><｜tool_call_end｜>",
    ))
    .argument("<steptml:parameter name=\"{key}\">{value}</steptml:parameter>")
    .within("<｜tool_calls_begin｜>", "<｜tool_calls_end｜>")
    .write(calls)
}
