//! [`MemoryTasks`]: the tasks an [`McpServer`](crate::McpServer) runs in its own memory (the
//! default store), bounded in time, number
//! and bytes, in all and per client.
//!
//! A task is kept until its TTL has passed since it was created: then a timer drops it and
//! cancels its call if still running, whether or not any request comes. At most
//! `max` tasks are kept at once, and at most `max_per_client` for one client (its HTTP
//! session, or for a sessionless client its address): a client can't take every slot. The
//! bytes a task keeps (its arguments while its call runs, the questions it waits on, its
//! result once settled) count against a budget per client and one in all. Past a bound, the
//! client's own settled tasks are dropped first (oldest first), then, for the bounds in all,
//! anyone's settled tasks; a running task is never pushed out, and when only running tasks
//! are left a new one is refused ([`TaskStoreError`]) rather than pushing out one a client
//! still waits on.
//!
//! Each task remembers its owner (the live HTTP session that created it, when the protocol
//! has sessions) and answers nobody else; sessionless clients are told apart by the task id
//! alone, 122 random bits no other client can guess. A session's end cancels and drops its
//! tasks, and once the store [tracks sessions](MemoryTasks::track_sessions) a task is created
//! for a session only while it is live.
//!
//! A task's call may wait on its client: each question it asks is kept here under a key
//! unique over the task's life, the task is `input_required` while any waits, and
//! [`answer`](MemoryTasks::answer) (the client's `tasks/update`) hands each answer to the
//! question waiting for it.

use rmcp::model::{DetailedTask, InputRequest, InputResponses, Task, TaskPayload, TaskStatus};
use rmcp::task_manager::current_timestamp;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;
use tokio_util::sync::{CancellationToken, DropGuard};

use super::ids::{millis, new_id, unique};
use super::json::{json_len, object, payload_len};
use super::limits::{AnswerError, AskError, Limits, TaskStoreError};
use super::owner::{Owner, Share};

/// The tasks of one server, shared by its sessions.
#[derive(Debug)]
pub(crate) struct MemoryTasks {
    /// Shared with the timers that expire tasks, which hold it weakly.
    state: Arc<Mutex<State>>,
    limits: Limits,
}

#[derive(Debug, Default)]
struct State {
    tasks: HashMap<String, Entry>,
    /// What each client's tasks keep; a client with none has no entry.
    usage: HashMap<Share, Usage>,
    /// Bytes kept by every task together.
    bytes: usize,
    /// The live sessions, once a session manager reports them
    /// ([`MemoryTasks::track_sessions`]); `None` trusts the transport's session id.
    live: Option<HashSet<String>>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Usage {
    tasks: usize,
    bytes: usize,
}

#[derive(Debug)]
struct Entry {
    owner: Owner,
    task: Task,
    /// `None` while the call runs.
    outcome: Option<TaskPayload>,
    cancel: CancellationToken,
    created: Instant,
    /// When it settled: the oldest settled tasks make way first.
    settled: Option<Instant>,
    /// What the arguments count while the call runs (its future holds them).
    arguments: usize,
    /// What the task keeps now, counted in its client's usage and in all: the arguments
    /// while it runs, its questions, its outcome.
    bytes: usize,
    /// The questions the call waits on, by key.
    questions: BTreeMap<String, Question>,
    /// Every key given so far, answered or not: a key names one question in a task's life.
    keys: BTreeSet<String>,
    /// How many unnamed questions of each kind were asked: their keys.
    unnamed: BTreeMap<&'static str, usize>,
    /// Stops the timer that expires the task, when the task goes first.
    _timer: Option<DropGuard>,
}

/// A question a task's call waits on.
#[derive(Debug)]
struct Question {
    /// The method, for checking the answer's shape.
    method: String,
    request: InputRequest,
    /// What the question counts in the task's bytes.
    bytes: usize,
    answer: oneshot::Sender<Value>,
}

impl MemoryTasks {
    /// A store keeping tasks within `limits`.
    pub(crate) fn new(limits: Limits) -> MemoryTasks {
        MemoryTasks {
            state: Arc::default(),
            limits,
        }
    }

