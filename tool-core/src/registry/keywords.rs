//! The JSON Schema keywords whose values are schemas, by the shape of their value: what a walk
//! over every subschema of a tool's schema (its defaults checked, its legacy forms rewritten)
//! descends into.

/// Keywords whose value is one schema.
pub(super) const ONE: &[&str] = &[
    "additionalProperties",
    "additionalItems",
    "items",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
];
/// Keywords whose value is a list of schemas (`items` too, in draft 7's tuple form).
pub(super) const LIST: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems", "items"];
/// Keywords whose value maps names to schemas.
pub(super) const MAP: &[&str] = &[
    "properties",
    "patternProperties",
    "dependentSchemas",
    "$defs",
    "definitions",
];
