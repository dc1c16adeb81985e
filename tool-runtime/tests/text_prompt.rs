//! The text-calling contract end to end: the prompt a registry writes for each format, and a
//! reply written exactly as it instructs, parsed back with the same registry.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};
use tool_runtime::text::{self, write_calls, TextFormat};
use tool_runtime::{tool, Registry, ToolCall};

/// Get the current weather for a city.
#[tool(read_only)]
fn get_weather(
    /// The city, e.g. "Paris".
    city: String,
    /// How many days to forecast.
    days: u32,
    /// Whether to use metric units.
    metric: Option<bool>,
) -> String {
    format!("{city} {days} {metric:?}")
}

/// Write a file.
#[tool(destructive)]
fn write_file(
    /// Where to write.
    path: String,
    /// What to write.
    content: String,
    /// Lines to add after it.
    extra: Vec<String>,
) -> String {
    format!("{path} {content} {extra:?}")
}

fn registry() -> Registry {
    Registry::builder()
        .without_inventory()
        .register_all([get_weather::TOOL, write_file::TOOL])
        .build()
        .unwrap()
}

fn formats() -> impl Iterator<Item = TextFormat> {
    TextFormat::ALL.into_iter().chain([TextFormat::Auto])
}

#[test]
fn the_prompt_lists_every_tool_and_the_convention() {
    let registry = registry();
    for format in formats() {
        let prompt = text::tool_prompt(format, registry.specs());
        // A family's own template shows each tool its way (checked against the template
        // itself in `text_prompt_templates.rs`); the generic prompt has a section a tool.
        let family = !prompt.contains("For example:\n\n");
        for spec in registry.specs() {
            assert!(prompt.contains(spec.name()), "{format:?}");
            assert!(prompt.contains(spec.description().trim()), "{format:?}");
            if !family {
                assert!(
                    prompt.contains(&format!("## {}", spec.name())),
                    "{format:?}"
                );
                assert!(
                    prompt.contains(&spec.input_schema().to_string()),
                    "{format:?}"
                );
            }
        }
        let marker = match format {
            TextFormat::Hermes | TextFormat::Auto | TextFormat::QwenXml => "<tool_call>",
            TextFormat::Mistral => "[AVAILABLE_TOOLS]",
            TextFormat::Llama3 => "\"parameters\"",
            TextFormat::Pythonic => "python list",
            TextFormat::Envelope => "\"tool_calls\"",
            TextFormat::Fenced => "```json",
            // Its template's convention: the recipient follows the marker at once.
            TextFormat::FunctionaryV32 => ">>>${recipient}",
            // Some families' templates show no call markup (InternLM's, LFM2's, Kimi K2's list
            // alone): their prompt is their template's.
            _ if family => continue,
            // Every other format's markup is what it writes for a call.
            other => {
                let call = ToolCall::new("c", "f", "{}");
                let written = write_calls(other, &[call]);
                // The markup before the name: what the convention shows around `<tool name>`.
                let opening: String = written.chars().take(6).collect();
                assert!(!opening.is_empty(), "{other:?}: {written}");
                assert!(
                    prompt.contains(&opening),
                    "{other:?}: {opening} in {prompt}"
                );
                continue;
            }
        };
        assert!(prompt.contains(marker), "{format:?}: {prompt}");
    }
}

#[test]
fn the_prompts_example_parses_back_to_its_call() {
    let registry = registry();
    for format in formats() {
        let prompt = text::tool_prompt(format, registry.specs());
        // A family template has its own words, without an example call of ours.
        let Some(example) = prompt
            .split_once("For example:\n\n")
            .and_then(|(_, rest)| rest.split_once("\n\nCall tools only"))
            .map(|(example, _)| example)
        else {
            continue;
        };
        let parsed = text::parse(example, format, &registry);
        assert_eq!(parsed.text, "", "{format:?}: {example}");
        assert!(parsed.errors.is_empty(), "{format:?}: {:?}", parsed.errors);
        assert_eq!(parsed.calls.len(), 1, "{format:?}: {example}");
        let call = &parsed.calls[0];
        assert_eq!(call.name, "get_weather");
        let arguments: Value = serde_json::from_str(&call.arguments).unwrap();
        assert_eq!(arguments, json!({"city": "text", "days": 1}), "{format:?}");
        // And the tool takes them.
        assert!(
            !registry
                .call_blocking(&call.name, &call.arguments)
                .is_error(),
            "{format:?}"
        );
    }
}

#[test]
fn replies_written_as_instructed_parse_back_to_the_same_calls() {
    let registry = registry();
    let calls = [
        ToolCall::new(
            "a",
            "get_weather",
            r#"{"city": "São Paulo", "days": 3, "metric": false}"#,
        ),
        ToolCall::new(
            "b",
            "write_file",
            json!({
                "path": "src/lib.rs",
                "content": "fn f() -> &'static str {\n    \"a\\\\b </tool_call> {}\"\n}\n",
                "extra": ["// end", "x = [1, 2]"],
            })
            .to_string(),
        ),
    ];
    for format in formats() {
        let reply = write_calls(format, &calls);
        // Models without prose rules may add some; the formats that allow it keep it apart.
        let with_prose = match format {
            TextFormat::Llama3 | TextFormat::Pythonic | TextFormat::Envelope => reply.clone(),
            _ => format!("Let me do both.\n{reply}\n"),
        };
        let parsed = text::parse(&with_prose, format, &registry);
        assert!(
            parsed.errors.is_empty(),
            "{format:?}: {:?}\n{with_prose}",
            parsed.errors
        );
        let back: Vec<(&str, Value)> = parsed
            .calls
            .iter()
            .map(|c| (c.name.as_str(), serde_json::from_str(&c.arguments).unwrap()))
            .collect();
        // Step-3's and dots.llm's values are trimmed when read, as vLLM's parsers trim them: a
        // string's surrounding whitespace can't survive those formats.
        let trim = |value: Value| match value {
            Value::Object(map) if matches!(format, TextFormat::Step3 | TextFormat::Dots) => {
                Value::Object(
                    map.into_iter()
                        .map(|(k, v)| match v {
                            Value::String(text) => (k, Value::String(text.trim().to_owned())),
                            other => (k, other),
                        })
                        .collect(),
                )
            }
            other => other,
        };
        let expected: Vec<(&str, Value)> = calls
            .iter()
            .map(|c| {
                let arguments = serde_json::from_str(&c.arguments).unwrap();
                (c.name.as_str(), trim(arguments))
            })
            .collect();
        assert_eq!(back, expected, "{format:?}:\n{with_prose}");
        let prose = with_prose.strip_suffix(&format!("{reply}\n")).unwrap_or("");
        assert_eq!(parsed.text, prose, "{format:?}");
    }
}
