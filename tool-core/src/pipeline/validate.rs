//! Stage 4: validation of the final arguments against the tool's JSON Schema, every error
//! collected, each described for the model.

use crate::pointer::{display_path, push_segment};
use crate::schema_nav::{SchemaNav, Types};
use crate::violation::Violation;
use crate::violation::{short, truncate};
use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::ValidationError;
use serde_json::Value;

/// A tool's compiled validator.
pub(crate) type Validator = jsonschema::Validator;

/// Compiles a tool's schema. Only local references are allowed: `jsonschema` is built without
/// its HTTP and file resolvers, so a schema can never make the process fetch anything.
pub(crate) fn compile(schema: &Value) -> Result<Validator, String> {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(schema)
        .map_err(|e| e.to_string())
}

/// The most violations collected for one call: enough to fix any real call, and a bound on
/// the work a hostile one (300,000 wrong array items) can cause.
pub(crate) const MAX_VIOLATIONS: usize = 100;

/// Every violation of the arguments (up to [`MAX_VIOLATIONS`]), described.
pub(crate) fn violations(
    validator: &Validator,
    args: &Value,
    nav: SchemaNav<'_>,
) -> Vec<Violation> {
    let mut out = Vec::new();
    for error in validator.iter_errors(args).take(MAX_VIOLATIONS) {
        describe(&error, nav, &mut out, 0);
    }
    // Whole-object problems first, then by place: the same call always reads the same.
    out.sort_by(|a, b| a.pointer.cmp(&b.pointer));
    out
}

/// Reports each violation at a place in what the model sent. A repair that reshaped a value
/// (`repairs`: [`RepairKind::reshapes`](super::repair::RepairKind)) made places that exist
/// only in its result: `"x": 5` wrapped as `[5]` and refused at `/x/0`. The violations at or
/// inside such a place become one, at the model's own value, saying what it sent, what was
/// tried, and how that still failed; the others are left as they are.
pub(crate) fn at_the_models_values(
    violations: Vec<Violation>,
    repairs: &[super::repair::Repair],
) -> Vec<Violation> {
    use super::repair::RepairKind;
    let inside = |pointer: &str, at: &str| {
        pointer == at || (pointer.starts_with(at) && pointer[at.len()..].starts_with('/'))
    };
    // The outermost reshaped place around each violation: the model's value is there.
    let owner = |pointer: &str| {
        repairs
            .iter()
            .filter(|r| r.kind.reshapes() && inside(pointer, &r.pointer))
            .min_by_key(|r| r.pointer.len())
    };
    let mut out: Vec<Violation> = Vec::with_capacity(violations.len());
    let mut groups: Vec<(&super::repair::Repair, Vec<Violation>)> = Vec::new();
    for violation in violations {
        match owner(&violation.pointer) {
            Some(repair) => match groups.iter_mut().find(|(r, _)| r.pointer == repair.pointer) {
                Some((_, inner)) => inner.push(violation),
                None => groups.push((repair, vec![violation])),
            },
            None => out.push(violation),
        }
    }
    for (repair, inner) in groups {
        let at = display_path(&repair.pointer);
        let sent = &repair.detail;
        let tried = match repair.kind {
            RepairKind::WrappedInArray => {
                format!("{at}: expected an array, got {sent}; read as a one-item list")
            }
            _ => format!("{at}: got the string {sent}; read as the JSON it holds"),
        };
        let failures: Vec<&str> = inner.iter().map(|v| v.message.as_str()).collect();
        let mut allowed: Vec<Value> = Vec::new();
        for value in inner.iter().flat_map(|v| &v.allowed) {
            if !allowed.contains(value) {
                allowed.push(value.clone());
            }
        }
        out.push(Violation {
            pointer: repair.pointer.clone(),
            keyword: "type".to_owned(),
            message: format!("{tried}, it still fails ({})", failures.join(", and ")),
            allowed,
        });
    }
    out.sort_by(|a, b| a.pointer.cmp(&b.pointer));
    out
}

/// How deep the descriptions follow the branches of `anyOf`/`oneOf` errors.
const MAX_BRANCH_DEPTH: usize = 8;

