//! The text formats models write tool calls in. What each declares about itself is in its
//! file under `formats/`.

use serde::{Deserialize, Serialize};

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
    /// Whether calls of `other`'s kind are looked for when parsing in this format.
    pub(crate) fn includes(self, other: TextFormat) -> bool {
        self == TextFormat::Auto || self == other
    }
}
