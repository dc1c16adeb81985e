//! The call path: the registry's one verb family ([`call`](Registry::call) and
//! [`call_blocking`](Registry::call_blocking) for one call, [`call_all`](Registry::call_all)
//! for a model's whole turn, [`answer_all`](Registry::answer_all) to run a turn and answer it),
//! and the one place that runs a call's stages in order. Each stage is a function over the
//! tool's entry and the registry's settings, and none calls back up here:
//!
//! 1. `pipeline::tool_lookup`: the tool by name;
//! 2. `pipeline::prepare`: limits, repair, resolve, validate, deserialize;
//! 3. `dispatch::run_pending`: gate, approval, concurrency, thread, timeout, panic;
//! 4. `pipeline::output_check::finish`: the output schema and the output cap;
//!
//! and `results` answers a turn in a provider's shape.

use super::call_all::CallAll;
use super::Registry;
use crate::context::CallContext;
use crate::def::{Args, Pending};
use crate::dispatch::run_pending;
use crate::error::{ErrorCode, ToolError};
use crate::hold::CallHold;
use crate::pipeline::output_check::finish;
use crate::pipeline::prepare::{full_path, is_argument_error, prepare};
use crate::pipeline::report::Clock;
use crate::pipeline::span::{record_outcome, tool_span, wants_span};
use crate::pipeline::{tool_lookup, CallReport, Entry, Repair};
use crate::results::{answer_in_order, FormattedResults};
use crate::{CancellationToken, Provider, ToolCall, ToolOutput};
use std::sync::Arc;
use tracing::Instrument;

impl Registry {
    /// Calls a tool with JSON arguments and returns its output. Never panics on bad input:
    /// an unknown tool, broken or oversized JSON, or arguments that don't fit the schema give
    /// an error output the model can act on.
    pub async fn call(&self, name: &str, args: &str) -> ToolOutput {
        self.execute(name, None, args, None, None).await
    }

    /// [`call`](Self::call) for code that isn't async. A sync tool runs right here, on the
    /// calling thread (outside the gate and the concurrency limit: the caller asked to block);
    /// an async tool, a call that needs approval, or a sync tool with a timeout to keep runs
    /// on a small runtime the registry keeps for this, the sync tool on its blocking pool, so a
    /// call past its timeout ends with a `timeout` error output as it would under `call`.
    /// From inside an async runtime such a call is an error output: use `call(...).await`
    /// there.
    #[inline]
    pub fn call_blocking(&self, name: &str, args: &str) -> ToolOutput {
        // The common call, kept small: a tool's own name, a direct tool, a good call, and no
        // subscriber wanting its span.
        let found = self.find(name);
        if let Some(entry) = found {
            if entry.runs_inline && !wants_span() && self.config.limits.check(args).is_ok() {
                let cx = self.context(entry, None, true, None);
                return match entry.handler.invoke(Args::Text(args), &cx) {
                    Pending::Ran(output) => finish(output, entry),
                    Pending::Refused(output) if !is_argument_error(&output) => {
                        finish(output, entry)
                    }
                    Pending::Refused(_) => self.blocking_full_path(entry, &cx, args),
                    pending => self.block_on_pending(entry, pending, args),
                };
            }
        }
        self.call_blocking_slow(name, found, args)
    }

    /// [`call`](Self::call), also returning what each stage did and how long it took. It
    /// always takes the full path, so that every repair and filled default is recorded.
    pub async fn call_with_report(&self, name: &str, args: &str) -> (ToolOutput, CallReport) {
        let mut report = CallReport::default();
        let output = self
            .execute(name, None, args, Some(&mut report), None)
            .await;
        (output, report)
    }