fn describe(
    error: &ValidationError<'_>,
    nav: SchemaNav<'_>,
    out: &mut Vec<Violation>,
    depth: usize,
) {
    let pointer = error.instance_path().as_str().to_owned();
    let instance = error.instance();
    let schema = schema_at(nav, &pointer);
    let at = display_path(&pointer);
    let kind = error.kind();
    let keyword = kind.keyword().to_owned();

    let message = match kind {
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            let mut child = pointer.clone();
            push_segment(&mut child, name);
            let hint = schema_at(nav, &child)
                .map(|s| type_and_description(nav, s))
                .unwrap_or_default();
            format!("missing required {}{hint}", display_path(&child))
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            let names: Vec<String> = unexpected.iter().map(|n| format!("{n:?}")).collect();
            let known = schema
                .and_then(|s| nav.is_closed(s))
                .map(|p| p.keys().map(String::as_str).collect::<Vec<_>>().join(", "))
                .unwrap_or_default();
            format!(
                "unknown argument{} {}{} (expected: {known})",
                plural(names.len()),
                names.join(", "),
                in_object(&at)
            )
        }
        ValidationErrorKind::Type { kind } => {
            let expected = match kind {
                TypeKind::Single(t) => t.to_string(),
                TypeKind::Multiple(set) => set
                    .iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(" or "),
            };
            format!("{at}: expected {expected}, got {}", short(instance))
        }
        ValidationErrorKind::Maximum { limit } => format!(
            "{at}: {} is greater than the maximum {limit}",
            short(instance)
        ),
        ValidationErrorKind::Minimum { limit } => {
            format!("{at}: {} is less than the minimum {limit}", short(instance))
        }
        ValidationErrorKind::ExclusiveMaximum { limit } => {
            format!("{at}: {} must be less than {limit}", short(instance))
        }
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            format!("{at}: {} must be greater than {limit}", short(instance))
        }
        ValidationErrorKind::MaxLength { limit } => format!("{at}: longer than {limit} characters"),
        ValidationErrorKind::MinLength { limit } => {
            format!("{at}: shorter than {limit} characters")
        }
        ValidationErrorKind::MaxItems { limit } => format!("{at}: more than {limit} items"),
        ValidationErrorKind::MinItems { limit } => format!("{at}: fewer than {limit} items"),
        ValidationErrorKind::Pattern { pattern } => format!(
            "{at}: {} does not match the pattern {pattern:?}",
            short(instance)
        ),
        ValidationErrorKind::UniqueItems => format!("{at}: items must be unique"),
        ValidationErrorKind::MultipleOf { multiple_of } => format!(
            "{at}: {} is not a multiple of {multiple_of}",
            short(instance)
        ),
        ValidationErrorKind::Enum { .. } | ValidationErrorKind::Constant { .. } => {
            format!("{at}: {} is not allowed", short(instance))
        }
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            if schema.and_then(|s| nav.allowed_values(s)).is_some() {
                format!("{at}: {} is not allowed", short(instance))
            } else if let Some(branch) = closest_branch(context, instance) {
                // The value was meant for one branch (say the `T` of an `Option<T>`): its
                // errors are the useful ones.
                if depth < MAX_BRANCH_DEPTH {
                    branch.iter().for_each(|e| describe(e, nav, out, depth + 1));
                    return;
                }
                format!(
                    "{at}: {} does not match the expected shape",
                    short(instance)
                )
            } else {
                format!(
                    "{at}: {} does not match any of the allowed shapes",
                    short(instance)
                )
            }
        }
        ValidationErrorKind::OneOfMultipleValid { .. } => format!(
            "{at}: {} matches more than one allowed shape",
            short(instance)
        ),
        _ => format!("{at}: does not satisfy `{keyword}`"),
    };
    let allowed = schema
        .and_then(|s| nav.allowed_values(s))
        .filter(|_| matches!(keyword.as_str(), "enum" | "const" | "anyOf" | "oneOf"))
        .map(|values| values.into_iter().cloned().collect())
        .unwrap_or_default();
    out.push(Violation {
        pointer,
        keyword,
        message,
        allowed,
    });
}

/// Of the branches of a failed `anyOf`/`oneOf`, the one the value was most likely meant for:
/// not a branch that only wanted another type (such as the `null` of an `Option`).
fn closest_branch<'e>(
    context: &'e [Vec<ValidationError<'static>>],
    instance: &Value,
) -> Option<&'e Vec<ValidationError<'static>>> {
    let meant: Vec<&Vec<ValidationError<'static>>> = context
        .iter()
        .filter(|errors| {
            !errors.iter().all(|e| {
                matches!(e.kind(), ValidationErrorKind::Type { .. })
                    && e.instance().as_ref() == instance
            })
        })
        .collect();
    match meant.as_slice() {
        [only] => Some(*only),
        _ => None,
    }
}

/// The schema that governs the value at `pointer`.
fn schema_at<'a>(nav: SchemaNav<'a>, pointer: &str) -> Option<&'a Value> {
    let mut schema = nav.root();
    for segment in pointer.split('/').skip(1) {
        let key = segment.replace("~1", "/").replace("~0", "~");
        schema = match nav.property(schema, &key) {
            Some(property) => property,
            None => nav.items(schema)?,
        };
    }
    Some(schema)
}

fn in_object(at: &str) -> String {
    if at == "the arguments" {
        String::new()
    } else {
        format!(" in {at}")
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// ` (integer: How many results to return.)`: the type and a short description.
fn type_and_description(nav: SchemaNav<'_>, schema: &Value) -> String {
    let types = nav.types(schema);
    let names = [
        (Types::STRING, "string"),
        (Types::INTEGER, "integer"),
        (Types::BOOLEAN, "boolean"),
        (Types::ARRAY, "array"),
        (Types::OBJECT, "object"),
    ];
    let type_name = if types == Types::ANY {
        None
    } else if types.contains(Types::NUMBER) {
        Some("number")
    } else {
        names
            .iter()
            .find(|(t, _)| types.contains(*t))
            .map(|(_, n)| *n)
    };
    let description = nav.description(schema).map(|d| truncate(d, 80));
    match (type_name, description) {
        (Some(t), Some(d)) => format!(" ({t}: {d})"),
        (Some(t), None) => format!(" ({t})"),
        (None, Some(d)) => format!(" ({d})"),
        (None, None) => String::new(),
    }
}
