//! [`RedisTasks`]: tasks kept in Redis, so that every process of a fleet answers for every
//! task, and a task outlives the process that ran it.
//!
//! What lives where:
//! - In Redis, each task's record (owner, status, timestamps, TTL, poll interval, the
//!   process running it, its outcome once settled) expires at the task's TTL, with the
//!   questions it waits on and the answers not yet heard beside it. Counts across every
//!   process (`max_tasks`, `max_tasks_per_client`) are sorted sets the create script reads
//!   and changes atomically. Every change is one Lua script (`*.lua` beside this file).
//! - In the process running a task, what can't be shared: the call's cancellation token and
//!   the channels its waiting questions listen on ([`runner`]).
//!
//! A process hears about its tasks (a cancel, an answer, from any process) through a Redis
//! channel of its own, and polls its running tasks each third of a lease in case a message
//! was lost (pub/sub delivers at most once, and nothing while it reconnects). It holds a
//! lease (a key that expires) and renews it on the same tick; a task whose process's lease
//! has run out is settled `failed` by whichever process reads it first.
//!
//! Byte budgets are checked per item (arguments, a question, a result against
//! `max_task_bytes_per_client`); what every task keeps together is Redis's memory, bounded
//! by its own `maxmemory`.

mod config;
mod runner;
mod scripts;

pub use config::RedisConfig;

use super::ids::{millis, new_id};
use super::json::{json_len, object, payload_len};
use super::limits::{said, AnswerError, AskError, Limits, TaskStoreError, Unavailable};
use super::owner::Owner;
use redis::aio::ConnectionManager;
use rmcp::model::{
    DetailedTask, ErrorData, InputRequest, InputResponses, Task, TaskPayload, TaskStatus,
};
use rmcp::task_manager::current_timestamp;
use runner::{Local, Runner};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

/// A connection to the shared store, and this process's part in it: shared by every server
/// bound to it (a server's task limits make a [`RedisTasks`] of it).
pub(crate) struct Redis {
    con: ConnectionManager,
    config: RedisConfig,
    scripts: scripts::Scripts,
    /// The tasks this process runs, its lease, and the sessions it serves.
    pub(super) runner: Runner,
}

impl std::fmt::Debug for Redis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Redis")
            .field("config", &self.config)
            .field("runner", &self.runner.id)
            .finish_non_exhaustive()
    }
}

/// The outcome of a task whose process stopped, as any process settles it.
const STOPPED: &str = "the process running this task stopped (its lease on the task \
                       ran out): the task can't finish; run it again";

impl Redis {
    /// Connects, takes this process's lease, and starts hearing about its tasks. Fails when
    /// Redis can't be reached within the config's timeout, saying where and why.
    pub(crate) async fn connect(config: RedisConfig) -> Result<Arc<Redis>, TaskStoreError> {
        let doing = format!("connecting to Redis at {}", config.shown_url());
        let unavailable =
            |e: redis::RedisError| TaskStoreError::Unavailable(Unavailable::new(doing.clone(), e));
        let info = redis::IntoConnectionInfo::into_connection_info(config.url.as_str())
            .map_err(unavailable)?;
        // RESP3: the channel's messages arrive as pushes on the same multiplexed
        // connection, and the manager subscribes again after it reconnects.
        let settings = info
            .redis_settings()
            .clone()
            .set_protocol(redis::ProtocolVersion::RESP3);
        let client = redis::Client::open(info.set_redis_settings(settings)).map_err(unavailable)?;
        let (pushes, heard) = tokio::sync::mpsc::channel(1024);
        let push = move |info: redis::PushInfo| {
            // A full queue drops the nudge: the next tick polls every running task anyway.
            let _ = pushes.try_send(info);
            Ok::<(), std::convert::Infallible>(())
        };
        let manager = redis::aio::ConnectionManagerConfig::new()
            .set_connection_timeout(Some(config.timeout))
            .set_response_timeout(Some(config.timeout))
            .set_number_of_retries(2)
            .set_min_delay(Duration::from_millis(50))
            .set_max_delay(Duration::from_secs(1))
            .set_push_sender(push)
            .set_automatic_resubscription();
        let connecting = ConnectionManager::new_with_config(client, manager);
        let mut con = tokio::time::timeout(config.timeout, connecting)
            .await
            .map_err(|_| {
                TaskStoreError::Unavailable(Unavailable::new(
                    doing.clone(),
                    timed_out(config.timeout),
                ))
            })?
            .map_err(unavailable)?;
        let runner = Runner::new(new_id());
        con.subscribe(runner.channel(&config.prefix))
            .await
            .map_err(unavailable)?;
        let redis = Arc::new(Redis {
            con,
            config,
            scripts: scripts::Scripts::new(),
            runner,
        });
        redis.renew_lease().await.map_err(|e| {
            TaskStoreError::Unavailable(Unavailable::new(doing.clone(), e.source_error()))
        })?;
        runner::start(&redis, heard);
        Ok(redis)
    }

