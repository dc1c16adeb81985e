//! Calls end to end: good arguments, and every kind of bad input getting an error output.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::json;
use tool_runtime::{ErrorCode, Registry, ToolOutput};
use tool_tests::{Catalogue, Category};

fn registry() -> Registry {
    let products = vec![
        ("Red running shoes".to_owned(), Category::Shoes, 8_000),
        ("Blue running shoes".to_owned(), Category::Shoes, 6_000),
        ("Red sun hat".to_owned(), Category::Hats, 2_500),
    ];
    Registry::builder()
        .state(Catalogue { products })
        .build()
        .unwrap()
}

fn error_code(output: &ToolOutput) -> ErrorCode {
    output
        .as_error()
        .unwrap_or_else(|| panic!("expected an error, got {output:?}"))
        .code
}

#[tokio::test]
async fn an_async_tool_with_defaults_options_and_state() {
    let registry = registry();
    let all = registry
        .call("search_products", r#"{"query": "red"}"#)
        .await;
    assert_eq!(all, ToolOutput::json(&["Red running shoes", "Red sun hat"]));
    let hats = registry
        .call(
            "search_products",
            r#"{"query": "red", "category": "hats", "limit": 5}"#,
        )
        .await;
    assert_eq!(hats, ToolOutput::json(&["Red sun hat"]));
    let nested = registry
        .call(
            "search_products",
            r#"{"query": "shoes", "price": {"min": 7000}}"#,
        )
        .await;
    assert_eq!(nested, ToolOutput::json(&["Red running shoes"]));
    let null = registry
        .call("search_products", r#"{"query": "red", "category": null}"#)
        .await;
    assert_eq!(null, all);
}

#[test]
fn sync_and_async_tools_run_without_a_runtime() {
    let registry = registry();
    assert_eq!(
        registry.call_blocking("add_numbers", r#"{"a": 40, "b": 2}"#),
        ToolOutput::json(&42)
    );
    assert_eq!(
        registry.call_blocking("search_products", r#"{"query": "blue"}"#),
        ToolOutput::json(&["Blue running shoes"])
    );
}

#[test]
fn call_blocking_repairs_what_its_direct_path_refuses() {
    // Sync and async tools, each refused by the typed parse and then repaired or explained
    // by the full path, and a name found only after normalization.
    let registry = registry();
    assert_eq!(
        registry.call_blocking("add_numbers", r#"{"a": "40", "b": 2}"#),
        ToolOutput::json(&42)
    );
    assert_eq!(
        registry.call_blocking("search_products", r#"{"query": "blue", "limit": "5"}"#),
        ToolOutput::json(&["Blue running shoes"])
    );
    assert_eq!(
        registry.call_blocking("Add-Numbers", r#"{"a": 1, "b": 2}"#),
        ToolOutput::json(&3)
    );
    let missing = registry.call_blocking("search_products", "{}");
    assert_eq!(error_code(&missing), ErrorCode::InvalidArguments);
    assert!(missing.to_model_text().contains("\"query\""), "{missing:?}");
}

#[tokio::test]
async fn call_blocking_inside_a_runtime_is_an_error_not_a_deadlock() {
    let output = registry().call_blocking("search_products", r#"{"query": "blue"}"#);
    assert_eq!(error_code(&output), ErrorCode::RuntimeError);
    // Sync tools need no runtime, so they still run.
    assert_eq!(
        registry().call_blocking("add_numbers", r#"{"a": 1, "b": 1}"#),
        ToolOutput::json(&2)
    );
}

#[test]
fn return_types_map_to_output_kinds() {
    let registry = registry();
    assert_eq!(
        registry.call_blocking("whoami", "{}"),
        ToolOutput::text("whoami -")
    );
    assert_eq!(registry.call_blocking("noop", "{}"), ToolOutput::text(""));
    let echoed = registry.call_blocking(
        "kinds",
        r#"{"tags": ["a"], "counts": {"x": 1}, "labels": [{"name": "l"}], "ratio": 0.5, "type": "t", "maxItems": 3}"#,
    );
    let ToolOutput::Json(json) = echoed else {
        panic!("{echoed:?}")
    };
    assert_eq!(json.to_value()["order"], "newest");
    assert_eq!(json.to_value()["max_items"], 3);
}

#[test]
fn a_tool_error_is_an_error_output() {
    let output = registry().call_blocking("search_products", r#"{"query": "   "}"#);
    assert_eq!(error_code(&output), ErrorCode::ToolFailed);
    assert!(output.to_model_text().contains("query is empty"));
}

#[test]
fn bad_input_gets_a_named_error_never_a_panic() {
    let registry = registry();
    let cases = [
        ("no_such_tool", "{}", ErrorCode::UnknownTool, "no_such_tool"),
        (
            "add_numbers",
            "{",
            ErrorCode::MalformedArguments,
            "not valid JSON",
        ),
        (
            "add_numbers",
            "",
            ErrorCode::InvalidArguments,
            "missing required \"a\"",
        ),
        (
            "add_numbers",
            "[1, 2]",
            ErrorCode::InvalidArguments,
            "must be a JSON object",
        ),
        (
            "add_numbers",
            "  7",
            ErrorCode::InvalidArguments,
            "must be a JSON object",
        ),
        (
            "add_numbers",
            "[1, 2",
            ErrorCode::MalformedArguments,
            "not valid JSON",
        ),
        (
            "add_numbers",
            r#"{"a": 1}"#,
            ErrorCode::InvalidArguments,
            "missing required \"b\"",
        ),
        (
            "add_numbers",
            r#"{"a": "one", "b": 2}"#,
            ErrorCode::InvalidArguments,
            "\"a\": expected integer, got \"one\"",
        ),
        (
            "add_numbers",
            r#"{"a": 1, "b": 2, "c": 3}"#,
            ErrorCode::InvalidArguments,
            "unknown argument \"c\"",
        ),
        (
            "search_products",
            r#"{"query": "x", "category": "socks"}"#,
            ErrorCode::InvalidArguments,
            "\"socks\" is not allowed",
        ),
        (
            "kinds",
            r#"{"tags": [], "counts": {}, "labels": [], "ratio": 0.1, "type": "t", "maxItems": 300}"#,
            ErrorCode::InvalidArguments,
            "300",
        ),
    ];
    for (name, args, code, needle) in cases {
        let output = registry.call_blocking(name, args);
        assert_eq!(error_code(&output), code, "{name} {args}: {output:?}");
        assert!(
            output.to_model_text().contains(needle),
            "{name} {args}: {}",
            output.to_model_text()
        );
    }
}

#[test]
fn unknown_tool_names_close_tools_or_lists_what_exists() {
    let output = registry().call_blocking("serch", "{}");
    let error = output.as_error().unwrap();
    assert_eq!(error.tool.as_deref(), Some("serch"));
    assert_eq!(error.suggestions, ["search_products"]);
    let output = registry().call_blocking("zzz", "{}");
    let message = &output.as_error().unwrap().message;
    assert!(
        message.contains("Available tools:")
            && message.contains("add_numbers")
            && message.contains("search_products"),
        "{message}"
    );
}

#[test]
fn outputs_serialize_in_the_documented_shapes() {
    let registry = registry();
    let text = serde_json::to_value(registry.call_blocking("whoami", "{}")).unwrap();
    assert_eq!(text, json!({"kind": "text", "text": "whoami -"}));
    let object =
        serde_json::to_value(registry.call_blocking("add_numbers", r#"{"a": 1, "b": 2}"#)).unwrap();
    assert_eq!(object, json!({"kind": "json", "json": 3}));
    let error = serde_json::to_value(registry.call_blocking("nope", "{}")).unwrap();
    assert_eq!(error["kind"], "error");
    assert_eq!(error["error"]["code"], "unknown_tool");
    assert!(error["error"]["message"].is_string());
}

#[test]
fn the_fn_is_still_an_ordinary_fn() {
    assert_eq!(tool_tests::add(2, 2), 4);
}
