//! The [`Client`](crate::client::Client) of a call running as a task: its questions wait in
//! the task (`input_required`) for the client's `tasks/update`, since the request that
//! started the call has been answered. And the client of a `defer_task` call, which asks
//! as a plain call does until the tool continues as a task.

use super::limits::TaskStoreError;
use super::owner::Owner;
use super::store::{Begun, Tasks};
use crate::client::{BoxError, Client, ClientCapabilities, ClientFuture, ClientRequests};
use crate::lock::lock;
use crate::rounds::input_required::input_request;
use rmcp::model::Task;
use serde_json::Value;
use std::sync::{Arc, Mutex};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

/// Asks the client of task `id` through the task store.
pub(crate) struct TaskClient {
    store: Arc<Tasks>,
    id: String,
    /// What the client declared on the request that started the call.
    capabilities: ClientCapabilities,
}

impl TaskClient {
    pub(crate) fn new(
        store: Arc<Tasks>,
        id: String,
        capabilities: ClientCapabilities,
    ) -> TaskClient {
        TaskClient {
            store,
            id,
            capabilities,
        }
    }
}

impl ClientRequests for TaskClient {
    fn capabilities(&self) -> ClientCapabilities {
        self.capabilities
    }

    fn request(&self, key: Option<&str>, method: &str, params: Value) -> ClientFuture {
        let request = match input_request(method, params) {
            Ok(request) => request,
            Err(error) => {
                let error: BoxError = format!("{method} could not be asked: {error}").into();
                return Box::pin(async move { Err(error) });
            }
        };
        let (store, id) = (Arc::clone(&self.store), self.id.clone());
        let (key, method) = (key.map(str::to_owned), method.to_owned());
        Box::pin(async move {
            let answer = store.ask(&id, key.as_deref(), &method, request).await?;
            answer
                .await
                .map_err(|_| BoxError::from("the task ended before the client answered"))
        })
    }

    fn continue_as_task(&self) -> bool {
        true
    }
}

/// The client of a `#[tool(task, defer_task)]` call: the request's own client (its
/// questions answered in input-required rounds or as requests) until the tool calls
/// `continue_as_task`, which creates the task and hands it to the waiting request; a
/// [`TaskClient`] from then on.
pub(crate) struct DeferredTask {
    before: Client,
    store: Arc<Tasks>,
    owner: Owner,
    /// What the call's arguments count in the task's bytes.
    arguments: usize,
    /// Stops the call: the request's cancellation until the task starts, `tasks/cancel`
    /// and the task's expiry after.
    cancel: CancellationToken,
    state: Mutex<State>,
}

enum State {
    /// A plain call; the request waits on the receiver for a task, or for why there is
    /// none.
    Plain(Option<oneshot::Sender<Result<Task, TaskStoreError>>>),
    Task {
        id: String,
        client: TaskClient,
    },
}

impl DeferredTask {
    /// The call's client, and the receiver its request waits on for the task. `from` is
    /// who called, and what the call's arguments count.
    pub(crate) fn new(
        before: Client,
        store: Arc<Tasks>,
        from: (Owner, usize),
        cancel: CancellationToken,
    ) -> (
        Arc<DeferredTask>,
        oneshot::Receiver<Result<Task, TaskStoreError>>,
    ) {
        let (started, task) = oneshot::channel();
        let (owner, arguments) = from;
        let deferred = DeferredTask {
            before,
            store,
            owner,
            arguments,
            cancel,
            state: Mutex::new(State::Plain(Some(started))),
        };
        (Arc::new(deferred), task)
    }

    /// The task the call became, if it did.
    pub(crate) fn task_id(&self) -> Option<String> {
        match &*lock(&self.state) {
            State::Task { id, .. } => Some(id.clone()),
            State::Plain(_) => None,
        }
    }

    /// The client the call asks (`ToolContext`'s), as a [`Client`].
    pub(crate) fn client(self: &Arc<DeferredTask>) -> Client {
        Client::new(Shared(Arc::clone(self)))
    }
}

/// The deferred task as a call's client.
struct Shared(Arc<DeferredTask>);

impl ClientRequests for Shared {
    fn capabilities(&self) -> ClientCapabilities {
        self.0.before.capabilities()
    }

    fn request(&self, key: Option<&str>, method: &str, params: Value) -> ClientFuture {
        match &*lock(&self.0.state) {
            State::Task { client, .. } => client.request(key, method, params),
            State::Plain(_) => self.0.before.requests().request(key, method, params),
        }
    }

    fn refused(&self, capability: &'static str) {
        if matches!(&*lock(&self.0.state), State::Plain(_)) {
            self.0.before.requests().refused(capability);
        }
    }

    fn is_retry(&self) -> bool {
        matches!(&*lock(&self.0.state), State::Plain(_)) && self.0.before.requests().is_retry()
    }

    fn url_required(&self, elicitations: &[crate::client::UrlElicitationRequest]) {
        // A task's result has no `-32042`: only a call still plain answers with it.
        if matches!(&*lock(&self.0.state), State::Plain(_)) {
            self.0.before.requests().url_required(elicitations);
        }
    }

    fn continue_as_task(&self) -> bool {
        let deferred = &self.0;
        let mut state = lock(&deferred.state);
        let State::Plain(started) = &mut *state else {
            return true;
        };
        let begun = deferred.store.begin(
            deferred.owner.clone(),
            deferred.arguments,
            deferred.cancel.clone(),
        );
        let id = match begun {
            Begun::Created(Ok(task)) => {
                let id = task.task_id.clone();
                // A request that stopped waiting (its client went away) never learns the
                // task's id: the task runs on, and its expiry cleans it up.
                if let Some(started) = started.take() {
                    let _ = started.send(Ok(task));
                }
                id
            }
            Begun::Created(Err(full)) => {
                // No room for the task: the request answers with the error and the call
                // stops. Going on as a plain call would break `task = "required"`, and
                // would hold the request for a call meant to run in the background.
                if let Some(started) = started.take() {
                    let _ = started.send(Err(full));
                }
                deferred.cancel.cancel();
                return false;
            }
            Begun::Pending { id, record } => {
                // A shared store: the record is written while the call goes on; the request
                // answers once it exists (or with why it couldn't), and a refused task
                // stops the call as above, a moment later.
                let (started, cancel) = (started.take(), deferred.cancel.clone());
                tokio::spawn(async move {
                    let recorded = record.await;
                    if recorded.is_err() {
                        cancel.cancel();
                    }
                    if let Some(started) = started {
                        let _ = started.send(recorded);
                    }
                });
                id
            }
        };
        let client = TaskClient::new(
            Arc::clone(&deferred.store),
            id.clone(),
            deferred.before.capabilities(),
        );
        *state = State::Task { id, client };
        true
    }
}
