//! [`TaskStore`]: the tasks an [`McpServer`](super::McpServer) runs, bounded in time and
//! number.
//!
//! A task is kept until its TTL has passed since it was created (then dropped, its call
//! cancelled if still running), and at most `max` are kept at once: past that, a new task is
//! refused with [`TaskStoreError::Full`] rather than pushing out one a client still polls.
//! Each task remembers its owner (the HTTP session that created it, when the protocol has
//! sessions) and answers nobody else; sessionless clients are told apart by the task id
//! alone, 122 random bits no other client can guess.
//!
//! A task's call may wait on its client: each question it asks is kept here under a key
//! unique over the task's life, the task is `input_required` while any waits, and
//! [`answer`](TaskStore::answer) (the client's `tasks/update`) hands each answer to the
//! question waiting for it.

use rmcp::model::{DetailedTask, InputRequest, InputResponses, Task, TaskPayload, TaskStatus};
use rmcp::task_manager::current_timestamp;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tokio::sync::oneshot;
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
    /// The questions the call waits on, by key.
    questions: BTreeMap<String, Question>,
    /// Every key given so far, answered or not: a key names one question in a task's life.
    keys: BTreeSet<String>,
    /// How many unnamed questions of each kind were asked: their keys.
    unnamed: BTreeMap<&'static str, usize>,
}

/// A question a task's call waits on.
#[derive(Debug)]
struct Question {
    /// The method, for checking the answer's shape.
    method: String,
    request: InputRequest,
    answer: oneshot::Sender<Value>,
}

