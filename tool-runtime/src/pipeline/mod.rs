//! The call pipeline: every stage a call passes through between the model's text and the
//! tool, one module each, run in this order:
//!
//! 1. `limits`: size and depth caps on the raw text;
//! 2. `repair`: harmless mistakes fixed under a [`RepairPolicy`], each recorded;
//! 3. `resolve`: the ParamResolver fills what the model left out;
//! 4. `validate`: JSON Schema validation, every error described for the model;
//! 5. deserialize into the typed arguments, and run;
//! 6. `output_check`: a declared output schema checked, and the output cap kept.
//!
//! Tools whose schema the typed deserializer enforces exactly skip the intermediate JSON
//! value when the call is good (see `exact`); any call that fails there takes the full
//! path, so the model always gets the full path's answer.

pub(crate) mod checked;
pub(crate) mod exact;
pub(crate) mod limits;
pub(crate) mod number_text;
pub(crate) mod output_check;
pub(crate) mod repair;
pub(crate) mod report;
pub(crate) mod resolve;
pub(crate) mod schema_nav;
pub(crate) mod tool_lookup;
pub(crate) mod validate;

pub use limits::{LimitExceeded, Limits};
pub use repair::{Repair, RepairKind, RepairPolicy};
pub use report::{CallReport, StageTimings};
pub use resolve::{FilledBy, FilledField, ParamResolver, ResolverFn};
pub use validate::Violation;

use crate::context::CallContext;
use crate::def::{Args, Pending};
use crate::dispatch::hold::CallHold;
use crate::error::{ErrorCode, ToolError};
use crate::error_format::ErrorFormat;
use crate::output::ToolOutput;
use crate::registry::{Entry, Registry};
use report::Clock;
use schema_nav::SchemaNav;
use serde_json::Value;
use std::sync::Arc;
use tracing::Instrument;

impl Registry {
    /// [`Registry::call_blocking`]'s work: a sync tool inline on the calling thread, anything
    /// else on the registry's small runtime.
    #[inline]
    pub(crate) fn run_blocking(&self, name: &str, args: &str) -> ToolOutput {
        // The common call, kept small: a tool's own name, a direct tool, a good call, and no
        // subscriber wanting its span.
        let found = self.find(name);
        if let Some(entry) = found {
            if entry.runs_inline && !wants_span() && self.config.limits.check(args).is_ok() {
                let cx = self.context(entry, None, true, None);
                return match entry.handler.invoke(Args::Text(args), &cx) {
                    Pending::Ran(output) => named(output, entry),
                    Pending::Refused(output) if !is_argument_error(&output) => named(output, entry),
                    Pending::Refused(_) => self.blocking_full_path(entry, &cx, args),
                    pending => self.block_on_pending(entry, pending, args),
                };
            }
        }
        self.call_blocking_slow(name, found, args)
    }

    /// [`call_blocking`](Self::call_blocking) past its common case, under the call's
    /// `execute_tool` span as [`call`](Self::call) has it.
    #[inline(never)]
    fn call_blocking_slow(&self, name: &str, found: Option<&Entry>, args: &str) -> ToolOutput {
        let mut clock = Clock::start(false);
        let entry = found.map_or_else(|| self.lookup_other(name, &mut Vec::new(), &mut clock), Ok);
        if entry.as_ref().is_ok_and(|e| e.needs_runtime()) {
            // The approver is async, and must answer before anything runs; a timeout is kept
            // by running a sync tool on the blocking pool and waiting no longer than it says.
            // `execute` makes the call's span.
            return self.block_on(name, self.execute(name, None, args, None, None));
        }
        let span = wants_span().then(|| (tool_span(name, None), std::time::Instant::now()));
        let entered = span.as_ref().map(|(span, _)| span.enter());
        let output = match entry {
            Err(output) => output,
            Ok(entry) => {
                // The caller blocks on the call anyway: a sync tool runs right here.
                let cx = self.context(entry, None, true, None);
                let output = match self.prepare(entry, &cx, args, None, &mut clock) {
                    Pending::Refused(output) | Pending::Ran(output) => named(output, entry),
                    pending => self.block_on_pending(entry, pending, args),
                };
                output
            }
        };
        drop(entered);
        if let Some((span, started)) = span.filter(|(span, _)| !span.is_disabled()) {
            record_outcome(&span, &output, started.elapsed());
        }
        output
    }