    /// What the store keeps.
    pub(crate) fn limits(&self) -> Limits {
        self.limits
    }

    /// From now on, a task is created for a session only while the session manager says it
    /// is live ([`session_started`](Self::session_started) to
    /// [`session_ended`](Self::session_ended)).
    pub(crate) fn track_sessions(&self) {
        self.lock().live.get_or_insert_with(HashSet::new);
    }

    /// Session `id` was opened.
    pub(crate) fn session_started(&self, id: &str) {
        let mut state = self.lock();
        state
            .live
            .get_or_insert_with(HashSet::new)
            .insert(id.to_owned());
    }

    /// Session `id` ended: its tasks are cancelled and dropped, nobody can reach them, and
    /// it can start no more.
    pub(crate) fn session_ended(&self, id: &str) {
        let mut state = self.lock();
        if let Some(live) = &mut state.live {
            live.remove(id);
        }
        let gone: Vec<String> = state
            .tasks
            .iter()
            .filter(|(_, e)| e.owner.session.as_deref() == Some(id))
            .map(|(task, _)| task.clone())
            .collect();
        for task in gone {
            state.remove(&task);
        }
    }

    /// Records a new working task for `owner`, whose call holds `arguments` bytes of
    /// arguments: its seed state for `CreateTaskResult`, and the token that cancels its
    /// call. The task is visible to [`get`](Self::get) before this returns, as the spec
    /// requires of a created task.
    #[cfg(test)]
    pub(crate) fn create(
        &self,
        owner: Owner,
        arguments: usize,
    ) -> Result<(Task, CancellationToken), TaskStoreError> {
        let cancel = CancellationToken::new();
        self.create_with(owner, arguments, cancel.clone())
            .map(|task| (task, cancel))
    }

    /// Records a new working task for `owner` whose call `cancel` stops: a call that was
    /// running before it became a task already has its token.
    pub(crate) fn create_with(
        &self,
        owner: Owner,
        arguments: usize,
        cancel: CancellationToken,
    ) -> Result<Task, TaskStoreError> {
        let mut state = self.lock();
        state.sweep(self.limits.ttl);
        if let (Some(session), Some(live)) = (&owner.session, &state.live) {
            if !live.contains(session) {
                return Err(TaskStoreError::SessionEnded);
            }
        }
        let share = owner.share();
        state.room(&self.limits, &share, 1, arguments)?;
        let now = current_timestamp();
        let task = Task::new(new_id(), TaskStatus::Working, now.clone(), now)
            .with_ttl_ms(millis(self.limits.ttl))
            .with_poll_interval_ms(millis(self.limits.poll_interval).max(1));
        let created = Instant::now();
        state.charge(&share, 1, arguments);
        state.tasks.insert(
            task.task_id.clone(),
            Entry {
                owner,
                task: task.clone(),
                outcome: None,
                cancel,
                created,
                settled: None,
                arguments,
                bytes: arguments,
                questions: BTreeMap::new(),
                keys: BTreeSet::new(),
                unnamed: BTreeMap::new(),
                _timer: self.expire_at_ttl(&task.task_id),
            },
        );
        Ok(task)
    }

    /// A timer that drops task `id` at its TTL, cancelling its call, whether or not any
    /// request comes; it ends with the task when the task goes first. `None` outside a
    /// Tokio runtime, where only requests sweep.
    fn expire_at_ttl(&self, id: &str) -> Option<DropGuard> {
        let runtime = tokio::runtime::Handle::try_current().ok()?;
        let (state, id, ttl) = (Arc::downgrade(&self.state), id.to_owned(), self.limits.ttl);
        let gone = CancellationToken::new();
        let guard = gone.clone().drop_guard();
        runtime.spawn(async move {
            tokio::select! {
                () = gone.cancelled() => {}
                () = tokio::time::sleep(ttl) => {
                    if let Some(state) = state.upgrade() {
                        // Taken out under the lock, dropped after it: dropping the entry
                        // cancels this timer's own token, which takes no lock.
                        let expired = lock(&state).remove(&id);
                        drop(expired);
                    }
                }
            }
        });
        Some(guard)
    }

