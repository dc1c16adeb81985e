//! `glm`: GLM 4.5/4.6/4.7, Ling 3.0, Poolside:
//! `<tool_call>f\n<arg_key>x</arg_key>\n<arg_value>value</arg_value>\n</tool_call>`, values
//! typed with the tool's input schema.

use super::Format;
use crate::format::TextFormat;
use crate::write::Template;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Glm,
    name: "glm",
    aliases: &["glm45", "glm47", "ling3", "poolside_v1"],
    triggers: b"<`",
    words: &[],
    models: &[(20, "glm-4"), (21, "ling-3")],
    templates: &[],
    convention: concat!(
        "To call a tool, write:\n\n",
        "<tool_call>TOOL_NAME\n<arg_key>ARGUMENT_NAME</arg_key>\n<arg_value>value</arg_value>\n</tool_call>\n\n",
        "Write one <arg_key>/<arg_value> pair per argument. ",
        values!(),
        " To call several tools, write one <tool_call> block per call."
    ),
    readers: &[crate::hermes::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::markup::prompt(tools, TextFormat::Glm)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    Template::lines("<tool_call>{name}\n{arguments}</tool_call>")
        .argument("<arg_key>{key}</arg_key>\n<arg_value>{value}</arg_value>\n")
        .write(calls)
}
