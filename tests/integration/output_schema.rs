//! `#[tool(output_schema)]` (and a `Tool`'s `output_schema`) seen from outside: the schema in
//! the spec and the MCP and Gemini exports (and in no other dialect), conforming outputs
//! through, a non-conforming one an `output_error`, and the output cap refusing a structured
//! result instead of cutting it.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use tool_runtime::output::OutputSchema;
use tool_runtime::registry::BuildError;
use tool_runtime::{
    tool, DynamicTool, ErrorCode, Provider, Registry, Tool, ToolContext, ToolError, ToolOutput,
};
use tool_test_support::rules;

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

/// A tree of names.
#[derive(Serialize, JsonSchema)]
struct Node {
    name: String,
    children: Vec<Node>,
}

/// A tree: a recursive type, which Gemini's `Schema` subset can't say.
#[tool(output_schema)]
fn tree() -> Node {
    Node {
        name: "root".into(),
        children: Vec::new(),
    }
}

/// How often each word occurs: a map, which Gemini's `Schema` subset can't say either.
#[tool(output_schema)]
fn word_counts(text: String) -> std::collections::BTreeMap<String, u32> {
    let mut counts = std::collections::BTreeMap::new();
    for word in text.split_whitespace() {
        *counts.entry(word.to_owned()).or_default() += 1;
    }
    counts
}

fn registry() -> Registry {
    Registry::builder()
        .without_inventory()
        .register_all([weather::TOOL, squares::TOOL, greet::TOOL])
        .build()
        .unwrap()
}

#[test]
fn the_schema_is_in_the_spec_and_the_mcp_and_gemini_exports_only() {
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
    for provider in [
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Anthropic,
        Provider::TensorZero,
    ] {
        let text = registry.export(provider).to_value().to_string();
        assert!(
            !text.contains("outputSchema") && !text.contains("celsius"),
            "{provider:?}: {text}"
        );
    }
}

