//! `minimax_m2`: MiniMax-M2: `<minimax:tool_call><invoke name="f"><parameter name="x">value</parameter></invoke></minimax:tool_call>`,
//! values typed with the tool's input schema.

use super::Format;
use crate::format::TextFormat;
use crate::write::Template;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::MinimaxM2,
    name: "minimax_m2",
    aliases: &["minimax-m2"],
    triggers: b"<`",
    words: &[],
    models: &[(22, "minimax-m2")],
    templates: &[],
    convention: concat!(
        "To call tools, write:\n\n",
        "<minimax:tool_call>\n<invoke name=\"TOOL_NAME\">\n<parameter name=\"ARGUMENT_NAME\">value</parameter>\n</invoke>\n</minimax:tool_call>\n\n",
        "Write one <parameter> per argument. ",
        values!(),
        " To call several tools, write one <invoke> block per call."
    ),
    readers: &[crate::invoke_xml::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::markup::prompt(tools, TextFormat::MinimaxM2)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    Template::lines("<invoke name=\"{name}\">\n{arguments}</invoke>")
        .argument("<parameter name=\"{key}\">{value}</parameter>\n")
        .within("<minimax:tool_call>\n", "\n</minimax:tool_call>")
        .write(calls)
}
