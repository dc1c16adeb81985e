//! A tool's parameters as its input schema lists them, for the prompts that write them out:
//! the example call of [`prompt`](super::prompt) and the templates that declare each
//! parameter ([`prompt_templates`](super::prompt_templates)).

use crate::ToolSpec;
use serde_json::{Map, Value};

/// Each property of a tool's input schema in the schema's order, and the names it requires.
/// A schema without `properties` or `required` (or with something else there) has none.
pub(super) struct Parameters<'a> {
    properties: Option<&'a Map<String, Value>>,
    required: Vec<&'a str>,
}

impl<'a> Parameters<'a> {
    /// The parameters of `spec`'s input schema.
    pub(super) fn of(spec: &'a ToolSpec) -> Parameters<'a> {
        let schema = spec.input_schema();
        Parameters {
            properties: schema.get("properties").and_then(Value::as_object),
            required: schema
                .get("required")
                .and_then(Value::as_array)
                .map(|names| names.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default(),
        }
    }

    /// Each parameter's name and schema, in the schema's order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&'a String, &'a Value)> {
        self.properties.into_iter().flatten()
    }

    /// Whether the schema lists no parameter.
    pub(super) fn is_empty(&self) -> bool {
        self.properties.is_none_or(Map::is_empty)
    }

    /// Whether the schema requires some parameter.
    pub(super) fn requires_any(&self) -> bool {
        !self.required.is_empty()
    }

    /// Whether the schema requires `name`.
    pub(super) fn is_required(&self, name: &str) -> bool {
        self.required.contains(&name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DynamicTool, Registry, ToolOutput};
    use serde_json::json;

    fn parameters_of(schema: Value, check: impl Fn(&Parameters<'_>)) {
        let tool = DynamicTool::new("t", "T.", schema, |_, _| async { ToolOutput::text("") });
        let registry = Registry::builder()
            .without_inventory()
            .dynamic(tool)
            .build()
            .unwrap();
        check(&Parameters::of(registry.get("t").unwrap()));
    }

    #[test]
    fn properties_come_in_order_with_what_is_required() {
        parameters_of(
            json!({"type": "object", "properties": {"b": {"type": "string"}, "a": {"type": "integer"}},
                   "required": ["a"]}),
            |parameters| {
                let names: Vec<&str> = parameters.iter().map(|(n, _)| n.as_str()).collect();
                assert_eq!(names, ["b", "a"]);
                assert!(!parameters.is_empty());
                assert!(parameters.requires_any());
                assert!(parameters.is_required("a"));
                assert!(!parameters.is_required("b"));
            },
        );
        parameters_of(json!({"type": "object"}), |parameters| {
            assert!(parameters.is_empty());
            assert_eq!(parameters.iter().count(), 0);
            assert!(!parameters.requires_any());
        });
    }
}
