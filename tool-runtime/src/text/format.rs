//! The text formats models write tool calls in.

use super::triggers::Words;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How a model writes tool calls in its text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum TextFormat {
    /// Any of the formats below, recognized where they appear. Bare JSON objects count as calls
    /// only at the start of the message, `{"response": ..}` is left alone, and formats without a
    /// marker of their own (bare JSON, pythonic lists, fenced blocks) need a known tool's name
    /// when the tool list is known.
    #[default]
    Auto,
    /// Hermes, Qwen2.5, QwQ, Granite 4: `<tool_call>{"name": .., "arguments": {..}}</tool_call>`.
    Hermes,
    /// Qwen3-Coder, Qwen3.5: `<tool_call><function=f><parameter=x>value</parameter></function></tool_call>`,
    /// values typed with the tool's input schema.
    QwenXml,
    /// Mistral: `[TOOL_CALLS][{"name": .., "arguments": {..}}]` or `[TOOL_CALLS]f[ARGS]{..}`.
    Mistral,
    /// Llama 3.x and 4: `<|python_tag|>` and/or bare `{"name": .., "parameters": {..}}` objects,
    /// several separated by `;`. Bare objects count anywhere in the text.
    Llama3,
    /// Llama 3.2, Llama 4, ToolACE: `[get_weather(city="Paris"), get_time(tz="CET")]`.
    Pythonic,
    /// llama.cpp's generic format: `{"tool_call": {..}}`, `{"tool_calls": [..]}`, or a reply as
    /// `{"response": ".."}` (taken as the text when it is the whole message).
    Envelope,
    /// A fenced ```` ```json ```` block holding `{"name": .., "arguments": {..}}` or an array of them.
    Fenced,
    /// Jamba, Hunyuan-A13B, Apriel 1.5: `<tool_calls>[{"name": .., "arguments": {..}}]</tool_calls>`.
    Jamba,
    /// Granite 3.x: `<|tool_call|>[{"name": .., "arguments": {..}}]` (Granite 3.1+ spells the
    /// token `<tool_call>`).
    Granite,
    /// granite-20b-functioncalling: `<function_call> {"name": .., "arguments": {..}}`, repeated.
    #[serde(rename = "granite_20b_fc")]
    GraniteFc,
    /// InternLM 2/2.5, Intern-S1: `<|action_start|><|plugin|>\n{"name": .., "parameters": {..}}<|action_end|>`.
    #[serde(rename = "internlm")]
    InternLm,
    /// LongCat-Flash: `<longcat_tool_call>{"name": .., "arguments": {..}}</longcat_tool_call>`.
    #[serde(rename = "longcat")]
    LongCat,
    /// NVIDIA Nemotron Nano v2: `<TOOLCALL>[{"name": .., "arguments": {..}}]</TOOLCALL>`.
    Nemotron,
    /// gpt-oss's harmony messages: `<|start|>assistant<|channel|>commentary
    /// to=functions.f <|constrain|>json<|message|>{..}<|call|>`; the `analysis` channel is
    /// reasoning (prose), the `final` channel's body is the answer.
    #[serde(rename = "harmony")]
    Harmony,
    /// Gemma 4: `<|tool_call>call:f{city:<|"|>Paris<|"|>,days:3}<tool_call|>`, values typed
    /// with the tool's input schema.
    #[serde(rename = "gemma4")]
    Gemma4,
    /// FunctionGemma: `<start_function_call>call:f{city:<escape>Paris<escape>}<end_function_call>`.
    #[serde(rename = "functiongemma")]
    FunctionGemma,
    /// LFM2, LFM2.5: `<|tool_call_start|>[f(city="Paris"), g()]<|tool_call_end|>`.
    #[serde(rename = "lfm2")]
    Lfm2,
    /// OLMo 3: `<function_calls>f(city="Paris")\ng()</function_calls>`, one call a line.
    #[serde(rename = "olmo3")]
    Olmo3,
    /// Functionary v3.1: `<function=f>{"city": "Paris"}</function>`.
    #[serde(rename = "functionary")]
    Functionary,
    /// Apertus: `<|tools_prefix|>[{"f": {"city": "Paris"}}]<|tools_suffix|>`.
    #[serde(rename = "apertus")]
    Apertus,
    /// Command R7B, Command A, Command 4: `<|START_ACTION|>[{"tool_call_id": "0",
    /// "tool_name": "f", "parameters": {..}}]<|END_ACTION|>`. Named `command_r`; `cohere`, its
    /// name before, is still read as an alias (a `Cohere` provider would clash with it).
    #[serde(rename = "command_r", alias = "cohere")]
    CommandR,
    /// GLM 4.5/4.6/4.7, Ling 3.0, Poolside:
    /// `<tool_call>f\n<arg_key>x</arg_key>\n<arg_value>value</arg_value>\n</tool_call>`, values
    /// typed with the tool's input schema.
    Glm,
    /// Tencent Hy3/Hy4: `<tool_calls><tool_call>f<tool_sep><arg_key>x</arg_key><arg_value>value</arg_value></tool_call></tool_calls>`
    /// (Hy4 without `<tool_sep>`), values typed with the tool's input schema.
    HyV3,
    /// K2 Horizon: `<ifm|tool_calls><ifm|tool_call>f<ifm|arg_key>x</ifm|arg_key><ifm|arg_value>value</ifm|arg_value></ifm|tool_call></ifm|tool_calls>`
    /// (with an `<ifm|arg_type>` before each value, or a JSON call object, in its other modes).
    K2Horizon,
    /// MiniMax-M2: `<minimax:tool_call><invoke name="f"><parameter name="x">value</parameter></invoke></minimax:tool_call>`,
    /// values typed with the tool's input schema.
    MinimaxM2,
    /// MiniCPM 5: `<function name="f"><param name="x">value</param></function>`, values typed
    /// with the tool's input schema.
    #[serde(rename = "minicpm5")]
    MiniCpm5,
    /// Step-3: `<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="f"><steptml:parameter name="x">value</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>`.
    Step3,
    /// ByteDance Seed-OSS: `<seed:tool_call><function=f><parameter=x>value</parameter></function></seed:tool_call>`,
    /// Qwen3's XML in tags of its own.
    SeedOss,
    /// PLaMo 3: `<|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>f<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{..}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|><|plamo:end_tool_requests:plamo|>`.
    Plamo3,
    /// DeepSeek V3 and R1: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME`
    /// then the arguments in a ```` ```json ```` block and `<｜tool▁call▁end｜>`, repeated, then
    /// `<｜tool▁calls▁end｜>`.
    #[serde(rename = "deepseek_v3")]
    DeepSeekV3,
    /// DeepSeek V3.1: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{..}<｜tool▁call▁end｜>..<｜tool▁calls▁end｜>`.
    #[serde(rename = "deepseek_v31")]
    DeepSeekV31,
    /// DeepSeek V3.2's DSML: `<｜DSML｜function_calls><｜DSML｜invoke name="NAME">` then
    /// `<｜DSML｜parameter name="k" string="true">v</｜DSML｜parameter>` per argument (strings as
    /// written, `string="false"` values as JSON), `</｜DSML｜invoke>`, `</｜DSML｜function_calls>`.
    #[serde(rename = "deepseek_v32")]
    DeepSeekV32,
    /// DeepSeek V4: V3.2's DSML in `<｜DSML｜tool_calls>..</｜DSML｜tool_calls>`.
    #[serde(rename = "deepseek_v4")]
    DeepSeekV4,
    /// DeepSeek V4.1: V4's DSML with each tag name spaced: `<｜DSML｜ calls>`,
    /// `<｜DSML｜ invoke name="NAME">`, `<｜DSML｜ parameter name="k" string="true">`.
    #[serde(rename = "deepseek_v41")]
    DeepSeekV41,
    /// Kimi K2: `<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{..}<|tool_call_end|>..<|tool_calls_section_end|>`.
    #[serde(rename = "kimi_k2")]
    KimiK2,
    /// Kimi K3's XTML: `<|open|>tools<|sep|><|open|>call tool="NAME" index="1"<|sep|>`, then
    /// `<|open|>argument key="k" type="string"<|sep|>v<|close|>argument<|sep|>` per argument
    /// (typed by `type`), `<|close|>call<|sep|>`, `<|close|>tools<|sep|>`; the markers of its
    /// `response` channel are cut from the prose.
    #[serde(rename = "kimi_k3")]
    KimiK3,
    /// xLAM: a bare JSON list `[{"name": .., "arguments": {..}}]` (also in a ```` ```json ````
    /// fence, after `[TOOL_CALLS]` or in `<tool_call>` tags). Chosen explicitly, a list whose
    /// first element starts like a call is read anywhere; under [`Auto`](TextFormat::Auto) only
    /// at the start of the message, starting with a call and naming only known tools.
    #[serde(rename = "xlam")]
    Xlam,
    /// Phi-4-mini, Firefunction v2: `functools[{"name": .., "arguments": {..}}]`, no closing
    /// marker.
    #[serde(rename = "phi4_mini")]
    Phi4Mini,
    /// dots.llm: `<dots_function_call><invoke name="f"><parameter name="x">value</parameter></invoke></dots_function_call>`,
    /// values typed with the tool's input schema, or a JSON call object in the same tags.
    Dots,
    /// GigaChat 3 and 3.5: `<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": .., "arguments": {..}}`;
    /// GigaChat 3.1: `<|function_call|>{"name": .., "arguments": {..}}`.
    #[serde(rename = "gigachat")]
    GigaChat,
    /// Inkling: `<|message_model|>f<|content_invoke_tool_json|>{"name": .., "args": {..}}<|end_message|>`.
    Inkling,
    /// Functionary v3.2: recipient lines, `>>>f\n{"city": "Paris"}` for a call and `>>>all\n`
    /// before text (the first recipient, at the start of the message, without `>>>`).
    #[serde(rename = "functionary_v32")]
    FunctionaryV32,
    /// MiniMax-M3: namespaced XML, `]<]minimax[>[<tool_call>]<]minimax[>[<invoke name="f">]<]minimax[>[<city>Paris]<]minimax[>[</city>...`,
    /// objects and arrays as nested elements, values typed with the tool's input schema.
    #[serde(rename = "minimax_m3")]
    MinimaxM3,
    /// Cohere Command R+: `Action:` then a ```` ```json ```` block holding
    /// `[{"tool_name": .., "parameters": {..}}]`.
    #[serde(rename = "command_r_plus")]
    CommandRPlus,
    /// Muse Spark, Muse Glimmer: messages `<|start|>assistant to=f<|message|>` holding
    /// `<atem:function_calls><atem:invoke name="f"><atem:parameter name="x">value</atem:parameter></atem:invoke></atem:function_calls>`,
    /// ended by `<|eom|>`; values typed with the tool's input schema. `to=self` is reasoning.
    Muse,
    /// The wrappers llama.cpp's Hermes 2 Pro parser read before its rewrite: a Hermes call
    /// object in `<tool_call>`, `<function_call>`, `<tool>`, `<tools>`, `<response>`, `<json>`,
    /// `<xml>` or `<JSON>` tags, in a fence, bare, or as `<function=f>{..}</function>` or
    /// `<function name="f">{..}</function>`. Only when chosen: [`Auto`](TextFormat::Auto) reads
    /// Hermes's `<tool_call>` alone.
    HermesVariants,
}

