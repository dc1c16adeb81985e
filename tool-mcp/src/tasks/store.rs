//! [`TaskStore`]: where a server keeps its tasks, in its own memory (the default) or in
//! Redis (feature `redis`), shared by every process of a fleet; and [`Tasks`], the one
//! interface the server reaches either through, with the server's limits.

use super::limits::{AnswerError, AskError, Limits, TaskStoreError};
use super::memory::MemoryTasks;
use super::owner::Owner;
use futures_util::future::BoxFuture;
use rmcp::model::{DetailedTask, InputRequest, InputResponses, Task, TaskPayload};
use serde_json::Value;
use std::sync::Arc;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

/// Where an [`McpServer`](crate::McpServer) keeps the calls it runs as tasks
/// ([`McpServer::task_store`](crate::McpServer::task_store)).
///
/// - [`TaskStore::memory`] (the default): in the server's own memory. Nothing to install;
///   a task is known only to the process that runs it, and goes with it.
/// - `TaskStore::redis` (feature `redis`): in Redis, shared by every process started with
///   the same store. Any process answers `tasks/get`, `tasks/update` and `tasks/cancel` for
///   any task; the process running a task hears cancellations and answers from the others;
///   a task whose process died is reported `failed`, saying so, once that process's lease
///   runs out; a stored result outlives every process.
///
/// ```no_run
/// # async fn example(registry: tool_runtime::Registry) -> Result<(), Box<dyn std::error::Error>> {
/// use tool_runtime::mcp::{McpServer, TaskStore};
///
/// let store = TaskStore::redis("redis://127.0.0.1:6379/0").await?;
/// let server = McpServer::new(registry).task_store(store);
/// # Ok(()) }
/// ```
#[derive(Clone, Debug, Default)]
pub struct TaskStore {
    kind: Kind,
}

#[derive(Clone, Debug, Default)]
enum Kind {
    #[default]
    Memory,
    #[cfg(feature = "redis")]
    Redis(Arc<super::redis::Redis>),
}

impl TaskStore {
    /// Tasks in the server's own memory (the default).
    pub fn memory() -> TaskStore {
        TaskStore { kind: Kind::Memory }
    }

    /// Tasks in Redis at `config` (a URL such as `redis://127.0.0.1:6379/0`, or a
    /// [`RedisConfig`](crate::RedisConfig) for the lease, the key prefix and the timeout),
    /// shared by every process opened on the same database and prefix. Connects now, takes
    /// this process's lease and subscribes to its channel; needs a Tokio runtime, and
    /// Redis 7 or later (RESP3).
    ///
    /// # Errors
    ///
    /// [`TaskStoreError::Unavailable`] when Redis can't be reached within the config's
    /// timeout, naming the URL (its password hidden) and why.
    #[cfg(feature = "redis")]
    pub async fn redis(config: impl Into<crate::RedisConfig>) -> Result<TaskStore, TaskStoreError> {
        let redis = super::redis::Redis::connect(config.into()).await?;
        Ok(TaskStore {
            kind: Kind::Redis(redis),
        })
    }

    /// Where the tasks are, for logs: `memory`, or the Redis URL with its password hidden.
    pub fn location(&self) -> String {
        match &self.kind {
            Kind::Memory => "memory".to_owned(),
            #[cfg(feature = "redis")]
            Kind::Redis(redis) => redis.config().shown_url(),
        }
    }

    /// The store with a server's limits.
    pub(crate) fn bind(&self, limits: Limits) -> Tasks {
        let backend = match &self.kind {
            Kind::Memory => Backend::Memory(MemoryTasks::new(limits)),
            #[cfg(feature = "redis")]
            Kind::Redis(redis) => {
                Backend::Redis(super::redis::RedisTasks::new(Arc::clone(redis), limits))
            }
        };
        Tasks {
            store: self.clone(),
            backend,
        }
    }
}

/// A server's tasks: its store, with its limits.
#[derive(Debug)]
pub(crate) struct Tasks {
    store: TaskStore,
    backend: Backend,
}

#[derive(Debug)]
enum Backend {
    Memory(MemoryTasks),
    #[cfg(feature = "redis")]
    Redis(super::redis::RedisTasks),
}

/// A task being created: either created already, or its id known and its record on the way.
pub(crate) enum Begun {
    /// Created (or refused) already.
    Created(Result<Task, TaskStoreError>),
    /// Task `id`, whose record the future writes.
    #[cfg_attr(not(feature = "redis"), allow(dead_code))]
    Pending {
        id: String,
        record: BoxFuture<'static, Result<Task, TaskStoreError>>,
    },
}

impl Tasks {
    /// The store these tasks live in.
    pub(crate) fn store(&self) -> &TaskStore {
        &self.store
    }

    pub(crate) fn limits(&self) -> Limits {
        match &self.backend {
            Backend::Memory(tasks) => tasks.limits(),
            #[cfg(feature = "redis")]
            Backend::Redis(tasks) => tasks.limits(),
        }
    }

