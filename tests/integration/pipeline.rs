//! The call pipeline seen from outside: a model's tool-call JSON played through limits,
//! repair, the ParamResolver and validation, with the report of what each stage did.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};
use tool_runtime::pipeline::{FilledBy, RepairKind};
use tool_runtime::pipeline::{Limits, RepairPolicy};
use tool_runtime::{ErrorCode, Registry, ToolError, ToolOutput};
use tool_tests::{Catalogue, Category, Session};

fn builder() -> tool_runtime::RegistryBuilder {
    let products = vec![
        ("Red running shoes".to_owned(), Category::Shoes, 8_000),
        ("Red sun hat".to_owned(), Category::Hats, 2_500),
    ];
    Registry::builder()
        .state(Catalogue { products })
        .state(Session {
            cwd: "/home/ada".into(),
        })
}

fn registry() -> Registry {
    builder().build().unwrap()
}

fn error(output: &ToolOutput) -> &ToolError {
    output
        .as_error()
        .unwrap_or_else(|| panic!("expected an error, got {output:?}"))
}

#[tokio::test]
async fn missing_required_argument_is_named_with_its_type_and_description() {
    let output = registry().call("search_products", r#"{"limit": 5}"#).await;
    let error = error(&output);
    assert_eq!(error.code, ErrorCode::InvalidArguments);
    assert_eq!(
        error.message,
        r#"Invalid arguments for search_products: missing required "query" (string: Free-text query, for example "red running shoes".)."#
    );
    assert_eq!(error.violations[0].pointer, "");
    assert_eq!(error.violations[0].keyword, "required");
    assert!(error
        .retry_hint
        .as_deref()
        .unwrap()
        .contains("search_products"));
}

#[tokio::test]
async fn every_violation_is_reported_at_once_with_allowed_values() {
    let output = registry()
        .call("search_products", r#"{"limit": 500, "category": "socks"}"#)
        .await;
    let error = error(&output);
    assert_eq!(
        error.message,
        r#"Invalid arguments for search_products: missing required "query" (string: Free-text query, for example "red running shoes".); "category": "socks" is not allowed; "limit": 500 is greater than the maximum 100. Allowed values for "category": "shoes", "hats"."#
    );
    let pointers: Vec<&str> = error
        .violations
        .iter()
        .map(|v| v.pointer.as_str())
        .collect();
    assert_eq!(pointers, ["", "/category", "/limit"]);
    assert_eq!(error.violations[1].allowed, [json!("shoes"), json!("hats")]);
}

#[tokio::test]
async fn nested_errors_point_into_the_nested_value() {
    let output = registry()
        .call(
            "search_products",
            r#"{"query": "x", "price": {"min": -1, "max": "lots"}}"#,
        )
        .await;
    let error = error(&output);
    let pointers: Vec<&str> = error
        .violations
        .iter()
        .map(|v| v.pointer.as_str())
        .collect();
    assert_eq!(pointers, ["/price/max", "/price/min"], "{}", error.message);
    assert!(
        error
            .message
            .contains(r#""price.min": -1 is less than the minimum 0"#),
        "{}",
        error.message
    );
}

#[tokio::test]
async fn unknown_argument_is_rejected_or_dropped_under_lenient() {
    let output = registry()
        .call("add_numbers", r#"{"a": 1, "b": 2, "c": 3}"#)
        .await;
    assert!(
        error(&output)
            .message
            .contains(r#"unknown argument "c" (expected: a, b)"#),
        "{output:?}"
    );

    let lenient = builder().repair(RepairPolicy::Lenient).build().unwrap();
    let (output, report) = lenient
        .call_with_report("add_numbers", r#"{"a": 1, "b": 2, "c": 3}"#)
        .await;
    assert_eq!(output, ToolOutput::json(&3));
    assert_eq!(report.repairs[0].kind, RepairKind::DroppedUnknown);
    assert_eq!(report.repairs[0].pointer, "/c");
}

#[tokio::test]
async fn defaults_are_filled_and_recorded() {
    let (output, report) = registry()
        .call_with_report("list_items", r#"{"paging": {"page": 2}}"#)
        .await;
    assert_eq!(
        output,
        ToolOutput::json(&json!({"size": 25, "page": 2, "tags": []}))
    );
    let filled: Vec<(&str, &Value, FilledBy)> = report
        .filled
        .iter()
        .map(|f| (f.pointer.as_str(), &f.value, f.by))
        .collect();
    assert_eq!(
        filled,
        [
            ("/paging/size", &json!(25), FilledBy::SchemaDefault),
            ("/tags", &json!([]), FilledBy::SchemaDefault)
        ]
    );
}

#[tokio::test]
async fn null_for_a_parameter_with_a_default_means_the_default() {
    // What OpenAI strict mode makes models send for an optional parameter.
    let (output, report) = registry()
        .call_with_report("search_products", r#"{"query": "red", "limit": null}"#)
        .await;
    assert_eq!(
        output,
        ToolOutput::json(&["Red running shoes", "Red sun hat"])
    );
    assert_eq!(report.filled[0].pointer, "/limit");
    // And without a report, the same answer.
    let output = registry()
        .call("search_products", r#"{"query": "red", "limit": null}"#)
        .await;
    assert_eq!(
        output,
        ToolOutput::json(&["Red running shoes", "Red sun hat"])
    );
}

#[tokio::test]
async fn null_is_a_repair_so_repair_off_rejects_it() {
    let strict = builder().repair(RepairPolicy::Off).build().unwrap();
    let output = strict
        .call("search_products", r#"{"query": "red", "limit": null}"#)
        .await;
    assert!(
        error(&output)
            .message
            .contains(r#""limit": expected integer, got null"#),
        "{output:?}"
    );
}

#[tokio::test]
async fn a_whole_number_float_is_an_integer_under_every_policy() {
    for policy in [RepairPolicy::Off, RepairPolicy::Safe] {
        let registry = builder().repair(policy).build().unwrap();
        let (output, report) = registry
            .call_with_report("add_numbers", r#"{"a": 40.0, "b": 2}"#)
            .await;
        assert_eq!(output, ToolOutput::json(&42), "{policy:?}");
        assert_eq!(report.repairs[0].kind, RepairKind::WholeNumber);
        // The plain call agrees, and 4.5 stays an error.
        assert_eq!(
            registry.call("add_numbers", r#"{"a": 40.0, "b": 2}"#).await,
            ToolOutput::json(&42)
        );
        assert!(registry
            .call("add_numbers", r#"{"a": 4.5, "b": 2}"#)
            .await
            .is_error());
    }
}

#[tokio::test]
async fn errors_a_tool_returns_name_the_tool() {
    let output = registry()
        .call("search_products", r#"{"query": " "}"#)
        .await;
    assert_eq!(error(&output).code, ErrorCode::ToolFailed);
    assert_eq!(error(&output).tool.as_deref(), Some("search_products"));
}

#[tokio::test]
async fn the_models_values_are_never_overwritten() {
    let (output, report) = registry()
        .call_with_report("search_products", r#"{"query": "red", "limit": 1}"#)
        .await;
    assert_eq!(output, ToolOutput::json(&["Red running shoes"]));
    assert!(report.filled.is_empty());
}

#[tokio::test]
async fn each_safe_repair() {
    let registry = registry();
    let cases: [(&str, &str, RepairKind, Value); 6] = [
        (
            "add_numbers",
            r#"{"a": "40", "b": 2}"#,
            RepairKind::StringToNumber,
            json!(42),
        ),
        (
            "add_numbers",
            "\"{\\\"a\\\": 1, \\\"b\\\": 1}\"",
            RepairKind::DoubleEncoded,
            json!(2),
        ),
        ("noop", "", RepairKind::EmptyArguments, json!("")),
        ("noop", "null", RepairKind::EmptyArguments, json!("")),
        (
            "list_items",
            r#"{"paging": {"page": 1}, "tags": "red"}"#,
            RepairKind::WrappedInArray,
            json!({"size": 25, "page": 1, "tags": ["red"]}),
        ),
        (
            "list_items",
            r#"{"paging": "{\"page\": 3}"}"#,
            RepairKind::StringToJson,
            json!({"size": 25, "page": 3, "tags": []}),
        ),
    ];
    for (tool, args, kind, expected) in cases {
        let (output, report) = registry.call_with_report(tool, args).await;
        let value = match &output {
            ToolOutput::Json(json) => json.to_value(),
            ToolOutput::Text(text) => Value::from(text.as_str()),
            ToolOutput::Error(e) => panic!("{tool} {args}: {}", e.message),
            other => panic!("{tool} {args}: {other:?}"),
        };
        assert_eq!(value, expected, "{tool} {args}");
        assert_eq!(
            report.repairs.first().map(|r| r.kind),
            Some(kind),
            "{tool} {args}"
        );
        // The plain call gives the same result.
        assert_eq!(registry.call(tool, args).await, output, "{tool} {args}");
    }
    let (output, report) = registry.call_with_report("kinds", r#"{"tags": [], "counts": {}, "labels": [], "ratio": 0.5, "verbose": "false", "type": "t", "maxItems": 1}"#).await;
    assert!(!output.is_error(), "{output:?}");
    assert_eq!(report.repairs[0].kind, RepairKind::StringToBoolean);
}

#[tokio::test]
async fn tool_names_are_repaired_when_unambiguous() {
    let registry = registry();
    for name in [
        "Add_Numbers",
        "add-numbers",
        "functions.add_numbers",
        "default_api.add_numbers",
    ] {
        let (output, report) = registry.call_with_report(name, r#"{"a": 1, "b": 1}"#).await;
        assert_eq!(output, ToolOutput::json(&2), "{name}");
        assert_eq!(report.repairs[0].kind, RepairKind::ToolName);
        assert_eq!(report.tool.as_deref(), Some("add_numbers"));
    }
    let strict = builder().repair(RepairPolicy::Off).build().unwrap();
    assert_eq!(
        error(&strict.call("Add_Numbers", "{}").await).code,
        ErrorCode::UnknownTool
    );
}

#[tokio::test]
async fn an_unknown_tool_suggests_the_closest_names() {
    let output = registry().call("serch_product", "{}").await;
    let error = error(&output);
    assert_eq!(error.code, ErrorCode::UnknownTool);
    assert_eq!(error.suggestions[0], "search_products");
    assert!(
        error
            .message
            .starts_with(r#"Unknown tool "serch_product". Did you mean "search_products""#),
        "{}",
        error.message
    );
}

#[tokio::test]
async fn lenient_json_is_repaired_only_under_lenient() {
    let broken = "{'a': 1, b: 2, // the second\n}";
    assert_eq!(
        error(&registry().call("add_numbers", broken).await).code,
        ErrorCode::MalformedArguments
    );
    let lenient = builder().repair(RepairPolicy::Lenient).build().unwrap();
    let (output, report) = lenient.call_with_report("add_numbers", broken).await;
    assert_eq!(output, ToolOutput::json(&3));
    assert_eq!(report.repairs[0].kind, RepairKind::LenientJson);
    // Cut off at the end, as a stream that stopped early.
    assert_eq!(
        lenient.call("add_numbers", r#"{"a": 1, "b": 2"#).await,
        ToolOutput::json(&3)
    );
}

#[tokio::test]
async fn repair_off_judges_the_call_as_sent() {
    let strict = builder().repair(RepairPolicy::Off).build().unwrap();
    let output = strict.call("add_numbers", r#"{"a": "40", "b": 2}"#).await;
    assert!(
        error(&output)
            .message
            .contains(r#""a": expected integer, got "40""#),
        "{output:?}"
    );
    assert_eq!(
        error(&strict.call("noop", "").await).code,
        ErrorCode::MalformedArguments
    );
}

#[tokio::test]
async fn a_resolver_fills_from_state() {
    let registry = builder()
        .tool_resolver("pwd", |args| {
            let session = args
                .state::<Session>()
                .ok_or_else(|| ToolError::new("no session"))?;
            args.fill("cwd", &session.cwd);
            Ok(())
        })
        .build()
        .unwrap();
    let (output, report) = registry.call_with_report("pwd", "{}").await;
    assert_eq!(output, ToolOutput::text("/home/ada"));
    assert_eq!(report.filled[0].by, FilledBy::Resolver);
    assert_eq!(
        registry.call("pwd", r#"{"cwd": "/tmp"}"#).await,
        ToolOutput::text("/tmp")
    );
}

#[tokio::test]
async fn a_resolver_named_on_the_tool_runs_first() {
    let (output, report) = registry().call_with_report("run_dir", "{}").await;
    assert_eq!(output, ToolOutput::text("/home/ada"));
    assert_eq!(report.filled[0].by, FilledBy::Resolver);
    let context_too = builder().context_default("cwd", "/srv").build().unwrap();
    assert_eq!(
        context_too.call("run_dir", "{}").await,
        ToolOutput::text("/home/ada")
    );
    assert_eq!(
        context_too.call("run_dir", r#"{"cwd": "/x"}"#).await,
        ToolOutput::text("/x")
    );
}

#[tokio::test]
async fn a_failing_resolver_is_an_error_output() {
    let registry = builder()
        .tool_resolver("pwd", |_| Err(ToolError::new("the session has ended")))
        .build()
        .unwrap();
    let output = registry.call("pwd", "{}").await;
    assert_eq!(error(&output).code, ErrorCode::ResolverFailed);
    assert_eq!(error(&output).message, "the session has ended");
}

#[tokio::test]
async fn context_defaults_fill_any_tool_with_the_parameter() {
    let registry = builder().context_default("cwd", "/srv").build().unwrap();
    let (output, report) = registry.call_with_report("pwd", "{}").await;
    assert_eq!(output, ToolOutput::text("/srv"));
    assert_eq!(report.filled[0].by, FilledBy::ContextDefault);
}

#[test]
fn a_resolver_for_an_unknown_tool_is_a_build_error() {
    let error = builder()
        .tool_resolver("pwdd", |_| Ok(()))
        .build()
        .unwrap_err();
    assert!(
        error.to_string().contains("`.resolver(...)` names `pwdd`"),
        "{error}"
    );
}

#[tokio::test]
async fn limits_are_checked_before_parsing() {
    let registry = builder()
        .limits(Limits {
            max_bytes: 64,
            max_depth: 4,
        })
        .build()
        .unwrap();
    let long = format!(r#"{{"cwd": "{}"}}"#, "x".repeat(100));
    let output = registry.call("pwd", &long).await;
    assert_eq!(error(&output).code, ErrorCode::LimitExceeded);
    assert!(error(&output)
        .message
        .contains("over the limit of 64 bytes"));
    let deep = r#"{"cwd": [[[[["x"]]]]]}"#;
    assert!(error(&registry.call("pwd", deep).await)
        .message
        .contains("deeper than 4 levels"));

    // The defaults: 1 MiB and 64 levels.
    let registry = registry_default();
    let deep = format!("{}{}", "[".repeat(100), "]".repeat(100));
    assert_eq!(
        error(&registry.call("pwd", &deep).await).code,
        ErrorCode::LimitExceeded
    );
    let huge = format!(r#"{{"cwd": "{}"}}"#, "x".repeat(2 << 20));
    assert_eq!(
        error(&registry.call("pwd", &huge).await).code,
        ErrorCode::LimitExceeded
    );
}

fn registry_default() -> Registry {
    registry()
}

#[tokio::test]
async fn the_report_times_each_stage() {
    let (_, report) = registry()
        .call_with_report("search_products", r#"{"query": "red"}"#)
        .await;
    let t = report.timings;
    assert!(t.total >= t.repair + t.resolve + t.validate + t.deserialize + t.run);
    assert!(t.validate > std::time::Duration::ZERO);
    assert_eq!(report.tool.as_deref(), Some("search_products"));
}

#[tokio::test]
async fn validation_off_still_checks_types() {
    let registry = builder().validation(false).build().unwrap();
    // The range isn't checked without validation, only what serde enforces.
    assert!(!registry
        .call("search_products", r#"{"query": "red", "limit": 500}"#)
        .await
        .is_error());
    let output = registry.call("search_products", r#"{"query": 5}"#).await;
    assert_eq!(error(&output).code, ErrorCode::InvalidArguments);
}

/// A tool whose schema has defaults its own schema refuses, shaped like what real schemas
/// carry: pydantic's `str = None` (`"default": null` on a string), BFCL live function docs'
/// `"dontcare"` placeholder on a non-string, a value outside the `enum` (OpenAPI documents
/// generated from code), `"false"` as text on a boolean; in a union branch and on a `$ref`'d
/// definition too. The tool echoes the arguments it was given.
fn broken_defaults() -> tool_runtime::DynamicTool {
    tool_runtime::DynamicTool::new(
        "find_salon",
        "Find a hair salon in a city.",
        json!({
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "stylist": {"type": "string", "default": null},
                "rating": {"type": "integer", "default": "dontcare"},
                "unisex": {"type": "boolean", "default": "false"},
                "sort": {"type": "string", "enum": ["distance", "rating"], "default": "N/A"},
                "price": {"anyOf": [
                    {"type": "object", "properties": {"max": {"type": "integer", "default": "any"}}, "required": []},
                    {"type": "string"}
                ]},
                "day": {"$ref": "#/$defs/Day", "default": "someday"},
                "limit": {"type": "integer", "default": 5}
            },
            "required": ["city"],
            "$defs": {"Day": {"type": "string", "enum": ["mon", "tue"]}}
        }),
        |args, _cx| async move { ToolOutput::json(&args) },
    )
}

#[tokio::test]
async fn defaults_a_schema_refuses_are_never_filled() {
    let registry = builder()
        .without_inventory()
        .dynamic(broken_defaults())
        .build()
        .unwrap();
    let mut noted: Vec<String> = registry
        .notes()
        .iter()
        .map(|note| match note {
            tool_runtime::registry::BuildNote::UnusableDefault { tool, pointer, .. } => {
                assert_eq!(tool, "find_salon");
                pointer.clone()
            }
            other => panic!("{other:?}"),
        })
        .collect();
    noted.sort();
    assert_eq!(
        noted,
        [
            "/properties/day/default",
            "/properties/price/anyOf/0/properties/max/default",
            "/properties/rating/default",
            "/properties/sort/default",
            "/properties/stylist/default",
            "/properties/unisex/default",
        ]
    );

    // Left out: valid, and only the usable default is filled (and recorded).
    let (output, report) = registry
        .call_with_report("find_salon", r#"{"city": "Berkeley", "price": {}}"#)
        .await;
    assert_eq!(
        output,
        ToolOutput::json(&json!({"city": "Berkeley", "price": {}, "limit": 5})),
        "{report:?}"
    );
    let filled: Vec<&str> = report.filled.iter().map(|f| f.pointer.as_str()).collect();
    assert_eq!(filled, ["/limit"]);

    // `null` for "use the default" (what strict mode makes a model send): dropped where the
    // default is unusable, filled where it is usable; the drops are recorded as repairs.
    let (output, report) = registry
        .call_with_report(
            "find_salon",
            r#"{"city": "Berkeley", "stylist": null, "rating": null, "limit": null}"#,
        )
        .await;
    assert_eq!(
        output,
        ToolOutput::json(&json!({"city": "Berkeley", "limit": 5})),
        "{report:?}"
    );
    let dropped: Vec<&str> = report
        .repairs
        .iter()
        .filter(|r| r.kind == RepairKind::NullForUnusableDefault)
        .map(|r| r.pointer.as_str())
        .collect();
    assert_eq!(dropped, ["/stylist", "/rating"]);

    // A value the model does send is still checked: the defaults change nothing there.
    let output = registry
        .call("find_salon", r#"{"city": "Berkeley", "sort": "N/A"}"#)
        .await;
    assert_eq!(error(&output).code, ErrorCode::InvalidArguments);
}

/// Issue 32 item 15: a violation found after a repair is reported where the model's own value
/// is, saying what it sent and what was tried, never at a place only the repair made (`"x": 5`
/// wrapped as `[5]` and refused at `/x/0`, a path not in what the model sent).
#[tokio::test]
async fn a_violation_after_a_repair_is_reported_at_the_models_value() {
    let schema = json!({"type": "object", "properties": {
        "x": {"type": "array", "items": {"type": "string"}},
        "sizes": {"type": "array", "items": {"enum": ["s", "m"]}},
        "n": {"type": "integer"}},
        "required": ["x"], "additionalProperties": false});
    let registry = Registry::builder()
        .without_inventory()
        .dynamic(tool_runtime::DynamicTool::new(
            "tag",
            "Tags things.",
            schema,
            |_, _| async { ToolOutput::text("ok") },
        ))
        .build()
        .unwrap();

    // A lone number wrapped in an array, still not a string inside it.
    let (output, report) = registry.call_with_report("tag", r#"{"x": 5}"#).await;
    let e = error(&output);
    assert_eq!(e.code, ErrorCode::InvalidArguments);
    let pointers: Vec<&str> = e.violations.iter().map(|v| v.pointer.as_str()).collect();
    assert_eq!(pointers, ["/x"], "{:?}", e.violations);
    assert_eq!(e.violations[0].keyword, "type");
    let message = &e.violations[0].message;
    assert!(
        message.starts_with("\"x\": expected an array, got 5"),
        "{message}"
    );
    assert!(message.contains("one-item list"), "{message}");
    assert!(
        message.contains("\"x[0]\": expected string, got 5"),
        "{message}"
    );
    assert!(e.message.contains(message.as_str()), "{}", e.message);
    assert_eq!(report.violations, e.violations);
    assert_eq!(report.repairs[0].kind, RepairKind::WrappedInArray);
    assert_eq!(report.repairs[0].detail, "5");

    // A string holding an array, two of whose items fail: one violation, at the string.
    let (output, _) = registry
        .call_with_report("tag", r#"{"x": "[1, \"a\", 2]", "n": "z"}"#)
        .await;
    let e = error(&output);
    let pointers: Vec<&str> = e.violations.iter().map(|v| v.pointer.as_str()).collect();
    assert_eq!(pointers, ["/n", "/x"], "{:?}", e.violations);
    let message = &e.violations[1].message;
    assert!(message.contains("[1, \\\"a\\\", 2]"), "{message}");
    assert!(
        message.contains("\"x[0]\"") && message.contains("\"x[2]\""),
        "{message}"
    );

    // The allowed values of what the repair made are still given.
    let (output, _) = registry
        .call_with_report("tag", r#"{"x": [], "sizes": "xl"}"#)
        .await;
    let e = error(&output);
    assert_eq!(e.violations.len(), 1, "{:?}", e.violations);
    assert_eq!(e.violations[0].pointer, "/sizes");
    assert_eq!(e.violations[0].allowed, [json!("s"), json!("m")]);

    // A repair that makes the call valid is still made.
    let (output, _) = registry.call_with_report("tag", r#"{"x": "a"}"#).await;
    assert_eq!(output.to_model_text(), "ok");
}
