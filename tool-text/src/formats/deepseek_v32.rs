//! `deepseek_v32`: DeepSeek V3.2's DSML: `<｜DSML｜function_calls><｜DSML｜invoke name="NAME">` then
//! `<｜DSML｜parameter name="k" string="true">v</｜DSML｜parameter>` per argument (strings as
//! written, `string="false"` values as JSON), `</｜DSML｜invoke>`, `</｜DSML｜function_calls>`.

use super::Format;
use crate::format::TextFormat;
use crate::write::dsml_calls;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::DeepSeekV32,
    name: "deepseek_v32",
    aliases: &["deepseekv32"],
    triggers: b"<`",
    words: &[],
    models: &[(13, "deepseek-v3.2")],
    templates: &[],
    convention: dsml_convention!("｜DSML｜", "function_calls"),
    readers: &[crate::special::READER],
    write,
    family_prompt: Some(|tools| {
        crate::prompt_templates::special_tokens::prompt(tools, TextFormat::DeepSeekV32)
    }),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    dsml_calls(TextFormat::DeepSeekV32, calls)
}
