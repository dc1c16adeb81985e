//! A tool's declared output schema and the structured result it describes: MCP's
//! `outputSchema` (an object at the root) and `structuredContent` (the output, wrapped as
//! `{"result": ...}` when its own schema is not an object).

use super::ToolOutput;
use schemars::generate::SchemaSettings;
use schemars::{Schema, SchemaGenerator};
use serde_json::{json, Map, Value};

/// The schema of what a [`Tool`](crate::Tool) returns, from its
/// [`output_schema`](crate::Tool::output_schema): exported as MCP's `outputSchema` (and
/// Gemini's `response`), and every output checked against it, as for
/// `#[tool(output_schema)]`.
///
/// ```
/// use serde_json::json;
/// use tool_runtime::output::OutputSchema;
///
/// // From a type, as `#[tool(output_schema)]` makes it: a list is wrapped as `{"result": [...]}`.
/// let typed = OutputSchema::of::<Vec<u32>>();
/// // Or written by hand: an object at the root, as MCP requires.
/// let given = OutputSchema::json(json!({"type": "object", "properties": {"n": {"type": "integer"}}}));
/// # let _ = (typed, given);
/// ```
#[derive(Clone)]
pub struct OutputSchema(Source);

#[derive(Clone)]
enum Source {
    Type(fn(&mut SchemaGenerator) -> Schema),
    Given(Value),
}

impl OutputSchema {
    /// The schema of `T`, made as `#[tool(output_schema)]` makes a return type's: for what
    /// is written (serialization), its definitions in `$defs`, and a `{"result": ...}`
    /// wrapper when `T`'s own schema is not an object (`Vec<_>`, `String`, an enum), the
    /// structured result then wrapped the same way.
    pub fn of<T: schemars::JsonSchema>() -> OutputSchema {
        OutputSchema(Source::Type(T::json_schema))
    }

    /// A schema given as JSON, as [`DynamicTool::with_output_schema`](crate::DynamicTool::with_output_schema)
    /// takes it: it must describe an object (`"type": "object"` at the root), or the registry
    /// refuses the tool ([`BuildError::InvalidSchema`](crate::BuildError::InvalidSchema)).
    pub fn json(schema: Value) -> OutputSchema {
        OutputSchema(Source::Given(schema))
    }

    /// The schema as the registry keeps it, and whether it wraps the output.
    ///
    /// # Errors
    ///
    /// Why a given schema can't be an output schema.
    pub(crate) fn resolve(&self) -> Result<(Value, bool), String> {
        match &self.0 {
            Source::Type(schema_fn) => Ok(from_type(*schema_fn)),
            Source::Given(schema) => from_given(schema).map(|schema| (schema, false)),
        }
    }
}

impl std::fmt::Debug for OutputSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Source::Type(_) => f.write_str("OutputSchema(<a type's>)"),
            Source::Given(schema) => f.debug_tuple("OutputSchema").field(schema).finish(),
        }
    }
}

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

/// The schema of the output's own value: `schema` itself, or inside a `{"result": ...}`
/// wrapper (`wrapped`) the wrapped value's schema, with the root's `$defs` (which its
/// references point at) beside it. For providers that carry the value as it is (Gemini's
/// `functionResponse`), not MCP's structured result.
pub(crate) fn value_schema(schema: &Value, wrapped: bool) -> Value {
    let inner = schema.get("properties").and_then(|p| p.get("result"));
    match inner {
        Some(inner) if wrapped => {
            let mut inner = inner.clone();
            if let (Some(defs), Value::Object(map)) = (schema.get("$defs"), &mut inner) {
                map.insert("$defs".into(), defs.clone());
            }
            inner
        }
        _ => schema.clone(),
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
    fn a_tools_declared_schema_resolves_as_the_macro_and_dynamic_tools_do() {
        let (typed, wrapped) = OutputSchema::of::<Vec<Point>>().resolve().unwrap();
        assert_eq!(
            (typed, wrapped),
            from_type(<Vec<Point> as schemars::JsonSchema>::json_schema)
        );
        let given = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
        assert_eq!(
            OutputSchema::json(given.clone()).resolve(),
            Ok((given, false))
        );
        assert!(OutputSchema::json(json!({"type": "array"}))
            .resolve()
            .is_err());
    }

    #[test]
    fn the_value_schema_is_the_wrapped_one_with_its_definitions() {
        let (list, wrapped) = from_type(<Vec<Point> as schemars::JsonSchema>::json_schema);
        let value = value_schema(&list, wrapped);
        assert_eq!(value["type"], "array");
        assert_eq!(value["items"]["$ref"], "#/$defs/Point");
        assert_eq!(value["$defs"], list["$defs"]);
        let (point, wrapped) = from_type(<Point as schemars::JsonSchema>::json_schema);
        assert_eq!(value_schema(&point, wrapped), point);
        // A schema that only looks wrapped (a field named `result`) is itself.
        let object = json!({"type": "object", "properties": {"result": {"type": "string"}}});
        assert_eq!(value_schema(&object, false), object);
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
