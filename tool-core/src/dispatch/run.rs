//! The last stage of one call: the gate, approval, the concurrency limit, the thread it runs
//! on, its timeout and cancellation, and a panic caught.

use crate::approval::{Approval, ApprovalRequest};
use crate::def::Pending;
use crate::error::{ErrorCode, ToolError};
use crate::hold::{CallHold, Hold};
use crate::output::ToolOutput;
use crate::panic;
use crate::pipeline::{Config, Entry};
use futures_util::future::Either;
use futures_util::FutureExt;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// Runs a prepared call to its one output, under the registry's `config`. `held`: the call's [`CallHold`] when it may ask
/// a client, which its questions give back while they wait.
pub(crate) async fn run_pending<'a>(
    entry: &'a Entry,
    config: &'a Config,
    pending: Pending<'a>,
    call_id: Option<&'a str>,
    arguments: &'a str,
    cancel: Option<&CancellationToken>,
    held: Option<&'a Arc<CallHold>>,
) -> ToolOutput {
    if let Pending::Refused(output) | Pending::Ran(output) = pending {
        return output;
    }
    // The common call: nothing to ask, wait for or time, and a free gate. Awaited here
    // without the futures below, which are large enough that moving them costs more than
    // a small tool's whole run.
    if cancel.is_none()
        && config.concurrency.is_none()
        && entry.timeout.is_none()
        && !entry.needs_approval
        && entry.gated
    {
        if let Some(pass) = config.gate.try_enter(entry.parallel) {
            let hold = Hold {
                _pass: pass,
                _permit: None,
            };
            return run_on_the_right_thread(entry, pending, Holding::new(hold, held)).await;
        }
    }
    let work = async {
        // The gate first: a call waiting for its approval keeps its place in the calls'
        // order, so a later exclusive call can't run before it. The concurrency permit
        // after: a call waiting on a human holds none.
        let pass = match entry.gated {
            true => Some(config.gate.enter(entry.parallel).await),
            false => None,
        };
        if let Some(denied) = approve(entry, config, call_id, arguments).await {
            return denied;
        }
        let hold = match pass {
            Some(pass) => {
                let permit = match &config.concurrency {
                    Some(limit) => Arc::clone(limit).acquire_owned().await.ok(),
                    None => None,
                };
                Holding::new(
                    Hold {
                        _pass: pass,
                        _permit: permit,
                    },
                    held,
                )
            }
            None => Holding::Free,
        };
        // Timers need a tokio runtime; under another executor the call runs unbounded.
        let timeout = entry
            .timeout
            .filter(|_| tokio::runtime::Handle::try_current().is_ok());
        let run = run_on_the_right_thread(entry, pending, hold);
        match timeout {
            // Boxed: a timer is large, and every call's future would carry its room.
            Some(limit) => match Box::pin(tokio::time::timeout(limit, run)).await {
                Ok(output) => output,
                Err(_) => timed_out(&entry.spec.name, limit),
            },
            None => run.await,
        }
    };
    match cancel {
        // Boxed for the same reason: only cancellable batches wait on a token.
        Some(token) => Box::pin(until_cancelled(&entry.spec.name, token, work)).await,
        None => work.await,
    }
}

/// Asks the approver when the policy says this call needs it; `Some` is the denial.
async fn approve(
    entry: &Entry,
    config: &Config,
    call_id: Option<&str>,
    arguments: &str,
) -> Option<ToolOutput> {
    if !entry.needs_approval {
        return None;
    }
    let answer = match &config.approver {
        Some(approver) => {
            let request = ApprovalRequest {
                tool: &entry.spec,
                call_id,
                arguments,
            };
            approver.approve(&request).await
        }
        None => Approval::deny("no approver is configured for this tool, so it may not run"),
    };
    match answer {
        Approval::Allow => None,
        Approval::Deny { reason } => {
            let name = &entry.spec.name;
            let message = format!("The call to {name} was denied: {reason}");
            let error = ToolError::with_code(ErrorCode::Denied, message)
                .for_tool(name)
                .with_retry_hint(
                    "Don't repeat this call unchanged; continue without it or ask the user.",
                );
            Some(ToolOutput::from(error))
        }
    }
}

