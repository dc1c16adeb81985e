//! The tools as each model family's own chat template shows them, so that a model served
//! without native tool calling sees what it was trained on: the words, the markup around the
//! tool list, and each tool as the template writes it (JSON as `tojson` does, a TypeScript
//! namespace, a Python signature). Only the template's text is reproduced: the role tokens
//! around it are the server's, and the result is a system prompt.
//!
//! Each prompt is checked against its template rendered by transformers' Jinja environment
//! (`scripts/render-prompt-templates.py` writes `tests/fixtures/prompts/`, and
//! `tests/text_prompt_templates.rs` finds each prompt in its rendering). vLLM's templates are
//! its `examples/tool_chat_template_*.jinja` (0.33.0); llama.cpp's are its
//! `models/templates/*.jinja` (as vendored in llama-cpp-python 0.3.36).
//!
//! | format | template | what the prompt is |
//! |---|---|---|
//! | Hermes | llama.cpp `Qwen-Qwen2.5-7B-Instruct` | `# Tools`, `<tools>` with a tool a line, the `<tool_call>` instructions |
//! | Qwen XML | vLLM `qwen3coder` | `<tools>` of `<function><name>..<parameters>..`, the `<IMPORTANT>` reminder |
//! | Mistral | vLLM `mistral` | `[AVAILABLE_TOOLS] [..][/AVAILABLE_TOOLS]` |
//! | Llama 3 | vLLM `llama3.2_json` | "You have access to the following functions...", each tool as indented JSON |
//! | Pythonic | vLLM `llama3.2_pythonic` | the same, with "a python list of the calls" |
//! | Jamba | vLLM `hunyuan_a13b` | Hunyuan-A13B's instructions (Chinese) around the JSON list; its date line is left out |
//! | Granite | vLLM `granite` | the system sentence and the tools (the template's `available_tools` role header is written "Available tools:") |
//! | Granite 20B FC | vLLM `granite_20b_fc` | the system sentence and `<\|function_call_library\|>`, as the template writes it (a description's closing quote missing) |
//! | InternLM | vLLM `internlm2_tool` | the JSON list the template puts in its `<\|plugin\|>` system message |
//! | Nemotron | llama.cpp `NVIDIA-Nemotron-Nano-v2` | `<AVAILABLE_TOOLS>` and the `<TOOLCALL>` instructions |
//! | LFM2 | llama.cpp `LFM2-8B-A1B` | `List of tools: <\|tool_list_start\|>[..]<\|tool_list_end\|>` |
//! | Functionary | llama.cpp `meetkai-functionary-medium-v3.1` | "Use the function .." per tool and the `<function=..>` rules |
//! | Cohere | llama.cpp `CohereForAI-c4ai-command-r7b-12-2024-tool_use` | the `## Tool Use` and `## Available Tools` sections |
//! | GLM | llama.cpp `GLM-4.6` | `<tools>` and the `<arg_key>`/`<arg_value>` instructions |
//! | Hy3 | llama.cpp `tencent-Hy3` | the same with `<tool_calls:opensource>`, every token with the template's suffix |
//! | MiniMax-M2 | llama.cpp `MiniMax-M2` | `<tools>` of `<tool>`s and the `<minimax:tool_call>` instructions |
//! | MiniCPM 5 | llama.cpp `openbmb-MiniCPM5-1B` | `<tools>` and the "Tool usage guidelines" |
//! | DeepSeek V3 | vLLM `deepseekv3` | `# Tools` and the `<｜tool▁calls▁begin｜>` instructions, spacing as the template leaves it |
//! | DeepSeek V3.1 | vLLM `deepseekv31` | `## Tools`, a `###` section a tool, the `IMPORTANT` rules |
//! | DeepSeek V3.2 | llama.cpp `deepseek-ai-DeepSeek-V3.2` | the DSML `<｜DSML｜function_calls>` instructions and `<functions>` |
//! | DeepSeek V4 | llama.cpp `deepseek-ai-DeepSeek-V4` | the DSML `<｜DSML｜tool_calls>` instructions and the tool schemas |
//! | Kimi K2 | llama.cpp `Kimi-K2-Instruct` | the JSON list of its `tool_declare` message (the template has no words) |
//! | Kimi K3 | llama.cpp `Kimi-K3` | `# Tools` and the tools as compact JSON, keys sorted |
//! | FunctionGemma | vLLM `functiongemma` | FunctionGemma's documented system sentence (the template lists tools only after a system message) and its "Available functions" |
//! | Harmony | llama.cpp `openai-gpt-oss-120b` | the developer message's `# Tools`: `namespace functions { type f = (_: {..}) => any; }`, TypeScript from the schema (`typescript.rs`) |
//! | Apertus | llama.cpp `Apertus-8B-Instruct` | "Tool Capabilities:" and the same TypeScript without the namespace |
//! | GigaChat | llama.cpp `GigaChat3-10B-A1.8B` (3.1's is the same) | the `function descriptions` message: its own TypeScript, indented, bounds and defaults as comments |
//! | Functionary v3.2 | llama.cpp `meetkai-functionary-medium-v3.2` | the `>>>${recipient}` rules and its own TypeScript namespace (`functionary_ts.rs`) |
//! | Seed-OSS | llama.cpp `ByteDance-Seed-OSS` | each tool as a Python signature with a docstring (`signatures.rs`), the `<seed:tool_call>` format |
//! | Gemma 4 | vLLM `gemma4` | `<\|tool>declaration:f{..}<tool\|>` per tool, in Gemma's object syntax |
//! | xLAM | vLLM `xlam_llama` (`xlam_qwen`'s is the same) | the JSON-array instructions and each tool as indented JSON |
//! | Phi-4-mini | vLLM `phi4_mini` | the `functools[..]` rules and each tool as indented JSON |
//! | MiniMax-M3 | llama.cpp `MiniMax-M3` | MiniMax-M2's `<tools>` and the `]<]minimax[>[` markup example |
//! | Muse | vLLM `muse_glimmer` | the `atem` instructions, the tool metadata and schemas, the example and the valid recipients |
//! | Hermes 2 Pro wrappers | llama.cpp `NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use` | a JSON-looking line a tool, its description a Python signature and `Args:` list (every array `list[Union[]]`, as the template's macro writes it under Jinja), and the `<tool_call>` convention |
//!
//! The rest keep the generic prompt of `prompt.rs` with their call convention, for want of a
//! template in the peers read (vLLM 0.33.0, llama.cpp as vendored in llama-cpp-python 0.3.36,
//! SGLang 0.5.10, which ships none): Envelope and Fenced (llama.cpp's generic formats, no
//! family), LongCat, OLMo 3, PLaMo 3, K2 Horizon, Dots and Inkling (no template of theirs);
//! Step-3 (`StepFun3.5-Flash` is Step-3.5's, which writes `QwenXml`); DeepSeek V4.1
//! (`deepseek-ai-DeepSeek-V4-Flash-0731` teaches V4's `<｜DSML｜tool_calls>`, not V4.1's spaced
//! tags). Command R+'s tool-use template (`CohereForAI-c4ai-command-r-plus-tool_use`) is not
//! reproduced: its Python-type macro reads `additionalProperties` and `items` unguarded, so
//! transformers' Jinja (vLLM) fails on an object parameter without `additionalProperties` and
//! llama.cpp's minja renders something else; no one text is the one the model sees. A format named after several models
//! takes the template named in the table.

