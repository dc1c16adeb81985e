//! `#[tool(output_schema)]` seen from outside: the schema in the spec and the MCP export (and
//! in no other dialect), conforming outputs through, a non-conforming one an `output_error`,
//! and the output cap refusing a structured result instead of cutting it.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::json;
use tool_runtime::{tool, DynamicTool, ErrorCode, Provider, Registry, ToolError, ToolOutput};

/// A city's weather.
#[derive(Serialize, JsonSchema)]
struct Weather {
    /// Degrees Celsius.
    celsius: f64,
    /// What the sky looks like.
    sky: Sky,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Sky {
    Clear,
    Cloudy,
}

/// The weather in a city.
#[tool(output_schema, read_only)]
fn weather(city: String) -> Result<Weather, ToolError> {
    if city.is_empty() {
        return Err(ToolError::new("which city?"));
    }
    let sky = if city == "Brest" {
        Sky::Cloudy
    } else {
        Sky::Clear
    };
    Ok(Weather { celsius: 21.5, sky })
}

/// The first `n` square numbers.
#[tool(output_schema, max_output = 256)]
fn squares(n: u32) -> Vec<u64> {
    (1..=u64::from(n)).map(|i| i * i).collect()
}

/// A greeting.
#[tool(output_schema)]
async fn greet(name: String) -> String {
    format!("Hello, {name}!")
}

fn registry() -> Registry {
    Registry::builder()
        .without_inventory()
        .register_all([weather::TOOL, squares::TOOL, greet::TOOL])
        .build()
        .unwrap()
}

#[test]
fn the_schema_is_in_the_spec_and_the_mcp_export_only() {
    let registry = registry();
    let weather = registry.get("weather").unwrap().output_schema().unwrap();
    assert_eq!(weather["type"], "object");
    assert_eq!(weather["required"], json!(["celsius", "sky"]));
    let squares = registry.get("squares").unwrap().output_schema().unwrap();
    assert_eq!(squares["properties"]["result"]["type"], "array");
    assert_eq!(squares["required"], json!(["result"]));

    let mcp = registry.export(Provider::Mcp).to_value();
    assert_eq!(&mcp[0]["outputSchema"], weather);
    assert_eq!(&mcp[1]["outputSchema"], squares);
    for provider in [Provider::OpenAiChat, Provider::Anthropic, Provider::Gemini] {
        let text = registry.export(provider).to_value().to_string();
        assert!(
            !text.contains("outputSchema") && !text.contains("celsius"),
            "{provider:?}: {text}"
        );
    }
}

#[test]
fn conforming_outputs_are_unchanged() {
    let registry = registry();
    let out = registry.call_blocking("weather", r#"{"city": "Lyon"}"#);
    assert_eq!(
        out,
        ToolOutput::json(&json!({"celsius": 21.5, "sky": "clear"}))
    );
    let error = registry.call_blocking("weather", r#"{"city": ""}"#);
    assert_eq!(error.as_error().unwrap().message, "which city?");
    assert_eq!(
        registry.call_blocking("greet", r#"{"name": "Ada"}"#),
        ToolOutput::text("Hello, Ada!")
    );
    assert_eq!(
        registry.call_blocking("squares", r#"{"n": 3}"#),
        ToolOutput::json(&[1, 4, 9])
    );
}

#[test]
fn a_structured_result_over_the_cap_is_refused_not_cut() {
    let out = registry().call_blocking("squares", r#"{"n": 100}"#);
    let error = out.as_error().unwrap();
    assert_eq!(error.code, ErrorCode::OutputError);
    assert!(
        error.message.contains("over its output cap of 256 bytes"),
        "{}",
        error.message
    );
    assert_eq!(out.truncation(), None);
}

#[test]
fn a_non_conforming_output_is_an_output_error() {
    let liar = DynamicTool::new(
        "liar",
        "Says it returns a count.",
        json!({"type": "object"}),
        |_, _| async { ToolOutput::json(&json!({"count": "many"})) },
    )
    .with_output_schema(json!({
        "type": "object",
        "properties": {"count": {"type": "integer"}},
        "required": ["count"]
    }));
    let registry = Registry::builder()
        .without_inventory()
        .dynamic(liar)
        .build()
        .unwrap();
    let out = registry.call_blocking("liar", "{}");
    let error = out.as_error().unwrap();
    assert_eq!(error.code, ErrorCode::OutputError);
    assert!(
        error.message.contains("does not match its output schema"),
        "{}",
        error.message
    );
    assert!(error.message.contains("/count"), "{}", error.message);
    assert_eq!(error.tool.as_deref(), Some("liar"));
}

#[test]
fn an_output_schema_without_an_object_root_leaves_a_dynamic_tool_out() {
    let tool = DynamicTool::new("t", "T.", json!({"type": "object"}), |_, _| async {
        ToolOutput::text("")
    })
    .with_output_schema(json!({"type": "array"}));
    let registry = Registry::builder()
        .without_inventory()
        .dynamic(tool)
        .build()
        .unwrap();
    assert!(registry.is_empty());
    assert!(
        registry.notes()[0].to_string().contains("object"),
        "{}",
        registry.notes()[0]
    );
}
