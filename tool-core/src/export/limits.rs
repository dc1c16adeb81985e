//! The documented size limits of strict schemas.
//!
//! OpenAI, "Structured Outputs › Supported schemas": "A schema may have up to 5000 object
//! properties total, with up to 10 levels of nesting"; "total string length of all property
//! names, definition names, enum values, and const values cannot exceed 120,000 characters";
//! "up to 1000 enum values across all enum properties"; "For a single enum property with
//! string values, the total string length of all enum values cannot exceed 15,000 characters
//! when there are more than 250 enum values."
//!
//! Anthropic, "Structured outputs › Complexity limits", per request across all strict tools:
//! 20 strict tools; 24 optional parameters ("Each parameter not listed in `required` counts");
//! 16 "parameters that use `anyOf` or type arrays".

use super::issues::{StrictIssue, StrictIssueKind, StrictLimit};
use super::keys::Keys;
use super::walk::{self, def_name, resolve, Trail, MAX_DEPTH};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// OpenAI: object properties in one schema.
pub(crate) const OPENAI_MAX_PROPERTIES: usize = 5000;
/// OpenAI: levels of nesting.
pub(crate) const OPENAI_MAX_NESTING: usize = 10;
/// OpenAI: enum values in one schema.
pub(crate) const OPENAI_MAX_ENUM_VALUES: usize = 1000;
/// OpenAI: a string enum longer than this many values is held to [`OPENAI_MAX_ENUM_CHARS`].
pub(crate) const OPENAI_LONG_ENUM: usize = 250;
/// OpenAI: characters of one long string enum.
pub(crate) const OPENAI_MAX_ENUM_CHARS: usize = 15_000;
/// OpenAI: characters of property names, definition names, enum and const values.
pub(crate) const OPENAI_MAX_TOTAL_CHARS: usize = 120_000;
/// Anthropic: strict tools per request.
pub(crate) const ANTHROPIC_MAX_STRICT_TOOLS: usize = 20;
/// Anthropic: optional parameters per request.
pub(crate) const ANTHROPIC_MAX_OPTIONAL: usize = 24;
/// Anthropic: union-typed parameters per request.
pub(crate) const ANTHROPIC_MAX_UNIONS: usize = 16;

/// The OpenAI limits a lowered schema breaks.
#[cfg(test)]
pub(crate) fn openai(schema: &Value) -> Vec<StrictIssue> {
    openai_bounded(schema, None)
}

/// [`openai`], told the most levels of nesting the schema can have when the lowering knows
/// it (`strict::Lowered`): within the limit, the schema isn't walked to count them.
pub(crate) fn openai_bounded(schema: &Value, levels_at_most: Option<usize>) -> Vec<StrictIssue> {
    let mut tally = Tally::default();
    count(schema, &mut tally);
    if let Some(defs) = schema.key("$defs").and_then(Value::as_object) {
        tally.chars += defs.keys().map(|k| k.chars().count()).sum::<usize>();
    }
    let mut issues = Vec::new();
    let mut check = |pointer: &str, limit, value, max| {
        if value > max {
            issues.push(StrictIssue::new(
                pointer,
                StrictIssueKind::Limit { limit, value, max },
            ));
        }
    };
    check(
        "",
        StrictLimit::Properties,
        tally.properties,
        OPENAI_MAX_PROPERTIES,
    );
    match levels_at_most {
        Some(most) if most <= OPENAI_MAX_NESTING => {
            // What the bound stands on is checked wherever tests run.
            debug_assert!(nesting(schema, schema, &mut Vec::new(), &mut HashMap::new(), 0) <= most);
        }
        _ => {
            let depth = nesting(schema, schema, &mut Vec::new(), &mut HashMap::new(), 0);
            check("", StrictLimit::Nesting, depth, OPENAI_MAX_NESTING);
        }
    }
    check(
        "",
        StrictLimit::EnumValues,
        tally.enum_values,
        OPENAI_MAX_ENUM_VALUES,
    );
    check(
        "",
        StrictLimit::TotalChars,
        tally.chars,
        OPENAI_MAX_TOTAL_CHARS,
    );
    for (pointer, chars) in tally.long_enums {
        check(
            &pointer,
            StrictLimit::EnumChars,
            chars,
            OPENAI_MAX_ENUM_CHARS,
        );
    }
    issues
}

