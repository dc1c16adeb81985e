//! A call's `execute_tool` span, named and attributed after OpenTelemetry's GenAI conventions.

use crate::output::ToolOutput;
use serde_json::Value;

/// Whether a subscriber may want calls' spans: one atomic load when none listens at INFO.
#[inline]
pub(crate) fn wants_span() -> bool {
    tracing::Level::INFO <= tracing::level_filters::STATIC_MAX_LEVEL
        && tracing::Level::INFO <= tracing::level_filters::LevelFilter::current()
}

/// A call's span, named and attributed after OpenTelemetry's GenAI conventions, so an
/// OpenTelemetry subscriber shows tool calls the way other agent frameworks do.
pub(crate) fn tool_span(name: &str, call_id: Option<&str>) -> tracing::Span {
    let span = tracing::info_span!(
        "execute_tool",
        otel.name = tracing::field::Empty,
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = name,
        gen_ai.tool.call.id = call_id.unwrap_or_default(),
        gen_ai.tool.type = "function",
        outcome = tracing::field::Empty,
        error.type = tracing::field::Empty,
        duration_ms = tracing::field::Empty,
    );
    if !span.is_disabled() {
        span.record("otel.name", format!("execute_tool {name}"));
    }
    span
}

/// Records how the call ended on its span.
pub(crate) fn record_outcome(
    span: &tracing::Span,
    output: &ToolOutput,
    elapsed: std::time::Duration,
) {
    span.record("duration_ms", elapsed.as_secs_f64() * 1000.0);
    match output.as_error() {
        Some(error) => {
            let code = serde_json::to_value(error.code).ok();
            let code = code.as_ref().and_then(Value::as_str).unwrap_or("error");
            span.record("outcome", "error");
            span.record("error.type", code);
        }
        None => {
            span.record("outcome", "ok");
        }
    }
}
