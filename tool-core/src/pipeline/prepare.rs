//! Stages 1 to 5 of one call, up to the point where the tool is ready to run: the limits,
//! the typed path when the text goes straight to the arguments, and otherwise the full path
//! (repair, resolve, validate), each a function over the tool's [`Entry`] and the registry's
//! [`Config`].

use super::limits::LimitExceeded;
use super::number_text;
use super::repair::{self, Repair, RepairPolicy};
use super::report::{CallReport, Clock};
use super::resolve;
use super::validate;
use super::{Config, Entry};
use crate::context::CallContext;
use crate::def::{Args, Pending};
use crate::error::{ErrorCode, ToolError};
use crate::output::ToolOutput;
use crate::schema_nav::SchemaNav;
use crate::violation::Violation;
use serde_json::Value;

/// Stages 1 to 5 up to the point where the tool is ready to run.
pub(crate) fn prepare<'a>(
    entry: &'a Entry,
    config: &Config,
    cx: &'a CallContext<'a>,
    text: &'a str,
    mut report: Option<&mut CallReport>,
    clock: &mut Clock,
) -> Pending<'a> {
    if let Err(limit) = config.limits.check(text) {
        return Pending::Refused(ToolOutput::from(over_limit(&entry.spec.name, limit)));
    }
    let needs_full_path = report.is_some()
        || !entry.resolvers.is_empty()
        || entry.uses_context_defaults
        || !entry.typed;
    if !needs_full_path && typed_path_accepts(entry, text) {
        match entry.handler.invoke(Args::Text(text), cx) {
            Pending::Refused(output) if is_argument_error(&output) => {}
            pending => return pending,
        }
    }
    if let Some(report) = report.as_deref_mut() {
        report.timings.limits = clock.lap();
    }
    full_path(entry, config, cx, text, report, clock)
}

/// Every stage, recorded: what a bad call goes through, and every reported call.
pub(crate) fn full_path<'a>(
    entry: &'a Entry,
    config: &Config,
    cx: &'a CallContext<'a>,
    text: &'a str,
    mut report: Option<&mut CallReport>,
    clock: &mut Clock,
) -> Pending<'a> {
    let name = entry.spec.name.as_str();
    let nav = SchemaNav::new(&entry.spec.input_schema);
    let mut repairs = Vec::new();
    // Numbers whose text is not an integer though their float is whole (`number_text`).
    let mut inexact = Vec::new();

    let value = {
        let _stage = tracing::trace_span!("repair").entered();
        let max_depth = config.limits.max_depth;
        let parsed =
            repair::parse_arguments(text, config.repair, max_depth, &mut repairs, &mut inexact);
        match parsed {
            Ok(mut value) if value.is_object() => {
                let policy = config.repair;
                repair::coerce(&mut value, nav, policy, &mut repairs, &mut inexact);
                // Text the limits stage never saw whole (double-encoded, a string holding
                // JSON, repaired leniently) is held to the same depth.
                if repairs.iter().any(|r| r.kind.parses_nested_text()) {
                    if let Err(limit) = config.limits.check_value(&value) {
                        return done(over_limit(name, limit));
                    }
                }
                value
            }
            Ok(_) => {
                return done(invalid(
                    name,
                    "the arguments must be a JSON object of named parameters",
                    Vec::new(),
                ))
            }
            Err(repair::Unparsable::TooDeep) => {
                let limit = LimitExceeded::TooDeep {
                    max: config.limits.max_depth,
                };
                return done(over_limit(name, limit));
            }
            Err(repair::Unparsable::Syntax(reason)) => {
                let message = format!("Arguments for {name} are not valid JSON ({reason}). Send one JSON object of named parameters.");
                let error = ToolError::with_code(ErrorCode::MalformedArguments, message)
                    .for_tool(name)
                    .with_retry_hint(format!(
                        "Call {name} again with its arguments as one valid JSON object."
                    ));
                return done(error);
            }
        }
    };
    let mut unchanged = repairs.is_empty();
    // Repairs that made places the model never sent: a violation inside one is reported
    // at the model's own value (`validate::at_the_models_values`).
    let reshaped: Vec<Repair> = repairs
        .iter()
        .filter(|r| r.kind.reshapes())
        .cloned()
        .collect();
    if !repairs.is_empty() {
        tracing::debug!(tool = name, repairs = repairs.len(), "repaired arguments");
    }
    let mut value = value;
    if let Some(report) = report.as_deref_mut() {
        report.timings.repair = clock.lap();
        report.repairs.append(&mut repairs);
    }

    let mut filled = Vec::new();
    let mut dropped = Vec::new();
    {
        let _stage = tracing::trace_span!("resolve").entered();
        let context_defaults: &[(String, Value)] = if entry.uses_context_defaults {
            &config.context_defaults
        } else {
            &[]
        };
        let tools = resolve::ToolResolvers {
            resolvers: &entry.resolvers,
            context_defaults,
            null_means_default: config.repair != RepairPolicy::Off,
        };
        // Unusable defaults are moved aside in the schema the resolver reads.
        let resolve_nav = entry.resolve_schema.as_deref().map_or(nav, SchemaNav::new);
        let stage = resolve::resolve(
            &mut value,
            resolve_nav,
            cx,
            &tools,
            &mut filled,
            &mut dropped,
        );
        if let Err(mut error) = stage {
            error.code = ErrorCode::ResolverFailed;
            error.tool = Some(name.to_owned());
            return done(error);
        }
    }
    unchanged &= filled.is_empty() && dropped.is_empty();
    if let Some(report) = report.as_deref_mut() {
        report.timings.resolve = clock.lap();
        report.filled = filled;
        report.repairs.append(&mut dropped);
    }

    if let Some(validator) = &entry.validator {
        let _stage = tracing::trace_span!("validate").entered();
        let mut violations = validate::violations(validator, &value, nav);
        // JSON Schema takes a whole float as an integer; the model's text decides here.
        let refused = inexact.iter().filter(|n| n.refused);
        violations.extend(refused.map(number_text::InexactNumber::violation));
        violations.sort_by(|a, b| a.pointer.cmp(&b.pointer));
        if !reshaped.is_empty() && !violations.is_empty() {
            violations = validate::at_the_models_values(violations, &reshaped);
        }
        if let Some(report) = report.as_deref_mut() {
            report.timings.validate = clock.lap();
            report.violations = violations.clone();
        }
        if !violations.is_empty() {
            tracing::debug!(
                tool = name,
                violations = violations.len(),
                "arguments rejected"
            );
            return done(invalid(name, &describe_all(&violations), violations));
        }
    }

    // Arguments nothing changed go to the deserializer as the model's own text.
    let args = if unchanged {
        Args::Text(text)
    } else {
        Args::Value(value)
    };
    let pending = entry.handler.invoke(args, cx);
    if let Some(report) = report {
        report.timings.deserialize = clock.lap();
    }
    pending
}