    /// Keeps a question of task `id`'s call for its client, under `key` (made unique in the
    /// task's life) or `sampling-1`, `elicitation-1`, ... when unnamed: the task is
    /// `input_required` until it is answered. The answer comes through the receiver. Refused
    /// when the task has settled or is gone (nobody could answer), or when the question
    /// doesn't fit in its client's bytes.
    pub(crate) fn ask(
        &self,
        id: &str,
        key: Option<&str>,
        method: &str,
        request: InputRequest,
    ) -> Result<oneshot::Receiver<Value>, AskError> {
        let mut state = self.lock();
        let share = match state.tasks.get(id) {
            Some(entry) if entry.outcome.is_none() => entry.owner.share(),
            _ => return Err(AskError::Ended),
        };
        let bytes = json_len(&request);
        state
            .room(&self.limits, &share, 0, bytes)
            .map_err(AskError::TooLarge)?;
        // Making room drops only settled tasks: this one still runs.
        let entry = state.tasks.get_mut(id).ok_or(AskError::Ended)?;
        let key = match key {
            Some(key) => key.to_owned(),
            None => crate::rounds::input_required::unnamed_key(&mut entry.unnamed, method),
        };
        let key = unique(&entry.keys, key);
        entry.keys.insert(key.clone());
        let (answer, answered) = oneshot::channel();
        entry.questions.insert(
            key,
            Question {
                method: method.to_owned(),
                request,
                bytes,
                answer,
            },
        );
        entry.bytes += bytes;
        entry.task.status = TaskStatus::InputRequired;
        entry.task.last_updated_at = current_timestamp();
        state.charge(&share, 0, bytes);
        Ok(answered)
    }

    /// The client's answers (`tasks/update`) to task `id`'s questions: each goes to the
    /// question waiting under its key, and the task works again once none waits. Keys that
    /// name no waiting question (unknown, answered already) are ignored, as the spec says.
    pub(crate) fn answer(
        &self,
        id: &str,
        owner: &Owner,
        responses: InputResponses,
    ) -> Result<(), AnswerError> {
        let mut state = self.lock();
        state.sweep(self.limits.ttl);
        let entry = state
            .tasks
            .get_mut(id)
            .filter(|e| e.owner.session == owner.session)
            .ok_or(AnswerError::Unknown)?;
        // Every answer checked before any is taken: a refused update changes nothing.
        for (key, answer) in &responses {
            if let Some(question) = entry.questions.get(key) {
                crate::rounds::input_required::fits(&question.method, answer)
                    .map_err(|why| AnswerError::Invalid(format!("inputResponses.{key}: {why}")))?;
            }
        }
        let (mut answered, mut freed) = (false, 0);
        for (key, answer) in responses {
            if let Some(question) = entry.questions.remove(&key) {
                // A call that stopped waiting (cancelled) has no receiver: nothing to tell.
                let _ = question.answer.send(answer);
                freed += question.bytes;
                answered = true;
            }
        }
        if answered && entry.outcome.is_none() && entry.questions.is_empty() {
            entry.task.status = TaskStatus::Working;
            entry.task.last_updated_at = current_timestamp();
        }
        entry.bytes -= freed;
        let share = entry.owner.share();
        state.release(&share, 0, freed);
        Ok(())
    }

    /// Settles a task with what its call gave; a task already settled (cancelled) or gone
    /// (expired) keeps what it has. An outcome larger than the bytes left to its client
    /// settles the task `failed`, saying so, rather than keeping it past the budget.
    pub(crate) fn finish(&self, id: &str, outcome: TaskPayload) {
        let mut state = self.lock();
        let Some(entry) = state.tasks.get(id).filter(|e| e.outcome.is_none()) else {
            return;
        };
        let (share, kept) = (entry.owner.share(), entry.bytes);
        // The call has ended: its arguments and questions are gone, its outcome stays.
        state.release(&share, 0, kept);
        let bytes = payload_len(&outcome);
        let (outcome, bytes) = match state.room(&self.limits, &share, 0, bytes) {
            Ok(()) => (outcome, bytes),
            Err(error) => {
                let why = format!("the task's result ({bytes} bytes) is not kept: {error}");
                let failed = TaskPayload::Failed {
                    error: object(rmcp::model::ErrorData::internal_error(why, None)),
                };
                let bytes = payload_len(&failed);
                (failed, bytes)
            }
        };
        state.charge(&share, 0, bytes);
        if let Some(entry) = state.tasks.get_mut(id) {
            entry.settle(outcome, bytes);
        }
    }