    /// Runs a model's whole turn and returns one output per call, in the calls' order.
    ///
    /// Parallel-safe tools (`read_only` ones, unless marked otherwise) run concurrently; any
    /// other call runs alone, with nothing beside it. Sync tools run on tokio's blocking pool.
    /// Every call ends with exactly one output: its result, or an error for a validation
    /// failure, a timeout, a panic, a denial or a cancellation. Each call's id reaches its
    /// tool's context. `.await` it as is, or [`until`](CallAll::until) a token first.
    pub fn call_all<C: AsRef<[ToolCall]>>(&self, calls: C) -> CallAll<'_, C> {
        CallAll::new(self, calls)
    }

    /// Runs every call of a model's turn with [`call_all`](Registry::call_all) and answers
    /// them in `provider`'s shape: the messages its next request carries, in the model's
    /// order.
    ///
    /// ```
    /// use tool_runtime::{tool, Provider, Registry, ToolCall};
    ///
    /// /// Say hello.
    /// #[tool]
    /// fn greet(
    ///     /// Who to greet.
    ///     name: String,
    /// ) -> String {
    ///     format!("Hello, {name}!")
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let registry = Registry::builder().build().unwrap();
    /// let calls = [ToolCall::new("call_1", "greet", r#"{"name": "Ada"}"#)];
    /// let results = registry.answer_all(Provider::OpenAiChat, &calls).await;
    /// assert_eq!(results.messages[0]["content"], "Hello, Ada!");
    /// # });
    /// ```
    pub async fn answer_all(&self, provider: Provider, calls: &[ToolCall]) -> FormattedResults {
        let outputs: Vec<Option<ToolOutput>> = self
            .run_all(calls, None)
            .await
            .into_iter()
            .map(Some)
            .collect();
        answer_in_order(provider, calls, &outputs)
    }

    /// Runs `calls` concurrently where the gate allows, one output per call in their order;
    /// `cancel` stops what hasn't finished.
    pub(super) async fn run_all(
        &self,
        calls: &[ToolCall],
        cancel: Option<&CancellationToken>,
    ) -> Vec<ToolOutput> {
        // Polled together in this task, so calls borrow the registry; the gate orders them.
        let outputs = calls
            .iter()
            .map(|call| self.execute(&call.name, Some(&call.id), &call.arguments, None, cancel));
        futures_util::future::join_all(outputs).await
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
                let output = match prepare(entry, &self.config, &cx, args, None, &mut clock) {
                    Pending::Refused(output) | Pending::Ran(output) => finish(output, entry),
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
        match full_path(
            entry,
            &self.config,
            cx,
            args,
            None,
            &mut Clock::start(false),
        ) {
            Pending::Refused(output) | Pending::Ran(output) => finish(output, entry),
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
            run_pending(entry, &self.config, pending, None, args, None, None),
        );
        finish(output, entry)
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

    /// One call through every stage, in order: lookup, [`prepare`] (limits, repair, resolve,
    /// validate, deserialize), [`run_pending`] (the run), [`finish`] (the output check).
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
                        &self.config.gate,
                        entry.parallel,
                        self.config.concurrency.as_ref(),
                    ))
                });
                let cx = self.context(entry, call_id, false, held.as_ref());
                let pending = prepare(
                    entry,
                    &self.config,
                    &cx,
                    args,
                    report.as_deref_mut(),
                    &mut clock,
                );
                let run = run_pending(
                    entry,
                    &self.config,
                    pending,
                    call_id,
                    args,
                    cancel,
                    held.as_ref(),
                );
                // Without a subscriber the span is a no-op: don't pay for entering it per poll.
                let output = if span.is_disabled() {
                    run.await
                } else {
                    run.instrument(span.clone()).await
                };
                finish(output, entry)
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

    /// The context the tool and its resolvers see.
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
            calls: Some(self),
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
        tool_lookup::find(&self.tools, &self.index, name)
    }

    /// [`lookup`](Self::lookup) of a name that isn't a tool's own: one an export gave it
    /// (`export::names`), a repaired one, or an error naming the tools there are.
    #[cold]
    fn lookup_other(
        &self,
        name: &str,
        repairs: &mut Vec<Repair>,
        clock: &mut Clock,
    ) -> Result<&Entry, ToolOutput> {
        let exported = self.exported.tool(name);
        tool_lookup::lookup_other(
            &self.tools,
            &self.names,
            exported,
            &self.config,
            name,
            repairs,
            clock,
        )
    }

    /// The runtime [`call_blocking`](Self::call_blocking) drives async tools with, made on first use.
    pub(crate) fn blocking_runtime(&self) -> Result<&tokio::runtime::Runtime, &str> {
        self.blocking
            .get_or_init(|| {
                tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(String::as_str)
    }
}

fn runtime_error(tool: &str, message: &str) -> ToolOutput {
    ToolOutput::from(ToolError::with_code(ErrorCode::RuntimeError, message).for_tool(tool))
}

impl crate::context::Calls for Registry {
    fn call<'a>(
        &'a self,
        name: &'a str,
        call_id: Option<&'a str>,
        args: &'a str,
    ) -> crate::def::BoxFuture<'a, ToolOutput> {
        Box::pin(self.execute(name, call_id, args, None, None))
    }

    fn spec(&self, name: &str) -> Option<&crate::spec::ToolSpec> {
        self.get(name)
    }
}