/// Why a `tasks/update` was refused.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum AnswerError {
    /// No such task for this owner, or it expired.
    Unknown,
    /// An answer to a waiting question is not a result of that question's kind; none of
    /// the answers were taken.
    Invalid(String),
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
        let cancel = CancellationToken::new();
        self.create_with(owner, cancel.clone())
            .map(|task| (task, cancel))
    }

    /// Records a new working task for `owner` whose call `cancel` stops: a call that was
    /// running before it became a task already has its token.
    pub(crate) fn create_with(
        &self,
        owner: Owner,
        cancel: CancellationToken,
    ) -> Result<Task, TaskStoreError> {
        let mut tasks = self.lock();
        self.sweep(&mut tasks);
        if tasks.len() >= self.max {
            return Err(TaskStoreError::Full { max: self.max });
        }
        let now = current_timestamp();
        let task = Task::new(new_id(), TaskStatus::Working, now.clone(), now)
            .with_ttl_ms(millis(self.ttl))
            .with_poll_interval_ms(millis(self.poll_interval).max(1));
        tasks.insert(
            task.task_id.clone(),
            Entry {
                owner,
                task: task.clone(),
                outcome: None,
                cancel,
                created: Instant::now(),
                questions: BTreeMap::new(),
                keys: BTreeSet::new(),
                unnamed: BTreeMap::new(),
            },
        );
        Ok(task)
    }

    /// Keeps a question of task `id`'s call for its client, under `key` (made unique in the
    /// task's life) or `sampling-1`, `elicitation-1`, ... when unnamed: the task is
    /// `input_required` until it is answered. The answer comes through the receiver; `None`
    /// if the task has settled or is gone, when nobody could answer.
    pub(crate) fn ask(
        &self,
        id: &str,
        key: Option<&str>,
        method: &str,
        request: InputRequest,
    ) -> Option<oneshot::Receiver<Value>> {
        let mut tasks = self.lock();
        let entry = tasks.get_mut(id).filter(|e| e.outcome.is_none())?;
        let key = match key {
            Some(key) => key.to_owned(),
            None => super::input_required::unnamed_key(&mut entry.unnamed, method),
        };
        let key = unique(&entry.keys, key);
        entry.keys.insert(key.clone());
        let (answer, answered) = oneshot::channel();
        entry.questions.insert(
            key,
            Question {
                method: method.to_owned(),
                request,
                answer,
            },
        );
        entry.task.status = TaskStatus::InputRequired;
        entry.task.last_updated_at = current_timestamp();
        Some(answered)
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
        let mut tasks = self.lock();
        self.sweep(&mut tasks);
        let entry = tasks
            .get_mut(id)
            .filter(|e| e.owner == *owner)
            .ok_or(AnswerError::Unknown)?;
        // Every answer checked before any is taken: a refused update changes nothing.
        for (key, answer) in &responses {
            if let Some(question) = entry.questions.get(key) {
                super::input_required::fits(&question.method, answer)
                    .map_err(|why| AnswerError::Invalid(format!("inputResponses.{key}: {why}")))?;
            }
        }
        let mut answered = false;
        for (key, answer) in responses {
            if let Some(question) = entry.questions.remove(&key) {
                // A call that stopped waiting (cancelled) has no receiver: nothing to tell.
                let _ = question.answer.send(answer);
                answered = true;
            }
        }
        if answered && entry.outcome.is_none() && entry.questions.is_empty() {
            entry.task.status = TaskStatus::Working;
            entry.task.last_updated_at = current_timestamp();
        }
        Ok(())
    }

    /// Settles a task with what its call gave; a task already settled (cancelled) or gone
    /// (expired) keeps what it has.
    pub(crate) fn finish(&self, id: &str, outcome: TaskPayload) {
        if let Some(entry) = self.lock().get_mut(id) {
            if entry.outcome.is_none() {
                entry.task.status = outcome.status();
                entry.task.last_updated_at = current_timestamp();
                entry.outcome = Some(outcome);
                entry.questions.clear();
            }
        }
    }

    /// The task as `tasks/get` shows it, if `owner` may see it and it hasn't expired.
    pub(crate) fn get(&self, id: &str, owner: &Owner) -> Option<DetailedTask> {
        let mut tasks = self.lock();
        self.sweep(&mut tasks);
        let entry = tasks.get_mut(id).filter(|e| e.owner == *owner)?;
        withdraw_unwaited(entry);
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
        let mut tasks = self.lock();
        self.sweep(&mut tasks);
        let entry = tasks.get_mut(id).filter(|e| e.owner == *owner)?;
        if entry.outcome.is_none() {
            entry.task.status = TaskStatus::Cancelled;
            entry.task.last_updated_at = current_timestamp();
            entry.outcome = Some(TaskPayload::Cancelled);
            entry.questions.clear();
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

/// Drops the questions the call no longer waits on (their deadline passed: the
/// [`ask`](TaskStore::ask) receiver was dropped), so that `tasks/get` lists only questions an
/// answer still reaches; the task works again once none is left.
fn withdraw_unwaited(entry: &mut Entry) {
    let before = entry.questions.len();
    entry
        .questions
        .retain(|_, question| !question.answer.is_closed());
    if entry.questions.len() < before && entry.questions.is_empty() && entry.outcome.is_none() {
        entry.task.status = TaskStatus::Working;
        entry.task.last_updated_at = current_timestamp();
    }
}

/// `key`, or `key-2`, `key-3`, ... when a question of the task had it already.
fn unique(keys: &BTreeSet<String>, key: String) -> String {
    let mut candidate = key.clone();
    let mut n = 1;
    while keys.contains(&candidate) {
        n += 1;
        candidate = format!("{key}-{n}");
    }
    candidate
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

    fn elicitation() -> InputRequest {
        let params = json!({"mode": "form", "message": "Sure?", "requestedSchema": {"type": "object", "properties": {}}});
        super::super::input_required::input_request("elicitation/create", params).unwrap()
    }

    /// The keys of the questions task `id` waits on, as `tasks/get` lists them.
    fn waiting(store: &TaskStore, id: &str) -> Vec<String> {
        let got = serde_json::to_value(store.get(id, &None).unwrap()).unwrap();
        got["inputRequests"]
            .as_object()
            .map(|requests| requests.keys().cloned().collect())
            .unwrap_or_default()
    }

    #[test]
    fn questions_get_keys_unique_in_the_tasks_life_and_their_answers() {
        let store = store(60_000, 10);
        let (task, _) = store.create(None).unwrap();
        let id = &task.task_id;
        let mut first = store
            .ask(id, None, "elicitation/create", elicitation())
            .unwrap();
        let mut named = store
            .ask(id, Some("confirm"), "elicitation/create", elicitation())
            .unwrap();
        let got = serde_json::to_value(store.get(id, &None).unwrap()).unwrap();
        assert_eq!(got["status"], "input_required");
        assert_eq!(waiting(&store, id), ["confirm", "elicitation-1"]);

        let accept = json!({"action": "accept", "content": {}});
        let answers = InputResponses::from([("confirm".to_owned(), accept.clone())]);
        store.answer(id, &None, answers).unwrap();
        assert_eq!(named.try_recv().unwrap(), accept);
        assert!(first.try_recv().is_err(), "unanswered");
        // A key asked again after its answer is another question.
        let _again = store
            .ask(id, Some("confirm"), "elicitation/create", elicitation())
            .unwrap();
        assert_eq!(waiting(&store, id), ["confirm-2", "elicitation-1"]);

        // Another session can't answer; a settled task takes no more questions.
        let theirs = Some("session-b".to_owned());
        assert_eq!(
            store.answer(id, &theirs, InputResponses::new()),
            Err(AnswerError::Unknown)
        );
        store.finish(id, TaskPayload::Cancelled);
        assert!(first.try_recv().is_err(), "dropped with the task");
        assert!(store
            .ask(id, None, "elicitation/create", elicitation())
            .is_none());
        let got = serde_json::to_value(store.get(id, &None).unwrap()).unwrap();
        assert!(got.get("inputRequests").is_none(), "{got}");
    }

    #[test]
    fn the_last_answer_puts_the_task_back_to_work() {
        let store = store(60_000, 10);
        let (task, _) = store.create(None).unwrap();
        let id = &task.task_id;
        let _asked = store
            .ask(id, Some("q"), "elicitation/create", elicitation())
            .unwrap();
        let wrong = InputResponses::from([("q".to_owned(), json!({"content": {}}))]);
        assert!(matches!(
            store.answer(id, &None, wrong),
            Err(AnswerError::Invalid(_))
        ));
        assert_eq!(
            store.get(id, &None).unwrap().status(),
            TaskStatus::InputRequired
        );
        let right = InputResponses::from([("q".to_owned(), json!({"action": "decline"}))]);
        store.answer(id, &None, right).unwrap();
        assert_eq!(store.get(id, &None).unwrap().status(), TaskStatus::Working);
    }

    #[test]
    fn a_question_nobody_waits_on_any_more_is_withdrawn() {
        let store = store(60_000, 10);
        let (task, _) = store.create(None).unwrap();
        let id = &task.task_id;
        let kept = store
            .ask(id, Some("kept"), "elicitation/create", elicitation())
            .unwrap();
        let given_up = store
            .ask(id, Some("given_up"), "elicitation/create", elicitation())
            .unwrap();
        assert_eq!(waiting(&store, id), ["given_up", "kept"]);
        // The call's deadline passed for one question: its receiver is gone.
        drop(given_up);
        assert_eq!(waiting(&store, id), ["kept"]);
        assert_eq!(
            store.get(id, &None).unwrap().status(),
            TaskStatus::InputRequired
        );
        drop(kept);
        assert!(waiting(&store, id).is_empty());
        assert_eq!(store.get(id, &None).unwrap().status(), TaskStatus::Working);
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
