//! `deepseek_v41`: DeepSeek V4.1: V4's DSML with each tag name spaced: `<｜DSML｜ calls>`,
//! `<｜DSML｜ invoke name="NAME">`, `<｜DSML｜ parameter name="k" string="true">`.

use super::Format;
use crate::format::TextFormat;
use crate::write::dsml_calls;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::DeepSeekV41,
    name: "deepseek_v41",
    aliases: &[],
    triggers: b"<`",
    words: &[],
    models: &[(14, "deepseek-v4.1")],
    templates: &[],
    convention: dsml_convention!("｜DSML｜ ", "calls"),
    readers: &[crate::special::READER],
    write,
    family_prompt: None,
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    dsml_calls(TextFormat::DeepSeekV41, calls)
}
