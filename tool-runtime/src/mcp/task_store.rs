//! [`TaskStore`]: the tasks an [`McpServer`](super::McpServer) runs, bounded in time and
//! number.
//!
//! A task is kept until its TTL has passed since it was created (then dropped, its call
//! cancelled if still running), and at most `max` are kept at once: past that, a new task is
//! refused with [`TaskStoreError::Full`] rather than pushing out one a client still polls.
//! Each task remembers its owner (the HTTP session that created it, when the protocol has
//! sessions) and answers nobody else; sessionless clients are told apart by the task id
//! alone, 122 random bits no other client can guess.

use rmcp::model::{DetailedTask, Task, TaskPayload, TaskStatus};
use rmcp::task_manager::current_timestamp;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

/// Why a task could not be created.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum TaskStoreError {
    /// As many tasks as allowed are kept; one expires after its TTL.
    #[error("too many tasks: {max} are kept at once and none has expired yet; retry later")]
    Full {
        /// The cap ([`McpServer::max_tasks`](super::McpServer::max_tasks)).
        max: usize,
    },
}

/// Who may see a task: the session that created it, or anyone holding its id.
pub(crate) type Owner = Option<String>;

/// The tasks of one server, shared by its sessions.
#[derive(Debug)]
pub(crate) struct TaskStore {
    tasks: Mutex<HashMap<String, Entry>>,
    ttl: Duration,
    poll_interval: Duration,
    max: usize,
}

#[derive(Debug)]
struct Entry {
    owner: Owner,
    task: Task,
    /// `None` while the call runs.
    outcome: Option<TaskPayload>,
    cancel: CancellationToken,
    created: Instant,
}

impl TaskStore {
    /// A store keeping each task for `ttl`, at most `max` at once.
    pub(crate) fn new(ttl: Duration, poll_interval: Duration, max: usize) -> TaskStore {
        TaskStore {
            tasks: Mutex::default(),
            ttl,
            poll_interval,
            max,
        }
    }

    /// How long each task is kept.
    pub(crate) fn ttl(&self) -> Duration {
        self.ttl
    }

    /// How many tasks are kept at once.
    pub(crate) fn max(&self) -> usize {
        self.max
    }

    /// Records a new working task for `owner`: its seed state for `CreateTaskResult`, and the
    /// token that cancels its call. The task is visible to [`get`](Self::get) before this
    /// returns, as the spec requires of a created task.
    pub(crate) fn create(&self, owner: Owner) -> Result<(Task, CancellationToken), TaskStoreError> {
        let mut tasks = self.lock();
        self.sweep(&mut tasks);
        if tasks.len() >= self.max {
            return Err(TaskStoreError::Full { max: self.max });
        }
        let now = current_timestamp();
        let task = Task::new(new_id(), TaskStatus::Working, now.clone(), now)
            .with_ttl_ms(millis(self.ttl))
            .with_poll_interval_ms(millis(self.poll_interval).max(1));
        let cancel = CancellationToken::new();
        tasks.insert(
            task.task_id.clone(),
            Entry {
                owner,
                task: task.clone(),
                outcome: None,
                cancel: cancel.clone(),
                created: Instant::now(),
            },
        );
        Ok((task, cancel))
    }

    /// Settles a task with what its call gave; a task already settled (cancelled) or gone
    /// (expired) keeps what it has.
    pub(crate) fn finish(&self, id: &str, outcome: TaskPayload) {
        if let Some(entry) = self.lock().get_mut(id) {
            if entry.outcome.is_none() {
                entry.task.status = outcome.status();
                entry.task.last_updated_at = current_timestamp();
                entry.outcome = Some(outcome);
            }
        }
    }

    /// The task as `tasks/get` shows it, if `owner` may see it and it hasn't expired.
    pub(crate) fn get(&self, id: &str, owner: &Owner) -> Option<DetailedTask> {
        let mut tasks = self.lock();
        self.sweep(&mut tasks);
        let entry = tasks.get(id).filter(|e| e.owner == *owner)?;
        let payload = entry.outcome.clone().unwrap_or(TaskPayload::Working);
        Some(DetailedTask::new(entry.task.clone(), payload))
    }

    /// Cancels a running task (settling it `cancelled` at once, its call stopped through its
    /// token); a settled task is left as it is. `None` if `owner` can't see the task.
    pub(crate) fn cancel(&self, id: &str, owner: &Owner) -> Option<()> {
        let mut tasks = self.lock();
        self.sweep(&mut tasks);
        let entry = tasks.get_mut(id).filter(|e| e.owner == *owner)?;
        if entry.outcome.is_none() {
            entry.task.status = TaskStatus::Cancelled;
            entry.task.last_updated_at = current_timestamp();
            entry.outcome = Some(TaskPayload::Cancelled);
            entry.cancel.cancel();
        }
        Some(())
    }

