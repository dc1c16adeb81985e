//! `k2_horizon`: K2 Horizon: `<ifm|tool_calls><ifm|tool_call>f<ifm|arg_key>x</ifm|arg_key><ifm|arg_value>value</ifm|arg_value></ifm|tool_call></ifm|tool_calls>`
//! (with an `<ifm|arg_type>` before each value, or a JSON call object, in its other modes).

use super::Format;
use crate::format::TextFormat;
use crate::write::Template;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::K2Horizon,
    name: "k2_horizon",
    aliases: &["k2_v3"],
    triggers: b"<`",
    words: &[],
    models: &[],
    templates: &[],
    convention: concat!(
        "To call tools, write:\n\n",
        "<ifm|tool_calls><ifm|tool_call>TOOL_NAME<ifm|arg_key>ARGUMENT_NAME</ifm|arg_key><ifm|arg_value>value</ifm|arg_value></ifm|tool_call></ifm|tool_calls>\n\n",
        "Write one <ifm|arg_key>/<ifm|arg_value> pair per argument. ",
        values!(),
        " To call several tools, write one <ifm|tool_call> block per call inside <ifm|tool_calls>."
    ),
    readers: &[crate::glm::READER],
    write,
    family_prompt: None,
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    Template::lines("<ifm|tool_call>{name}{arguments}</ifm|tool_call>")
        .argument("<ifm|arg_key>{key}</ifm|arg_key><ifm|arg_value>{value}</ifm|arg_value>")
        .within("<ifm|tool_calls>", "</ifm|tool_calls>")
        .write(calls)
}