pub(crate) mod functionary_ts;
pub(crate) mod hermes2pro;
pub(crate) mod json_lists;
pub(crate) mod markup;
pub(crate) mod signatures;
pub(crate) mod special_tokens;
pub(crate) mod typescript;

use crate::ToolSpec;
use serde_json::{json, Map, Value};

/// JSON as the templates' `tojson` writes it (Python's `json.dumps`): `", "` and `": "`
/// between items, non-ASCII kept.
fn py_json(value: &Value) -> String {
    match value {
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(py_json).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(map) => {
            let entries: Vec<String> = map
                .iter()
                .map(|(key, value)| format!("{}: {}", Value::from(key.as_str()), py_json(value)))
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
        scalar => scalar.to_string(),
    }
}

/// `value` as Python's `str` writes it, which is what Jinja's `~`, `join` and `string` give
/// the templates: text as it is, `True`/`False`/`None`, lists and dicts as Python literals.
fn py_str(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => py_repr(other),
    }
}

/// `value` as Python's `repr` writes it (the items of a list or dict are written so).
fn py_repr(value: &Value) -> String {
    match value {
        Value::Null => "None".to_owned(),
        Value::Bool(true) => "True".to_owned(),
        Value::Bool(false) => "False".to_owned(),
        Value::Number(number) => number.to_string(),
        Value::String(text) => {
            // Python quotes with `'` unless the text has one and no `"`.
            let quote = if text.contains('\'') && !text.contains('"') {
                '"'
            } else {
                '\''
            };
            let mut out = String::from(quote);
            for c in text.chars() {
                match c {
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    c if c == quote => {
                        out.push('\\');
                        out.push(c);
                    }
                    c => out.push(c),
                }
            }
            out.push(quote);
            out
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(py_repr).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(map) => {
            let entries: Vec<String> = map
                .iter()
                .map(|(key, value)| {
                    format!(
                        "{}: {}",
                        py_repr(&Value::from(key.as_str())),
                        py_repr(value)
                    )
                })
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
    }
}

/// Whether Jinja takes `value` as true: not null, false, zero or empty.
fn is_true(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(flag) => *flag,
        Value::Number(number) => number.as_f64().is_some_and(|n| n != 0.0),
        Value::String(text) => !text.is_empty(),
        Value::Array(items) => !items.is_empty(),
        Value::Object(map) => !map.is_empty(),
    }
}

/// JSON as `tojson(indent=4)` writes it.
fn indented_json(value: &Value) -> String {
    use serde::Serialize;
    let mut out = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(
        &mut out,
        serde_json::ser::PrettyFormatter::with_indent(b"    "),
    );
    // A `Value` always serializes, and as UTF-8.
    let _ = value.serialize(&mut serializer);
    String::from_utf8(out).unwrap_or_default()
}

/// `value` with every object's keys sorted, as `tojson(sort_keys=true)` writes it (the
/// crate's maps keep their insertion order).
fn sorted(value: &Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(key, value)| (key.clone(), sorted(value)))
                    .collect::<Map<String, Value>>(),
            )
        }
        scalar => scalar.clone(),
    }
}

/// A tool as chat templates receive it: `{"type": "function", "function": {..}}`.
fn openai_tool(spec: &ToolSpec) -> Value {
    json!({"type": "function", "function": function(spec)})
}

/// The `function` part of a tool: `{"name", "description", "parameters"}`.
fn function(spec: &ToolSpec) -> Value {
    json!({
        "name": spec.name(),
        "description": spec.description().trim(),
        "parameters": spec.input_schema(),
    })
}

/// Each tool as `tool` writes it, one a line.
fn lines(tools: &[&ToolSpec], tool: impl Fn(&ToolSpec) -> String) -> String {
    tools
        .iter()
        .map(|spec| tool(spec))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The tools as one JSON list, each as `tool` makes it, as `tojson` writes it.
fn json_list(tools: &[&ToolSpec], tool: impl Fn(&ToolSpec) -> Value) -> String {
    py_json(&Value::Array(tools.iter().map(|spec| tool(spec)).collect()))
}
