//! Gemini `{"functionDeclarations": [{"name", "description", "parameters"}]}`.
//!
//! `parameters` is the schema reduced to Gemini's OpenAPI subset (`gemini_schema.rs`), left
//! out for a tool without parameters ("For function with no parameters, this can be left
//! unset", `FunctionDeclaration` reference). A schema the subset can't express (a map, a
//! recursive type) goes out whole as `parametersJsonSchema`, the declaration's JSON Schema
//! alternative ("mutually exclusive with `parameters`"), rather than as a lossy or rejected
//! `parameters`.

use super::gemini_schema;
use super::names::NameRule;
use crate::registry::Registry;
use serde_json::{Map, Value};

/// The `tools[]` element holding every declaration.
pub(crate) fn declarations(registry: &Registry) -> Value {
    let declarations = registry
        .specs()
        .enumerate()
        .map(|(i, spec)| {
            let mut declaration = Map::new();
            let name = registry.exported.get(NameRule::Gemini, i);
            declaration.insert("name".into(), name.into());
            declaration.insert("description".into(), spec.description().into());
            match gemini_schema::reduce(spec.input_schema()) {
                Ok(Some(parameters)) => {
                    declaration.insert("parameters".into(), parameters);
                }
                Ok(None) => {}
                Err(_) => {
                    declaration.insert("parametersJsonSchema".into(), spec.input_schema().clone());
                }
            }
            Value::Object(declaration)
        })
        .collect();
    let mut out = Map::new();
    out.insert("functionDeclarations".into(), Value::Array(declarations));
    Value::Object(out)
}
