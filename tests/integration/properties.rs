//! Property tests (proptest): a tool's exported schema and its typed arguments agree.
//!
//! Test tools cover each parameter kind: integers of every width and sign, floats, strings
//! with length and pattern constraints, `char`, enums in each serde representation (external,
//! internal `tag`, adjacent, untagged), nested structs, `Vec`, maps, `Option`, defaults,
//! `rename_all`, `deny_unknown_fields` and flattened structs. For each tool:
//!
//! 1. values generated from the tool's exported schema pass validation and deserialize (the
//!    call is never an argument error);
//! 2. for arbitrary JSON (schema-generated values, mutated): whatever passes validation
//!    deserializes, and whatever the typed arguments accept, validation accepts, except
//!    where the schema is deliberately stricter (README, "Where the schema can't be exact").
//!
//! `tests/integration/agreement.rs` runs a fixed set of mutations over every tool; this file
//! explores further with random values on tools built for it.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]
// The argument types' fields are only read through `Debug`.
#![allow(dead_code)]

use proptest::prelude::*;
use proptest::strategy::{BoxedStrategy, Just, Union};
use proptest::test_runner::{Config, TestRunner};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashMap};
use tool_runtime::pipeline::RepairPolicy;
use tool_runtime::registry::ToolDef;
use tool_runtime::{tool, ErrorCode, Registry, ToolOutput};

// ---- test tools: one per group of parameter kinds ------------------------------------------

/// Integers of every width and sign.
#[tool]
#[allow(clippy::too_many_arguments)]
fn ints(
    /// u8
    a: u8,
    /// i8
    b: i8,
    /// u16
    c: u16,
    /// i16
    d: i16,
    /// u32
    e: u32,
    /// i32
    f: i32,
    /// u64
    g: u64,
    /// i64
    h: i64,
    /// usize, with a range
    #[schemars(range(min = 1, max = 500))]
    i: usize,
) -> String {
    format!("{a} {b} {c} {d} {e} {f} {g} {h} {i}")
}

/// Floats.
#[tool]
fn floats(
    /// f32
    x: f32,
    /// f64
    y: f64,
    /// f64 in 0..=1
    #[schemars(range(min = 0.0, max = 1.0))]
    ratio: f64,
) -> String {
    format!("{x} {y} {ratio}")
}

/// Strings with constraints.
#[tool]
fn strings(
    /// 2 to 5 characters.
    #[schemars(length(min = 2, max = 5))]
    short: String,
    /// Lowercase letters.
    #[schemars(regex(pattern = r"^[a-z]+$"))]
    word: String,
    /// One character.
    letter: char,
    /// Any text.
    free: String,
) -> String {
    format!("{short} {word} {letter} {free}")
}

/// Externally tagged (serde's default).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Shape {
    /// A circle.
    Circle {
        /// Radius.
        r: f64,
    },
    /// A square.
    Square(u32),
    /// Nothing.
    Empty,
}

/// Internally tagged.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Pet {
    /// A cat.
    Cat {
        /// Lives left.
        lives: u8,
    },
    /// A dog.
    Dog {
        /// Good or not.
        good: bool,
    },
}

/// Adjacently tagged.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "t", content = "c")]
enum Message {
    /// Text.
    Text(String),
    /// A count.
    Count(u16),
}

/// Untagged.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
enum NumberOrWord {
    /// A number.
    Number(i32),
    /// A word.
    Word(String),
}

/// Enums of each serde representation.
#[tool]
fn enums(
    /// External.
    shape: Shape,
    /// Internal.
    pet: Pet,
    /// Adjacent.
    message: Message,
    /// Untagged.
    either: NumberOrWord,
) -> String {
    format!("{shape:?} {pet:?} {message:?} {either:?}")
}

/// A nested struct, camelCase on the wire, with a default.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Window {
    /// Width.
    pixel_width: u16,
    /// Optional title.
    window_title: Option<String>,
    /// Defaults to false.
    #[serde(default)]
    full_screen: bool,
}

/// A struct that refuses unknown fields.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Point {
    /// X.
    x: i32,
    /// Y.
    y: i32,
}

