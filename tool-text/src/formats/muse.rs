//! `muse`: Muse Spark, Muse Glimmer: messages `<|start|>assistant to=f<|message|>` holding
//! `<atem:function_calls><atem:invoke name="f"><atem:parameter name="x">value</atem:parameter></atem:invoke></atem:function_calls>`,
//! ended by `<|eom|>`; values typed with the tool's input schema. `to=self` is reasoning.

use super::Format;
use crate::format::TextFormat;
use crate::write::Template;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Muse,
    name: "muse",
    aliases: &["muse_glimmer", "musespark1x"],
    triggers: b"<`",
    words: &[],
    models: &[(7, "muse")],
    templates: &[(0, "<atem:function_calls>")],
    convention: concat!(
        "To call tools, write a message to the tool holding an <atem:function_calls> block with one invoke per call and one parameter per argument, then <|eom|>:\n\n",
        "<|start|>assistant to=TOOL_NAME<|message|><atem:function_calls>\n<atem:invoke name=\"TOOL_NAME\">\n<atem:parameter name=\"ARGUMENT_NAME\">value</atem:parameter>\n</atem:invoke>\n</atem:function_calls><|eom|>\n\n",
        values!()
    ),
    readers: &[crate::invoke_xml::READER, crate::muse::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::markup::prompt(tools, TextFormat::Muse)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    Template::lines(concat!(
        "<|start|>assistant to={name}<|message|><atem:function_calls>\n",
        "<atem:invoke name=\"{name}\">\n{arguments}</atem:invoke>\n",
        "</atem:function_calls><|eom|>",
    ))
    .argument("<atem:parameter name=\"{key}\">{value}</atem:parameter>\n")
    .write(calls)
}
