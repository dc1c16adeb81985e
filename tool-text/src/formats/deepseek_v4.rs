//! `deepseek_v4`: DeepSeek V4: V3.2's DSML in `<｜DSML｜tool_calls>..</｜DSML｜tool_calls>`.

use super::Format;
use crate::format::TextFormat;
use crate::write::dsml_calls;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::DeepSeekV4,
    name: "deepseek_v4",
    aliases: &["deepseekv4"],
    triggers: b"<`",
    words: &[],
    models: &[(15, "deepseek-v4")],
    templates: &[],
    convention: dsml_convention!("｜DSML｜", "tool_calls"),
    readers: &[crate::special::READER],
    write,
    family_prompt: Some(|tools| {
        crate::prompt_templates::special_tokens::prompt(tools, TextFormat::DeepSeekV4)
    }),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    dsml_calls(TextFormat::DeepSeekV4, calls)
}