    /// A direct call the typed deserializer refused: the full path repairs it or explains.
    #[inline(never)]
    fn blocking_full_path<'a>(
        &'a self,
        entry: &'a Entry,
        cx: &'a CallContext<'a>,
        args: &'a str,
    ) -> ToolOutput {
        match self.full_path(entry, cx, args, None, &mut Clock::start(false)) {
            Pending::Refused(output) | Pending::Ran(output) => named(output, entry),
            pending => self.block_on_pending(entry, pending, args),
        }
    }

    /// Runs what a sync tool can't finish inline (an async tool) to its output.
    #[inline(never)]
    fn block_on_pending<'a>(
        &'a self,
        entry: &'a Entry,
        pending: Pending<'a>,
        args: &'a str,
    ) -> ToolOutput {
        let output = self.block_on(
            &entry.spec.name,
            self.run_pending(entry, pending, None, args, None, None),
        );
        named(output, entry)
    }

    /// Drives a future to completion for [`call_blocking`](Self::call_blocking).
    fn block_on(
        &self,
        name: &str,
        future: impl std::future::Future<Output = ToolOutput>,
    ) -> ToolOutput {
        if tokio::runtime::Handle::try_current().is_ok() {
            return runtime_error(
                name,
                "call_blocking was called inside an async runtime, where blocking would stall it; use `registry.call(..).await`",
            );
        }
        match self.blocking_runtime() {
            Ok(runtime) => runtime.block_on(future),
            Err(reason) => runtime_error(
                name,
                &format!("could not start a runtime for the call: {reason}"),
            ),
        }
    }

    pub(crate) async fn execute(
        &self,
        name: &str,
        call_id: Option<&str>,
        args: &str,
        mut report: Option<&mut CallReport>,
        cancel: Option<&tokio_util::sync::CancellationToken>,
    ) -> ToolOutput {
        let span = tool_span(name, call_id);
        let started = (!span.is_disabled()).then(std::time::Instant::now);
        let mut clock = Clock::start(report.is_some());
        let total = Clock::start(report.is_some());
        let mut repairs = Vec::new();
        let output = match self.lookup(name, &mut repairs, &mut clock) {
            Err(output) => output,
            Ok(entry) => {
                if let Some(report) = report.as_deref_mut() {
                    report.timings.lookup = clock.lap();
                    report.tool = Some(entry.spec.name.clone());
                    report.repairs = repairs;
                }
                // A call that may ask a client lends its hold to its questions.
                let held = crate::context::may_ask().then(|| {
                    Arc::new(CallHold::new(
                        &self.gate,
                        entry.parallel,
                        self.config.concurrency.as_ref(),
                    ))
                });
                let cx = self.context(entry, call_id, false, held.as_ref());
                let pending = self.prepare(entry, &cx, args, report.as_deref_mut(), &mut clock);
                let run = self.run_pending(entry, pending, call_id, args, cancel, held.as_ref());
                // Without a subscriber the span is a no-op: don't pay for entering it per poll.
                let output = if span.is_disabled() {
                    run.await
                } else {
                    run.instrument(span.clone()).await
                };
                named(output, entry)
            }
        };
        if let Some(report) = report {
            report.timings.run = clock.lap();
            let mut total = total;
            report.timings.total = total.lap();
        }
        if let Some(started) = started {
            record_outcome(&span, &output, started.elapsed());
        }
        output
    }

    fn context<'a>(
        &'a self,
        entry: &'a Entry,
        call_id: Option<&'a str>,
        inline: bool,
        held: Option<&'a Arc<CallHold>>,
    ) -> CallContext<'a> {
        CallContext {
            tool: &entry.spec.name,
            call_id,
            states: &self.states,
            catalog: &self.catalog,
            inline,
            held,
        }
    }

    /// Finds the tool: by its exact name, or after a safe normalization (recorded).
    #[inline]
    fn lookup(
        &self,
        name: &str,
        repairs: &mut Vec<Repair>,
        clock: &mut Clock,
    ) -> Result<&Entry, ToolOutput> {
        match self.find(name) {
            Some(entry) => Ok(entry),
            None => self.lookup_other(name, repairs, clock),
        }
    }

    /// The tool with exactly this name.
    #[inline]
    fn find(&self, name: &str) -> Option<&Entry> {
        // A few tools: comparing names beats hashing one.
        if self.tools.len() <= 8 {
            return self
                .tools
                .iter()
                .find(|t| tool_lookup::same(t.spec.name.as_bytes(), name.as_bytes()));
        }
        self.find_hashed(name)
    }

    /// [`find`](Self::find) in a registry of many tools: kept out of line, so that `find`
    /// stays small enough to inline.
    #[inline(never)]
    fn find_hashed(&self, name: &str) -> Option<&Entry> {
        self.index.get(name).map(|&i| &self.tools[i])
    }

    /// [`lookup`](Self::lookup) of a name that isn't a tool's own: kept out of line, so that
    /// the common case stays small enough to inline.
    #[cold]
    fn lookup_other(
        &self,
        name: &str,
        repairs: &mut Vec<Repair>,
        clock: &mut Clock,
    ) -> Result<&Entry, ToolOutput> {
        // A name the export sanitized for a provider's naming rule (`export::names`).
        if let Some(i) = self.exported.tool(name) {
            return Ok(&self.tools[i]);
        }
        if self.config.repair != RepairPolicy::Off {
            if let Some(i) = self.names.repair(name) {
                repairs.push(Repair {
                    kind: RepairKind::ToolName,
                    pointer: String::new(),
                    detail: name.to_owned(),
                });
                return Ok(&self.tools[i]);
            }
        }
        let _ = clock.lap();
        Err(self.unknown_tool(name).bounded(self.config.max_output))
    }

    fn unknown_tool(&self, name: &str) -> ToolOutput {
        const SHOWN: usize = 20;
        let suggestions =
            tool_lookup::closest(name, self.tools.iter().map(|t| t.spec.name.as_str()));
        let mut message = format!(
            "Unknown tool {:?}.",
            validate::short(&Value::from(name)).trim_matches('"')
        );
        if suggestions.is_empty() {
            let listed: Vec<&str> = self
                .tools
                .iter()
                .take(SHOWN)
                .map(|t| t.spec.name.as_str())
                .collect();
            message.push_str(&format!(" Available tools: {}", listed.join(", ")));
            if self.tools.len() > SHOWN {
                message.push_str(&format!(" (and {} more)", self.tools.len() - SHOWN));
            }
            message.push('.');
        } else {
            message.push_str(&format!(" Did you mean {}?", quoted_list(&suggestions)));
        }
        let hint = "Call one of the available tools by its exact name.";
        let mut error = ToolError::with_code(ErrorCode::UnknownTool, message)
            .for_tool(name)
            .with_retry_hint(hint);
        error.suggestions = suggestions;
        ToolOutput::from(error)
    }

    /// Stages 1 to 5 up to the point where the tool is ready to run.
    fn prepare<'a>(
        &'a self,
        entry: &'a Entry,
        cx: &'a CallContext<'a>,
        text: &'a str,
        mut report: Option<&mut CallReport>,
        clock: &mut Clock,
    ) -> Pending<'a> {
        let config = &self.config;
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
        self.full_path(entry, cx, text, report, clock)
    }

    /// Every stage, recorded: what a bad call goes through, and every reported call.
    fn full_path<'a>(
        &'a self,
        entry: &'a Entry,
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
            let max_depth = self.config.limits.max_depth;
            let parsed = repair::parse_arguments(
                text,
                self.config.repair,
                max_depth,
                &mut repairs,
                &mut inexact,
            );
            match parsed {
                Ok(mut value) if value.is_object() => {
                    let policy = self.config.repair;
                    repair::coerce(&mut value, nav, policy, &mut repairs, &mut inexact);
                    // Text the limits stage never saw whole (double-encoded, a string holding
                    // JSON, repaired leniently) is held to the same depth.
                    if repairs.iter().any(|r| r.kind.parses_nested_text()) {
                        if let Err(limit) = self.config.limits.check_value(&value) {
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
                        max: self.config.limits.max_depth,
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
                &self.config.context_defaults
            } else {
                &[]
            };
            let tools = resolve::ToolResolvers {
                resolvers: &entry.resolvers,
                context_defaults,
                null_means_default: self.config.repair != RepairPolicy::Off,
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
}

/// Every output leaves for a known tool here, cut to the tool's output cap; an error first
/// takes what it doesn't say itself from the tool ([`own_error`]).
#[inline(always)]
fn named(mut output: ToolOutput, entry: &Entry) -> ToolOutput {
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
fn checked_output(
    check: &output_check::OutputCheck,
    output: ToolOutput,
    entry: &Entry,
) -> ToolOutput {
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

fn is_argument_error(output: &ToolOutput) -> bool {
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
        let values: Vec<String> = v.allowed.iter().map(validate::short).collect();
        text.push_str(&format!(
            " Allowed values for {}: {}.",
            validate::display_path(&v.pointer),
            values.join(", ")
        ));
    }
    text
}

fn quoted_list(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    match quoted.as_slice() {
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
        [] => String::new(),
    }
}

/// Whether a subscriber may want calls' spans: one atomic load when none listens at INFO.
#[inline]
fn wants_span() -> bool {
    tracing::Level::INFO <= tracing::level_filters::STATIC_MAX_LEVEL
        && tracing::Level::INFO <= tracing::level_filters::LevelFilter::current()
}

/// A call's span, named and attributed after OpenTelemetry's GenAI conventions, so an
/// OpenTelemetry subscriber shows tool calls the way other agent frameworks do.
fn tool_span(name: &str, call_id: Option<&str>) -> tracing::Span {
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
fn record_outcome(span: &tracing::Span, output: &ToolOutput, elapsed: std::time::Duration) {
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

fn runtime_error(tool: &str, message: &str) -> ToolOutput {
    ToolOutput::from(ToolError::with_code(ErrorCode::RuntimeError, message).for_tool(tool))
}

/// The error for arguments past a limit.
fn over_limit(tool: &str, limit: LimitExceeded) -> ToolError {
    let message = format!("Arguments for {tool} rejected: {limit}.");
    ToolError::with_code(ErrorCode::LimitExceeded, message).for_tool(tool)
}
