//! MCP custom headers (SEP-2243): `#[tool(mcp_header = "...")]` marks a property with
//! `x-mcp-header`, every export follows its provider's rules with it (MCP and the plain list
//! keep it, the strict and subset dialects leave it out), and the registry refuses an
//! annotation MCP clients would drop the tool for.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};
use std::collections::HashMap;
use tool_runtime::registry::BuildError;
use tool_runtime::registry::{BuildNote, McpHeaderProblem};
use tool_runtime::{tool, DynamicTool, Provider, Registry, ToolOutput};
use tool_test_support::rules::{dialects, violations};

/// Get the weather forecast for a region.
#[tool(read_only)]
fn forecast(
    /// The region, such as "eu-west".
    #[tool(mcp_header = "Region")]
    region: String,
    /// How many days ahead.
    #[tool(mcp_header = "Days", default = 3)]
    days: u8,
    /// Degrees Fahrenheit instead of Celsius.
    #[tool(mcp_header = "Fahrenheit")]
    fahrenheit: bool,
    /// A note for the forecaster: not a header.
    note: Option<String>,
) -> String {
    let unit = if fahrenheit { "F" } else { "C" };
    format!(
        "{days} days of 18°{unit} in {region}{}",
        note.unwrap_or_default()
    )
}

/// Tag a region with labels: a map, which Gemini's `parameters` subset can't say.
#[tool]
fn tag_region(
    /// The region.
    #[tool(mcp_header = "Region")]
    region: String,
    /// The labels.
    labels: HashMap<String, String>,
) -> usize {
    labels.len() + region.len()
}

/// Scale a price: a float, which MCP allows no header on.
#[tool]
fn scale_price(
    /// The factor.
    #[tool(mcp_header = "Factor")]
    factor: f64,
) -> f64 {
    factor
}

fn registry() -> Registry {
    Registry::builder()
        .without_inventory()
        .register(forecast::TOOL)
        .register(tag_region::TOOL)
        .build()
        .unwrap()
}

/// The pointers to every `x-mcp-header` in `value`.
fn annotations(value: &Value, pointer: &str, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let here = format!("{pointer}/{key}");
                if key == "x-mcp-header" {
                    found.push(pointer.to_owned());
                } else {
                    annotations(child, &here, found);
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                annotations(item, &format!("{pointer}/{i}"), found);
            }
        }
        _ => {}
    }
}

fn annotated(value: &Value) -> Vec<String> {
    let mut found = Vec::new();
    annotations(value, "", &mut found);
    found
}

