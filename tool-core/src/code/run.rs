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
const MAX_PRINTED: usize = 1 << 20;

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
    let tracker = ResourceTracker::new(
        ResourceLimits::default()
            .max_duration(limits.time)
            .max_memory(limits.memory)
            .max_recursion_depth(limits.recursion)
            // The host counts tool calls itself; this bounds every other suspension.
            .max_suspensions(limits.tool_calls.saturating_mul(4).saturating_add(1_000)),
    );
    let mut printed = String::new();
    let mut run = Run {
        registry,
        limits,
        call_id,
        calls: 0,
        started: FuturesUnordered::new(),
    };
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

struct Run<'r> {
    registry: &'r dyn Calls,
    limits: &'r CodeLimits,
    call_id: Option<&'r str>,
    /// Tool calls made so far, both forms.
    calls: usize,
    /// Calls started with the `_async` form, not yet handed back.
    started: FuturesUnordered<Started<'r>>,
}

impl<'r> Run<'r> {
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
                    let refused = MontyException::new(
                        ExcType::PermissionError,
                        Some(format!(
                            "`{}` is refused: the sandbox has no filesystem, network, environment or clock of the host; the only functions that reach outside are the tools",
                            os.function_call.name()
                        )),
                    );
                    os.resume(refused, print(printed))
                }
                RunProgress::FunctionCall(call) => {
                    self.calls += 1;
                    if self.calls > self.limits.tool_calls {
                        let stop = MontyException::new(
                            ExcType::RuntimeError,
                            Some(format!(
                                "more than {} tool calls in one run: do fewer calls per snippet, or ask for less at a time",
                                self.limits.tool_calls
                            )),
                        );
                        call.abort(stop, print(printed))
                    } else if let Some(tool) =
                        call.function_name.strip_suffix(ASYNC_SUFFIX).filter(|t| {
                            self.registry.spec(t).is_some()
                                && self.registry.spec(&call.function_name).is_none()
                        })
                    {
                        let request = self.request(tool, &call.args, &call.kwargs);
                        let id = call.call_id;
                        let registry = self.registry;
                        let call_id = self.inner_id();
                        let tool = tool.to_owned();
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
                        call.resume_pending(print(printed))
                    } else {
                        let name = call.function_name.clone();
                        let result = match self.request(&name, &call.args, &call.kwargs) {
                            Ok(args) => {
                                let call_id = self.inner_id();
                                let output = self.registry.call(&name, Some(&call_id), &args).await;
                                to_result(&name, output)
                            }
                            Err(problem) => problem,
                        };
                        call.resume(result, print(printed))
                    }
                }
                RunProgress::ResolveFutures(waiting) => {
                    // Hand back whatever has finished, at least one: the code goes on as soon
                    // as anything it awaits is there.
                    let mut done = Vec::new();
                    match self.started.next().await {
                        Some(first) => done.push(first),
                        None => {
                            let stuck = MontyException::runtime_error(
                                "the code awaits a call that was never started",
                            );
                            progress = waiting.abort(stuck, print(printed));
                            continue;
                        }
                    }
                    while let Some(Some(more)) =
                        futures_util::FutureExt::now_or_never(self.started.next())
                    {
                        done.push(more);
                    }
                    waiting.resume(done, print(printed))
                }
            };
        }
    }

    /// A name the code uses and doesn't define: a tool, a tool's `_async` form, or nothing.
    fn lookup(&self, name: &str) -> NameLookupResult {
        let tool = self.registry.spec(name).or_else(|| {
            name.strip_suffix(ASYNC_SUFFIX)
                .and_then(|base| self.registry.spec(base))
        });
        match tool {
            Some(spec) => NameLookupResult::Value(MontyObject::Function {
                name: name.to_owned(),
                docstring: Some(spec.description().to_owned()),
            }),
            None => NameLookupResult::Undefined,
        }
    }

    /// The call's JSON arguments, or the `TypeError` the code gets instead.
    fn request(
        &self,
        tool: &str,
        args: &[MontyObject],
        kwargs: &[(MontyObject, MontyObject)],
    ) -> Result<String, ExtFunctionResult> {
        let Some(spec) = self.registry.spec(tool) else {
            return Err(ExtFunctionResult::NotFound(tool.to_owned()));
        };
        arguments(tool, &params(spec.input_schema()), args, kwargs).map_err(|problem| {
            ExtFunctionResult::Error(MontyException::new(ExcType::TypeError, Some(problem.0)))
        })
    }

    /// The id each inner call gets: the code tool's call id and the call's number.
    fn inner_id(&self) -> String {
        format!("{}#{}", self.call_id.unwrap_or("code"), self.calls)
    }
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