#[derive(Default)]
struct Tally {
    properties: usize,
    enum_values: usize,
    chars: usize,
    /// String enums of more than 250 values: where, and their total characters.
    long_enums: Vec<(String, usize)>,
}

/// Counts over the document as written (each definition once).
fn count(schema: &Value, tally: &mut Tally) {
    // The path down to the node, written out only for a long enum.
    fn go<'a>(node: &'a Value, trail: &mut Trail<'a>, tally: &mut Tally, depth: usize) {
        let Some(map) = node.as_object() else {
            return;
        };
        if depth > MAX_DEPTH {
            return;
        }
        for (key, value) in map {
            match (key.as_str(), value) {
                ("properties", Value::Object(properties)) => {
                    tally.properties += properties.len();
                    tally.chars += properties.keys().map(|k| k.chars().count()).sum::<usize>();
                }
                ("enum", Value::Array(values)) => {
                    tally.enum_values += values.len();
                    let chars: usize = values.iter().map(value_chars).sum();
                    tally.chars += chars;
                    if values.len() > OPENAI_LONG_ENUM && values.iter().all(Value::is_string) {
                        tally
                            .long_enums
                            .push((walk::child(&trail.pointer(), "enum"), chars));
                    }
                }
                ("const", value) => tally.chars += value_chars(value),
                _ => {}
            }
        }
        for sub in walk::subschemas(map) {
            trail.push(sub);
            go(sub.schema, trail, tally, depth + 1);
            trail.pop();
        }
    }
    go(schema, &mut Trail::at(String::new()), tally, 0);
}

fn value_chars(value: &Value) -> usize {
    match value {
        Value::String(s) => s.chars().count(),
        other => other.to_string().chars().count(),
    }
}

/// Whether a node is a level of nesting: an object or an array.
pub(crate) fn opens_a_level(map: &Map<String, Value>) -> bool {
    map.iter().any(|(key, value)| match (key.as_str(), value) {
        ("type", Value::String(t)) => t == "object" || t == "array",
        ("type", Value::Array(ts)) => ts.iter().any(|t| t == "object" || t == "array"),
        ("properties", _) => true,
        _ => false,
    })
}

/// Levels of object and array nesting, following references (a cycle adds nothing more).
/// Each definition's nesting is worked out once (`memo`): definitions that each use the next
/// twice would otherwise be walked once per path, twice as often at every level.
fn nesting<'a>(
    node: &'a Value,
    root: &'a Value,
    stack: &mut Vec<&'a str>,
    memo: &mut HashMap<&'a str, usize>,
    depth: usize,
) -> usize {
    let Some(map) = node.as_object() else {
        return 0;
    };
    if depth > MAX_DEPTH {
        return depth;
    }
    let reference = map.key("$ref").and_then(Value::as_str);
    let own = usize::from(opens_a_level(map));
    let mut deepest = 0;
    if let Some(reference) = reference {
        let key = def_name(reference).unwrap_or(reference);
        if let Some(&known) = memo.get(key) {
            deepest = known;
        } else if !stack.contains(&key) {
            if let Some(target) = resolve(root, reference) {
                stack.push(key);
                deepest = nesting(target, root, stack, memo, depth + 1);
                stack.pop();
                memo.insert(key, deepest);
            }
        }
    }
    for sub in walk::subschemas(map) {
        if !sub.is_definition() {
            deepest = deepest.max(nesting(sub.schema, root, stack, memo, depth + 1));
        }
    }
    own + deepest
}

/// The properties of the schema's root not listed in its `required`: what the lowering
/// leaves of them counts against Anthropic's optional-parameter budget, and it leaves them all.
pub(crate) fn root_optional(schema: &Value) -> usize {
    schema.as_object().map_or(0, walk::optional_properties)
}

