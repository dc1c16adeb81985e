//! Whether the typed deserializer enforces a tool's schema exactly, so that any call it
//! accepts is schema-valid and validation can be skipped on success.
//!
//! A schema is exact when it only uses what serde checks itself: types, properties, required,
//! closed objects, enums and constants, `Option`'s null, arrays, maps, and integer bounds that
//! are just the Rust type's own range. Ranges, lengths, patterns and the like are not.

use serde_json::Value;

/// Keywords serde enforces, or that assert nothing (annotations).
const EXACT_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "$ref",
    "$defs",
    "anyOf",
    "oneOf",
    "const",
    "enum",
    "description",
    "title",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "format",
];

/// Whether every subschema of `schema` is exact. `closed_by_us` says whether the runtime added
/// `additionalProperties: false` to a nested type that serde leaves open.
pub(crate) fn is_exact(schema: &Value, closed_by_us: bool) -> bool {
    !closed_by_us && exact_node(schema, 0)
}

/// Whether one subschema (a property's, a definition's) is exact on its own.
pub(crate) fn is_exact_node(node: &Value) -> bool {
    exact_node(node, 1)
}

fn exact_node(node: &Value, depth: usize) -> bool {
    if depth > 64 {
        return false;
    }
    let Some(map) = node.as_object() else {
        return node.is_boolean();
    };
    let format = map.get("format").and_then(Value::as_str);
    for (key, value) in map {
        let ok = match key.as_str() {
            "minimum" => integer_bound_is_natural(format, value, Bound::Min),
            "maximum" => integer_bound_is_natural(format, value, Bound::Max),
            "properties" | "$defs" => value
                .as_object()
                .is_some_and(|m| m.values().all(|v| exact_node(v, depth + 1))),
            "anyOf" | "oneOf" => value
                .as_array()
                .is_some_and(|a| a.iter().all(|v| exact_node(v, depth + 1))),
            "items" | "additionalProperties" => exact_node(value, depth + 1),
            other => EXACT_KEYWORDS.contains(&other),
        };
        if !ok {
            return false;
        }
    }
    true
}

#[derive(Clone, Copy)]
enum Bound {
    Min,
    Max,
}

/// Whether a `minimum`/`maximum` is only the range of the number type named by `format`
/// (which serde enforces when it parses the number).
fn integer_bound_is_natural(format: Option<&str>, value: &Value, bound: Bound) -> bool {
    let Some(limit) = value.as_f64() else {
        return false;
    };
    let range: Option<(f64, f64)> = match format {
        Some("uint8") => Some((0.0, u8::MAX as f64)),
        Some("int8") => Some((i8::MIN as f64, i8::MAX as f64)),
        Some("uint16") => Some((0.0, u16::MAX as f64)),
        Some("int16") => Some((i16::MIN as f64, i16::MAX as f64)),
        Some("uint32") => Some((0.0, u32::MAX as f64)),
        Some("int32") => Some((i32::MIN as f64, i32::MAX as f64)),
        Some("float") => Some((-f64::from(f32::MAX), f64::from(f32::MAX))),
        Some("uint64" | "uint" | "uint128") => Some((0.0, u64::MAX as f64)),
        Some("int64" | "int" | "int128") => Some((i64::MIN as f64, i64::MAX as f64)),
        _ => None,
    };
    match (range, bound) {
        (Some((min, _)), Bound::Min) => limit == min,
        (Some((_, max)), Bound::Max) => limit == max,
        (None, _) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn plain_types_are_exact() {
        let schema = json!({
            "type": "object",
            "properties": {
                "q": {"type": "string", "description": "x"},
                "n": {"type": "integer", "format": "uint32", "minimum": 0, "default": 10},
                "b": {"type": ["boolean", "null"]},
                "m": {"anyOf": [{"$ref": "#/$defs/M"}, {"type": "null"}]}
            },
            "required": ["q"],
            "additionalProperties": false,
            "$defs": {"M": {"oneOf": [{"const": "a", "type": "string"}]}}
        });
        assert!(is_exact(&schema, false));
        assert!(!is_exact(&schema, true));
    }

    #[test]
    fn constraints_serde_does_not_check_are_not() {
        for constraint in [
            json!({"type": "integer", "format": "uint32", "minimum": 1}),
            json!({"type": "integer", "format": "uint8", "minimum": 0, "maximum": 100}),
            json!({"type": "string", "pattern": "^a"}),
            json!({"type": "string", "maxLength": 3}),
            json!({"type": "array", "uniqueItems": true}),
            json!({"type": "number", "minimum": 0.0}),
        ] {
            let schema = json!({"type": "object", "properties": {"x": constraint}});
            assert!(!is_exact(&schema, false), "{schema}");
        }
        let natural = json!({"type": "object", "properties": {"x": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255}}});
        assert!(is_exact(&natural, false));
    }
}
