//! Gemini function declarations and the OpenAPI-subset `Schema` of their `parameters`.
//!
//! Sources:
//! - [FD] `FunctionDeclaration` (Gemini API reference; googleapis java-genai/js-genai):
//!   `name` "Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain
//!   underscores, dots, colons and dashes, with a maximum length of 64"; `parameters` "For
//!   function with no parameters, this can be left unset"; `parametersJsonSchema`, JSON Schema,
//!   "mutually exclusive with `parameters`"; `response`, a `Schema` that "Describes the output
//!   from this function", of any type; `responseJsonSchema`, JSON Schema, "mutually exclusive
//!   with `response`".
//! - [SC] `Schema` (ai.google.dev/api/caching#Schema; js-genai `types.ts`): "a select subset
//!   of an OpenAPI 3.0 schema object"; its fields are the whole vocabulary; `type` is one of
//!   the `Type` enum's names; `format` "for NUMBER type: float, double; for INTEGER type:
//!   int32, int64; for STRING type: enum, date-time"; `enum` is a list of strings.
//! - [ER] the API's answer to an OBJECT without properties: "properties: should be non-empty
//!   for OBJECT type" (quoted by litellm's Gemini transformation and others).

use super::common::{meta_valid, refs_resolve, unknown_keys};
use serde_json::{Map, Value};

/// [SC] every field of `Schema`.
const FIELDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];

/// [SC] the `Type` enum (less `TYPE_UNSPECIFIED` and `NULL`, which `nullable` replaces).
const TYPES: &[&str] = &["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"];

/// The `tools[]` element `{"functionDeclarations": [...]}`.
pub fn check(export: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(wrapper) = export.as_object() else {
        return vec!["the export is not an object [FD]".into()];
    };
    for key in unknown_keys(wrapper, &["functionDeclarations"]) {
        out.push(format!(
            "unexpected key `{key}` beside functionDeclarations [FD]"
        ));
    }
    for declaration in wrapper
        .get("functionDeclarations")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(d) = declaration.as_object() else {
            out.push("a declaration is not an object [FD]".into());
            continue;
        };
        let name = d.get("name").and_then(Value::as_str).unwrap_or("");
        let first_ok = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        let rest_ok = name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-'));
        if !first_ok || !rest_ok || name.len() > 64 {
            out.push(format!(
                "{name:?}: name breaks ^[a-zA-Z_][a-zA-Z0-9_.:-]{{0,63}}$ [FD]"
            ));
        }
        for key in unknown_keys(
            d,
            &[
                "name",
                "description",
                "parameters",
                "parametersJsonSchema",
                "response",
                "responseJsonSchema",
            ],
        ) {
            out.push(format!("{name}: unexpected key `{key}` [FD]"));
        }
        match (d.get("parameters"), d.get("parametersJsonSchema")) {
            (Some(_), Some(_)) => out.push(format!(
                "{name}: both parameters and parametersJsonSchema [FD]"
            )),
            (Some(parameters), None) => {
                if parameters.get("type") != Some(&Value::from("OBJECT")) {
                    out.push(format!("{name}: parameters are not an OBJECT [FD]"));
                }
                check_schema(name, "", parameters, &mut out);
                meta_valid(
                    name,
                    "parameters (as JSON Schema)",
                    &to_json_schema(parameters),
                    &mut out,
                );
            }
            (None, Some(schema)) => {
                if schema.get("type") != Some(&Value::from("object")) {
                    out.push(format!(
                        "{name}: parametersJsonSchema is not an object schema [FD]"
                    ));
                }
                meta_valid(name, "parametersJsonSchema", schema, &mut out);
            }
            (None, None) => {}
        }
        match (d.get("response"), d.get("responseJsonSchema")) {
            (Some(_), Some(_)) => {
                out.push(format!("{name}: both response and responseJsonSchema [FD]"))
            }
            (Some(response), None) => {
                check_schema(name, "/response", response, &mut out);
                meta_valid(
                    name,
                    "response (as JSON Schema)",
                    &to_json_schema(response),
                    &mut out,
                );
            }
            (None, Some(schema)) => {
                meta_valid(name, "responseJsonSchema", schema, &mut out);
                refs_resolve(name, "responseJsonSchema", schema, &mut out);
            }
            (None, None) => {}
        }
    }
    out
}

