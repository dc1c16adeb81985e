//! `qwen_xml`: Qwen3-Coder, Qwen3.5: `<tool_call><function=f><parameter=x>value</parameter></function></tool_call>`,
//! values typed with the tool's input schema.

use super::Format;
use crate::format::TextFormat;
use crate::write::Template;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::QwenXml,
    name: "qwen_xml",
    aliases: &["qwen3_coder", "qwen3_xml", "step3p5", "step5", "mimo"],
    triggers: b"<`",
    words: &[],
    models: &[(28, "qwen3-coder"), (29, "qwen3.5"), (30, "qwen3_5"), (31, "nemotron-3"), (32, "step-3.5"), (33, "step3p5"), (34, "mimo")],
    templates: &[(12, "<function=")],
    convention: concat!(
        "To call a tool, write:\n\n",
        "<tool_call>\n<function=TOOL_NAME>\n<parameter=ARGUMENT_NAME>\nvalue\n</parameter>\n</function>\n</tool_call>\n\n",
        "Write one <parameter> block per argument. Write strings as they are, without quotes or escaping; ",
        "write numbers, booleans, arrays and objects as JSON. To call several tools, write one <tool_call> block per call."
    ),
    readers: &[crate::hermes::READER, crate::functionary::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::markup::prompt(tools, TextFormat::QwenXml)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    Template::lines("<tool_call>\n<function={name}>\n{arguments}</function>\n</tool_call>")
        .argument("<parameter={key}>\n{value}\n</parameter>\n")
        .write(calls)
}