/// Fields flattened into another struct.
#[derive(Debug, Deserialize, JsonSchema)]
struct Paging {
    /// Page number.
    page: u32,
    /// Page size.
    per_page: Option<u8>,
}

/// A struct with a flattened part.
#[derive(Debug, Deserialize, JsonSchema)]
struct Query {
    /// Search text.
    text: String,
    #[serde(flatten)]
    paging: Paging,
}

/// Containers and nesting.
#[tool]
#[allow(clippy::too_many_arguments)]
fn containers(
    /// A list.
    tags: Vec<String>,
    /// Counts by key.
    counts: HashMap<String, u32>,
    /// Sorted map of points.
    points: BTreeMap<String, Point>,
    /// Nested struct.
    window: Window,
    /// Optional nested struct.
    corner: Option<Point>,
    /// Flattened fields.
    query: Query,
    /// List of lists.
    grid: Vec<Vec<u8>>,
    /// With a default.
    #[tool(default = 7)]
    limit: u32,
) -> String {
    format!("{tags:?} {counts:?} {points:?} {window:?} {corner:?} {query:?} {grid:?} {limit}")
}

const TOOLS: &[ToolDef] = &[
    ints::TOOL,
    floats::TOOL,
    strings::TOOL,
    enums::TOOL,
    containers::TOOL,
];

fn registry(validation: bool) -> Registry {
    TOOLS
        .iter()
        .fold(Registry::builder().without_inventory(), |b, &t| {
            b.register(t)
        })
        .repair(RepairPolicy::Off)
        .validation(validation)
        .build()
        .unwrap()
}

fn is_argument_error(output: &ToolOutput) -> bool {
    matches!(
        output.as_error().map(|e| e.code),
        Some(ErrorCode::InvalidArguments | ErrorCode::MalformedArguments)
    )
}

// ---- values from a schema ----------------------------------------------------------------

fn resolve<'a>(root: &'a Value, node: &'a Value) -> &'a Value {
    match node
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix('#'))
    {
        Some(pointer) => root.pointer(pointer).map_or(node, |t| resolve(root, t)),
        None => node,
    }
}

/// Values valid against `node` (for the schemas these tools export: no recursion, `anyOf` and
/// `oneOf` branches that don't overlap).
fn valid(root: &Value, node: &Value, depth: usize) -> BoxedStrategy<Value> {
    let node = resolve(root, node);
    if let Some(value) = node.get("const") {
        return Just(value.clone()).boxed();
    }
    if let Some(values) = node.get("enum").and_then(Value::as_array) {
        return proptest::sample::select(values.clone()).boxed();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(branches) = node.get(key).and_then(Value::as_array) {
            let base = without(node, key);
            let options: Vec<BoxedStrategy<Value>> = branches
                .iter()
                .map(|b| merged(root, &base, resolve(root, b), depth))
                .collect();
            return Union::new(options).boxed();
        }
    }
    match node.get("type") {
        Some(Value::Array(types)) => {
            let options: Vec<BoxedStrategy<Value>> = types
                .iter()
                .map(|t| {
                    let mut one = node.as_object().unwrap().clone();
                    one.insert("type".into(), t.clone());
                    valid(root, &Value::Object(one), depth)
                })
                .collect();
            Union::new(options).boxed()
        }
        Some(Value::String(t)) => typed(root, node, t, depth),
        _ if node.get("properties").is_some() => typed(root, node, "object", depth),
        _ => Just(json!(null)).boxed(),
    }
}

fn without(node: &Value, key: &str) -> Value {
    let mut copy = node.as_object().cloned().unwrap_or_default();
    copy.remove(key);
    Value::Object(copy)
}

/// A branch of a union, with the properties its parent lists (flatten puts them there).
fn merged(root: &Value, base: &Value, branch: &Value, depth: usize) -> BoxedStrategy<Value> {
    let base_has_properties = base
        .get("properties")
        .is_some_and(|p| p.as_object().is_some_and(|m| !m.is_empty()));
    if !base_has_properties {
        return valid(root, branch, depth);
    }
    let mut node = base.as_object().unwrap().clone();
    for key in ["properties"] {
        if let Some(Value::Object(extra)) = branch.get(key) {
            let target = node.entry(key).or_insert_with(|| json!({}));
            for (k, v) in extra {
                target.as_object_mut().unwrap().insert(k.clone(), v.clone());
            }
        }
    }
    let mut required: Vec<Value> = base
        .get("required")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    required.extend(
        branch
            .get("required")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default(),
    );
    node.insert("required".into(), Value::Array(required));
    typed(root, &Value::Object(node), "object", depth)
}

