//! After the run: a tool that declares an output schema has its output checked against it
//! before it leaves, so a structured result never breaks the promise `outputSchema` makes.
//!
//! Two ways an output can't keep it, each an `output_error` the caller reads instead:
//! - its structured result (`output::structured`) doesn't conform, or there is none;
//! - it is larger than the tool's output cap. A structured result is never cut: a shortened
//!   JSON value would no longer be what the schema describes, and a client that validates it
//!   (the official SDKs do) would refuse the whole result.

use super::validate::{self, Validator};
use super::Entry;
use crate::error::{ErrorCode, ToolError};
use crate::error_format::ErrorFormat;
use crate::output::structured;
use crate::output::ToolOutput;
use crate::schema_nav::SchemaNav;
use serde_json::Value;

/// A tool's output schema, compiled.
pub(crate) struct OutputCheck {
    validator: Validator,
    schema: Value,
    wrapped: bool,
}

impl OutputCheck {
    /// Compiles an output schema.
    ///
    /// # Errors
    ///
    /// The validator's reason when the schema can't be compiled.
    pub(crate) fn new(schema: &Value, wrapped: bool) -> Result<OutputCheck, String> {
        Ok(OutputCheck {
            validator: validate::compile(schema)?,
            schema: schema.clone(),
            wrapped,
        })
    }

    /// The output as it may leave: unchanged when it is an error, or conforms and fits
    /// `max_output`; otherwise an error naming what is wrong.
    pub(crate) fn check(&self, output: ToolOutput, tool: &str, max_output: usize) -> ToolOutput {
        let size = match &output {
            ToolOutput::Error(_) => return output,
            ToolOutput::Json(json) => json.as_str().len(),
            ToolOutput::Text(text) => text.len(),
            ToolOutput::Content(_) => 0,
        };
        let Some(value) = structured::structured(&output, self.wrapped) else {
            let kind = match output {
                ToolOutput::Content(_) => "rich content",
                _ => "text",
            };
            return failed(
                tool,
                format!("{tool} declares an output schema but returned {kind}, which has no structured result; it was not sent."),
            );
        };
        let violations =
            validate::violations(&self.validator, &value, SchemaNav::new(&self.schema));
        if !violations.is_empty() {
            let described: Vec<String> = violations
                .iter()
                .map(|v| match v.pointer.as_str() {
                    "" => v.message.clone(),
                    pointer => format!("at {pointer}: {}", v.message),
                })
                .collect();
            let mut error = ToolError::with_code(
                ErrorCode::OutputError,
                format!(
                    "{tool} returned a result that does not match its output schema, so it was not sent: {}.",
                    described.join("; ")
                ),
            )
            .for_tool(tool);
            error.violations = violations;
            return ToolOutput::from(error);
        }
        if size > max_output {
            return failed(
                tool,
                format!("{tool} returned a structured result of {size} bytes, over its output cap of {max_output} bytes; a structured result is never cut, so it was not sent. Ask for less (a narrower query, fewer items)."),
            );
        }
        output
    }
}

fn failed(tool: &str, message: String) -> ToolOutput {
    ToolOutput::from(ToolError::with_code(ErrorCode::OutputError, message).for_tool(tool))
}

/// Every output leaves for a known tool here, cut to the tool's output cap; an error first
/// takes what it doesn't say itself from the tool ([`own_error`]).
#[inline(always)]
pub(crate) fn finish(mut output: ToolOutput, entry: &Entry) -> ToolOutput {
    if let Some(check) = &entry.output_check {
        output = checked_output(check, output, entry);
    }
    if let ToolOutput::Error(error) = &mut output {
        own_error(error, entry);
    }
    output.bounded(entry.max_output)
}

/// A tool with an output schema: its output checked against it (`output_check`). Out of line,
/// so tools without one pay nothing.
#[cold]
#[inline(never)]
fn checked_output(check: &OutputCheck, output: ToolOutput, entry: &Entry) -> ToolOutput {
    check.check(output, &entry.spec.name, entry.max_output)
}

/// Errors a tool returns itself don't know the tool's name; the runtime's errors do. One
/// without a format of its own takes the tool's ([`ErrorFormat::Text`], the default, leaves it
/// `None`). Out of line: only errors pay for it, and the success path stays as small.
#[cold]
#[inline(never)]
fn own_error(error: &mut ToolError, entry: &Entry) {
    if error.tool.is_none() {
        error.tool = Some(entry.spec.name.clone());
    }
    if error.format.is_none() && entry.spec.error_format != ErrorFormat::Text {
        error.format = Some(entry.spec.error_format);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::JsonOutput;
    use serde_json::json;

    fn points() -> OutputCheck {
        let schema = json!({
            "type": "object",
            "properties": {"x": {"type": "integer"}, "label": {"type": "string"}},
            "required": ["x"]
        });
        OutputCheck::new(&schema, false).unwrap()
    }

    fn json(value: Value) -> ToolOutput {
        ToolOutput::Json(JsonOutput::from(value))
    }

    #[test]
    fn conforming_outputs_and_errors_pass() {
        let good = json(json!({"x": 1, "label": "a"}));
        assert_eq!(points().check(good.clone(), "t", 1000), good);
        let error = ToolOutput::error(ErrorCode::ToolFailed, "no");
        assert_eq!(points().check(error.clone(), "t", 1000), error);
    }

    #[test]
    fn a_non_conforming_output_is_an_output_error_naming_the_violation() {
        let out = points().check(json(json!({"x": "one"})), "t", 1000);
        let error = out.as_error().unwrap();
        assert_eq!(error.code, ErrorCode::OutputError);
        assert!(
            error.message.contains("does not match its output schema"),
            "{}",
            error.message
        );
        assert!(error.message.contains("/x"), "{}", error.message);
        assert_eq!(error.violations[0].keyword, "type");
        let missing = points().check(json(json!({})), "t", 1000);
        assert!(
            missing.as_error().unwrap().message.contains("missing"),
            "{missing:?}"
        );
        let text = points().check(ToolOutput::text("x"), "t", 1000);
        assert!(text.as_error().unwrap().message.contains("returned text"));
    }

    #[test]
    fn an_output_over_the_cap_is_refused_not_cut() {
        let big = json(json!({"x": 1, "label": "a".repeat(500)}));
        let out = points().check(big, "t", 100);
        let message = &out.as_error().unwrap().message;
        assert!(
            message.contains("over its output cap of 100 bytes"),
            "{message}"
        );
        assert!(message.contains("never cut"), "{message}");
    }

    #[test]
    fn wrapped_schemas_take_text_and_values() {
        let schema = json!({"type": "object", "properties": {"result": {"type": "string"}}, "required": ["result"]});
        let check = OutputCheck::new(&schema, true).unwrap();
        assert_eq!(
            check.check(ToolOutput::text("hi"), "t", 100),
            ToolOutput::text("hi")
        );
        assert!(check.check(json(json!(5)), "t", 100).is_error());
    }
}