    /// The task as `tasks/get` shows it, if `owner` may see it and it hasn't expired.
    pub(crate) fn get(&self, id: &str, owner: &Owner) -> Option<DetailedTask> {
        let mut state = self.lock();
        state.sweep(self.limits.ttl);
        let entry = state
            .tasks
            .get_mut(id)
            .filter(|e| e.owner.session == owner.session)?;
        let freed = withdraw_unwaited(entry);
        let share = entry.owner.share();
        state.release(&share, 0, freed);
        let entry = state.tasks.get(id)?;
        let payload = match &entry.outcome {
            Some(outcome) => outcome.clone(),
            None if entry.questions.is_empty() => TaskPayload::Working,
            None => TaskPayload::InputRequired {
                input_requests: entry
                    .questions
                    .iter()
                    .map(|(key, q)| (key.clone(), q.request.clone()))
                    .collect(),
            },
        };
        Some(DetailedTask::new(entry.task.clone(), payload))
    }

    /// Cancels a running task (settling it `cancelled` at once, its call stopped through its
    /// token); a settled task is left as it is. `None` if `owner` can't see the task.
    pub(crate) fn cancel(&self, id: &str, owner: &Owner) -> Option<()> {
        let mut state = self.lock();
        state.sweep(self.limits.ttl);
        let entry = state
            .tasks
            .get_mut(id)
            .filter(|e| e.owner.session == owner.session)?;
        if entry.outcome.is_none() {
            let (share, kept) = (entry.owner.share(), entry.bytes);
            entry.cancel.cancel();
            let bytes = payload_len(&TaskPayload::Cancelled);
            entry.settle(TaskPayload::Cancelled, bytes);
            state.release(&share, 0, kept);
            state.charge(&share, 0, bytes);
        }
        Some(())
    }

    /// How many tasks are kept, expired ones not counted.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        let mut state = self.lock();
        state.sweep(self.limits.ttl);
        state.tasks.len()
    }

    /// The bytes every task keeps together, and those of `owner`'s client.
    #[cfg(test)]
    pub(crate) fn bytes(&self, owner: &Owner) -> (usize, usize) {
        let state = self.lock();
        let client = state.usage.get(&owner.share()).map_or(0, |u| u.bytes);
        (state.bytes, client)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        lock(&self.state)
    }
}

impl Entry {
    /// The call ended with `outcome`, which counts `bytes`: its questions go.
    fn settle(&mut self, outcome: TaskPayload, bytes: usize) {
        self.task.status = outcome.status();
        self.task.last_updated_at = current_timestamp();
        self.outcome = Some(outcome);
        self.settled = Some(Instant::now());
        self.questions.clear();
        self.arguments = 0;
        self.bytes = bytes;
    }
}

impl State {
    fn charge(&mut self, share: &Share, tasks: usize, bytes: usize) {
        let usage = self.usage.entry(share.clone()).or_default();
        usage.tasks += tasks;
        usage.bytes += bytes;
        self.bytes += bytes;
    }

    fn release(&mut self, share: &Share, tasks: usize, bytes: usize) {
        if let Some(usage) = self.usage.get_mut(share) {
            usage.tasks = usage.tasks.saturating_sub(tasks);
            usage.bytes = usage.bytes.saturating_sub(bytes);
            if usage.tasks == 0 && usage.bytes == 0 {
                self.usage.remove(share);
            }
        }
        self.bytes = self.bytes.saturating_sub(bytes);
    }

