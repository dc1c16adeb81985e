//! Runs in worker processes: Monty's own pool (`monty-pool`) keeps `monty` workers and
//! replaces one that crashes. The run is the same conversation as in process (a tool call,
//! a name, an OS call, futures to resolve), over the worker's pipes; a worker that dies is an
//! error result, and the host goes on.

use super::answer;
use super::run::{refused, resource_limits, Answer, Run, MAX_PRINTED};
use super::CodeLimits;
use crate::context::Calls;
use crate::error::ErrorCode;
use crate::output::ToolOutput;
use monty_pool::{on_print_sync, Pool, PoolConfig, PoolError, ReplConfig, ResumeValue, TurnEvent};
use monty_types::ExtFunctionResult;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// A pool of `monty` worker processes that code mode runs snippets in
/// ([`CodeSettings::workers`](super::CodeSettings::workers)): a snippet that crashes its
/// worker (a native stack overflow, an allocator abort) kills that process only, and the
/// pool starts another. Cheap to clone: clones share the pool.
///
/// The worker is Monty's `monty` binary, version 0.0.23: `pip install
/// pydantic-monty-runtime==0.0.23` ships it, or `cargo install monty-runtime --version
/// 0.0.23` builds it.
#[derive(Clone)]
pub struct WorkerPool {
    pool: Arc<Pool>,
    /// Workers lost mid-run: crashed, or broke the protocol.
    lost: Arc<AtomicU64>,
}

impl std::fmt::Debug for WorkerPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorkerPool")
            .field("idle_workers", &self.pool.idle_workers())
            .field("lost_workers", &self.lost_workers())
            .finish_non_exhaustive()
    }
}

/// Why a [`WorkerPool`] could not start.
#[derive(Debug, thiserror::Error)]
#[error("the code workers could not start ({binary}): {source}")]
pub struct WorkerPoolError {
    binary: String,
    #[source]
    source: PoolError,
}

impl WorkerPool {
    /// Starts `workers` processes of the `monty` binary at `binary` (at least one), kept warm
    /// and reused; a run waits for a free one.
    ///
    /// # Errors
    ///
    /// [`WorkerPoolError`] when the binary can't be started.
    pub async fn start(
        binary: impl Into<PathBuf>,
        workers: usize,
    ) -> Result<WorkerPool, WorkerPoolError> {
        let binary = binary.into();
        // One warm worker from the start, no checkout timeout (a run that waits for a worker
        // is bounded by its wall-time limit): the pool's defaults.
        let mut config = PoolConfig::subprocess(&binary);
        config.max_processes = workers.max(1);
        // A recycled worker bounds what a slow leak in one could grow to.
        config.max_checkouts_per_worker = Some(1_000);
        let pool = Pool::new(config).await.map_err(|source| WorkerPoolError {
            binary: binary.display().to_string(),
            source,
        })?;
        Ok(WorkerPool {
            pool: Arc::new(pool),
            lost: Arc::new(AtomicU64::new(0)),
        })
    }

    /// Asks the idle workers to exit and waits for them (half a second each at most, then
    /// kills them); a run still going keeps its worker until it ends. Dropping the last clone
    /// of the pool instead kills its idle workers at once.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Workers ready for a run now.
    pub fn idle_workers(&self) -> usize {
        self.pool.idle_workers()
    }

    /// Workers lost mid-run since the pool started: each died (a native crash, a kill) or
    /// broke the worker protocol, and its run got an error result. A figure to watch: Monty's
    /// sandbox should never let code end its worker.
    pub fn lost_workers(&self) -> u64 {
        self.lost.load(Ordering::Relaxed)
    }

    /// The process ids of the idle workers (for a test that kills one).
    pub fn idle_worker_pids(&self) -> Vec<u32> {
        self.pool.idle_worker_pids()
    }
}

