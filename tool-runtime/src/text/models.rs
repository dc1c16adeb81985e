//! Which format a model writes its calls in, from its name or its chat template.
//!
//! The name table follows what vLLM's and SGLang's docs tell users to pass as
//! `--tool-call-parser` for each model family, and llama.cpp's choice of parser per template;
//! the template table looks for the call markup the template itself writes (a template that
//! renders past calls into history shows exactly the markup the model was trained on).

use super::format::TextFormat;

/// Model-name fragments, matched in order against the lowercased name (most specific first),
/// and the format each family writes.
const BY_NAME: &[(&str, TextFormat)] = &[
    // xLAM-2 is Llama- or Qwen-based: before both.
    ("xlam", TextFormat::Xlam),
    ("phi-4-mini", TextFormat::Phi4Mini),
    ("phi4-mini", TextFormat::Phi4Mini),
    // A Llama 3 fine-tune: before Llama's.
    ("firefunction", TextFormat::Phi4Mini),
    ("dots.llm", TextFormat::Dots),
    ("gigachat", TextFormat::GigaChat),
    ("inkling", TextFormat::Inkling),
    ("muse", TextFormat::Muse),
    ("functionary-medium-v3.2", TextFormat::FunctionaryV32),
    ("functionary-small-v3.2", TextFormat::FunctionaryV32),
    ("functionary-v3.2", TextFormat::FunctionaryV32),
    // Qwen's XML calls, before the other Qwen models' Hermes tags.
    ("deepseek-v3.1", TextFormat::DeepSeekV31),
    ("deepseek-v3.2-exp", TextFormat::DeepSeekV31),
    ("deepseek-v3.2", TextFormat::DeepSeekV32),
    ("deepseek-v4.1", TextFormat::DeepSeekV41),
    ("deepseek-v4", TextFormat::DeepSeekV4),
    ("deepseek-v3", TextFormat::DeepSeekV3),
    ("deepseek-r1", TextFormat::DeepSeekV3),
    ("kimi-k2", TextFormat::KimiK2),
    ("kimi-k3", TextFormat::KimiK3),
    ("glm-4", TextFormat::Glm),
    ("ling-3", TextFormat::Glm),
    ("minimax-m2", TextFormat::MinimaxM2),
    ("minimax-m3", TextFormat::MinimaxM3),
    ("minicpm5", TextFormat::MiniCpm5),
    ("minicpm-5", TextFormat::MiniCpm5),
    ("seed-oss", TextFormat::SeedOss),
    ("plamo-3", TextFormat::Plamo3),
    ("qwen3-coder", TextFormat::QwenXml),
    ("qwen3.5", TextFormat::QwenXml),
    ("qwen3_5", TextFormat::QwenXml),
    ("nemotron-3", TextFormat::QwenXml),
    ("step-3.5", TextFormat::QwenXml),
    ("step3p5", TextFormat::QwenXml),
    ("mimo", TextFormat::QwenXml),
    ("qwen", TextFormat::Hermes),
    ("qwq", TextFormat::Hermes),
    ("hermes", TextFormat::Hermes),
    ("granite-4", TextFormat::Hermes),
    ("granite4", TextFormat::Hermes),
    ("ernie-4.5", TextFormat::Hermes),
    ("granite-20b-functioncalling", TextFormat::GraniteFc),
    ("granite", TextFormat::Granite),
    ("mistral", TextFormat::Mistral),
    ("mixtral", TextFormat::Mistral),
    ("ministral", TextFormat::Mistral),
    ("magistral", TextFormat::Mistral),
    ("devstral", TextFormat::Mistral),
    ("codestral", TextFormat::Mistral),
    ("toolace", TextFormat::Pythonic),
    ("llama-4", TextFormat::Pythonic),
    ("llama4", TextFormat::Pythonic),
    ("llama-3", TextFormat::Llama3),
    ("llama3", TextFormat::Llama3),
    ("jamba", TextFormat::Jamba),
    ("hunyuan-a13b", TextFormat::Jamba),
    ("apriel", TextFormat::Jamba),
    ("internlm", TextFormat::InternLm),
    ("intern-s1", TextFormat::InternLm),
    ("longcat", TextFormat::LongCat),
    ("nemotron-nano", TextFormat::Nemotron),
    ("gpt-oss", TextFormat::Harmony),
    ("functiongemma", TextFormat::FunctionGemma),
    ("gemma-4", TextFormat::Gemma4),
    ("gemma4", TextFormat::Gemma4),
    ("gemma-3", TextFormat::Pythonic),
    ("lfm2", TextFormat::Lfm2),
    ("olmo-3", TextFormat::Olmo3),
    ("olmo3", TextFormat::Olmo3),
    ("functionary", TextFormat::Functionary),
    ("apertus", TextFormat::Apertus),
    ("command-r7b", TextFormat::CommandR),
    ("command-r-plus", TextFormat::CommandRPlus),
    ("command-a", TextFormat::CommandR),
    ("c4ai-command", TextFormat::CommandR),
];