impl TextFormat {
    /// Every format that is not [`Auto`](TextFormat::Auto).
    pub const ALL: [TextFormat; 46] = [
        TextFormat::Hermes,
        TextFormat::QwenXml,
        TextFormat::Mistral,
        TextFormat::Llama3,
        TextFormat::Pythonic,
        TextFormat::Envelope,
        TextFormat::Fenced,
        TextFormat::Jamba,
        TextFormat::Granite,
        TextFormat::GraniteFc,
        TextFormat::InternLm,
        TextFormat::LongCat,
        TextFormat::Nemotron,
        TextFormat::Harmony,
        TextFormat::Gemma4,
        TextFormat::FunctionGemma,
        TextFormat::Lfm2,
        TextFormat::Olmo3,
        TextFormat::Functionary,
        TextFormat::Apertus,
        TextFormat::CommandR,
        TextFormat::Glm,
        TextFormat::HyV3,
        TextFormat::K2Horizon,
        TextFormat::MinimaxM2,
        TextFormat::MiniCpm5,
        TextFormat::Step3,
        TextFormat::SeedOss,
        TextFormat::Plamo3,
        TextFormat::DeepSeekV3,
        TextFormat::DeepSeekV31,
        TextFormat::DeepSeekV32,
        TextFormat::DeepSeekV4,
        TextFormat::DeepSeekV41,
        TextFormat::KimiK2,
        TextFormat::KimiK3,
        TextFormat::Xlam,
        TextFormat::Phi4Mini,
        TextFormat::Dots,
        TextFormat::GigaChat,
        TextFormat::Inkling,
        TextFormat::FunctionaryV32,
        TextFormat::MinimaxM3,
        TextFormat::CommandRPlus,
        TextFormat::Muse,
        TextFormat::HermesVariants,
    ];