    /// How many tasks are kept, expired ones not counted.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        let mut tasks = self.lock();
        self.sweep(&mut tasks);
        tasks.len()
    }

    /// Drops the tasks whose TTL has passed, stopping those still running: the spec lets a
    /// server forget a task after its TTL, and a call nobody can ask about has no reader.
    fn sweep(&self, tasks: &mut HashMap<String, Entry>) {
        tasks.retain(|_, entry| {
            let keep = entry.created.elapsed() < self.ttl;
            if !keep {
                entry.cancel.cancel();
            }
            keep
        });
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        // A panic while holding the lock leaves the map consistent: every change is one insert,
        // one field or one retain.
        self.tasks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A random (version 4) UUID: task ids are the only key sessionless clients have.
fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn store(ttl_ms: u64, max: usize) -> TaskStore {
        TaskStore::new(
            Duration::from_millis(ttl_ms),
            Duration::from_millis(500),
            max,
        )
    }

    #[test]
    fn a_created_task_is_working_until_finished() {
        let store = store(60_000, 10);
        let (task, _) = store.create(None).unwrap();
        assert_eq!(task.ttl_ms, Some(60_000));
        assert_eq!(task.poll_interval_ms, Some(500));
        let got = store.get(&task.task_id, &None).unwrap();
        assert_eq!(got.status(), TaskStatus::Working);

        let result = json!({"content": [{"type": "text", "text": "done"}]});
        let serde_json::Value::Object(result) = result else {
            unreachable!()
        };
        store.finish(&task.task_id, TaskPayload::Completed { result });
        let got = store.get(&task.task_id, &None).unwrap();
        assert_eq!(got.status(), TaskStatus::Completed);
        let wire = serde_json::to_value(&got).unwrap();
        assert_eq!(wire["result"]["content"][0]["text"], "done");
    }

    #[test]
    fn tasks_expire_after_their_ttl_and_their_call_is_stopped() {
        let store = store(30, 10);
        let (task, token) = store.create(None).unwrap();
        assert!(store.get(&task.task_id, &None).is_some());
        std::thread::sleep(Duration::from_millis(60));
        assert!(store.get(&task.task_id, &None).is_none());
        assert!(token.is_cancelled());
        assert_eq!(store.len(), 0);
    }

    #[test]
    fn past_the_cap_a_new_task_is_refused_until_one_expires() {
        let store = store(40, 2);
        store.create(None).unwrap();
        store.create(None).unwrap();
        assert_eq!(
            store.create(None).unwrap_err(),
            TaskStoreError::Full { max: 2 }
        );
        std::thread::sleep(Duration::from_millis(80));
        assert!(store.create(None).is_ok());
    }

    #[test]
    fn cancel_settles_a_running_task_and_leaves_a_settled_one() {
        let store = store(60_000, 10);
        let (running, token) = store.create(None).unwrap();
        store.cancel(&running.task_id, &None).unwrap();
        assert!(token.is_cancelled());
        // What the stopped call reports afterwards doesn't change the outcome.
        store.finish(
            &running.task_id,
            TaskPayload::Failed {
                error: Default::default(),
            },
        );
        let got = store.get(&running.task_id, &None).unwrap();
        assert_eq!(got.status(), TaskStatus::Cancelled);

        let (done, token) = store.create(None).unwrap();
        store.finish(
            &done.task_id,
            TaskPayload::Failed {
                error: Default::default(),
            },
        );
        store.cancel(&done.task_id, &None).unwrap();
        assert!(!token.is_cancelled());
        assert_eq!(
            store.get(&done.task_id, &None).unwrap().status(),
            TaskStatus::Failed
        );
    }

    #[test]
    fn a_session_sees_only_its_own_tasks() {
        let store = store(60_000, 10);
        let mine = Some("session-a".to_owned());
        let theirs = Some("session-b".to_owned());
        let (task, token) = store.create(mine.clone()).unwrap();
        assert!(store.get(&task.task_id, &theirs).is_none());
        assert!(store.get(&task.task_id, &None).is_none());
        assert!(store.cancel(&task.task_id, &theirs).is_none());
        assert!(!token.is_cancelled());
        assert!(store.get(&task.task_id, &mine).is_some());
    }

    #[test]
    fn ids_are_unique() {
        let store = store(60_000, 1000);
        let ids: std::collections::HashSet<_> = (0..1000)
            .map(|_| store.create(None).unwrap().0.task_id)
            .collect();
        assert_eq!(ids.len(), 1000);
    }
}