/// Markup a chat template writes for a past call, and the format it is; matched in order.
const BY_TEMPLATE: &[(&str, TextFormat)] = &[
    ("<atem:function_calls>", TextFormat::Muse),
    ("<|channel|>", TextFormat::Harmony),
    ("]<]minimax[>[", TextFormat::MinimaxM3),
    ("<dots_function_call>", TextFormat::Dots),
    ("<|role_sep|>", TextFormat::GigaChat),
    ("<|content_invoke_tool_json|>", TextFormat::Inkling),
    ("<|tool_call>", TextFormat::Gemma4),
    ("<start_function_call>", TextFormat::FunctionGemma),
    ("<|tool_call_start|>", TextFormat::Lfm2),
    ("<function_calls>", TextFormat::Olmo3),
    ("<|tools_prefix|>", TextFormat::Apertus),
    ("<|START_ACTION|>", TextFormat::CommandR),
    ("<function=", TextFormat::QwenXml),
    ("<tool_calls>", TextFormat::Jamba),
    ("<tool_call>", TextFormat::Hermes),
    ("[TOOL_CALLS]", TextFormat::Mistral),
    ("<|tool_call|>", TextFormat::Granite),
    ("<function_call>", TextFormat::GraniteFc),
    ("<|action_start|>", TextFormat::InternLm),
    ("<longcat_tool_call>", TextFormat::LongCat),
    ("<TOOLCALL>", TextFormat::Nemotron),
    ("<|python_tag|>", TextFormat::Llama3),
    ("<|python_start|>", TextFormat::Pythonic),
    ("functools[", TextFormat::Phi4Mini),
    // Command R+'s tool-use template asks for `Action:` and a fenced list.
    ("Action:", TextFormat::CommandRPlus),
    // Functionary v3.2's recipients: last, the marker is short.
    (">>>", TextFormat::FunctionaryV32),
];

impl TextFormat {
    /// The format a model writes calls in, from its name as a hub or a server gives it
    /// (`deepseek-ai/DeepSeek-V3.1`, `Qwen/Qwen3-Coder-30B-A3B-Instruct`, a GGUF file name);
    /// [`Auto`](TextFormat::Auto) when the name says nothing known. Case does not matter.
    ///
    /// ```
    /// use tool_runtime::text::TextFormat;
    ///
    /// assert_eq!(TextFormat::for_model("Qwen/Qwen3-Coder-30B-A3B-Instruct"), TextFormat::QwenXml);
    /// assert_eq!(TextFormat::for_model("Qwen/Qwen2.5-7B-Instruct"), TextFormat::Hermes);
    /// assert_eq!(TextFormat::for_model("mistralai/Mistral-Small-3.2-24B"), TextFormat::Mistral);
    /// assert_eq!(TextFormat::for_model("my-own-model"), TextFormat::Auto);
    /// ```
    pub fn for_model(name: &str) -> TextFormat {
        let name = name.to_ascii_lowercase();
        BY_NAME
            .iter()
            .find(|(fragment, _)| name.contains(fragment))
            .map_or(TextFormat::Auto, |&(_, format)| format)
    }