    /// The format's name, as serde and the CLI's `--text-tools` spell it.
    pub fn name(self) -> &'static str {
        match self {
            TextFormat::Auto => "auto",
            TextFormat::Hermes => "hermes",
            TextFormat::QwenXml => "qwen_xml",
            TextFormat::Mistral => "mistral",
            TextFormat::Llama3 => "llama3",
            TextFormat::Pythonic => "pythonic",
            TextFormat::Envelope => "envelope",
            TextFormat::Fenced => "fenced",
            TextFormat::Jamba => "jamba",
            TextFormat::Granite => "granite",
            TextFormat::GraniteFc => "granite_20b_fc",
            TextFormat::InternLm => "internlm",
            TextFormat::LongCat => "longcat",
            TextFormat::Nemotron => "nemotron",
            TextFormat::Harmony => "harmony",
            TextFormat::Gemma4 => "gemma4",
            TextFormat::FunctionGemma => "functiongemma",
            TextFormat::Lfm2 => "lfm2",
            TextFormat::Olmo3 => "olmo3",
            TextFormat::Functionary => "functionary",
            TextFormat::Apertus => "apertus",
            TextFormat::CommandR => "command_r",
            TextFormat::Glm => "glm",
            TextFormat::HyV3 => "hy_v3",
            TextFormat::K2Horizon => "k2_horizon",
            TextFormat::MinimaxM2 => "minimax_m2",
            TextFormat::MiniCpm5 => "minicpm5",
            TextFormat::Step3 => "step3",
            TextFormat::SeedOss => "seed_oss",
            TextFormat::Plamo3 => "plamo3",
            TextFormat::DeepSeekV3 => "deepseek_v3",
            TextFormat::DeepSeekV31 => "deepseek_v31",
            TextFormat::DeepSeekV32 => "deepseek_v32",
            TextFormat::DeepSeekV4 => "deepseek_v4",
            TextFormat::DeepSeekV41 => "deepseek_v41",
            TextFormat::KimiK2 => "kimi_k2",
            TextFormat::KimiK3 => "kimi_k3",
            TextFormat::Xlam => "xlam",
            TextFormat::Phi4Mini => "phi4_mini",
            TextFormat::Dots => "dots",
            TextFormat::GigaChat => "gigachat",
            TextFormat::Inkling => "inkling",
            TextFormat::FunctionaryV32 => "functionary_v32",
            TextFormat::MinimaxM3 => "minimax_m3",
            TextFormat::CommandRPlus => "command_r_plus",
            TextFormat::Muse => "muse",
            TextFormat::HermesVariants => "hermes_variants",
        }
    }

    /// The names vLLM's `--tool-call-parser` and SGLang's give the format (and llama.cpp's
    /// older `COMMON_CHAT_FORMAT_*`, lowercased), which [`FromStr`] accepts too.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            TextFormat::Auto => &[],
            TextFormat::Hermes => &[
                "qwen",
                "qwen25",
                "qwen3_json",
                "granite4",
                "ernie45",
                "hermes_2_pro",
            ],
            TextFormat::QwenXml => &["qwen3_coder", "qwen3_xml", "step3p5", "step5", "mimo"],
            TextFormat::Mistral => &["mistral_v11", "mistral_nemo"],
            TextFormat::Llama3 => &["llama3_json", "llama4_json", "llama_3_x"],
            TextFormat::Pythonic => &["llama4_pythonic"],
            TextFormat::Envelope => &["generic"],
            TextFormat::Fenced => &["fenced_json"],
            TextFormat::Jamba => &["hunyuan_a13b", "hunyuan"],
            TextFormat::Granite => &[],
            TextFormat::GraniteFc => &["granite-20b-fc"],
            TextFormat::InternLm => &["interns1"],
            TextFormat::LongCat => &[],
            TextFormat::Nemotron => &["nemotron_v2"],
            TextFormat::Harmony => &["openai", "gpt_oss"],
            TextFormat::Gemma4 => &[],
            TextFormat::FunctionGemma => &[],
            TextFormat::Lfm2 => &[],
            TextFormat::Olmo3 => &[],
            TextFormat::Functionary => &["functionary_v3_1_llama_3_1"],
            TextFormat::Apertus => &["apertus2509"],
            // `cohere` was this format's name before it was `command_r`.
            TextFormat::CommandR => &[
                "cohere",
                "cohere_command3",
                "cohere_command4",
                "command_r7b",
            ],
            TextFormat::Glm => &["glm45", "glm47", "ling3", "poolside_v1"],
            TextFormat::HyV3 => &["hy_v4"],
            TextFormat::K2Horizon => &["k2_v3"],
            TextFormat::MinimaxM2 => &["minimax-m2"],
            TextFormat::MiniCpm5 => &["minicpm4"],
            TextFormat::Step3 => &[],
            TextFormat::SeedOss => &[],
            TextFormat::Plamo3 => &[],
            TextFormat::DeepSeekV3 => &["deepseekv3", "deepseek_r1"],
            TextFormat::DeepSeekV31 => &["deepseekv31", "deepseek_v3_1"],
            TextFormat::DeepSeekV32 => &["deepseekv32"],
            TextFormat::DeepSeekV4 => &["deepseekv4"],
            TextFormat::DeepSeekV41 => &[],
            TextFormat::KimiK2 => &[],
            TextFormat::KimiK3 => &[],
            TextFormat::Xlam => &[],
            TextFormat::Phi4Mini => &["phi4_mini_json", "firefunction_v2"],
            TextFormat::Dots => &[],
            TextFormat::GigaChat => &["gigachat3", "gigachat35"],
            TextFormat::Inkling => &[],
            TextFormat::FunctionaryV32 => &["functionary_v3_2"],
            TextFormat::MinimaxM3 => &["minimax-m3"],
            // llama.cpp's test names it by its template.
            TextFormat::CommandRPlus => &["cohereforai_c4ai_command_r_plus_tool_use"],
            TextFormat::Muse => &["muse_glimmer", "musespark1x"],
            TextFormat::HermesVariants => &[],
        }
    }

    /// The bytes a call in this format can start with, and the backtick that starts code (whose
    /// content is prose in every format); the scanner looks at nothing else.
    pub(crate) fn triggers(self) -> &'static [u8] {
        match self {
            TextFormat::Auto => b"<[`{",
            TextFormat::Hermes
            | TextFormat::QwenXml
            | TextFormat::Jamba
            | TextFormat::Granite
            | TextFormat::GraniteFc
            | TextFormat::InternLm
            | TextFormat::LongCat
            | TextFormat::Nemotron
            | TextFormat::Harmony
            | TextFormat::Gemma4
            | TextFormat::FunctionGemma
            | TextFormat::Lfm2
            | TextFormat::Olmo3
            | TextFormat::Functionary
            | TextFormat::Apertus
            | TextFormat::CommandR => b"<`",
            TextFormat::Glm
            | TextFormat::HyV3
            | TextFormat::K2Horizon
            | TextFormat::MinimaxM2
            | TextFormat::MiniCpm5
            | TextFormat::Step3
            | TextFormat::SeedOss
            | TextFormat::Plamo3 => b"<`",
            TextFormat::DeepSeekV3
            | TextFormat::DeepSeekV31
            | TextFormat::DeepSeekV32
            | TextFormat::DeepSeekV4
            | TextFormat::DeepSeekV41
            | TextFormat::KimiK2
            | TextFormat::KimiK3 => b"<`",
            TextFormat::Mistral => b"[`",
            TextFormat::Llama3 => b"<{`",
            TextFormat::Pythonic => b"[<`",
            TextFormat::Envelope => b"{`",
            TextFormat::Fenced => b"`",
            TextFormat::Xlam => b"[<`",
            // `functools[` is found as a word (`trigger_word`).
            TextFormat::Phi4Mini => b"<`",
            TextFormat::Dots | TextFormat::GigaChat | TextFormat::Inkling => b"<`",
            // `>>>` is found as a word (`trigger_words`), the first recipient by the scan.
            TextFormat::FunctionaryV32 => b"<`",
            // Its block's opening is found as a word (`trigger_words`).
            TextFormat::MinimaxM3 => b"<`",
            // `Action:` is found as a word (`trigger_words`).
            TextFormat::CommandRPlus => b"<`",
            TextFormat::Muse => b"<`",
            TextFormat::HermesVariants => b"<{`",
        }
    }

    /// Markers whose first byte is too common in prose to stop at (a letter, `>`), found
    /// whole rather than by that byte.
    pub(crate) fn trigger_words(self) -> Option<&'static Words> {
        const FUNCTOOLS: &[u8] = super::phi4::MARKER.as_bytes();
        const RECIPIENT: &[u8] = super::recipients::MARKER.as_bytes();
        const MINIMAX: &[u8] = super::minimax_m3::OPEN.as_bytes();
        const ACTION: &[u8] = super::command_r::MARKER.as_bytes();
        static AUTO: Words = Words::new(&[FUNCTOOLS, RECIPIENT, MINIMAX, ACTION]);
        static COMMAND_R_PLUS: Words = Words::new(&[ACTION]);
        static MINIMAX_M3: Words = Words::new(&[MINIMAX]);
        static PHI4_MINI: Words = Words::new(&[FUNCTOOLS]);
        static FUNCTIONARY_V32: Words = Words::new(&[RECIPIENT]);
        match self {
            TextFormat::Auto => Some(&AUTO),
            TextFormat::CommandRPlus => Some(&COMMAND_R_PLUS),
            TextFormat::MinimaxM3 => Some(&MINIMAX_M3),
            TextFormat::Phi4Mini => Some(&PHI4_MINI),
            TextFormat::FunctionaryV32 => Some(&FUNCTIONARY_V32),
            _ => None,
        }
    }

    /// Whether calls of `other`'s kind are looked for when parsing in this format.
    pub(crate) fn includes(self, other: TextFormat) -> bool {
        self == TextFormat::Auto || self == other
    }
}