#[test]
fn gemini_declares_each_output_in_response_or_as_json_schema() {
    let registry = Registry::builder()
        .without_inventory()
        .register_all([
            weather::TOOL,
            squares::TOOL,
            greet::TOOL,
            tree::TOOL,
            word_counts::TOOL,
        ])
        .tool(Counter(AtomicU64::new(0)))
        .build()
        .unwrap();
    let export = registry.export(Provider::Gemini).to_value();
    let found = rules::gemini::check(&export);
    assert!(found.is_empty(), "{}", found.join("\n"));
    let declaration = |name: &str| rules::gemini::declaration(&export, name).unwrap().clone();
    // Reduced to the subset by the parameters' rules: enums, descriptions, bounds.
    assert_eq!(
        declaration("weather")["response"],
        json!({"type": "OBJECT", "description": "A city's weather.", "required": ["celsius", "sky"], "properties": {
            "celsius": {"type": "NUMBER", "format": "double", "description": "Degrees Celsius."},
            "sky": {"type": "STRING", "enum": ["clear", "cloudy"], "description": "What the sky looks like."}
        }})
    );
    // The value the tool returns, without MCP's `{"result": ...}` wrapper.
    assert_eq!(
        declaration("squares")["response"],
        json!({"type": "ARRAY", "items": {"type": "INTEGER", "minimum": 0}})
    );
    assert_eq!(declaration("greet")["response"], json!({"type": "STRING"}));
    assert_eq!(
        declaration("count_calls")["response"]["required"],
        json!(["calls"])
    );
    // What the subset can't say is left out: `responseJsonSchema` may be refused by the
    // Gemini Developer API, and the output's schema is only a hint.
    for tool in ["tree", "word_counts"] {
        let declaration = declaration(tool);
        assert!(registry.get(tool).unwrap().output_schema().is_some());
        assert!(declaration.get("response").is_none(), "{declaration}");
        assert!(
            declaration.get("responseJsonSchema").is_none(),
            "{declaration}"
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

/// How many times a counter was called.
#[derive(Serialize, JsonSchema)]
struct Count {
    /// Calls so far, this one included.
    calls: u64,
}

#[derive(Deserialize, JsonSchema)]
struct NoArguments {}

/// A tool that owns its state, declaring its output's schema from the output's type.
struct Counter(AtomicU64);

impl Tool for Counter {
    type Args = NoArguments;
    type Output = Count;

    fn name(&self) -> &str {
        "count_calls"
    }
    fn description(&self) -> &str {
        "Count this call."
    }
    fn output_schema(&self) -> Option<OutputSchema> {
        Some(OutputSchema::of::<Count>())
    }
    async fn call(&self, _: NoArguments, _cx: ToolContext) -> Result<Count, ToolError> {
        Ok(Count {
            calls: self.0.fetch_add(1, Ordering::SeqCst) + 1,
        })
    }
}

/// A `Tool` whose schema is written by hand, and whose output is whatever it was built with.
struct Declared {
    schema: OutputSchema,
    output: Value,
}

impl Tool for Declared {
    type Args = NoArguments;
    type Output = Value;

    fn name(&self) -> &str {
        "declared"
    }
    fn description(&self) -> &str {
        "Return what it holds."
    }
    fn output_schema(&self) -> Option<OutputSchema> {
        Some(self.schema.clone())
    }
    async fn call(&self, _: NoArguments, _cx: ToolContext) -> Result<Value, ToolError> {
        Ok(self.output.clone())
    }
}

fn count_schema() -> OutputSchema {
    OutputSchema::json(json!({
        "type": "object",
        "properties": {"count": {"type": "integer"}},
        "required": ["count"]
    }))
}

fn with_tool(tool: impl Tool) -> Result<Registry, BuildError> {
    Registry::builder().without_inventory().tool(tool).build()
}

#[test]
fn a_tool_impl_declares_its_output_schema_as_a_fn_does() {
    let registry = with_tool(Counter(AtomicU64::new(0))).unwrap();
    let schema = registry
        .get("count_calls")
        .unwrap()
        .output_schema()
        .unwrap();
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["required"], json!(["calls"]));
    assert_eq!(
        schema["properties"]["calls"]["description"],
        "Calls so far, this one included."
    );
    assert_eq!(
        &registry.export(Provider::Mcp).to_value()[0]["outputSchema"],
        schema
    );
    assert_eq!(
        registry.call_blocking("count_calls", "{}"),
        ToolOutput::json(&json!({"calls": 1}))
    );
    // A tool that declares none exports none.
    let plain = DynamicTool::new("plain", "P.", json!({"type": "object"}), |_, _| async {
        ToolOutput::text("")
    });
    let plain = Registry::builder()
        .without_inventory()
        .dynamic(plain)
        .build()
        .unwrap();
    assert!(plain.get("plain").unwrap().output_schema().is_none());
    assert!(plain.export(Provider::Mcp).to_value()[0]
        .get("outputSchema")
        .is_none());
}

#[test]
fn a_tool_impls_outputs_are_checked_against_its_schema() {
    let honest = with_tool(Declared {
        schema: count_schema(),
        output: json!({"count": 3}),
    })
    .unwrap();
    assert_eq!(
        honest.call_blocking("declared", "{}"),
        ToolOutput::json(&json!({"count": 3}))
    );
    let liar = with_tool(Declared {
        schema: count_schema(),
        output: json!({"count": "many"}),
    })
    .unwrap();
    let out = liar.call_blocking("declared", "{}");
    let error = out.as_error().unwrap();
    assert_eq!(error.code, ErrorCode::OutputError);
    assert!(
        error.message.contains("does not match its output schema")
            && error.message.contains("/count"),
        "{}",
        error.message
    );
}

#[test]
fn a_tool_impl_without_an_object_root_fails_the_build() {
    // The program's own tool: a build error, not a note (a `DynamicTool`'s schema comes from
    // outside and leaves only its tool out).
    let error = with_tool(Declared {
        schema: OutputSchema::json(json!({"type": "array"})),
        output: json!([]),
    })
    .unwrap_err();
    let text = error.to_string();
    assert!(
        text.contains("declared") && text.contains("object"),
        "{text}"
    );
    // A type whose schema is no object is wrapped, as for `#[tool(output_schema)]`.
    let wrapped = with_tool(Declared {
        schema: OutputSchema::of::<Vec<u64>>(),
        output: json!([1, 2]),
    })
    .unwrap();
    let schema = wrapped.get("declared").unwrap().output_schema().unwrap();
    assert_eq!(schema["properties"]["result"]["type"], "array");
    assert_eq!(
        wrapped.call_blocking("declared", "{}"),
        ToolOutput::json(&json!([1, 2]))
    );
}