    /// What the store was opened with.
    pub(crate) fn config(&self) -> &RedisConfig {
        &self.config
    }

    /// Runs `script` with the prefix and `args`, within the timeout.
    async fn run<T: redis::FromRedisValue>(
        &self,
        script: &redis::Script,
        args: &[&str],
        doing: impl FnOnce() -> String,
    ) -> Result<T, TaskStoreError> {
        let mut invocation = script.prepare_invoke();
        invocation.arg(&self.config.prefix);
        for arg in args {
            invocation.arg(*arg);
        }
        let mut con = self.con.clone();
        let ran = tokio::time::timeout(self.config.timeout, invocation.invoke_async(&mut con));
        let failed =
            |e: Failure| TaskStoreError::Unavailable(Unavailable::new(doing(), e.source_error()));
        match ran.await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(error)) => Err(failed(Failure::Redis(error))),
            Err(_) => Err(failed(Failure::Timeout(self.config.timeout))),
        }
    }

    /// Sets this process's lease for another lease time.
    pub(super) async fn renew_lease(&self) -> Result<(), Failure> {
        let key = format!("{}:lease:{}", self.config.prefix, self.runner.id);
        let mut con = self.con.clone();
        let mut command = redis::cmd("SET");
        command
            .arg(key)
            .arg(1)
            .arg("PX")
            .arg(millis(self.config.lease));
        let set = command.query_async::<()>(&mut con);
        match tokio::time::timeout(self.config.timeout, set).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(error)) => Err(Failure::Redis(error)),
            Err(_) => Err(Failure::Timeout(self.config.timeout)),
        }
    }
}

/// Why one Redis operation failed.
#[derive(Debug)]
pub(super) enum Failure {
    Redis(redis::RedisError),
    Timeout(Duration),
}

impl Failure {
    fn source_error(self) -> Box<dyn std::error::Error + Send + Sync> {
        match self {
            Failure::Redis(error) => Box::new(error),
            Failure::Timeout(after) => Box::new(timed_out(after)),
        }
    }
}

fn timed_out(after: Duration) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::TimedOut,
        format!("Redis did not answer within {after:?}"),
    )
}

/// The shared store with one server's limits.
#[derive(Debug)]
pub(crate) struct RedisTasks {
    pub(crate) redis: Arc<Redis>,
    limits: Limits,
}

/// The record's owner field: the session, or `-` for a sessionless client.
fn owner_field(owner: &Owner) -> String {
    match &owner.session {
        Some(session) => format!("s:{session}"),
        None => "-".to_owned(),
    }
}

/// The share a client's tasks count against, as a key part.
fn share_field(owner: &Owner) -> String {
    match (&owner.session, owner.address) {
        (Some(session), _) => format!("s:{session}"),
        (None, Some(address)) => format!("a:{address}"),
        (None, None) => "a:".to_owned(),
    }
}

fn status_field(status: TaskStatus) -> String {
    match serde_json::to_value(status) {
        Ok(Value::String(status)) => status,
        // A unit enum serializes to its name; this is only what the type can't promise.
        _ => "working".to_owned(),
    }
}

impl RedisTasks {
    pub(crate) fn new(redis: Arc<Redis>, limits: Limits) -> RedisTasks {
        RedisTasks { redis, limits }
    }

