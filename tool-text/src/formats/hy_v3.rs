//! `hy_v3`: Tencent Hy3/Hy4: `<tool_calls><tool_call>f<tool_sep><arg_key>x</arg_key><arg_value>value</arg_value></tool_call></tool_calls>`
//! (Hy4 without `<tool_sep>`), values typed with the tool's input schema.

use super::Format;
use crate::format::TextFormat;
use crate::write::Template;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::HyV3,
    name: "hy_v3",
    aliases: &["hy_v4"],
    triggers: b"<`",
    words: &[],
    models: &[],
    templates: &[],
    convention: concat!(
        "To call tools, write:\n\n",
        "<tool_calls>\n<tool_call>TOOL_NAME<tool_sep>\n<arg_key>ARGUMENT_NAME</arg_key>\n<arg_value>value</arg_value>\n</tool_call>\n</tool_calls>\n\n",
        "Write one <arg_key>/<arg_value> pair per argument. ",
        values!(),
        " To call several tools, write one <tool_call> block per call inside <tool_calls>."
    ),
    // As Hy3's template writes them: its tokens carry the checkpoint's suffix.
    readers: &[crate::glm::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::markup::prompt(tools, TextFormat::HyV3)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    Template::lines(
        "<tool_call:opensource>{name}<tool_sep:opensource>\n{arguments}</tool_call:opensource>",
    )
    .argument(
        "<arg_key:opensource>{key}</arg_key:opensource>\n<arg_value:opensource>{value}</arg_value:opensource>\n",
    )
    .within("<tool_calls:opensource>\n", "\n</tool_calls:opensource>")
    .write(calls)
}