fn typed(root: &Value, node: &Value, ty: &str, depth: usize) -> BoxedStrategy<Value> {
    let int = |key: &str| {
        node.get(key).and_then(|v| {
            v.as_i64()
                .map(i128::from)
                .or_else(|| v.as_u64().map(i128::from))
                .or_else(|| v.as_f64().map(|f| f as i128))
        })
    };
    let len = |key: &str| node.get(key).and_then(Value::as_u64).map(|n| n as usize);
    match ty {
        "integer" => {
            let format = node.get("format").and_then(Value::as_str).unwrap_or("");
            let (lo, hi) = match format {
                "uint64" | "uint" => (0, u64::MAX as i128),
                _ => (i64::MIN as i128, i64::MAX as i128),
            };
            let lo = int("minimum").unwrap_or(lo).max(i64::MIN as i128);
            let hi = int("maximum").unwrap_or(hi).min(u64::MAX as i128);
            let edges = vec![
                lo,
                hi,
                lo.max(0).min(hi),
                (lo + 1).min(hi),
                (hi - 1).max(lo),
            ];
            prop_oneof![proptest::sample::select(edges), (lo..=hi),]
                .prop_map(|n| {
                    if n < 0 {
                        json!(n as i64)
                    } else {
                        json!(n as u64)
                    }
                })
                .boxed()
        }
        "number" => {
            let lo = node.get("minimum").and_then(Value::as_f64).unwrap_or(-1e12);
            let hi = node.get("maximum").and_then(Value::as_f64).unwrap_or(1e12);
            (lo..=hi).prop_map(|x| json!(x)).boxed()
        }
        "boolean" => any::<bool>().prop_map(Value::Bool).boxed(),
        "null" => Just(Value::Null).boxed(),
        "string" => {
            let min = len("minLength").unwrap_or(0);
            let max = len("maxLength").unwrap_or(min + 8).min(min + 8);
            let pattern = match node.get("pattern").and_then(Value::as_str) {
                Some(p) => p.trim_start_matches('^').trim_end_matches('$').to_owned(),
                None => format!("[a-zA-Z0-9 _.é\u{1F600}\"\\\\]{{{min},{max}}}"),
            };
            proptest::string::string_regex(&pattern)
                .unwrap()
                .prop_filter("length", move |s| (min..=max).contains(&s.chars().count()))
                .prop_map(Value::String)
                .boxed()
        }
        "array" => {
            let items = node.get("items").cloned().unwrap_or(json!({}));
            let min = len("minItems").unwrap_or(0);
            let max = len("maxItems").unwrap_or(min + 3).min(min + 3);
            proptest::collection::vec(valid(root, &items, depth + 1), min..=max)
                .prop_map(Value::Array)
                .boxed()
        }
        _ => object(root, node, depth),
    }
}

fn object(root: &Value, node: &Value, depth: usize) -> BoxedStrategy<Value> {
    let required: Vec<String> = node
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let mut fields: Vec<BoxedStrategy<Option<(String, Value)>>> = Vec::new();
    for (name, schema) in node
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let name = name.clone();
        let value = valid(root, schema, depth + 1);
        if required.contains(&name) {
            fields.push(value.prop_map(move |v| Some((name.clone(), v))).boxed());
        } else {
            fields.push(proptest::option::of(value.prop_map(move |v| (name.clone(), v))).boxed());
        }
    }
    let extra = match node.get("additionalProperties") {
        Some(schema @ Value::Object(_)) if depth < 6 => {
            proptest::collection::vec(("[a-z]{1,6}", valid(root, schema, depth + 1)), 0..3).boxed()
        }
        _ => Just(Vec::new()).boxed(),
    };
    (fields, extra)
        .prop_map(|(fields, extra)| {
            let mut map = Map::new();
            for (k, v) in extra {
                map.insert(k, v);
            }
            for (k, v) in fields.into_iter().flatten() {
                map.insert(k, v);
            }
            Value::Object(map)
        })
        .boxed()
}