    pub(crate) fn limits(&self) -> Limits {
        self.limits
    }

    /// Records a new working task for `owner` whose call `cancel` stops, counted against
    /// `max_tasks` across every process. The task is readable by any process before this
    /// returns.
    pub(crate) async fn create(
        &self,
        owner: Owner,
        arguments: usize,
        cancel: CancellationToken,
    ) -> Result<Task, TaskStoreError> {
        let task = self.begin(&owner, arguments, cancel)?;
        self.record(&owner, task).await
    }

    /// The first half of [`create`](Self::create), which takes no Redis round trip: the
    /// task's id and seed state, and its place among this process's running tasks (not yet
    /// polled: its record doesn't exist yet).
    pub(crate) fn begin(
        &self,
        owner: &Owner,
        arguments: usize,
        cancel: CancellationToken,
    ) -> Result<Task, TaskStoreError> {
        if !self.redis.runner.is_live(owner) {
            return Err(TaskStoreError::SessionEnded);
        }
        self.limits.fits(arguments)?;
        let now = current_timestamp();
        let task = Task::new(new_id(), TaskStatus::Working, now.clone(), now)
            .with_ttl_ms(millis(self.limits.ttl))
            .with_poll_interval_ms(millis(self.limits.poll_interval).max(1));
        let id = task.task_id.clone();
        let expires = Instant::now() + self.limits.ttl;
        self.redis
            .runner
            .insert(id.clone(), Local::new(owner.clone(), cancel, expires));
        Ok(task)
    }

    /// The second half of [`create`](Self::create): the record, once the counts across
    /// every process have room. A task refused (or Redis failing) leaves this process's
    /// tasks too.
    pub(crate) async fn record(&self, owner: &Owner, task: Task) -> Result<Task, TaskStoreError> {
        let limits = &self.limits;
        let (ttl, max) = (millis(limits.ttl).to_string(), limits.max.to_string());
        let per_client = limits.max_per_client.to_string();
        let poll = millis(limits.poll_interval).max(1).to_string();
        let (share, owner_field) = (share_field(owner), owner_field(owner));
        let runner = self.redis.runner.id.clone();
        let lease = millis(self.redis.config.lease).to_string();
        let args = [
            task.task_id.as_str(),
            &ttl,
            &max,
            &per_client,
            &share,
            &owner_field,
            &runner,
            &task.created_at,
            &poll,
            &lease,
        ];
        let id = task.task_id.clone();
        let created: String = self
            .redis
            .run(&self.redis.scripts.create, &args, || {
                format!("creating task {id:?}")
            })
            .await
            .inspect_err(|_| {
                self.redis.runner.forget(&id);
            })?;
        if created != "ok" {
            self.redis.runner.forget(&id);
        }
        match created.as_str() {
            "ok" => {
                self.redis.runner.recorded(&task.task_id);
                Ok(task)
            }
            "client_full" => Err(TaskStoreError::ClientFull {
                max: limits.max_per_client,
            }),
            _ => Err(TaskStoreError::Full { max: limits.max }),
        }
    }

    /// Keeps a question of task `id`'s call in Redis for its client: any process shows it in
    /// `tasks/get` and takes its answer; the answer comes back through the receiver.
    pub(crate) async fn ask(
        &self,
        id: &str,
        key: Option<&str>,
        method: &str,
        request: InputRequest,
    ) -> Result<oneshot::Receiver<Value>, AskError> {
        let bytes = json_len(&request);
        self.limits.fits(bytes).map_err(AskError::TooLarge)?;
        let question = serde_json::json!({"method": method, "request": request}).to_string();
        let (key, answered) = self
            .redis
            .runner
            .wait(id, key, method)
            .ok_or(AskError::Ended)?;
        let now = current_timestamp();
        let kept: Result<i64, _> = self
            .redis
            .run(
                &self.redis.scripts.ask,
                &[id, &key, &question, &now],
                || format!("keeping a question of task {id:?}"),
            )
            .await;
        match kept {
            Ok(1) => Ok(answered),
            Ok(_) => {
                self.redis.runner.unwait(id, &key);
                Err(AskError::Ended)
            }
            Err(error) => {
                self.redis.runner.unwait(id, &key);
                Err(AskError::Unavailable(error))
            }
        }
    }