/// Runs `code` in a worker of `pool`, against `registry`'s tools, under `limits`. Each turn
/// of the worker is bounded by the pool itself: past the run's time budget (plus a grace) it
/// kills the worker, which is also what catches a worker that hangs where the sandbox's own
/// limits can't see.
pub(super) async fn run(
    pool: &WorkerPool,
    registry: &dyn Calls,
    limits: &CodeLimits,
    code: &str,
    call_id: Option<&str>,
) -> ToolOutput {
    let repl = ReplConfig {
        limits: Some(resource_limits(limits)),
        ..ReplConfig::default()
    };
    let mut checkout = match tokio::time::timeout(limits.wall, pool.pool.checkout(&repl)).await {
        Ok(Ok(checkout)) => checkout,
        Ok(Err(error)) => return worker_failed(pool, &error, ""),
        Err(_) => return worker_failed(pool, &PoolError::Exhausted, ""),
    };
    let printed = Arc::new(Mutex::new(String::new()));
    let sink = Arc::clone(&printed);
    let mut on_print = on_print_sync(move |_, text| {
        let mut printed = sink.lock().unwrap_or_else(|e| e.into_inner());
        if printed.len() + text.len() <= MAX_PRINTED {
            printed.push_str(text);
        }
    });
    let printed_now = || printed.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let mut host = Run::new(registry, limits, call_id);
    let mut event = checkout
        .feed(code, Vec::new(), Vec::new(), true, &mut on_print)
        .await;
    loop {
        let next = match event {
            Err(PoolError::Runtime(error)) => {
                // The session is still usable: reset it and give the worker back.
                let _ = checkout.finish().await;
                return answer::failed(&printed_now(), &error);
            }
            // The worker is gone (the pool discarded it) or broke the protocol.
            Err(error) => return worker_failed(pool, &error, &printed_now()),
            Ok(TurnEvent::Complete(value)) => {
                let _ = checkout.finish().await;
                return answer::finished(&printed_now(), &value);
            }
            Ok(TurnEvent::NameLookup { name, .. }) => {
                let found = host.lookup(&name);
                checkout.resume_name_lookup(found, &mut on_print).await
            }
            Ok(TurnEvent::OsCall { function_name, .. }) => {
                let refused = ResumeValue::Error(refused(&function_name));
                checkout.resume(refused, &mut on_print).await
            }
            Ok(TurnEvent::FunctionCall {
                function_name,
                args,
                kwargs,
                call_id,
                ..
            }) => {
                let value = match host
                    .function_call(&function_name, &args, &kwargs, call_id)
                    .await
                {
                    Answer::Now(result) => resume_value(result),
                    Answer::Started => ResumeValue::Future,
                    // Past the per-run cap the run ends here, where the code can't catch it:
                    // the session is reset, and the worker goes back to the pool.
                    Answer::Stop(stop) => {
                        let _ = checkout.finish().await;
                        return answer::failed(&printed_now(), &stop);
                    }
                };
                checkout.resume(value, &mut on_print).await
            }
            Ok(TurnEvent::ResolveFutures { .. }) => match host.finished_calls().await {
                Ok(done) => {
                    let done = done
                        .into_iter()
                        .map(|(id, result)| (id, resume_value(result)))
                        .collect();
                    checkout.resume_futures(done, &mut on_print).await
                }
                Err(stuck) => {
                    let _ = checkout.finish().await;
                    return answer::failed(&printed_now(), &stuck);
                }
            },
        };
        event = next;
    }
}

fn resume_value(result: ExtFunctionResult) -> ResumeValue {
    match result {
        ExtFunctionResult::Return(value) => ResumeValue::Return(value),
        ExtFunctionResult::Error(error) => ResumeValue::Error(error),
        ExtFunctionResult::Future(_) => ResumeValue::Future,
        ExtFunctionResult::NotFound(_) => ResumeValue::NotFound,
    }
}

/// The worker is gone or broke the protocol: an error result; the pool replaces the worker.
fn worker_failed(pool: &WorkerPool, error: &PoolError, printed: &str) -> ToolOutput {
    if matches!(error, PoolError::Crashed { .. } | PoolError::Protocol(_)) {
        pool.lost.fetch_add(1, Ordering::Relaxed);
    }
    let (code, what) = match error {
        PoolError::Crashed { .. } => (
            ErrorCode::RuntimeError,
            "the code crashed its worker process (the host goes on; the pool starts another)",
        ),
        PoolError::Timeout { .. } => (ErrorCode::Timeout, "the code ran past its time limit"),
        PoolError::Exhausted => (ErrorCode::LimitExceeded, "every code worker is busy"),
        _ => (ErrorCode::RuntimeError, "the code worker failed"),
    };
    let mut message = String::new();
    if !printed.is_empty() {
        message.push_str("Printed before the error:\n");
        message.push_str(printed);
        message.push('\n');
    }
    message.push_str(&format!("{what}: {error}"));
    ToolOutput::error(code, message)
}