    /// Takes task `id` out, its call cancelled and what it kept given back. The entry is
    /// returned so that the caller may drop it after the lock.
    fn remove(&mut self, id: &str) -> Option<Entry> {
        let entry = self.tasks.remove(id)?;
        entry.cancel.cancel();
        self.release(&entry.owner.share(), 1, entry.bytes);
        Some(entry)
    }

    /// Drops the tasks whose TTL has passed, stopping those still running: the spec lets a
    /// server forget a task after its TTL, and a call nobody can ask about has no reader.
    /// The timers do this too; a request sweeps in case one is late.
    fn sweep(&mut self, ttl: Duration) {
        let expired: Vec<String> = self
            .tasks
            .iter()
            .filter(|(_, e)| e.created.elapsed() >= ttl)
            .map(|(id, _)| id.clone())
            .collect();
        for id in expired {
            self.remove(&id);
        }
    }

    /// Makes room for `tasks` more tasks keeping `bytes` more bytes for `share`: past the
    /// client's bounds its own oldest settled tasks go, past the bounds in all anyone's;
    /// a running task never does. The error says which bound has no room.
    fn room(
        &mut self,
        limits: &Limits,
        share: &Share,
        tasks: usize,
        bytes: usize,
    ) -> Result<(), TaskStoreError> {
        // Larger than a whole budget: no eviction would make room, so none is made.
        limits.fits(bytes)?;
        loop {
            let usage = self.usage.get(share).copied().unwrap_or_default();
            let short = if usage.tasks + tasks > limits.max_per_client {
                TaskStoreError::ClientFull {
                    max: limits.max_per_client,
                }
            } else if usage.bytes + bytes > limits.bytes_per_client {
                TaskStoreError::ClientBytes {
                    needed: bytes,
                    left: limits.bytes_per_client.saturating_sub(usage.bytes),
                    max: limits.bytes_per_client,
                }
            } else {
                break;
            };
            self.evict(Some(share)).ok_or(short)?;
        }
        loop {
            let short = if self.tasks.len() + tasks > limits.max {
                TaskStoreError::Full { max: limits.max }
            } else if self.bytes + bytes > limits.bytes {
                TaskStoreError::Bytes {
                    needed: bytes,
                    left: limits.bytes.saturating_sub(self.bytes),
                    max: limits.bytes,
                }
            } else {
                break;
            };
            self.evict(None).ok_or(short)?;
        }
        Ok(())
    }

    /// Drops the task that settled first (of `share` only, if given); `None` when no such
    /// task has settled.
    fn evict(&mut self, share: Option<&Share>) -> Option<()> {
        let oldest = self
            .tasks
            .iter()
            .filter_map(|(id, e)| e.settled.map(|at| (at, id, e)))
            .filter(|(_, _, e)| share.is_none_or(|share| e.owner.share() == *share))
            .min_by_key(|(at, _, _)| *at)
            .map(|(_, id, _)| id.clone())?;
        self.remove(&oldest).map(drop)
    }
}

fn lock(state: &Mutex<State>) -> std::sync::MutexGuard<'_, State> {
    // A panic while holding the lock leaves the map consistent enough: every change is one
    // insert, one remove or a few fields, and the counts saturate.
    state
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Drops the questions the call no longer waits on (their deadline passed: the
/// [`ask`](MemoryTasks::ask) receiver was dropped), so that `tasks/get` lists only questions an
/// answer still reaches; the task works again once none is left. Returns the bytes the
/// dropped questions counted, for the caller to release from the client's usage.
fn withdraw_unwaited(entry: &mut Entry) -> usize {
    let before = entry.questions.len();
    let mut freed = 0;
    entry.questions.retain(|_, question| {
        let waited = !question.answer.is_closed();
        if !waited {
            freed += question.bytes;
        }
        waited
    });
    entry.bytes -= freed;
    if entry.questions.len() < before && entry.questions.is_empty() && entry.outcome.is_none() {
        entry.task.status = TaskStatus::Working;
        entry.task.last_updated_at = current_timestamp();
    }
    freed
}

#[cfg(test)]
#[path = "memory_tests.rs"]
mod tests;