impl fmt::Display for TextFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no [`TextFormat`]'s (nor one of its aliases).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown text format `{name}`; expected auto or one of: {}", known())]
pub struct UnknownTextFormat {
    /// The name given.
    pub name: String,
}

fn known() -> String {
    TextFormat::ALL
        .iter()
        .map(|f| f.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A format by its [`name`](TextFormat::name) or one of its [`aliases`](TextFormat::aliases)
/// (vLLM's and SGLang's parser names), case and `-`/`_` aside.
///
/// ```
/// use tool_runtime::text::TextFormat;
///
/// assert_eq!("hermes".parse::<TextFormat>().unwrap(), TextFormat::Hermes);
/// assert_eq!("qwen3_coder".parse::<TextFormat>().unwrap(), TextFormat::QwenXml);
/// assert_eq!("hunyuan-a13b".parse::<TextFormat>().unwrap(), TextFormat::Jamba);
/// assert_eq!("deepseekv31".parse::<TextFormat>().unwrap(), TextFormat::DeepSeekV31);
/// assert!("nope".parse::<TextFormat>().is_err());
/// ```
impl FromStr for TextFormat {
    type Err = UnknownTextFormat;

    fn from_str(text: &str) -> Result<TextFormat, UnknownTextFormat> {
        let wanted = text.trim().to_ascii_lowercase().replace('-', "_");
        std::iter::once(TextFormat::Auto)
            .chain(TextFormat::ALL)
            .find(|format| {
                format.name() == wanted
                    || format
                        .aliases()
                        .iter()
                        .any(|alias| alias.replace('-', "_") == wanted)
            })
            .ok_or_else(|| UnknownTextFormat {
                name: text.to_owned(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_and_alias_reads_back_and_serde_agrees() {
        for format in std::iter::once(TextFormat::Auto).chain(TextFormat::ALL) {
            assert_eq!(format.name().parse::<TextFormat>(), Ok(format));
            let json = serde_json::to_string(&format).unwrap();
            assert_eq!(json, format!("\"{}\"", format.name()));
            for alias in format.aliases() {
                assert_eq!(alias.parse::<TextFormat>(), Ok(format), "{alias}");
            }
        }
        let names: Vec<&str> = TextFormat::ALL
            .iter()
            .flat_map(|f| std::iter::once(f.name()).chain(f.aliases().iter().copied()))
            .collect();
        let unique: std::collections::HashSet<&&str> = names.iter().collect();
        assert_eq!(unique.len(), names.len(), "a name means one format");
    }
}
