//! JSON Schemas for tool arguments, generated once per tool when the registry is built.

use schemars::generate::SchemaSettings;
use schemars::transform::{transform_subschemas, Transform};
use schemars::{Schema, SchemaGenerator};
use serde_json::{Map, Value};

/// Builds a tool's input schema from the generated argument struct's `json_schema` fn.
///
/// The result is clean for every consumer: an object at the root, no `$schema` or `title`,
/// `additionalProperties: false` on every object with fixed properties, and the definitions
/// of nested types in the tool's own `$defs`.
///
/// Also says whether an object was closed that the Rust type leaves open (a nested struct
/// without `deny_unknown_fields`): the schema is then stricter than serde.
pub(crate) fn input_schema(schema_fn: fn(&mut SchemaGenerator) -> Schema) -> (Value, bool) {
    let mut generator = SchemaSettings::draft2020_12()
        .with(|s| s.meta_schema = None)
        .into_generator();
    let mut root = schema_fn(&mut generator);
    let mut close = CloseObjects::default();
    close.transform(&mut root);
    let mut definitions = generator.take_definitions(false);
    for definition in definitions.values_mut() {
        if let Ok(schema) = <&mut Schema>::try_from(definition) {
            close.transform(schema);
        }
    }

    let mut map = match root.to_value() {
        Value::Object(map) => map,
        // A bool schema (`true`) accepts anything: as tool input that's "any object".
        _ => Map::new(),
    };
    map.remove("$schema");
    map.remove("title");
    map.entry("type").or_insert_with(|| Value::from("object"));
    if map.get("type").and_then(Value::as_str) == Some("object") {
        map.entry("properties")
            .or_insert_with(|| Value::Object(Map::new()));
    }
    if !definitions.is_empty() {
        map.insert("$defs".into(), Value::Object(definitions));
    }
    (Value::Object(map), close.closed > 0)
}

/// Adds `additionalProperties: false` to every object schema that lists its properties and
/// says nothing about others, so the schema rejects the unknown keys a model invents.
#[derive(Clone, Default)]
struct CloseObjects {
    /// How many objects this transform closed.
    closed: usize,
}

impl Transform for CloseObjects {
    fn transform(&mut self, schema: &mut Schema) {
        if let Some(object) = schema.as_object_mut() {
            let lists_properties = object.get("properties").is_some_and(Value::is_object);
            let open_ended = [
                "additionalProperties",
                "unevaluatedProperties",
                "patternProperties",
            ]
            .iter()
            .any(|k| object.contains_key(*k));
            if lists_properties && !open_ended {
                object.insert("additionalProperties".into(), Value::Bool(false));
                self.closed += 1;
            }
            add_integer_bounds(object);
        }
        transform_subschemas(self, schema);
    }
}

/// Gives small integer types and `f32` their range: schemars says `"format": "int32"` without
/// bounds, so `3000000000` would pass the schema and then fail to deserialize (and serde_json
/// refuses an `f32` beyond `f32::MAX` the same way). 64-bit integers are left alone (their
/// bounds are beyond what JSON numbers carry exactly).
fn add_integer_bounds(object: &mut serde_json::Map<String, Value>) {
    if object.get("format").and_then(Value::as_str) == Some("float") {
        let max = f64::from(f32::MAX);
        object.entry("minimum").or_insert_with(|| (-max).into());
        object.entry("maximum").or_insert_with(|| max.into());
        return;
    }
    let bounds: (i64, i64) = match object.get("format").and_then(Value::as_str) {
        Some("int8") => (i8::MIN.into(), i8::MAX.into()),
        Some("uint8") => (0, u8::MAX.into()),
        Some("int16") => (i16::MIN.into(), i16::MAX.into()),
        Some("uint16") => (0, u16::MAX.into()),
        Some("int32") => (i32::MIN.into(), i32::MAX.into()),
        Some("uint32") => (0, u32::MAX.into()),
        _ => return,
    };
    object.entry("minimum").or_insert_with(|| bounds.0.into());
    object.entry("maximum").or_insert_with(|| bounds.1.into());
}

#[cfg(test)]
mod tests {
    use super::*;
    use schemars::JsonSchema;
    use serde_json::json;
    use std::collections::HashMap;

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Inner {
        properties: u8,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Args {
        inner: Inner,
        tags: HashMap<String, String>,
    }

    #[test]
    fn objects_are_closed_and_maps_left_open() {
        let (schema, closed_by_us) = input_schema(<Args as JsonSchema>::json_schema);
        assert!(closed_by_us, "Inner has no deny_unknown_fields");
        assert_eq!(schema["additionalProperties"], json!(false));
        assert_eq!(
            schema["$defs"]["Inner"]["additionalProperties"],
            json!(false)
        );
        // A property named "properties" is not mistaken for a schema keyword.
        assert!(schema["$defs"]["Inner"]["properties"]
            .get("additionalProperties")
            .is_none());
        assert_eq!(
            schema["properties"]["tags"]["additionalProperties"],
            json!({"type": "string"})
        );
        assert!(schema.get("title").is_none() && schema.get("$schema").is_none());
    }
}