// ---- mutations: arbitrary JSON near the valid values -------------------------------------

fn edge_values() -> Vec<Value> {
    vec![
        json!(null),
        json!(true),
        json!(false),
        json!(0),
        json!(-1),
        json!(1),
        json!(255),
        json!(256),
        json!(-129),
        json!(65536),
        json!(4294967296u64),
        json!(9007199254740993u64),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(1.5),
        json!(5.0),
        json!(-0.0),
        json!(1e300),
        json!(3.5e38),
        json!(""),
        json!("a"),
        json!("ab"),
        json!("abcdef"),
        json!("Ab1"),
        json!("😀"),
        json!([]),
        json!([1]),
        json!(["x"]),
        json!({}),
        json!({"x": 1}),
        json!({"kind": "cat", "lives": 1}),
        json!({"t": "Text", "c": "x"}),
        json!("circle"),
        json!("empty"),
        json!({"square": 3}),
    ]
}

/// Every JSON pointer in a value.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match value {
        Value::Object(map) => map.iter().for_each(|(k, v)| {
            pointers(
                v,
                format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                out,
            )
        }),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .for_each(|(i, v)| pointers(v, format!("{at}/{i}"), out)),
        _ => {}
    }
}

/// Applies `(which pointer, what to do)`: replace with an edge value, drop, or add a key.
fn mutate(mut value: Value, ops: &[(usize, usize, u8)]) -> Value {
    let edges = edge_values();
    for &(at, with, how) in ops {
        let mut all = Vec::new();
        pointers(&value, String::new(), &mut all);
        let pointer = &all[at % all.len()];
        let edge = edges[with % edges.len()].clone();
        match how % 3 {
            0 if !pointer.is_empty() => *value.pointer_mut(pointer).unwrap() = edge,
            1 if !pointer.is_empty() => {
                let (parent, last) = pointer.rsplit_once('/').unwrap();
                match value.pointer_mut(parent).unwrap() {
                    Value::Object(map) => {
                        map.remove(&last.replace("~1", "/").replace("~0", "~"));
                    }
                    Value::Array(items) => {
                        items.remove(last.parse::<usize>().unwrap());
                    }
                    _ => {}
                }
            }
            _ => {
                if let Some(Value::Object(map)) = value.pointer_mut(pointer) {
                    let key = ["extra", "kind", "t", "c", "page", "x"][with % 6];
                    map.insert(key.into(), edge);
                }
            }
        }
    }
    value
}

// ---- the properties ------------------------------------------------------------------------

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

/// Property 1: values generated from each tool's schema pass validation and deserialize.
#[test]
fn values_generated_from_the_schema_validate_and_deserialize() {
    generated_values_are_accepted(&registry(true), 200);
}

/// Property 1 on the example tools (in an empty workspace; `exec_command` is denied without
/// an approver, so nothing generated ever runs as a program).
#[test]
fn values_generated_from_the_example_schemas_validate_and_deserialize() {
    let root = tempfile::tempdir().unwrap();
    let registry = tool_examples::builder(root.path().to_path_buf(), Default::default())
        .repair(RepairPolicy::Off)
        .build()
        .unwrap();
    generated_values_are_accepted(&registry, 60);
}

fn generated_values_are_accepted(registry: &Registry, cases: u32) {
    for spec in registry.specs() {
        let schema = spec.input_schema().clone();
        let validator = jsonschema::validator_for(&schema).unwrap();
        let strategy = valid(&schema, &schema, 0);
        runner(cases)
            .run(&strategy, |value| {
                prop_assert!(
                    validator.is_valid(&value),
                    "{}: generated {value} is invalid",
                    spec.name()
                );
                let output = registry.call_blocking(spec.name(), &value.to_string());
                prop_assert!(
                    !is_argument_error(&output),
                    "{}: schema-valid {value} was refused: {}",
                    spec.name(),
                    output.to_model_text()
                );
                Ok(())
            })
            .unwrap();
    }
}

