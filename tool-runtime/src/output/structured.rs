//! A tool's declared output schema and the structured result it describes: MCP's
//! `outputSchema` (an object at the root) and `structuredContent` (the output, wrapped as
//! `{"result": ...}` when its own schema is not an object).

use super::ToolOutput;
use schemars::generate::SchemaSettings;
use schemars::{Schema, SchemaGenerator};
use serde_json::{json, Map, Value};

/// The output schema of a return type (`#[tool(output_schema)]`), and whether it is wrapped.
///
/// Generated for serialization (what the tool writes, not what it would read: a field with a
/// default is still always written), the definitions of nested types in the root's `$defs`.
/// A type whose schema is not an object gets the wrapper MCP needs, as the Python SDK does.
pub(crate) fn from_type(schema_fn: fn(&mut SchemaGenerator) -> Schema) -> (Value, bool) {
    let mut generator = SchemaSettings::draft2020_12()
        .for_serialize()
        .with(|s| s.meta_schema = None)
        .into_generator();
    let root = schema_fn(&mut generator).to_value();
    let definitions = generator.take_definitions(false);
    let (mut map, wrapped) = match root {
        Value::Object(map) if is_object_schema(&map) => (map, false),
        other => (wrapper(other), true),
    };
    map.remove("$schema");
    if !definitions.is_empty() {
        map.insert("$defs".into(), Value::Object(definitions));
    }
    (Value::Object(map), wrapped)
}

/// The schema of a `#[tool(output_schema)]` fn's return value (the `T` of a `Result<T, E>`):
/// what the macro points `ToolDef::output_schema` at.
#[doc(hidden)]
pub fn output_schema_of<T: schemars::JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    T::json_schema(generator)
}

/// A schema from outside (a [`DynamicTool`](crate::DynamicTool)'s, an imported tool's):
/// MCP requires an object at the root.
///
/// # Errors
///
/// Why the schema can't be an output schema.
pub(crate) fn from_given(schema: &Value) -> Result<Value, String> {
    match schema {
        Value::Object(map) if is_object_schema(map) => Ok(schema.clone()),
        Value::Object(_) => Err(
            "an output schema must describe an object (`\"type\": \"object\"` at the root), as MCP requires"
                .to_owned(),
        ),
        other => Err(format!(
            "an output schema must be a JSON object, not {other}"
        )),
    }
}

/// Whether a given object schema is the `{"result": ...}` wrapper, as servers (this crate's,
/// the Python SDK's) describe a return value that is not an object.
#[cfg(feature = "mcp")]
pub(crate) fn is_wrapper(schema: &Value) -> bool {
    let only_result = |key: &str| {
        schema
            .get(key)
            .and_then(|v| match v {
                Value::Object(map) => Some(map.keys().eq(["result"])),
                Value::Array(items) => Some(items.iter().eq([&json!("result")])),
                _ => None,
            })
            .unwrap_or(false)
    };
    only_result("properties") && only_result("required")
}

/// The structured result an output stands for under a tool's output schema: JSON is itself
/// (wrapped as `{"result": ...}` when the schema is wrapped, or the value is not an object),
/// text under a wrapped schema is the wrapped string; anything else has none.
pub(crate) fn structured(output: &ToolOutput, wrapped: bool) -> Option<Value> {
    match output {
        ToolOutput::Json(json) => {
            let value = json.to_value();
            Some(if wrapped || !value.is_object() {
                json!({ "result": value })
            } else {
                value
            })
        }
        ToolOutput::Text(text) if wrapped => Some(json!({ "result": text })),
        _ => None,
    }
}

fn is_object_schema(map: &Map<String, Value>) -> bool {
    map.get("type").and_then(Value::as_str) == Some("object")
}

fn wrapper(inner: Value) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert("type".into(), "object".into());
    map.insert("properties".into(), json!({ "result": inner }));
    map.insert("required".into(), json!(["result"]));
    map
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::JsonOutput;

    #[derive(serde::Serialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Point {
        x: i32,
        #[serde(default)]
        y: i32,
        next: Option<Box<Point>>,
    }

    #[test]
    fn objects_are_their_own_schema_and_the_rest_is_wrapped() {
        let (point, wrapped) = from_type(<Point as schemars::JsonSchema>::json_schema);
        assert!(!wrapped);
        assert_eq!(point["type"], "object");
        // For serialization: `y` is always written, so it is required.
        assert_eq!(point["required"], json!(["x", "y", "next"]));
        assert!(point["$defs"]["Point"].is_object(), "{point}");
        assert!(point.get("$schema").is_none());

        let (list, wrapped) = from_type(<Vec<Point> as schemars::JsonSchema>::json_schema);
        assert!(wrapped);
        assert_eq!(list["properties"]["result"]["type"], "array");
        assert_eq!(list["required"], json!(["result"]));
        assert!(list["$defs"]["Point"].is_object(), "{list}");
        #[cfg(feature = "mcp")]
        {
            assert!(is_wrapper(&list));
            assert!(!is_wrapper(&point));
        }
    }

    #[test]
    fn given_schemas_need_an_object_root() {
        assert!(from_given(&json!({"type": "object"})).is_ok());
        assert!(from_given(&json!({"type": "array"})).is_err());
        assert!(from_given(&json!(true)).is_err());
    }

    #[test]
    fn structured_results_follow_the_wrapping() {
        let list = ToolOutput::Json(JsonOutput::from(json!([1, 2])));
        assert_eq!(structured(&list, true), Some(json!({"result": [1, 2]})));
        assert_eq!(structured(&list, false), Some(json!({"result": [1, 2]})));
        let object = ToolOutput::Json(JsonOutput::from(json!({"a": 1})));
        assert_eq!(structured(&object, false), Some(json!({"a": 1})));
        assert_eq!(structured(&object, true), Some(json!({"result": {"a": 1}})));
        assert_eq!(
            structured(&ToolOutput::text("hi"), true),
            Some(json!({"result": "hi"}))
        );
        assert_eq!(structured(&ToolOutput::text("hi"), false), None);
    }
}
