//! Edge cases of the `#[tool]` macro that were once bugs (see the comment on each).

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use tool_runtime::registry::ToolDef;
use tool_runtime::{tool, Provider, Registry, ToolContext};

fn registry(tool: ToolDef) -> Registry {
    Registry::builder()
        .without_inventory()
        .register(tool)
        .build()
        .unwrap()
}

fn input_schema(registry: &Registry) -> Value {
    registry.export(Provider::Mcp).to_value()[0]["inputSchema"].clone()
}

// ---------------------------------------------------------------------------------------------
// A nested list inside a parameter's entry of `# Arguments` was cut off: every line was
// trimmed before `bullet()` looked at it, so an indented `- x` sub-item started a new
// "parameter" entry and was dropped from the parameter's description.

/// Compress a file.
///
/// # Arguments
///
/// * `level` - How hard to try, one of:
///   - `fast` - quick, larger output
///   - `best` - slow, smallest output
#[tool]
fn compress(level: String) -> String {
    level
}

#[test]
fn a_nested_list_in_arguments_stays_in_the_parameter_description() {
    let schema = input_schema(&registry(compress::TOOL));
    let description = schema["properties"]["level"]["description"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        description.contains("fast") && description.contains("best"),
        "the sub-list is lost: {description:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// A `#[serde(flatten)]` map parameter (the usual "accept extra named arguments") could never
// receive a key: the argument struct always had `deny_unknown_fields`, which serde documents
// as unsupported with `flatten` and which refused every key the map should collect.

/// Set labels.
#[tool]
fn set_labels(
    /// The labels, by name.
    #[serde(flatten)]
    labels: HashMap<String, u32>,
) -> usize {
    labels.len()
}

#[test]
fn a_flattened_map_parameter_receives_its_keys() {
    let registry = registry(set_labels::TOOL);
    let output = registry.call_blocking("set_labels", r#"{"red": 1, "blue": 2}"#);
    assert!(!output.is_error(), "{}", output.to_model_text());
    assert_eq!(output.to_model_text(), "2");
}

#[test]
fn a_flattened_map_parameter_is_open_in_the_schema() {
    let schema = input_schema(&registry(set_labels::TOOL));
    assert_eq!(
        schema["additionalProperties"]["type"], "integer",
        "{schema:#}"
    );
}

// ---------------------------------------------------------------------------------------------
// A parameter named like its fn didn't compile: the generated call `echo(echo)` found the
// destructured argument instead of the fn.

/// Say it back.
#[tool]
fn echo(echo: String) -> String {
    echo
}

/// The name of the tool being called.
#[tool]
fn whoami(whoami: ToolContext) -> String {
    whoami.tool_name().to_owned()
}

#[test]
fn a_parameter_named_like_its_fn_is_passed_to_the_fn() {
    let registry = Registry::builder()
        .without_inventory()
        .register_all([echo::TOOL, whoami::TOOL])
        .build()
        .unwrap();
    let output = registry.call_blocking("echo", r#"{"echo": "hello"}"#);
    assert_eq!(output.to_model_text(), "hello");
    let output = registry.call_blocking("whoami", "{}");
    assert_eq!(output.to_model_text(), "whoami");
}

// ---------------------------------------------------------------------------------------------
// A doc line opening with non-ASCII whitespace (a no-break space, an ideographic space) made
// the macro panic: indentation was counted in bytes of any whitespace and cut inside a char.
// Only spaces and tabs are indentation; the rest is the author's text.

/// Fetch a page,
///　then summarise it.
#[tool]
fn summarise(
    /// 　The page's address.
    url: String,
) -> String {
    url
}

#[test]
fn a_doc_opening_with_unicode_whitespace_is_read() {
    let registry = registry(summarise::TOOL);
    let tool = &registry.export(Provider::Mcp).to_value()[0];
    assert_eq!(
        tool["description"],
        "\u{a0}Fetch a page,\n\u{3000}then summarise it."
    );
    assert_eq!(
        tool["inputSchema"]["properties"]["url"]["description"],
        "\u{3000}The page's address."
    );
}

// ---------------------------------------------------------------------------------------------
// A user type named `State` was taken for the runtime's injected `State<T>`, which always has
// one type argument.

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum State {
    Open,
    Closed,
}

/// Set a ticket's state.
#[tool]
fn set_state(state: State) -> &'static str {
    match state {
        State::Open => "opened",
        State::Closed => "closed",
    }
}

#[test]
fn a_user_type_named_state_is_an_argument() {
    let registry = registry(set_state::TOOL);
    assert_eq!(input_schema(&registry)["required"], json!(["state"]));
    let output = registry.call_blocking("set_state", r#"{"state": "closed"}"#);
    assert_eq!(output.to_model_text(), "closed");
}

// ---------------------------------------------------------------------------------------------
// `#[cfg_attr(pred, serde(...))]` on a parameter stayed on the fn's parameter, where rustc
// rejects `serde`, instead of reaching the argument struct. (`#[cfg]` on a parameter is a
// compile error: `ui/cfg_param.rs`.)

/// Find something.
#[tool]
fn find(
    /// What to find.
    #[cfg_attr(test, serde(rename = "q"))]
    #[cfg_attr(not(test), serde(rename = "never"))]
    query: String,
) -> String {
    query
}

#[test]
fn a_cfg_attr_serde_attribute_reaches_the_argument() {
    let registry = registry(find::TOOL);
    assert_eq!(input_schema(&registry)["required"], json!(["q"]));
    let output = registry.call_blocking("find", r#"{"q": "keys"}"#);
    assert_eq!(output.to_model_text(), "keys");
}

// ---------------------------------------------------------------------------------------------
// A `#[deprecated]` tool fn made the generated code warn ("use of deprecated function"), an
// error under `-D warnings`; clippy builds this file with `-D warnings`.

/// Greet someone, the old way.
#[deprecated(note = "use a newer tool")]
#[tool]
fn old_greet(name: String) -> String {
    format!("hello {name}")
}

/// Greet someone later, the old way.
#[tool]
#[deprecated]
async fn old_greet_async(name: String) -> String {
    format!("hello {name}")
}

#[test]
fn a_deprecated_tool_works() {
    let registry = Registry::builder()
        .without_inventory()
        .register_all([old_greet::TOOL, old_greet_async::TOOL])
        .build()
        .unwrap();
    let output = registry.call_blocking("old_greet", r#"{"name": "Ada"}"#);
    assert_eq!(output.to_model_text(), "hello Ada");
    let output = registry.call_blocking("old_greet_async", r#"{"name": "Ada"}"#);
    assert_eq!(output.to_model_text(), "hello Ada");
}