/// The schema as the Rust types alone see it: every object opened (`additionalProperties:
/// false` taken out), and the `#[schemars(range, length, regex)]` constraints replaced by the
/// type's own bounds. What the typed arguments accept may differ from the schema only by
/// those, which the schema (validation) enforces on purpose (README, "Where the schema can't
/// be exact").
fn types_only(schema: &Value) -> Value {
    match types_only_at(schema) {
        // The root stays an object (its `$defs` are referenced from the root).
        Value::Object(mut wrapped)
            if wrapped.contains_key("anyOf") && schema.get("$defs").is_some() =>
        {
            wrapped.remove("anyOf").unwrap()[0].take()
        }
        other => other,
    }
}

fn types_only_at(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => {
            let mut out: Map<String, Value> = map
                .iter()
                .filter(|(k, v)| {
                    let closed =
                        matches!(k.as_str(), "additionalProperties" | "unevaluatedProperties")
                            && **v == Value::Bool(false);
                    let constraint = matches!(
                        k.as_str(),
                        "minimum"
                            | "maximum"
                            | "exclusiveMinimum"
                            | "exclusiveMaximum"
                            | "minLength"
                            | "maxLength"
                            | "pattern"
                    );
                    !closed && !constraint
                })
                .map(|(k, v)| (k.clone(), types_only_at(v)))
                .collect();
            let bounds: Option<(i64, Option<u64>)> = match map.get("format").and_then(Value::as_str)
            {
                Some("uint8") => Some((0, Some(u8::MAX.into()))),
                Some("int8") => Some((i8::MIN.into(), Some(i8::MAX as u64))),
                Some("uint16") => Some((0, Some(u16::MAX.into()))),
                Some("int16") => Some((i16::MIN.into(), Some(i16::MAX as u64))),
                Some("uint32") => Some((0, Some(u32::MAX.into()))),
                Some("int32") => Some((i32::MIN.into(), Some(i32::MAX as u64))),
                Some("uint64" | "uint") => Some((0, None)),
                _ => None,
            };
            if let Some((min, max)) = bounds {
                out.insert("minimum".into(), json!(min));
                if let Some(max) = max {
                    out.insert("maximum".into(), json!(max));
                }
            }
            // `char`: one character, which is the type's own bound.
            if map.get("minLength") == Some(&json!(1)) && map.get("maxLength") == Some(&json!(1)) {
                out.insert("minLength".into(), json!(1));
                out.insert("maxLength".into(), json!(1));
            }
            // serde also reads a struct from an array of its fields in order.
            if out.get("type") == Some(&json!("object")) && out.contains_key("properties") {
                return json!({"anyOf": [Value::Object(out), {"type": "array"}]});
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(types_only_at).collect()),
        other => other.clone(),
    }
}

/// The schema with the 64-bit integers bounded by their Rust types, which the exported
/// schema leaves out (README, "Where the schema can't be exact"): a value only this one
/// rejects is a 64-bit integer out of range, which the runtime reports as invalid arguments
/// from the deserializer.
fn bounded_64(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => {
            let mut out: Map<String, Value> = map
                .iter()
                .map(|(k, v)| (k.clone(), bounded_64(v)))
                .collect();
            match map.get("format").and_then(Value::as_str) {
                Some("uint64" | "uint") => {
                    out.entry("maximum").or_insert(json!(u64::MAX));
                }
                Some("int64" | "int") => {
                    out.entry("minimum").or_insert(json!(i64::MIN));
                    out.entry("maximum").or_insert(json!(i64::MAX));
                }
                _ => {}
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(bounded_64).collect()),
        other => other.clone(),
    }
}

/// Property 2: on arbitrary JSON near the valid values, validation and the typed arguments
/// agree, both ways.
#[test]
fn validation_and_the_typed_arguments_agree_on_arbitrary_json() {
    agree_on_arbitrary_json(&registry(true), &registry(false), 300);
}

/// Property 2 on the example tools (an empty workspace; `exec_command` is denied).
#[test]
fn example_tools_agree_on_arbitrary_json() {
    let root = tempfile::tempdir().unwrap();
    let build = |validation: bool| {
        tool_examples::builder(root.path().to_path_buf(), Default::default())
            .repair(RepairPolicy::Off)
            .validation(validation)
            .build()
            .unwrap()
    };
    agree_on_arbitrary_json(&build(true), &build(false), 60);
}

