//! The pipeline agrees with the schema, on every tool: a call the schema accepts deserializes
//! (it never fails as invalid arguments), and a call the schema rejects never reaches the tool
//! (it fails as invalid arguments, with the violations listed).
//!
//! Calls are generated from each tool's own schema: a valid instance, then mutations of it
//! (each property dropped, set to values of every JSON type and to edge values, an unknown
//! property added). The verdict of an independent validator compiled here decides what the
//! runtime must do. Repairs are off, so the runtime judges exactly what the validator judges.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::{json, Map, Value};
use tool_runtime::pipeline::RepairPolicy;
use tool_runtime::{ErrorCode, Registry, ToolOutput};
use tool_tests::{Catalogue, Session};

fn test_tools() -> Registry {
    let root = tempfile::tempdir().unwrap();
    Registry::builder()
        .state(Catalogue {
            products: Vec::new(),
        })
        .state(Session { cwd: "/tmp".into() })
        // The example tools are linked into this binary too; they are checked below with their
        // own registry.
        .state(tool_examples::Workspace::new(root.path()))
        .state(tool_examples::PlanBoard::default())
        .exclude(tool_examples::TOOLS.iter().map(|t| t.name()))
        // Its resolver fills the required `cwd` before validation, by design (tested in
        // pipeline.rs), so `{}` is a good call for it although the schema alone rejects it.
        .exclude(["run_dir"])
        // The conformance suite's `slow_compute` sleeps as many seconds as it is given, and
        // the mutations give it `u64::MAX`; its schema is an integer and a string, checked
        // on every other tool.
        .exclude(["slow_compute"])
        .repair(RepairPolicy::Off)
        .build()
        .unwrap()
}

fn example_tools(root: &std::path::Path) -> Registry {
    std::fs::write(root.join("notes.txt"), "one\ntwo\nthree\n").unwrap();
    std::fs::write(root.join("data.csv"), "a,b\n1,x\n2,y\n").unwrap();
    tool_examples::builder(root.to_path_buf(), Default::default())
        .repair(RepairPolicy::Off)
        .build()
        .unwrap()
}

#[tokio::test]
async fn test_tools_agree_with_their_schemas() {
    check_registry(&test_tools()).await;
}

#[tokio::test]
async fn example_tools_agree_with_their_schemas() {
    let root = tempfile::tempdir().unwrap();
    check_registry(&example_tools(root.path())).await;
}

async fn check_registry(registry: &Registry) {
    let mut checked = 0;
    for spec in registry.specs() {
        let schema = spec.input_schema();
        let validator = jsonschema::validator_for(schema).unwrap();
        let base = instance(schema, schema, 0);
        assert!(
            validator.is_valid(&base),
            "{}: generated instance {base} is invalid",
            spec.name()
        );
        for candidate in mutations(schema, &base) {
            let text = candidate.to_string();
            let output = registry.call(spec.name(), &text).await;
            let rejected_as_arguments = matches!(
                output.as_error().map(|e| e.code),
                Some(ErrorCode::InvalidArguments | ErrorCode::MalformedArguments)
            );
            if validator.is_valid(&candidate) {
                assert!(
                    !rejected_as_arguments,
                    "{}: schema accepts {text} but the call failed: {output:?}",
                    spec.name()
                );
            } else {
                let error = output.as_error();
                assert!(
                    rejected_as_arguments && error.is_some_and(|e| !e.violations.is_empty()),
                    "{}: schema rejects {text} but the call was not rejected with violations: {output:?}",
                    spec.name()
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} calls checked");
}

/// A valid instance of `node`: required and optional properties alike, from defaults, enums
/// and the bounds the schema states.
fn instance(root: &Value, node: &Value, depth: usize) -> Value {
    let node = resolve(root, node);
    if depth > 6 {
        return Value::Null;
    }
    if let Some(default) = node.get("default") {
        return default.clone();
    }
    if let Some(value) = node.get("const") {
        return value.clone();
    }
    if let Some(values) = node.get("enum").and_then(Value::as_array) {
        return values[0].clone();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(branches) = node.get(key).and_then(Value::as_array) {
            let branch = branches
                .iter()
                .find(|b| resolve(root, b).get("type") != Some(&json!("null")))
                .unwrap_or(&branches[0]);
            return instance(root, branch, depth + 1);
        }
    }
    let ty = match node.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("null"),
        _ => "object",
    };
    match ty {
        "string" => Value::from(
            "x".repeat(
                node.get("minLength")
                    .and_then(Value::as_u64)
                    .unwrap_or(1)
                    .max(1) as usize,
            ),
        ),
        "integer" => Value::from(
            node.get("minimum")
                .and_then(Value::as_i64)
                .unwrap_or(1)
                .max(1),
        ),
        "number" => Value::from(
            node.get("minimum")
                .and_then(Value::as_f64)
                .map_or(0.5, |m| m.max(0.5)),
        ),
        "boolean" => Value::Bool(true),
        "null" => Value::Null,
        "array" => {
            let items = node
                .get("items")
                .map(|i| instance(root, i, depth + 1))
                .unwrap_or(Value::Null);
            Value::Array(vec![
                items;
                node.get("minItems").and_then(Value::as_u64).unwrap_or(1)
                    as usize
            ])
        }
        _ => {
            let mut object = Map::new();
            for (name, property) in node
                .get("properties")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
            {
                object.insert(name.clone(), instance(root, property, depth + 1));
            }
            Value::Object(object)
        }
    }
}

/// Variations of a valid instance, valid and invalid.
fn mutations(schema: &Value, base: &Value) -> Vec<Value> {
    let edge_values = [
        json!(null),
        json!(true),
        json!("5"),
        json!(""),
        json!(5),
        json!(5.0),
        json!(5.5),
        json!(-1),
        json!(0),
        json!(3_000_000_000u64),
        json!(300),
        json!([]),
        json!(["x"]),
        json!({}),
        json!({"x": 1}),
        json!("x".repeat(300)),
    ];
    let mut out = vec![base.clone(), json!({}), json!({"unknown_property": 1})];
    let Some(object) = base.as_object() else {
        return out;
    };
    for (name, value) in object {
        let mut dropped = object.clone();
        dropped.remove(name);
        out.push(Value::Object(dropped));
        for edge in &edge_values {
            let mut changed = object.clone();
            changed.insert(name.clone(), edge.clone());
            out.push(Value::Object(changed));
        }
        // One level down: the same treatment for a nested object's fields.
        if let Value::Object(inner) = value {
            for inner_name in inner.keys() {
                for edge in &edge_values {
                    let mut changed_inner = inner.clone();
                    changed_inner.insert(inner_name.clone(), edge.clone());
                    let mut changed = object.clone();
                    changed.insert(name.clone(), Value::Object(changed_inner));
                    out.push(Value::Object(changed));
                }
            }
        }
    }
    let mut extra = object.clone();
    extra.insert("unknown_property".into(), json!(1));
    out.push(Value::Object(extra));
    let _ = schema;
    out
}

fn resolve<'a>(root: &'a Value, node: &'a Value) -> &'a Value {
    match node
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix('#'))
    {
        Some(pointer) => root
            .pointer(pointer)
            .map_or(node, |target| resolve(root, target)),
        None => node,
    }
}

#[test]
fn the_generator_makes_valid_calls() {
    let registry = test_tools();
    let spec = registry.get("search_products").unwrap();
    let base = instance(spec.input_schema(), spec.input_schema(), 0);
    assert_eq!(base["limit"], 10);
    assert_eq!(base["category"], "shoes");
    let _: ToolOutput = registry.call_blocking("search_products", &base.to_string());
}