    /// See [`MemoryTasks::track_sessions`].
    pub(crate) fn track_sessions(&self) {
        match &self.backend {
            Backend::Memory(tasks) => tasks.track_sessions(),
            #[cfg(feature = "redis")]
            Backend::Redis(tasks) => tasks.redis.runner.track_sessions(),
        }
    }

    /// See [`MemoryTasks::session_started`].
    pub(crate) fn session_started(&self, id: &str) {
        match &self.backend {
            Backend::Memory(tasks) => tasks.session_started(id),
            #[cfg(feature = "redis")]
            Backend::Redis(tasks) => tasks.redis.runner.session_started(id),
        }
    }

    /// See [`MemoryTasks::session_ended`].
    pub(crate) fn session_ended(&self, id: &str) {
        match &self.backend {
            Backend::Memory(tasks) => tasks.session_ended(id),
            #[cfg(feature = "redis")]
            Backend::Redis(tasks) => tasks.session_ended(id),
        }
    }

    /// Records a new working task for `owner`, whose call holds `arguments` bytes of
    /// arguments: its seed state for `CreateTaskResult`, and the token that cancels its
    /// call. Any process of the store finds it before this returns.
    pub(crate) async fn create(
        &self,
        owner: Owner,
        arguments: usize,
    ) -> Result<(Task, CancellationToken), TaskStoreError> {
        let cancel = CancellationToken::new();
        let task = match &self.backend {
            Backend::Memory(tasks) => tasks.create_with(owner, arguments, cancel.clone()),
            #[cfg(feature = "redis")]
            Backend::Redis(tasks) => tasks.create(owner, arguments, cancel.clone()).await,
        }?;
        Ok((task, cancel))
    }

    /// Starts creating a task for a call that is running already (`defer_task`, whose
    /// `continue_as_task` can't wait): in memory it is created now; in Redis its id is
    /// known now and its record comes with the future.
    pub(crate) fn begin(
        self: &Arc<Self>,
        owner: Owner,
        arguments: usize,
        cancel: CancellationToken,
    ) -> Begun {
        match &self.backend {
            Backend::Memory(tasks) => Begun::Created(tasks.create_with(owner, arguments, cancel)),
            #[cfg(feature = "redis")]
            Backend::Redis(tasks) => match tasks.begin(&owner, arguments, cancel) {
                Err(refused) => Begun::Created(Err(refused)),
                Ok(task) => {
                    let (this, id) = (Arc::clone(self), task.task_id.clone());
                    let record = Box::pin(async move {
                        let Backend::Redis(tasks) = &this.backend else {
                            unreachable!("matched as Redis above")
                        };
                        tasks.record(&owner, task).await
                    });
                    Begun::Pending { id, record }
                }
            },
        }
    }

    /// Keeps a question of task `id`'s call for its client; the answer comes through the
    /// receiver. See [`MemoryTasks::ask`].
    pub(crate) async fn ask(
        &self,
        id: &str,
        key: Option<&str>,
        method: &str,
        request: InputRequest,
    ) -> Result<oneshot::Receiver<Value>, AskError> {
        match &self.backend {
            Backend::Memory(tasks) => tasks.ask(id, key, method, request),
            #[cfg(feature = "redis")]
            Backend::Redis(tasks) => tasks.ask(id, key, method, request).await,
        }
    }

    /// The client's answers (`tasks/update`). See [`MemoryTasks::answer`].
    pub(crate) async fn answer(
        &self,
        id: &str,
        owner: &Owner,
        responses: InputResponses,
    ) -> Result<(), AnswerError> {
        match &self.backend {
            Backend::Memory(tasks) => tasks.answer(id, owner, responses),
            #[cfg(feature = "redis")]
            Backend::Redis(tasks) => tasks.answer(id, owner, responses).await,
        }
    }

    /// Settles a task with what its call gave. See [`MemoryTasks::finish`].
    pub(crate) async fn finish(&self, id: &str, outcome: TaskPayload) {
        match &self.backend {
            Backend::Memory(tasks) => tasks.finish(id, outcome),
            #[cfg(feature = "redis")]
            Backend::Redis(tasks) => tasks.finish(id, outcome).await,
        }
    }

    /// The task as `tasks/get` shows it, if `owner` may see it and it hasn't expired.
    pub(crate) async fn get(
        &self,
        id: &str,
        owner: &Owner,
    ) -> Result<Option<DetailedTask>, TaskStoreError> {
        match &self.backend {
            Backend::Memory(tasks) => Ok(tasks.get(id, owner)),
            #[cfg(feature = "redis")]
            Backend::Redis(tasks) => tasks.get(id, owner).await,
        }
    }

    /// Cancels a running task. `None` if `owner` can't see it.
    pub(crate) async fn cancel(
        &self,
        id: &str,
        owner: &Owner,
    ) -> Result<Option<()>, TaskStoreError> {
        match &self.backend {
            Backend::Memory(tasks) => Ok(tasks.cancel(id, owner)),
            #[cfg(feature = "redis")]
            Backend::Redis(tasks) => tasks.cancel(id, owner).await,
        }
    }
}