fn agree_on_arbitrary_json(checked: &Registry, typed_only: &Registry, cases: u32) {
    for spec in checked.specs() {
        let schema = spec.input_schema().clone();
        let validator = jsonschema::validator_for(&schema).unwrap();
        let open = jsonschema::validator_for(&types_only(&schema)).unwrap();
        let bounded = jsonschema::validator_for(&bounded_64(&schema)).unwrap();
        let strategy = (
            valid(&schema, &schema, 0),
            proptest::collection::vec((any::<usize>(), any::<usize>(), any::<u8>()), 1..4),
        )
            .prop_map(|(value, ops)| mutate(value, &ops));
        runner(cases)
            .run(&strategy, |value| {
                let text = value.to_string();
                let valid = validator.is_valid(&value);
                let output = checked.call_blocking(spec.name(), &text);
                if valid && bounded.is_valid(&value) {
                    prop_assert!(
                        !is_argument_error(&output),
                        "{}: the schema accepts {text} but it didn't deserialize: {}",
                        spec.name(),
                        output.to_model_text()
                    );
                } else if valid {
                    // A 64-bit integer out of range: refused by the deserializer, as arguments.
                    prop_assert!(is_argument_error(&output), "{}: {text} ran", spec.name());
                } else {
                    prop_assert!(
                        is_argument_error(&output),
                        "{}: the schema rejects {text} but the tool ran",
                        spec.name()
                    );
                }
                let typed = typed_only.call_blocking(spec.name(), &text);
                if !is_argument_error(&typed) && !valid {
                    prop_assert!(
                        open.is_valid(&value),
                        "{}: the typed arguments accept {text} but the schema rejects it: {:?}",
                        spec.name(),
                        validator
                            .iter_errors(&value)
                            .map(|e| e.to_string())
                            .collect::<Vec<_>>()
                    );
                }
                Ok(())
            })
            .unwrap();
    }
}

/// The rows of the README's "Where the schema can't be exact", as calls.
#[test]
fn where_the_schema_cannot_be_exact() {
    let registry = registry(true);
    let ints = r#"{"a":0,"b":0,"c":0,"d":0,"e":0,"f":0,"h":0,"i":1,"g":"#;
    for big in ["18446744073709551616", "1e300"] {
        let output = registry.call_blocking("ints", &format!("{ints}{big}}}"));
        assert_eq!(
            output.as_error().map(|e| e.code),
            Some(ErrorCode::InvalidArguments),
            "{big}: {}",
            output.to_model_text()
        );
    }
    let output = registry.call_blocking("ints", &format!("{ints}18446744073709551615}}"));
    assert!(!output.is_error(), "{}", output.to_model_text());

    let output = registry.call_blocking("floats", r#"{"x": 3.5e38, "y": 1, "ratio": 0.5}"#);
    let error = output.as_error().expect("beyond f32::MAX is refused");
    assert_eq!(error.code, ErrorCode::InvalidArguments);
    assert!(error.message.contains("maximum"), "{}", error.message);
    let output = registry.call_blocking("floats", r#"{"x": 3.4e38, "y": 1, "ratio": 0.5}"#);
    assert_eq!(
        output.to_model_text(),
        "340000000000000000000000000000000000000 1 0.5"
    );

    let enums = |shape: &str| {
        format!(
            r#"{{"shape": {shape}, "pet": {{"kind": "dog", "good": true}}, "message": {{"t": "Count", "c": 5.0}}, "either": "w"}}"#
        )
    };
    let output = registry.call_blocking("enums", &enums(r#"{"circle": [1.5]}"#));
    assert_eq!(
        output.as_error().map(|e| e.code),
        Some(ErrorCode::InvalidArguments)
    );
    // `5.0` for the adjacently tagged `Count(u16)` is the whole number 5.
    let output = registry.call_blocking("enums", &enums(r#"{"circle": {"r": 1.5}}"#));
    assert!(
        output.to_model_text().contains("Count(5)"),
        "{}",
        output.to_model_text()
    );
}