/// `work`'s output, or a `cancelled` error output if `token` fires first.
async fn until_cancelled(
    tool: &str,
    token: &CancellationToken,
    work: impl std::future::Future<Output = ToolOutput>,
) -> ToolOutput {
    let stop = std::pin::pin!(token.cancelled());
    let work = std::pin::pin!(work);
    match futures_util::future::select(stop, work).await {
        Either::Left(_) => cancelled(tool),
        Either::Right((output, _)) => output,
    }
}

/// A running call's [`Hold`], kept for the tool's run: by the call itself, or lent to its
/// questions to the client ([`CallHold`]), which give it back while they wait.
enum Holding {
    Kept(#[allow(dead_code)] Hold),
    Lent(#[allow(dead_code)] crate::hold::Lent),
    /// Nothing held: an [ungated](Entry::gated) call.
    Free,
}

impl Holding {
    fn new(hold: Hold, held: Option<&Arc<CallHold>>) -> Holding {
        match held {
            Some(held) => Holding::Lent(held.lend(hold)),
            None => Holding::Kept(hold),
        }
    }
}

/// Sync tools go to the blocking pool, never onto the async executor's threads, unless they
/// are `#[tool(inline)]`: those run right here, on the caller's task. Async tools are polled
/// here. Either way a panic becomes an error output.
///
/// A sync tool can't be stopped once it runs: when its call is answered first (timed out,
/// cancelled, or its future dropped), its thread keeps `hold` until the tool returns, so the
/// next exclusive call still waits for it and the concurrency limit still counts it; and a
/// tool that hadn't started yet (the blocking pool was busy) never starts.
async fn run_on_the_right_thread(entry: &Entry, pending: Pending<'_>, hold: Holding) -> ToolOutput {
    let tool = &*entry.spec.name;
    match pending {
        Pending::Refused(output) | Pending::Ran(output) => output,
        // A timeout (the registry's default, for an inline tool) needs the pool to hold.
        Pending::Sync(run) if entry.spec.flags.inline && entry.timeout.is_none() => {
            let _hold = hold;
            panic::run_caught(tool, run)
        }
        Pending::Sync(run) => match tokio::runtime::Handle::try_current() {
            Ok(handle) => {
                let abandoned = Arc::new(AtomicBool::new(false));
                let _answered = Answered(Arc::clone(&abandoned));
                let job = handle.spawn_blocking(move || {
                    let _hold = hold;
                    (!abandoned.load(SeqCst)).then(run)
                });
                match job.await {
                    Ok(Some(output)) => output,
                    Err(error) if error.is_panic() => panic::output(tool, &*error.into_panic()),
                    Ok(None) | Err(_) => cancelled(tool),
                }
            }
            // No tokio runtime (another executor is polling us): run here, as asked.
            Err(_) => panic::run_caught(tool, run),
        },
        Pending::Async(future) => {
            let _hold = hold;
            match std::panic::AssertUnwindSafe(future).catch_unwind().await {
                Ok(output) => output,
                Err(payload) => panic::output(tool, &*payload),
            }
        }
    }
}

/// Marks a sync call answered when its waiting ends, however it ends, so a tool that hasn't
/// started by then doesn't start.
struct Answered(Arc<AtomicBool>);

impl Drop for Answered {
    fn drop(&mut self) {
        self.0.store(true, SeqCst);
    }
}

fn timed_out(tool: &str, limit: Duration) -> ToolOutput {
    let message = format!(
        "The call to {tool} timed out after {} and was cancelled.",
        human(limit)
    );
    ToolOutput::from(
        ToolError::with_code(ErrorCode::Timeout, message)
            .for_tool(tool)
            .with_retry_hint("Retry with a smaller request, or continue without this result."),
    )
}

pub(crate) fn cancelled(tool: &str) -> ToolOutput {
    ToolOutput::from(
        ToolError::with_code(
            ErrorCode::Cancelled,
            format!("The call to {tool} was cancelled before it finished."),
        )
        .for_tool(tool),
    )
}

fn human(duration: Duration) -> String {
    let ms = duration.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{ms} ms")
    }
}