    /// The format a chat template (its Jinja text) writes calls in, by the markup it renders
    /// past calls with; [`Auto`](TextFormat::Auto) when it shows none known.
    ///
    /// ```
    /// use tool_runtime::text::TextFormat;
    ///
    /// let template = "{%- for tool_call in message.tool_calls %}<tool_call>\n{{ tool_call | tojson }}\n</tool_call>{%- endfor %}";
    /// assert_eq!(TextFormat::for_template(template), TextFormat::Hermes);
    /// ```
    pub fn for_template(template: &str) -> TextFormat {
        BY_TEMPLATE
            .iter()
            .find(|(markup, _)| template.contains(markup))
            .map_or(TextFormat::Auto, |&(_, format)| format)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_pick_their_family() {
        let cases = [
            ("Qwen/Qwen3-8B", TextFormat::Hermes),
            ("Qwen/Qwen3.5-32B", TextFormat::QwenXml),
            ("NousResearch/Hermes-3-Llama-3.1-8B", TextFormat::Hermes),
            ("meta-llama/Llama-3.1-8B-Instruct", TextFormat::Llama3),
            (
                "meta-llama/Llama-4-Scout-17B-16E-Instruct",
                TextFormat::Pythonic,
            ),
            ("ibm-granite/granite-3.3-8b-instruct", TextFormat::Granite),
            ("ibm-granite/granite-4.0-h-small", TextFormat::Hermes),
            (
                "ibm-granite/granite-20b-functioncalling",
                TextFormat::GraniteFc,
            ),
            ("ai21labs/AI21-Jamba-Mini-1.6", TextFormat::Jamba),
            ("tencent/Hunyuan-A13B-Instruct", TextFormat::Jamba),
            ("internlm/internlm2_5-7b-chat", TextFormat::InternLm),
            ("meituan-longcat/LongCat-Flash-Chat", TextFormat::LongCat),
            ("nvidia/NVIDIA-Nemotron-Nano-9B-v2", TextFormat::Nemotron),
            ("mistral-7b-instruct-v0.3.Q4_K_M.gguf", TextFormat::Mistral),
            ("openai/gpt-oss-20b", TextFormat::Harmony),
            ("deepseek-ai/DeepSeek-V3.1", TextFormat::DeepSeekV31),
            ("Salesforce/Llama-xLAM-2-8b-fc-r", TextFormat::Xlam),
            ("Salesforce/xLAM-2-32b-fc-r", TextFormat::Xlam),
            ("microsoft/Phi-4-mini-instruct", TextFormat::Phi4Mini),
            ("fireworks-ai/llama-3-firefunction-v2", TextFormat::Phi4Mini),
            ("rednote-hilab/dots.llm1.inst", TextFormat::Dots),
            ("ai-sage/GigaChat3-10B-A1.8B", TextFormat::GigaChat),
            (
                "meetkai/functionary-medium-v3.2",
                TextFormat::FunctionaryV32,
            ),
            ("meetkai/functionary-medium-v3.1", TextFormat::Functionary),
            ("deepseek-ai/DeepSeek-V3-0324", TextFormat::DeepSeekV3),
            ("moonshotai/Kimi-K2-Instruct", TextFormat::KimiK2),
            ("zai-org/GLM-4.6", TextFormat::Glm),
            ("MiniMaxAI/MiniMax-M2", TextFormat::MinimaxM2),
            ("MiniMaxAI/MiniMax-M3", TextFormat::MinimaxM3),
            ("CohereForAI/c4ai-command-r-plus", TextFormat::CommandRPlus),
            ("ByteDance-Seed/Seed-OSS-36B-Instruct", TextFormat::SeedOss),
            ("google/gemma-4-31b-it", TextFormat::Gemma4),
            ("google/functiongemma-270m-it", TextFormat::FunctionGemma),
            ("LiquidAI/LFM2-1.2B", TextFormat::Lfm2),
            ("allenai/Olmo-3-7B-Instruct", TextFormat::Olmo3),
            ("CohereLabs/c4ai-command-r7b-12-2024", TextFormat::CommandR),
        ];
        for (name, format) in cases {
            assert_eq!(TextFormat::for_model(name), format, "{name}");
        }
    }

    #[test]
    fn every_format_a_table_names_is_a_real_one_and_templates_match_their_own_calls() {
        use crate::text::write_calls;
        use crate::ToolCall;
        let call = [ToolCall::new("c", "f", "{\"a\": 1}")];
        for &(markup, format) in BY_TEMPLATE {
            // Llama's templates mark built-in tool calls with a token our written calls (JSON
            // objects, pythonic lists) don't carry.
            if matches!(format, TextFormat::Llama3 | TextFormat::Pythonic) {
                continue;
            }
            // The markup is what the format itself writes for a call.
            assert!(
                write_calls(format, &call).contains(markup),
                "{format:?}: {markup}"
            );
            assert_eq!(
                TextFormat::for_template(&write_calls(format, &call)),
                format
            );
        }
    }
}
