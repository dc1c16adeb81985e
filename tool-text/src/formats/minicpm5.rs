//! `minicpm5`: MiniCPM 5: `<function name="f"><param name="x">value</param></function>`, values typed
//! with the tool's input schema.

use super::Format;
use crate::format::TextFormat;
use crate::write::Template;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::MiniCpm5,
    name: "minicpm5",
    aliases: &["minicpm4"],
    triggers: b"<`",
    words: &[],
    models: &[(24, "minicpm5"), (25, "minicpm-5")],
    templates: &[],
    convention: concat!(
        "To call a tool, write:\n\n",
        "<function name=\"TOOL_NAME\"><param name=\"ARGUMENT_NAME\">value</param></function>\n\n",
        "Write one <param> per argument. ",
        values!(),
        " Put a string holding < or & in <![CDATA[ ]]>. To call several tools, write one <function> block per call."
    ),
    readers: &[crate::invoke_xml::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::markup::prompt(tools, TextFormat::MiniCpm5)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    Template::lines("<function name=\"{name}\">{arguments}</function>")
        .argument("<param name=\"{key}\">{value}</param>")
        .cdata()
        .write(calls)
}
