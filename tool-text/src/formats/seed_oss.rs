//! `seed_oss`: ByteDance Seed-OSS: `<seed:tool_call><function=f><parameter=x>value</parameter></function></seed:tool_call>`,
//! Qwen3's XML in tags of its own.

use super::Format;
use crate::format::TextFormat;
use crate::write::Template;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::SeedOss,
    name: "seed_oss",
    aliases: &[],
    triggers: b"<`",
    words: &[],
    models: &[(26, "seed-oss")],
    templates: &[],
    convention: concat!(
        "To call a tool, write:\n\n",
        "<seed:tool_call>\n<function=TOOL_NAME>\n<parameter=ARGUMENT_NAME>\nvalue\n</parameter>\n</function>\n</seed:tool_call>\n\n",
        "Write one <parameter> block per argument. ",
        values!(),
        " To call several tools, write one <seed:tool_call> block per call."
    ),
    readers: &[crate::invoke_xml::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::signatures::prompt(tools, TextFormat::SeedOss)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    Template::lines(
        "<seed:tool_call>\n<function={name}>\n{arguments}</function>\n</seed:tool_call>",
    )
    .argument("<parameter={key}>\n{value}\n</parameter>\n")
    .write(calls)
}
