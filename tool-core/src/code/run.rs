//! One run of the model's code, in process: Monty runs it until it needs the host (a name it
//! doesn't know, a tool call, an awaited tool call, an OS call), the host answers, and Monty
//! goes on from where it stopped. Code that ran never runs again.

use super::answer;
use super::signature::params;
use super::values::{arguments, from_json};
use super::{CodeLimits, ASYNC_SUFFIX};
use crate::context::Calls;
use crate::error::ErrorCode;
use crate::output::ToolOutput;
use crate::spec::ToolSpec;
use futures_util::stream::{FuturesUnordered, StreamExt};
use monty::{MontyRun, RunProgress};
use monty_types::{
    CompileOptions, ExcType, ExtFunctionResult, MontyException, MontyObject, NameLookupResult,
    PrintWriter, ResourceLimits, ResourceTracker,
};
use std::future::Future;
use std::pin::Pin;

/// What the printed text may grow to before `print` raises; the answer is cut to the output
/// cap after, this only bounds what the run holds.
pub(super) const MAX_PRINTED: usize = 1 << 20;

/// A tool call the code started with the `_async` form, running beside the code.
type Started<'r> = Pin<Box<dyn Future<Output = (u32, ExtFunctionResult)> + Send + 'r>>;

/// Runs `code` against `registry`'s tools under `limits`; the answer is the code tool's
/// output: what the code printed and the value of its last expression, or a traceback.
pub(crate) async fn run(
    registry: &dyn Calls,
    limits: &CodeLimits,
    code: &str,
    call_id: Option<&str>,
) -> ToolOutput {
    let runner = match MontyRun::new(
        code.to_owned(),
        "main.py",
        Vec::new(),
        CompileOptions::default(),
    ) {
        Ok(runner) => runner,
        Err(error) => return answer::failed("", &error),
    };
    let tracker = ResourceTracker::new(resource_limits(limits));
    let mut printed = String::new();
    let mut run = Run::new(registry, limits, call_id);
    let progress = runner.start(Vec::new(), tracker, print(&mut printed));
    let outcome = run.drive(progress, &mut printed).await;
    match outcome {
        Ok(value) => answer::finished(&printed, &value),
        Err(error) => answer::failed(&printed, &error),
    }
}

fn print(printed: &mut String) -> PrintWriter<'_> {
    PrintWriter::CollectString(printed, Some(MAX_PRINTED))
}

/// How the host answers a tool call from the code.
pub(super) enum Answer {
    /// The call ran: its value, or the exception to raise.
    Now(ExtFunctionResult),
    /// The `_async` form: the call runs beside the code, which gets an awaitable.
    Started,
    /// Past the per-run cap: end the run with this, which the code can't catch.
    Stop(MontyException),
}

/// The host's side of one run, whichever interpreter runs it: the tools, the calls made so
/// far, and the calls started with the `_async` form.
pub(super) struct Run<'r> {
    registry: &'r dyn Calls,
    limits: &'r CodeLimits,
    call_id: Option<&'r str>,
    /// Tool calls made so far, both forms.
    calls: usize,
    /// Calls started with the `_async` form, not yet handed back.
    started: FuturesUnordered<Started<'r>>,
}

impl<'r> Run<'r> {
    pub(super) fn new(
        registry: &'r dyn Calls,
        limits: &'r CodeLimits,
        call_id: Option<&'r str>,
    ) -> Self {
        Run {
            registry,
            limits,
            call_id,
            calls: 0,
            started: FuturesUnordered::new(),
        }
    }

    /// The in-process interpreter's loop.
    async fn drive(
        &mut self,
        mut progress: Result<RunProgress, MontyException>,
        printed: &mut String,
    ) -> Result<MontyObject, MontyException> {
        loop {
            progress = match progress? {
                RunProgress::Complete(value) => return Ok(value),
                RunProgress::NameLookup(lookup) => {
                    let found = self.lookup(&lookup.name);
                    lookup.resume(found, print(printed))
                }
                RunProgress::OsCall(os) => {
                    let refused = refused(os.function_call.name());
                    os.resume(refused, print(printed))
                }
                RunProgress::FunctionCall(call) => {
                    match self
                        .function_call(&call.function_name, &call.args, &call.kwargs, call.call_id)
                        .await
                    {
                        Answer::Now(result) => call.resume(result, print(printed)),
                        Answer::Started => call.resume_pending(print(printed)),
                        Answer::Stop(stop) => call.abort(stop, print(printed)),
                    }
                }
                RunProgress::ResolveFutures(waiting) => match self.finished_calls().await {
                    Ok(done) => waiting.resume(done, print(printed)),
                    Err(stuck) => waiting.abort(stuck, print(printed)),
                },
            };
        }
    }

