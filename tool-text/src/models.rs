//! Which format a model writes its calls in, from its name or its chat template.
//!
//! Each format lists its own model-name fragments and template markup (`formats/`), each
//! ranked: of all the fragments a name (or template) holds, the lowest rank wins. The names
//! follow what vLLM's and SGLang's docs tell users to pass as
//! `--tool-call-parser` for each model family, and llama.cpp's choice of parser per template;
//! the template table looks for the call markup the template itself writes (a template that
//! renders past calls into history shows exactly the markup the model was trained on).

use super::format::TextFormat;
use super::formats::{Format, FORMATS};

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
        best(|format| format.models, |fragment| name.contains(fragment))
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
        best(
            |format| format.templates,
            |markup| template.contains(markup),
        )
    }
}

/// The format of the lowest-ranked row of `rows` that `holds`; `Auto` when none does.
fn best(
    rows: impl Fn(&Format) -> &'static [(u16, &'static str)],
    holds: impl Fn(&str) -> bool,
) -> TextFormat {
    FORMATS
        .iter()
        .flat_map(|&format| rows(format).iter().map(move |row| (row, format.format)))
        .filter(|((_, text), _)| holds(text))
        .min_by_key(|((rank, _), _)| *rank)
        .map_or(TextFormat::Auto, |(_, format)| format)
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
    fn each_rank_is_given_once() {
        // Two rows of one rank would leave which wins to the list's order.
        for rows in [|f: &Format| f.models, |f: &Format| f.templates] {
            let mut ranks: Vec<u16> = FORMATS
                .iter()
                .flat_map(|&f| rows(f).iter().map(|&(rank, _)| rank))
                .collect();
            let count = ranks.len();
            ranks.sort_unstable();
            ranks.dedup();
            assert_eq!(ranks.len(), count);
        }
    }

    #[test]
    fn every_format_a_table_names_is_a_real_one_and_templates_match_their_own_calls() {
        use crate::write_calls;
        use crate::ToolCall;
        let call = [ToolCall::new("c", "f", "{\"a\": 1}")];
        let rows = FORMATS.iter().flat_map(|f| {
            f.templates
                .iter()
                .map(move |&(_, markup)| (markup, f.format))
        });
        for (markup, format) in rows {
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