/// The declaration named `name` in an export, if it has one.
pub fn declaration<'a>(export: &'a Value, name: &str) -> Option<&'a Value> {
    export
        .get("functionDeclarations")?
        .as_array()?
        .iter()
        .find(|d| d["name"] == name)
}

fn check_schema(tool: &str, pointer: &str, schema: &Value, out: &mut Vec<String>) {
    let Some(s) = schema.as_object() else {
        out.push(format!(
            "{tool} {pointer}: a schema that is not an object [SC]"
        ));
        return;
    };
    let mut say = |rule: &str| out.push(format!("{tool} {pointer}: {rule}"));
    for key in unknown_keys(s, FIELDS) {
        say(&format!("`{key}` is not a Schema field [SC]"));
    }
    let kind = s.get("type").and_then(Value::as_str);
    match kind {
        Some(t) if TYPES.contains(&t) => {}
        Some(t) => say(&format!("type {t} is not a Type [SC]")),
        None if s.contains_key("anyOf") => {}
        None => say("no type [SC]"),
    }
    if let Some(format) = s.get("format").and_then(Value::as_str) {
        let ok = match kind {
            Some("NUMBER") => matches!(format, "float" | "double"),
            Some("INTEGER") => matches!(format, "int32" | "int64"),
            Some("STRING") => matches!(format, "enum" | "date-time"),
            _ => false,
        };
        if !ok {
            say(&format!("format {format} for {kind:?} [SC]"));
        }
    }
    if let Some(values) = s.get("enum") {
        if !values
            .as_array()
            .is_some_and(|v| v.iter().all(Value::is_string))
        {
            say("enum values that are not strings [SC]");
        }
    }
    if s.get("nullable").is_some_and(|n| !n.is_boolean()) {
        say("nullable that is not a bool [SC]");
    }
    let properties = s.get("properties").and_then(Value::as_object);
    if kind == Some("OBJECT") && properties.is_none_or(Map::is_empty) {
        say("an OBJECT without properties [ER]");
    }
    if kind == Some("ARRAY") && !s.contains_key("items") {
        say("an ARRAY without items [SC]");
    }
    let names: Vec<&String> = properties.into_iter().flat_map(|p| p.keys()).collect();
    for required in s
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if !required
            .as_str()
            .is_some_and(|r| names.iter().any(|n| *n == r))
        {
            say(&format!("required {required} is not a property [SC]"));
        }
    }
    for (name, sub) in properties.into_iter().flatten() {
        check_schema(tool, &format!("{pointer}/properties/{name}"), sub, out);
    }
    if let Some(items) = s.get("items") {
        check_schema(tool, &format!("{pointer}/items"), items, out);
    }
    for (i, branch) in s
        .get("anyOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        check_schema(tool, &format!("{pointer}/anyOf/{i}"), branch, out);
    }
}

/// The subset read back as JSON Schema, to hand to a JSON Schema validator: type names in
/// lower case, `nullable: true` as a `null` alternative. Everything else in the subset means
/// the same in both.
pub fn to_json_schema(schema: &Value) -> Value {
    let Some(s) = schema.as_object() else {
        return schema.clone();
    };
    let mut out = Map::new();
    let nullable = s.get("nullable") == Some(&Value::Bool(true));
    for (key, value) in s {
        match key.as_str() {
            "nullable" | "propertyOrdering" | "example" => {}
            "type" => {
                let t = Value::from(value.as_str().unwrap_or_default().to_lowercase());
                out.insert(
                    "type".into(),
                    if nullable {
                        Value::Array(vec![t, "null".into()])
                    } else {
                        t
                    },
                );
            }
            "properties" => {
                let mapped = value
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(k, v)| (k.clone(), to_json_schema(v)))
                    .collect();
                out.insert(key.clone(), Value::Object(mapped));
            }
            "items" => {
                out.insert(key.clone(), to_json_schema(value));
            }
            "anyOf" => {
                let mut branches: Vec<Value> = value
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(to_json_schema)
                    .collect();
                if nullable {
                    branches.push(serde_json::json!({"type": "null"}));
                }
                out.insert(key.clone(), Value::Array(branches));
            }
            "enum" if nullable => {
                let mut values = value.as_array().cloned().unwrap_or_default();
                values.push(Value::Null);
                out.insert(key.clone(), Value::Array(values));
            }
            // OpenAPI's `format: enum` has no JSON Schema meaning.
            "format" if value == "enum" => {}
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    Value::Object(out)
}
