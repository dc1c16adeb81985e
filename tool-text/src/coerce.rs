//! Typing raw text values (Qwen3 XML parameters, GLM `<arg_value>`s, `<parameter name=..>`s)
//! with the tool's input schema.

use super::{json, pylit};
use serde_json::{Number, Value};

/// What a schema says a value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    String,
    Integer,
    Number,
    Boolean,
    Object,
    Array,
    Null,
    /// No single type: guess from the text.
    Unknown,
}

/// The value of parameter `key` written as `raw`, typed by the tool's input `schema`: strings
/// stay as written, numbers, booleans, objects and arrays are parsed when the schema says so
/// (and left as strings when they don't parse, for validation to report). With no schema, values
/// that read as JSON numbers, booleans, null, objects or arrays become those.
pub(crate) fn coerce(raw: &str, schema: Option<&Value>, key: &str) -> Value {
    let Some(schema) = schema else {
        return guess(raw);
    };
    let Some(property) = schema.get("properties").and_then(|p| p.get(key)) else {
        // A parameter the tool doesn't have stays as written, for validation to name.
        return Value::String(raw.to_owned());
    };
    let (kind, nullable) = kind_of(property);
    typed(raw, kind, nullable)
}

/// [`coerce`], for a value the model wrote its type beside (K2 Horizon's `<ifm|arg_type>`:
/// `integer`, `array[string]`, `any`): that type decides where the schema doesn't (no such
/// tool or parameter, or a parameter of several types), as vLLM's `k2_horizon` parser does.
pub(crate) fn coerce_hinted(raw: &str, schema: Option<&Value>, key: &str, hint: &str) -> Value {
    let property = schema
        .and_then(|s| s.get("properties"))
        .and_then(|p| p.get(key));
    if let Some((kind, nullable)) = property.map(kind_of) {
        if kind != Kind::Unknown {
            return typed(raw, kind, nullable);
        }
    }
    let base = hint.split('[').next().unwrap_or_default().trim();
    if base.eq_ignore_ascii_case("any") {
        return Value::String(raw.to_owned());
    }
    match kind_named(base) {
        Kind::Unknown => coerce(raw, schema, key),
        kind => typed(raw, kind, false),
    }
}

/// A value whose type the model wrote beside it (DSML's `string="true"` text, its
/// `string="false"` JSON), fitted to the type the tool's schema gives parameter `key`, as
/// vLLM's schema-aware fixer does: kept when it already is of that type (or the schema says
/// none), else `raw` typed by the schema (`"42"` for an integer is 42, `5.0` is 5, `null` for
/// a string is `"null"`).
pub(crate) fn fit(value: Value, raw: &str, schema: Option<&Value>, key: &str) -> Value {
    let Some(property) = schema
        .and_then(|s| s.get("properties"))
        .and_then(|p| p.get(key))
    else {
        return value;
    };
    let (kind, nullable) = kind_of(property);
    let fits = match &value {
        Value::Null => nullable || kind == Kind::Null,
        Value::String(_) => kind == Kind::String,
        Value::Number(n) => match kind {
            Kind::Integer => n.is_i64() || n.is_u64(),
            _ => kind == Kind::Number,
        },
        Value::Bool(_) => kind == Kind::Boolean,
        Value::Object(_) => kind == Kind::Object,
        Value::Array(_) => kind == Kind::Array,
    };
    if fits || kind == Kind::Unknown {
        value
    } else {
        typed(raw, kind, nullable)
    }
}

/// `raw` as a value of `kind`, or as written when it doesn't read as one.
fn typed(raw: &str, kind: Kind, nullable: bool) -> Value {
    let trimmed = raw.trim();
    if trimmed.eq_ignore_ascii_case("null") && (nullable || kind != Kind::String) {
        return Value::Null;
    }
    let typed = match kind {
        Kind::String => None,
        Kind::Integer => integer(trimmed),
        Kind::Number => number(trimmed),
        Kind::Boolean => match trimmed.to_ascii_lowercase().as_str() {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => None,
        },
        Kind::Object | Kind::Array => structured(trimmed),
        Kind::Null => None,
        Kind::Unknown => return guess(raw),
    };
    typed.unwrap_or_else(|| Value::String(raw.to_owned()))
}

