//! `hermes_variants`: The wrappers llama.cpp's Hermes 2 Pro parser read before its rewrite: a Hermes call
//! object in `<tool_call>`, `<function_call>`, `<tool>`, `<tools>`, `<response>`, `<json>`,
//! `<xml>` or `<JSON>` tags, in a fence, bare, or as `<function=f>{..}</function>` or
//! `<function name="f">{..}</function>`. Only when chosen: [`Auto`](TextFormat::Auto) reads
//! Hermes's `<tool_call>` alone.

use super::Format;
use crate::format::TextFormat;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::HermesVariants,
    name: "hermes_variants",
    aliases: &[],
    triggers: b"<{`",
    words: &[],
    models: &[],
    templates: &[],
    convention: super::hermes::FORMAT.convention,
    readers: &[
        crate::hermes::READER,
        crate::hermes_variants::READER,
        crate::llama3::BARE,
    ],
    write: super::hermes::FORMAT.write,
    family_prompt: Some(|tools| Some(crate::prompt_templates::hermes2pro::prompt(tools))),
};