/// Whether a call may go from its text straight to the typed arguments, where what serde
/// accepts is schema-valid. The text itself goes to the deserializer either way: the
/// arguments' one instantiation.
fn typed_path_accepts(entry: &Entry, text: &str) -> bool {
    if entry.direct {
        // The typed deserializer enforces this schema exactly.
        return true;
    }
    if let Some(checks) = &entry.checks {
        // Serde enforces all but some parameters' constraints, checked first.
        return checks.accepts(text);
    }
    // Valid, yet serde may still refuse (`5.0` for a `u8`): the full path normalizes.
    match (&entry.validator, repair::parse_json(text)) {
        (Some(validator), Ok(value)) => value.is_object() && validator.is_valid(&value),
        _ => false,
    }
}

/// Whether the typed deserializer refused the arguments themselves: the full path then
/// repairs them or explains.
pub(crate) fn is_argument_error(output: &ToolOutput) -> bool {
    matches!(
        output.as_error().map(|e| e.code),
        Some(ErrorCode::InvalidArguments | ErrorCode::MalformedArguments)
    )
}

fn done(error: ToolError) -> Pending<'static> {
    Pending::Refused(ToolOutput::from(error))
}

fn invalid(tool: &str, detail: &str, violations: Vec<Violation>) -> ToolError {
    let mut error = ToolError::with_code(
        ErrorCode::InvalidArguments,
        format!("Invalid arguments for {tool}: {detail}"),
    )
    .for_tool(tool)
    .with_retry_hint(format!(
        "Call {tool} again with the arguments fixed as described."
    ));
    error.violations = violations;
    error
}

/// `"limit": 500 is greater than the maximum 100; missing required "query" (string: ...).
/// Allowed values for "category": "shoes", "hats".`
fn describe_all(violations: &[Violation]) -> String {
    let sentences: Vec<&str> = violations.iter().map(|v| v.message.as_str()).collect();
    let mut text = sentences.join("; ");
    text.push('.');
    let mut seen = Vec::new();
    for v in violations.iter().filter(|v| !v.allowed.is_empty()) {
        if seen.contains(&&v.pointer) {
            continue;
        }
        seen.push(&v.pointer);
        let values: Vec<String> = v.allowed.iter().map(crate::violation::short).collect();
        text.push_str(&format!(
            " Allowed values for {}: {}.",
            crate::pointer::display_path(&v.pointer),
            values.join(", ")
        ));
    }
    text
}

/// The error for arguments past a limit.
fn over_limit(tool: &str, limit: LimitExceeded) -> ToolError {
    let message = format!("Arguments for {tool} rejected: {limit}.");
    ToolError::with_code(ErrorCode::LimitExceeded, message).for_tool(tool)
}
