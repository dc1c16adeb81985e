//! The fast path of tools whose schema serde enforces except for constraints on some of their
//! parameters (`#[schemars(range(..))]`, lengths, patterns): the constrained parameters are
//! validated one by one, straight from the argument text, and the call then goes from text to
//! the typed arguments like an [`exact`](super::exact) tool's.
//!
//! Building a `serde_json::Value` of the whole call just to validate it costs more than the
//! rest of a small call. Here only the constrained parameters' values are parsed (a number
//! costs no allocation), each against its own compiled subschema; every other parameter is
//! one serde enforces exactly, so the typed deserializer's acceptance covers it. A call that
//! fails either check takes the full path, which explains the rejection.

use super::exact;
use super::validate::{self, Validator};
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde_json::Value;
use std::fmt;

/// The constrained parameters of one tool, each with its validator.
pub(crate) struct PropertyChecks {
    checks: Vec<(Box<str>, Validator)>,
}

impl PropertyChecks {
    /// The checks for a tool's schema, or `None` when this path can't stand in for full
    /// validation: the schema is already exact, has no top-level properties to check, asserts
    /// something about the whole object that serde doesn't enforce, or `closed_by_us` (a
    /// nested type serde leaves open, wherever it is).
    pub(crate) fn build(schema: &Value, closed_by_us: bool) -> Option<PropertyChecks> {
        let root = schema.as_object()?;
        let properties = root.get("properties")?.as_object()?;
        if closed_by_us || exact::is_exact(schema, closed_by_us) {
            return None;
        }
        let defs = root.get("$defs");
        let defs_exact = defs.is_none_or(|d| {
            d.as_object()
                .is_some_and(|m| m.values().all(exact::is_exact_node))
        });
        let mut checked = Vec::new();
        for (name, property) in properties {
            // A property that refers to a definition with constraints is checked whole.
            let refers_to_checked_def = !defs_exact && property.to_string().contains("\"$ref\"");
            if refers_to_checked_def || !exact::is_exact_node(property) {
                checked.push((name, property));
            }
        }
        // What is left, with each checked property accepting anything, must be exact: the
        // typed deserializer's acceptance then covers everything but the checked values.
        let mut reduced = root.clone();
        if let Some(Value::Object(props)) = reduced.get_mut("properties") {
            for (name, _) in &checked {
                props.insert((*name).clone(), Value::Bool(true));
            }
        }
        if !defs_exact {
            reduced.remove("$defs");
        }
        if checked.is_empty() || !exact::is_exact(&Value::Object(reduced), false) {
            return None;
        }
        let mut checks = Vec::with_capacity(checked.len());
        for (name, property) in checked {
            let mut subschema = property.clone();
            if let (Value::Object(map), Some(defs)) = (&mut subschema, defs) {
                map.entry("$defs").or_insert_with(|| defs.clone());
            }
            let validator = validate::compile(&subschema).ok()?;
            // The typed deserializer fills a missing parameter's default, which nothing would
            // check here: a default the schema itself rejects sends every call the full way.
            if let Some(default) = property.get("default") {
                if !validator.is_valid(default) {
                    return None;
                }
            }
            checks.push((name.as_str().into(), validator));
        }
        Some(PropertyChecks { checks })
    }

    /// Whether `text` is a JSON object whose checked parameters are all valid. `false` for
    /// anything else: the full path then says what is wrong.
    pub(crate) fn accepts(&self, text: &str) -> bool {
        let mut de = serde_json::Deserializer::from_str(text);
        matches!(
            de::Deserializer::deserialize_map(&mut de, ObjectVisitor(self)),
            Ok(true)
        ) && de.end().is_ok()
    }

    fn find(&self, key: &str) -> Option<&Validator> {
        self.checks
            .iter()
            .find(|(name, _)| &**name == key)
            .map(|(_, validator)| validator)
    }
}

/// Walks the top-level object, validating each checked parameter's value as it comes.
struct ObjectVisitor<'a>(&'a PropertyChecks);

impl<'de> Visitor<'de> for ObjectVisitor<'_> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object of arguments")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        let mut valid = true;
        while let Some(validator) = map.next_key_seed(KeySeed(self.0))? {
            match validator {
                Some(validator) => {
                    let value: Value = map.next_value()?;
                    valid &= validator.is_valid(&value);
                }
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(valid)
    }
}

/// A key, read without allocating, as the validator of its parameter if it is checked.
struct KeySeed<'a>(&'a PropertyChecks);

impl<'de, 'a> DeserializeSeed<'de> for KeySeed<'a> {
    type Value = Option<&'a Validator>;

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'a> Visitor<'_> for KeySeed<'a> {
    type Value = Option<&'a Validator>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a parameter name")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Self::Value, E> {
        Ok(self.0.find(key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ranged() -> Value {
        json!({
            "type": "object",
            "properties": {
                "q": {"type": "string"},
                "n": {"type": "integer", "format": "uint32", "minimum": 1, "maximum": 100, "default": 10},
                "tag": {"type": "string", "pattern": "^[a-z]+$"}
            },
            "required": ["q"],
            "additionalProperties": false
        })
    }

    #[test]
    fn only_the_constrained_parameters_are_checked() {
        let checks = PropertyChecks::build(&ranged(), false).expect("eligible");
        let mut names: Vec<&str> = checks.checks.iter().map(|(n, _)| &**n).collect();
        names.sort();
        assert_eq!(names, ["n", "tag"]);
    }

    #[test]
    fn values_outside_the_constraints_are_refused() {
        let checks = PropertyChecks::build(&ranged(), false).unwrap();
        assert!(checks.accepts(r#"{"q":"x","n":5,"tag":"abc"}"#));
        assert!(checks.accepts(r#"{"q":"x"}"#));
        assert!(!checks.accepts(r#"{"q":"x","n":500}"#));
        assert!(!checks.accepts(r#"{"q":"x","tag":"ABC"}"#));
        // An escaped key is still the parameter it spells.
        assert!(!checks.accepts(r#"{"q":"x","\u006e":0}"#));
        for broken in ["", "[1]", "{", r#"{"n":5} trailing"#, "null"] {
            assert!(!checks.accepts(broken), "{broken}");
        }
    }

    #[test]
    fn schemas_this_path_cannot_stand_in_for_are_not_eligible() {
        let exact = json!({"type": "object", "properties": {"q": {"type": "string"}}});
        assert!(PropertyChecks::build(&exact, false).is_none());
        assert!(PropertyChecks::build(&ranged(), true).is_none());
        let mut whole_object = ranged();
        whole_object["minProperties"] = json!(2);
        assert!(PropertyChecks::build(&whole_object, false).is_none());
        let mut bad_default = ranged();
        bad_default["properties"]["n"]["default"] = json!(0);
        assert!(PropertyChecks::build(&bad_default, false).is_none());
    }

    #[test]
    fn constraints_inside_definitions_check_the_properties_that_use_them() {
        let schema = json!({
            "type": "object",
            "properties": {
                "page": {"$ref": "#/$defs/Page"},
                "q": {"type": "string"}
            },
            "additionalProperties": false,
            "$defs": {"Page": {
                "type": "object",
                "properties": {"size": {"type": "integer", "format": "uint8", "maximum": 50}},
                "additionalProperties": false
            }}
        });
        let checks = PropertyChecks::build(&schema, false).expect("eligible");
        assert!(checks.accepts(r#"{"page":{"size":10},"q":"a"}"#));
        assert!(!checks.accepts(r#"{"page":{"size":60}}"#));
    }
}