    /// The client's answers (`tasks/update`), from any process: checked against the
    /// questions they answer, then handed to the process running the task.
    pub(crate) async fn answer(
        &self,
        id: &str,
        owner: &Owner,
        responses: InputResponses,
    ) -> Result<(), AnswerError> {
        let (_, questions) = self
            .read(id, owner)
            .await
            .map_err(AnswerError::Unavailable)?
            .ok_or(AnswerError::Unknown)?;
        let mut args = vec![id.to_owned(), owner_field(owner), current_timestamp()];
        for (key, answer) in &responses {
            let Some(question) = questions.get(key) else {
                continue;
            };
            let method = question["method"].as_str().unwrap_or_default();
            crate::rounds::input_required::fits(method, answer)
                .map_err(|why| AnswerError::Invalid(format!("inputResponses.{key}: {why}")))?;
            args.push(key.clone());
            args.push(answer.to_string());
        }
        if args.len() == 3 {
            return Ok(());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let found: i64 = self
            .redis
            .run(&self.redis.scripts.answer, &args, || {
                format!("answering task {id:?}")
            })
            .await
            .map_err(AnswerError::Unavailable)?;
        if found == 0 {
            return Err(AnswerError::Unknown);
        }
        // The process running it hears through its channel; when that is this one, at once.
        if self.redis.runner.runs(id) {
            runner::poll(&self.redis, id).await;
        }
        Ok(())
    }

    /// Settles a task with what its call gave. While Redis can't be reached, tries again
    /// until the task's TTL has passed (then nobody could read the result anyway); a task
    /// settled already (cancelled, or failed by another process) keeps what it has.
    pub(crate) async fn finish(&self, id: &str, outcome: TaskPayload) {
        let Some(local) = self.redis.runner.forget(id) else {
            return;
        };
        let bytes = payload_len(&outcome);
        let outcome = match self.limits.fits(bytes) {
            Ok(()) => outcome,
            Err(error) => TaskPayload::Failed {
                error: object(ErrorData::internal_error(
                    format!("the task's result ({bytes} bytes) is not kept: {error}"),
                    None,
                )),
            },
        };
        let (status, stored) = stored(&outcome);
        let mut wait = Duration::from_millis(100);
        loop {
            let now = current_timestamp();
            let settled: Result<i64, _> = self
                .redis
                .run(
                    &self.redis.scripts.finish,
                    &[id, &status, &stored, &now],
                    || format!("storing the result of task {id:?}"),
                )
                .await;
            let Err(error) = settled else {
                return;
            };
            if Instant::now() + wait >= local.expires {
                tracing::error!(
                    task = id,
                    error = said(&error),
                    "the task's result was not stored before its TTL ran out"
                );
                return;
            }
            tracing::warn!(
                task = id,
                error = said(&error),
                "storing the task's result: retrying"
            );
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(Duration::from_secs(2));
        }
    }

    /// The task as `tasks/get` shows it, from any process; `None` if `owner` can't see it
    /// or it has expired.
    pub(crate) async fn get(
        &self,
        id: &str,
        owner: &Owner,
    ) -> Result<Option<DetailedTask>, TaskStoreError> {
        if self.redis.runner.runs(id) {
            runner::withdraw_unwaited(&self.redis, id).await;
        }
        let Some((record, questions)) = self.read(id, owner).await? else {
            return Ok(None);
        };
        Ok(Some(detailed(id, &record, questions)))
    }

    /// Cancels a running task from any process; its process stops the call when it hears.
    /// `None` if `owner` can't see the task.
    pub(crate) async fn cancel(
        &self,
        id: &str,
        owner: &Owner,
    ) -> Result<Option<()>, TaskStoreError> {
        let outcome = "{}".to_owned();
        let now = current_timestamp();
        let found: i64 = self
            .redis
            .run(
                &self.redis.scripts.cancel,
                &[id, &owner_field(owner), &outcome, &now],
                || format!("cancelling task {id:?}"),
            )
            .await?;
        if found == 0 {
            return Ok(None);
        }
        if let Some(local) = self.redis.runner.forget(id) {
            local.cancel.cancel();
        }
        Ok(Some(()))
    }

    /// The record's fields and the questions it waits on (JSON, by key), settling it
    /// `failed` first if its process's lease ran out.
    async fn read(
        &self,
        id: &str,
        owner: &Owner,
    ) -> Result<Option<(HashMap<String, String>, HashMap<String, Value>)>, TaskStoreError> {
        let stopped = serde_json::to_string(&ErrorData::internal_error(STOPPED, None))
            .unwrap_or_else(|_| "{}".to_owned());
        let now = current_timestamp();
        let found: Option<(HashMap<String, String>, HashMap<String, String>)> = self
            .redis
            .run(
                &self.redis.scripts.read,
                &[id, &owner_field(owner), &stopped, &now],
                || format!("reading task {id:?}"),
            )
            .await?;
        Ok(found.map(|(record, questions)| {
            let questions = questions
                .into_iter()
                .filter_map(|(key, json)| Some((key, serde_json::from_str(&json).ok()?)))
                .collect();
            (record, questions)
        }))
    }

    /// Session `id` ended: the tasks it started here are cancelled and taken out of Redis.
    pub(crate) fn session_ended(&self, id: &str) {
        let gone = self.redis.runner.end_session(id);
        if gone.is_empty() {
            return;
        }
        let redis = Arc::clone(&self.redis);
        tokio::spawn(async move {
            let args: Vec<&str> = gone.iter().map(String::as_str).collect();
            let dropped: Result<i64, _> = redis
                .run(&redis.scripts.drop, &args, || {
                    "dropping an ended session's tasks".to_owned()
                })
                .await;
            if let Err(error) = dropped {
                // Their records expire at their TTL; until then nobody can reach them.
                tracing::warn!(error = said(&error), "dropping an ended session's tasks");
            }
        });
    }
}

/// A settled outcome as the record keeps it: its status, and the result or error object.
fn stored(outcome: &TaskPayload) -> (String, String) {
    let object = match outcome {
        TaskPayload::Completed { result } => Value::Object(result.clone()),
        TaskPayload::Failed { error } => Value::Object(error.clone()),
        _ => Value::Object(serde_json::Map::new()),
    };
    (status_field(outcome.status()), object.to_string())
}

/// The task `tasks/get` shows, from the record's fields and its questions.
fn detailed(
    id: &str,
    record: &HashMap<String, String>,
    questions: HashMap<String, Value>,
) -> DetailedTask {
    let field = |name: &str| record.get(name).cloned().unwrap_or_default();
    let number = |name: &str| field(name).parse::<u64>().ok();
    let status: TaskStatus =
        serde_json::from_value(Value::String(field("status"))).unwrap_or(TaskStatus::Working);
    let mut task = Task::new(id, status, field("created"), field("updated"));
    task.ttl_ms = number("ttl");
    task.poll_interval_ms = number("poll");
    let outcome = || match serde_json::from_str(&field("outcome")) {
        Ok(Value::Object(object)) => object,
        _ => serde_json::Map::new(),
    };
    let payload = match status {
        TaskStatus::Completed => TaskPayload::Completed { result: outcome() },
        TaskStatus::Failed => TaskPayload::Failed { error: outcome() },
        TaskStatus::Cancelled => TaskPayload::Cancelled,
        TaskStatus::InputRequired if !questions.is_empty() => TaskPayload::InputRequired {
            input_requests: questions
                .into_iter()
                .filter_map(|(key, question)| {
                    let request = serde_json::from_value(question["request"].clone()).ok()?;
                    Some((key, request))
                })
                .collect(),
        },
        _ => {
            task.status = TaskStatus::Working;
            TaskPayload::Working
        }
    };
    DetailedTask::new(task, payload)
}

#[cfg(test)]
#[path = "../redis_tests.rs"]
mod tests;