#[test]
fn the_attribute_marks_each_property_and_only_it() {
    let registry = registry();
    let schema = registry.get("forecast").unwrap().input_schema();
    let properties = &schema["properties"];
    assert_eq!(properties["region"]["x-mcp-header"], "Region");
    assert_eq!(properties["days"]["x-mcp-header"], "Days");
    assert_eq!(properties["days"]["type"], "integer");
    assert_eq!(properties["fahrenheit"]["x-mcp-header"], "Fahrenheit");
    assert_eq!(
        annotated(schema),
        [
            "/properties/region",
            "/properties/days",
            "/properties/fahrenheit"
        ]
    );
    // The annotation changes nothing else: the call is the same.
    let output =
        registry.call_blocking("forecast", r#"{"region": "eu-west", "fahrenheit": false}"#);
    assert_eq!(output.to_model_text(), "3 days of 18°C in eu-west");
}

/// MCP and the plain list carry the schema as written; the strict dialects and Gemini's
/// `parameters` take only the keywords their providers list, so the annotation goes; the
/// others send JSON Schema, where an unknown keyword is allowed (an annotation, JSON Schema
/// 2020-12 §6.5), and keep it. Every export still follows its provider's rules.
#[test]
fn each_dialect_keeps_the_keyword_only_where_its_provider_takes_it() {
    let registry = registry();
    let plain = registry.export_plain().to_value();
    assert_eq!(annotated(&plain).len(), 4, "{plain:#}");
    for (provider, strict) in dialects() {
        let export = registry.export(provider).strict(strict).to_value();
        let found = violations(provider, &export);
        assert!(
            found.is_empty(),
            "{provider:?} strict={strict}:\n{}",
            found.join("\n")
        );
        let kept = annotated(&export);
        match (provider, strict) {
            (Provider::Mcp | Provider::OpenAiChat | Provider::OpenAiResponses, false)
            | (Provider::Anthropic | Provider::TensorZero, false) => {
                assert_eq!(kept.len(), 4, "{provider:?}: {kept:?}");
            }
            // `tag_region`'s map goes out as `parametersJsonSchema`, JSON Schema as it is;
            // `forecast` in the `parameters` subset, which has no such field.
            (Provider::Gemini, _) => {
                assert_eq!(
                    kept,
                    ["/functionDeclarations/1/parametersJsonSchema/properties/region"],
                    "{export:#}"
                );
            }
            // `forecast` goes out strict, without it; `tag_region`'s map can't be strict, so
            // it goes out as it is, keeping it.
            (_, true) => {
                assert_eq!(kept.len(), 1, "{provider:?} strict: {export:#}");
                assert!(kept[0].starts_with("/1/"), "{provider:?} strict: {kept:?}");
            }
            // Ollama's request types keep only the JSON Schema keywords its Go structs name: an
            // annotation would be dropped without a word, so it doesn't go out at all.
            (Provider::Ollama, _) => {
                assert!(kept.is_empty(), "{provider:?}: {kept:?}");
            }
            (other, _) => panic!("a dialect this test doesn't know: {other:?}"),
        }
    }
    // Strict mode still applies to the tools: the annotation is no reason to fall back.
    let openai = registry
        .export(Provider::OpenAiChat)
        .strict(true)
        .to_value();
    assert_eq!(openai[0]["function"]["strict"], true, "{openai:#}");
}

#[test]
fn a_header_on_a_float_is_a_build_error_naming_the_property() {
    let error = Registry::builder()
        .without_inventory()
        .register(forecast::TOOL)
        .register(scale_price::TOOL)
        .build()
        .unwrap_err();
    let BuildError::McpHeader { tool, problem } = &error else {
        panic!("{error}")
    };
    assert_eq!(tool, "scale_price");
    assert_eq!(problem.pointer, "/properties/factor");
    assert_eq!(
        problem.kind,
        McpHeaderProblem::NotPrimitive {
            found: Some(json!("number"))
        }
    );
    let text = error.to_string();
    assert!(
        text.starts_with("tool `scale_price`: the `x-mcp-header` at /properties/factor is on a property of type \"number\""),
        "{text}"
    );
}

fn dynamic(name: &str, properties: Value) -> DynamicTool {
    DynamicTool::new(
        name,
        "A tool from outside.",
        json!({"type": "object", "properties": properties}),
        |args, _cx| async move { ToolOutput::json(&args) },
    )
}

/// A schema from outside (a `DynamicTool`, an imported MCP tool) isn't the user's to fix: a
/// bad annotation leaves that tool out with a note, or fails a strict build.
#[test]
fn a_dynamic_tool_with_a_bad_header_is_left_out_or_fails_a_strict_build() {
    let clashing = || {
        dynamic(
            "clashing",
            json!({
                "a": {"type": "string", "x-mcp-header": "Tenant"},
                "b": {"type": "string", "x-mcp-header": "tenant"},
                "c": {"type": "string", "x-mcp-header": "Two Words"}
            }),
        )
    };
    let good = || {
        dynamic(
            "good",
            json!({"a": {"type": "string", "x-mcp-header": "Tenant"}}),
        )
    };
    let registry = Registry::builder()
        .without_inventory()
        .dynamic(clashing())
        .dynamic(good())
        .build()
        .unwrap();
    assert!(registry.get("clashing").is_none());
    assert!(registry.get("good").is_some());
    let [BuildNote::ToolLeftOut { tool, reason }] = registry.notes() else {
        panic!("{:?}", registry.notes())
    };
    assert_eq!(tool, "clashing");
    assert_eq!(
        reason,
        "the `x-mcp-header` at /properties/b names \"tenant\", which the one at /properties/a already takes (header names ignore case)"
    );

    let error = Registry::builder()
        .without_inventory()
        .dynamic(clashing())
        .strict_build(true)
        .build()
        .unwrap_err();
    let kinds: Vec<&McpHeaderProblem> = error
        .problems()
        .iter()
        .map(|p| match p {
            BuildError::McpHeader { problem, .. } => &problem.kind,
            other => panic!("{other}"),
        })
        .collect();
    assert!(
        matches!(kinds[0], McpHeaderProblem::Duplicate { .. }),
        "{error}"
    );
    assert!(
        matches!(kinds[1], McpHeaderProblem::NotAToken { .. }),
        "{error}"
    );
    assert_eq!(kinds.len(), 2, "{error}");
}