/// What one strict schema uses of Anthropic's per-request budget.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Budget {
    /// Properties not listed in their object's `required`.
    pub optional: usize,
    /// Properties whose schema is an `anyOf` or has a type array.
    pub unions: usize,
}

/// Counts a lowered (non-recursive) schema's use of Anthropic's budget, following references
/// so that a type used twice counts twice, as it does once compiled. Each definition is
/// counted once and its count reused (saturating): a schema whose definitions double at
/// every level is counted in time linear in its size, however large the count.
pub(crate) fn anthropic(schema: &Value) -> Budget {
    fn go<'a>(
        node: &'a Value,
        root: &'a Value,
        memo: &mut HashMap<&'a str, Budget>,
        depth: usize,
    ) -> Budget {
        let mut budget = Budget::default();
        let Some(map) = node.as_object() else {
            return budget;
        };
        if depth > MAX_DEPTH {
            return budget;
        }
        if let Some(reference) = map.key("$ref").and_then(Value::as_str) {
            let used = match memo.get(reference) {
                Some(&known) => known,
                None => {
                    let counted = resolve(root, reference)
                        .map(|target| go(target, root, memo, depth + 1))
                        .unwrap_or_default();
                    memo.insert(reference, counted);
                    counted
                }
            };
            budget.add(used);
        }
        budget.optional = budget
            .optional
            .saturating_add(walk::optional_properties(map));
        if let Some(properties) = map.key("properties").and_then(Value::as_object) {
            for property in properties.values() {
                let union = property.key("anyOf").is_some()
                    || property.key("type").is_some_and(Value::is_array);
                budget.unions = budget.unions.saturating_add(usize::from(union));
            }
        }
        for sub in walk::subschemas(map) {
            if !sub.is_definition() {
                let inner = go(sub.schema, root, memo, depth + 1);
                budget.add(inner);
            }
        }
        budget
    }
    go(schema, schema, &mut HashMap::new(), 0)
}

impl Budget {
    fn add(&mut self, other: Budget) {
        self.optional = self.optional.saturating_add(other.optional);
        self.unions = self.unions.saturating_add(other.unions);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn openai_limits_are_counted_over_the_document() {
        let values: Vec<String> = (0..300).map(|i| format!("{i:0>60}")).collect();
        let schema =
            json!({"type": "object", "properties": {"pick": {"type": "string", "enum": values}}});
        let issues = openai(&schema);
        assert_eq!(
            issues,
            [StrictIssue::new(
                "/properties/pick/enum",
                StrictIssueKind::Limit {
                    limit: StrictLimit::EnumChars,
                    value: 18_000,
                    max: 15_000
                }
            )]
        );
        let mut deep = json!({"type": "string"});
        for _ in 0..11 {
            deep = json!({"type": "object", "properties": {"x": deep}});
        }
        assert!(matches!(
            openai(&deep)[0].kind,
            StrictIssueKind::Limit {
                limit: StrictLimit::Nesting,
                value: 11,
                ..
            }
        ));
    }

    #[test]
    fn the_roots_optional_parameters_are_the_least_of_the_budget() {
        let schema = json!({"type": "object", "required": ["a"], "properties": {
            "a": {"type": "string"}, "b": {"type": "string"},
            "c": {"type": "object", "properties": {"d": {"type": "string"}}}}});
        assert_eq!(root_optional(&schema), 2);
        assert_eq!(anthropic(&schema).optional, 3, "nested ones count too");
        assert_eq!(root_optional(&json!({"type": "object"})), 0);
    }

    #[test]
    fn anthropic_budget_counts_optional_and_union_parameters() {
        let schema = json!({"type": "object", "required": ["a"], "properties": {
            "a": {"type": "string"},
            "b": {"type": ["string", "null"]},
            "c": {"$ref": "#/$defs/C"}},
            "$defs": {"C": {"type": "object", "properties": {"d": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}}});
        assert_eq!(
            anthropic(&schema),
            Budget {
                optional: 3,
                unions: 2
            }
        );
    }
}