/// A value's kind from its property schema, and whether it may be null.
fn kind_of(property: &Value) -> (Kind, bool) {
    match property.get("type") {
        Some(Value::String(name)) => (kind_named(name), name == "null"),
        Some(Value::Array(names)) => {
            let names: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
            let nullable = names.contains(&"null");
            let mut kinds = names
                .iter()
                .filter(|n| **n != "null")
                .map(|n| kind_named(n));
            match (kinds.next(), kinds.next()) {
                (Some(kind), None) => (kind, nullable),
                (None, _) => (Kind::Null, true),
                _ => (Kind::Unknown, nullable),
            }
        }
        _ => {
            if let Some(Value::Array(alternatives)) =
                property.get("anyOf").or_else(|| property.get("oneOf"))
            {
                let kinds: Vec<(Kind, bool)> = alternatives.iter().map(kind_of).collect();
                let nullable = kinds
                    .iter()
                    .any(|(kind, nullable)| *nullable || *kind == Kind::Null);
                let mut kinds = kinds
                    .iter()
                    .map(|(kind, _)| *kind)
                    .filter(|kind| *kind != Kind::Null);
                return match (kinds.next(), kinds.next()) {
                    (Some(kind), None) => (kind, nullable),
                    _ => (Kind::Unknown, nullable),
                };
            }
            if let Some(Value::Array(values)) = property.get("enum") {
                if values.iter().all(Value::is_string) {
                    return (Kind::String, false);
                }
            }
            if property.get("const").is_some_and(Value::is_string) {
                return (Kind::String, false);
            }
            if property.get("properties").is_some() {
                return (Kind::Object, false);
            }
            if property.get("items").is_some() {
                return (Kind::Array, false);
            }
            (Kind::Unknown, false)
        }
    }
}

/// Type names as JSON Schema spells them, and as hand-written schemas sometimes do.
fn kind_named(name: &str) -> Kind {
    let name = name.trim().to_ascii_lowercase();
    match name.as_str() {
        "string" | "str" | "text" | "varchar" | "char" | "enum" => Kind::String,
        "boolean" | "bool" | "binary" => Kind::Boolean,
        "object" => Kind::Object,
        "array" | "arr" => Kind::Array,
        "null" => Kind::Null,
        n if ["int", "uint", "long", "short", "unsigned"]
            .iter()
            .any(|p| n.starts_with(p)) =>
        {
            Kind::Integer
        }
        n if ["num", "float", "double"].iter().any(|p| n.starts_with(p)) => Kind::Number,
        n if n.starts_with("dict") => Kind::Object,
        n if n.starts_with("list") => Kind::Array,
        _ => Kind::Unknown,
    }
}

fn integer(text: &str) -> Option<Value> {
    if let Ok(n) = text.parse::<i64>() {
        return Some(Value::from(n));
    }
    if let Ok(n) = text.parse::<u64>() {
        return Some(Value::from(n));
    }
    let float = text.parse::<f64>().ok()?;
    (float.fract() == 0.0 && float.abs() < 9.0e15).then(|| Value::from(float as i64))
}

fn number(text: &str) -> Option<Value> {
    if let Ok(Value::Number(n)) = serde_json::from_str::<Value>(text) {
        return Some(Value::Number(n));
    }
    let float = text.parse::<f64>().ok()?;
    Number::from_f64(float).map(Value::Number)
}

/// An object or array written as JSON, or as a Python literal (vLLM's Qwen3-Coder parser
/// reads it with `ast.literal_eval` after `json.loads` fails): either way exactly one value.
fn structured(text: &str) -> Option<Value> {
    if !(text.starts_with('{') || text.starts_with('[')) {
        return None;
    }
    if let Ok(valid) = json::to_valid(text) {
        return serde_json::from_str(&valid).ok();
    }
    let mut py = pylit::Py::new(text, 0);
    let value = py.value().ok()?;
    py.ws();
    (py.pos == text.len()).then_some(value)
}