    /// A tool call from the code: run now, started beside the code, or refused past the cap.
    pub(super) async fn function_call(
        &mut self,
        name: &str,
        args: &[MontyObject],
        kwargs: &[(MontyObject, MontyObject)],
        id: u32,
    ) -> Answer {
        self.calls += 1;
        if self.calls > self.limits.tool_calls {
            return Answer::Stop(MontyException::new(
                ExcType::RuntimeError,
                Some(format!(
                    "more than {} tool calls in one run: do fewer calls per snippet, or ask for less at a time",
                    self.limits.tool_calls
                )),
            ));
        }
        let Some(tool) = self.tool(name) else {
            return Answer::Now(ExtFunctionResult::NotFound(name.to_owned()));
        };
        let request = request(&tool, args, kwargs);
        let call_id = self.inner_id();
        if tool.awaitable {
            let registry = self.registry;
            let tool = tool.name.to_owned();
            self.started.push(Box::pin(async move {
                let result = match request {
                    Ok(args) => {
                        let output = registry.call(&tool, Some(&call_id), &args).await;
                        to_result(&tool, output)
                    }
                    Err(problem) => problem,
                };
                (id, result)
            }));
            return Answer::Started;
        }
        Answer::Now(match request {
            Ok(json) => {
                let output = self.registry.call(tool.name, Some(&call_id), &json).await;
                to_result(tool.name, output)
            }
            Err(problem) => problem,
        })
    }

    /// The started calls that have finished, at least one: the code goes on as soon as
    /// anything it awaits is there. An error when it awaits with nothing started.
    pub(super) async fn finished_calls(
        &mut self,
    ) -> Result<Vec<(u32, ExtFunctionResult)>, MontyException> {
        let Some(first) = self.started.next().await else {
            return Err(MontyException::runtime_error(
                "the code awaits a call that was never started",
            ));
        };
        let mut done = vec![first];
        while let Some(Some(more)) = futures_util::FutureExt::now_or_never(self.started.next()) {
            done.push(more);
        }
        Ok(done)
    }

    /// A name the code uses and doesn't define: a tool, a tool's `_async` form, or nothing.
    pub(super) fn lookup(&self, name: &str) -> NameLookupResult {
        match self.tool(name) {
            Some(tool) => NameLookupResult::Value(MontyObject::Function {
                name: name.to_owned(),
                docstring: Some(tool.spec.description().to_owned()),
            }),
            None => NameLookupResult::Undefined,
        }
    }

    /// The tool a name in the code calls: a tool by that name, else the tool whose awaitable
    /// form it is (`read_file_async`), else none.
    fn tool<'n>(&self, name: &'n str) -> Option<Tool<'n, 'r>> {
        if let Some(spec) = self.registry.spec(name) {
            return Some(Tool {
                name,
                spec,
                awaitable: false,
            });
        }
        let base = name.strip_suffix(ASYNC_SUFFIX)?;
        let spec = self.registry.spec(base)?;
        Some(Tool {
            name: base,
            spec,
            awaitable: true,
        })
    }

    /// The id each inner call gets: the code tool's call id and the call's number.
    fn inner_id(&self) -> String {
        format!("{}#{}", self.call_id.unwrap_or("code"), self.calls)
    }
}

/// A tool a name in the code calls.
struct Tool<'n, 'r> {
    /// The tool's name.
    name: &'n str,
    spec: &'r ToolSpec,
    /// Called by its `_async` name: started beside the code, which gets an awaitable.
    awaitable: bool,
}

/// The call's JSON arguments, or the `TypeError` the code gets instead.
fn request(
    tool: &Tool<'_, '_>,
    args: &[MontyObject],
    kwargs: &[(MontyObject, MontyObject)],
) -> Result<String, ExtFunctionResult> {
    arguments(tool.name, &params(tool.spec.input_schema()), args, kwargs).map_err(|problem| {
        ExtFunctionResult::Error(MontyException::new(ExcType::TypeError, Some(problem.0)))
    })
}

/// The interpreter's limits from the run's.
pub(super) fn resource_limits(limits: &CodeLimits) -> ResourceLimits {
    ResourceLimits::default()
        .max_duration(limits.time)
        .max_memory(limits.memory)
        .max_recursion_depth(limits.recursion)
        // The host counts tool calls itself; this bounds every other suspension.
        .max_suspensions(limits.tool_calls.saturating_mul(4).saturating_add(1_000))
}

/// What an OS call gets: the sandbox reaches nothing of the host's.
pub(super) fn refused(name: &str) -> MontyException {
    MontyException::new(
        ExcType::PermissionError,
        Some(format!(
            "`{name}` is refused: the sandbox has no filesystem, network, environment or clock of the host; the only functions that reach outside are the tools"
        )),
    )
}

/// A tool's output as the code sees it: a value, or an exception it can catch.
fn to_result(tool: &str, output: ToolOutput) -> ExtFunctionResult {
    match output {
        ToolOutput::Text(text) => ExtFunctionResult::Return(MontyObject::String(text)),
        ToolOutput::Json(json) => ExtFunctionResult::Return(from_json(&json.to_value())),
        ToolOutput::Content(_) => {
            ExtFunctionResult::Return(MontyObject::String(output.to_model_text()))
        }
        ToolOutput::Error(error) => {
            let kind = match error.code {
                ErrorCode::InvalidArguments | ErrorCode::MalformedArguments => ExcType::ValueError,
                ErrorCode::UnknownTool => ExcType::NameError,
                ErrorCode::Denied => ExcType::PermissionError,
                ErrorCode::Timeout => ExcType::TimeoutError,
                ErrorCode::LimitExceeded => ExcType::OverflowError,
                _ => ExcType::RuntimeError,
            };
            let mut message = format!("{tool}: {}", error.message);
            if let Some(hint) = &error.retry_hint {
                message.push_str(" (");
                message.push_str(hint);
                message.push(')');
            }
            ExtFunctionResult::Error(MontyException::new(kind, Some(message)))
        }
    }
}
