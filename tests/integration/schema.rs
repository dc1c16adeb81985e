//! The schemas `#[tool]` derives: one test per parameter kind, plus cleanliness rules every
//! consumer relies on.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};
use tool_runtime::{Provider, Registry};
use tool_tests::Catalogue;

fn registry() -> Registry {
    Registry::builder()
        .state(Catalogue {
            products: Vec::new(),
        })
        .build()
        .unwrap()
}

fn schema(tool: &str) -> Value {
    registry().get(tool).unwrap().input_schema().clone()
}

fn required(schema: &Value) -> Vec<&str> {
    schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

#[test]
fn a_string_parameter_is_required_and_described() {
    let s = schema("search_products");
    assert_eq!(
        s["properties"]["query"],
        json!({"type": "string", "description": "Free-text query, for example \"red running shoes\"."})
    );
    assert_eq!(required(&s), ["query"]);
}

#[test]
fn a_default_makes_a_parameter_optional_and_is_in_the_schema() {
    let s = schema("search_products");
    let limit = &s["properties"]["limit"];
    assert_eq!(limit["default"], json!(10));
    assert_eq!(
        (limit["minimum"].clone(), limit["maximum"].clone()),
        (json!(1), json!(100))
    );
    assert!(!required(&s).contains(&"limit"));
    // An enum default is serialized the way serde writes the enum.
    assert_eq!(
        schema("kinds")["properties"]["order"]["default"],
        json!("newest")
    );
}

#[test]
fn an_option_is_optional_and_accepts_null() {
    let s = schema("search_products");
    assert!(!required(&s).contains(&"category"));
    assert_eq!(
        s["properties"]["category"]["anyOf"][1],
        json!({"type": "null"})
    );
    assert_eq!(
        schema("kinds")["properties"]["verbose"]["type"],
        json!(["boolean", "null"])
    );
}

#[test]
fn nested_types_live_in_the_tools_own_defs() {
    let s = schema("search_products");
    assert_eq!(
        s["properties"]["category"]["anyOf"][0],
        json!({"$ref": "#/$defs/Category"})
    );
    let range = &s["$defs"]["PriceRange"];
    assert_eq!(range["description"], "A price range.");
    assert_eq!(
        range["properties"]["min"]["description"],
        "Lowest price, in cents."
    );
    assert_eq!(range["additionalProperties"], json!(false));
    // Documented enum variants keep their docs.
    assert_eq!(
        s["$defs"]["Category"]["oneOf"][0]["description"],
        "Things for feet."
    );
}

#[test]
fn collections_maps_renames_and_raw_identifiers() {
    let s = schema("kinds");
    let p = &s["properties"];
    assert_eq!(p["tags"]["items"], json!({"type": "string"}));
    assert_eq!(p["counts"]["additionalProperties"]["type"], "integer");
    assert_eq!(p["labels"]["items"], json!({"$ref": "#/$defs/Label"}));
    assert_eq!(
        (p["ratio"]["minimum"].clone(), p["ratio"]["maximum"].clone()),
        (json!(0.0), json!(1.0))
    );
    assert_eq!(
        p["type"]["description"],
        "The kind of thing, sent by the model as `type`."
    );
    assert!(p.get("maxItems").is_some() && p.get("max_items").is_none());
    assert_eq!(
        required(&s),
        ["tags", "counts", "labels", "ratio", "type", "maxItems"]
    );
    // Parameters keep the order of the signature.
    let order: Vec<&str> = p.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        order,
        ["tags", "counts", "labels", "ratio", "verbose", "order", "type", "maxItems"]
    );
}

#[test]
fn arguments_section_describes_parameters() {
    let registry = registry();
    let spec = registry.get("add_numbers").unwrap();
    assert_eq!(spec.description(), "Add two integers.");
    assert_eq!(
        spec.input_schema()["properties"]["a"]["description"],
        "The first addend."
    );
    assert_eq!(
        spec.input_schema()["properties"]["b"]["description"],
        "The second addend."
    );
}

#[test]
fn injected_parameters_are_not_in_the_schema() {
    let s = schema("search_products");
    assert!(s["properties"].get("catalogue").is_none());
    assert_eq!(schema("whoami")["properties"], json!({}));
}

/// Rules every exported schema follows, checked on every tool.
#[test]
fn every_schema_is_clean_and_valid() {
    let registry = registry();
    for spec in registry.specs() {
        let s = spec.input_schema();
        let name = spec.name();
        assert_eq!(s["type"], "object", "{name}");
        assert!(
            s.get("$schema").is_none() && s.get("title").is_none(),
            "{name}"
        );
        assert_ne!(
            s.get("description").and_then(Value::as_str),
            Some(spec.description()),
            "{name}: description duplicated"
        );
        assert!(
            jsonschema::meta::is_valid(s),
            "{name}: not valid JSON Schema"
        );
        jsonschema::validator_for(s).unwrap_or_else(|e| panic!("{name}: does not compile: {e}"));
        walk(s, &mut |node| {
            if let Some(reference) = node.get("$ref").and_then(Value::as_str) {
                let pointer = reference
                    .strip_prefix('#')
                    .unwrap_or_else(|| panic!("{name}: non-local $ref {reference}"));
                assert!(
                    s.pointer(pointer).is_some(),
                    "{name}: dangling $ref {reference}"
                );
            }
            if node.get("properties").is_some_and(Value::is_object) {
                assert_eq!(
                    node.get("additionalProperties"),
                    Some(&json!(false)),
                    "{name}: open object {node}"
                );
            }
        });
    }
}

#[test]
fn mcp_export_has_the_mcp_shape() {
    let tools = registry().export(Provider::Mcp).to_value();
    let search = tools
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "search_products")
        .unwrap();
    let keys: Vec<&str> = search
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["name", "description", "inputSchema", "annotations"]);
    assert_eq!(search["annotations"], json!({"readOnlyHint": true}));
    let noop = tools
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "noop")
        .unwrap();
    assert!(noop.get("annotations").is_none());
}

/// Visits every schema node below `value` (objects only; property maps are entered too, which
/// is harmless for the checks above because property names never hold `$ref` or `properties`
/// keys in these test tools).
fn walk(value: &Value, visit: &mut impl FnMut(&Value)) {
    match value {
        Value::Object(map) => {
            visit(value);
            map.values().for_each(|v| walk(v, visit));
        }
        Value::Array(items) => items.iter().for_each(|v| walk(v, visit)),
        _ => {}
    }
}