/// A value with no schema to go by: JSON if it reads as a JSON number, boolean, null, object
/// or array (or a Python `True`, `False`, `None`), else the text as a string.
fn guess(raw: &str) -> Value {
    let trimmed = raw.trim();
    match trimmed {
        "True" => return Value::Bool(true),
        "False" => return Value::Bool(false),
        "None" => return Value::Null,
        _ => {}
    }
    match serde_json::from_str::<Value>(trimmed) {
        Ok(value) if !value.is_string() => value,
        _ => Value::String(raw.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({"type": "object", "properties": {
            "city": {"type": "string"},
            "days": {"type": "integer"},
            "ratio": {"type": "number"},
            "metric": {"type": "boolean"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "where": {"type": "object"},
            "note": {"type": ["string", "null"]},
            "unit": {"enum": ["c", "f"]},
            "maybe": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        }})
    }

    #[test]
    fn values_follow_the_schema() {
        let s = schema();
        let s = Some(&s);
        assert_eq!(coerce("42", s, "city"), json!("42"));
        assert_eq!(coerce("null", s, "city"), json!("null"));
        assert_eq!(coerce("null", s, "note"), Value::Null);
        assert_eq!(coerce(" 3 ", s, "days"), json!(3));
        assert_eq!(coerce("3.0", s, "days"), json!(3));
        assert_eq!(coerce("three", s, "days"), json!("three"));
        assert_eq!(coerce("0.5", s, "ratio"), json!(0.5));
        assert_eq!(coerce("2", s, "ratio"), json!(2));
        assert_eq!(coerce("True", s, "metric"), json!(true));
        assert_eq!(coerce("yes", s, "metric"), json!("yes"));
        assert_eq!(coerce("[\"a\", \"b\"]", s, "tags"), json!(["a", "b"]));
        assert_eq!(coerce("{'x': 1}", s, "where"), json!({"x": 1}));
        assert_eq!(coerce("5", s, "unit"), json!("5"));
        assert_eq!(coerce("5", s, "maybe"), json!(5));
        assert_eq!(coerce("7", s, "unknown_param"), json!("7"));
    }

    #[test]
    fn values_typed_by_the_model_are_fitted_to_the_schema() {
        let s = schema();
        let s = Some(&s);
        // vLLM's DSML tests: a string for an integer, a float for an integer, null for a
        // string, a JSON string for an object.
        assert_eq!(fit(json!("42"), "42", s, "days"), json!(42));
        assert_eq!(fit(json!(5.0), "5.0", s, "days"), json!(5));
        assert_eq!(fit(Value::Null, "null", s, "city"), json!("null"));
        assert_eq!(fit(Value::Null, "null", s, "note"), Value::Null);
        assert_eq!(
            fit(json!("{\"a\": 1}"), "{\"a\": 1}", s, "where"),
            json!({"a": 1})
        );
        // Kept: of the type already, not typable, or no schema to go by.
        assert_eq!(fit(json!(0.5), "0.5", s, "ratio"), json!(0.5));
        assert_eq!(fit(json!("007"), "007", s, "city"), json!("007"));
        assert_eq!(fit(json!("three"), "three", s, "days"), json!("three"));
        assert_eq!(fit(json!("7"), "7", s, "unknown_param"), json!("7"));
        assert_eq!(fit(json!("7"), "7", None, "x"), json!("7"));
    }

    #[test]
    fn without_a_schema_values_are_guessed() {
        assert_eq!(coerce("42", None, "x"), json!(42));
        assert_eq!(coerce("true", None, "x"), json!(true));
        assert_eq!(coerce("[1, 2]", None, "x"), json!([1, 2]));
        assert_eq!(coerce("Paris", None, "x"), json!("Paris"));
        assert_eq!(coerce("007", None, "x"), json!("007"));
        assert_eq!(coerce("\"quoted\"", None, "x"), json!("\"quoted\""));
    }
}
