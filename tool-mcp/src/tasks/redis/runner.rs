//! This process's part in the shared store: the calls it runs as tasks (their cancellation
//! tokens and the questions they wait on, which can't live in Redis), the sessions it
//! serves, and the loop that renews its lease and hears about its tasks.

use super::Redis;
use crate::lock::lock;
use crate::tasks::ids::unique;
use crate::tasks::limits::said;
use crate::tasks::owner::Owner;
use rmcp::task_manager::current_timestamp;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

/// The tasks this process runs, and the sessions it serves.
pub(crate) struct Runner {
    /// This process's id in the store: its lease and its channel are named by it.
    pub(super) id: String,
    local: Mutex<HashMap<String, Local>>,
    /// The live sessions, once a session manager reports them; `None` trusts the
    /// transport's session id. Sessions live in one process, as their requests do.
    live: Mutex<Option<HashSet<String>>>,
}

/// A task this process runs.
pub(crate) struct Local {
    owner: Owner,
    pub(super) cancel: CancellationToken,
    /// When its TTL runs out: the call is stopped then, as its record expires.
    pub(super) expires: Instant,
    /// Whether its record exists yet: until then the loop leaves it alone.
    recorded: bool,
    /// The questions the call waits on, by key.
    waiting: HashMap<String, oneshot::Sender<Value>>,
    /// Every key given so far: a key names one question in a task's life.
    keys: BTreeSet<String>,
    /// How many unnamed questions of each kind were asked.
    unnamed: BTreeMap<&'static str, usize>,
}

impl Local {
    pub(super) fn new(owner: Owner, cancel: CancellationToken, expires: Instant) -> Local {
        Local {
            owner,
            cancel,
            expires,
            recorded: false,
            waiting: HashMap::new(),
            keys: BTreeSet::new(),
            unnamed: BTreeMap::new(),
        }
    }
}

impl Runner {
    pub(super) fn new(id: String) -> Runner {
        Runner {
            id,
            local: Mutex::default(),
            live: Mutex::default(),
        }
    }

    /// The channel this process hears about its tasks on.
    pub(super) fn channel(&self, prefix: &str) -> String {
        format!("{prefix}:runner:{}", self.id)
    }

    pub(super) fn insert(&self, id: String, local: Local) {
        lock(&self.local).insert(id, local);
    }

    pub(super) fn recorded(&self, id: &str) {
        if let Some(local) = lock(&self.local).get_mut(id) {
            local.recorded = true;
        }
    }

    /// Takes task `id` out of this process's tasks.
    pub(crate) fn forget(&self, id: &str) -> Option<Local> {
        lock(&self.local).remove(id)
    }

    /// Whether this process runs task `id`.
    pub(super) fn runs(&self, id: &str) -> bool {
        lock(&self.local).contains_key(id)
    }

    /// A question of task `id`'s call, under `key` (made unique in the task's life) or
    /// `sampling-1`, `elicitation-1`, ... when unnamed: its key and where its answer comes.
    /// `None` when the task isn't running here.
    pub(super) fn wait(
        &self,
        id: &str,
        key: Option<&str>,
        method: &str,
    ) -> Option<(String, oneshot::Receiver<Value>)> {
        let mut local = lock(&self.local);
        let task = local.get_mut(id)?;
        let key = match key {
            Some(key) => key.to_owned(),
            None => crate::rounds::input_required::unnamed_key(&mut task.unnamed, method),
        };
        let key = unique(&task.keys, key);
        task.keys.insert(key.clone());
        let (answer, answered) = oneshot::channel();
        task.waiting.insert(key.clone(), answer);
        Some((key, answered))
    }

    /// The question under `key` was not kept: nothing waits on it.
    pub(super) fn unwait(&self, id: &str, key: &str) {
        if let Some(task) = lock(&self.local).get_mut(id) {
            task.waiting.remove(key);
        }
    }

    /// Whether `owner` may start a task: its session, if it has one, is live here.
    pub(super) fn is_live(&self, owner: &Owner) -> bool {
        match (&owner.session, &*lock(&self.live)) {
            (Some(session), Some(live)) => live.contains(session),
            _ => true,
        }
    }

    pub(crate) fn track_sessions(&self) {
        lock(&self.live).get_or_insert_with(HashSet::new);
    }

    pub(crate) fn session_started(&self, id: &str) {
        lock(&self.live)
            .get_or_insert_with(HashSet::new)
            .insert(id.to_owned());
    }

    /// Session `id` ended: its calls are stopped; returns their task ids.
    pub(super) fn end_session(&self, id: &str) -> Vec<String> {
        if let Some(live) = &mut *lock(&self.live) {
            live.remove(id);
        }
        let mut local = lock(&self.local);
        let gone: Vec<String> = local
            .iter()
            .filter(|(_, task)| task.owner.session.as_deref() == Some(id))
            .map(|(task, _)| task.clone())
            .collect();
        for task in &gone {
            if let Some(task) = local.remove(task) {
                task.cancel.cancel();
            }
        }
        gone
    }

    /// The tasks the loop looks after: recorded ones. Those past their TTL are taken out
    /// and their calls stopped (their records expire by themselves).
    fn due(&self) -> Vec<String> {
        let mut local = lock(&self.local);
        let now = Instant::now();
        local.retain(|_, task| {
            let alive = task.expires > now;
            if !alive {
                task.cancel.cancel();
            }
            alive
        });
        local
            .iter()
            .filter(|(_, task)| task.recorded)
            .map(|(id, _)| id.clone())
            .collect()
    }

    /// The keys of task `id`'s questions whose call stopped waiting (its deadline passed),
    /// taken out.
    fn unwaited(&self, id: &str) -> Vec<String> {
        let mut local = lock(&self.local);
        let Some(task) = local.get_mut(id) else {
            return Vec::new();
        };
        let gone: Vec<String> = task
            .waiting
            .iter()
            .filter(|(_, answer)| answer.is_closed())
            .map(|(key, _)| key.clone())
            .collect();
        for key in &gone {
            task.waiting.remove(key);
        }
        gone
    }

    /// Hands the answers to the questions waiting for them.
    fn deliver(&self, id: &str, answers: HashMap<String, String>) {
        let mut local = lock(&self.local);
        let Some(task) = local.get_mut(id) else {
            return;
        };
        for (key, answer) in answers {
            let (Some(waiting), Ok(answer)) =
                (task.waiting.remove(&key), serde_json::from_str(&answer))
            else {
                continue;
            };
            // A call that stopped waiting (cancelled) has no receiver: nothing to tell.
            let _ = waiting.send(answer);
        }
    }
}

/// Starts the loop that renews this process's lease and hears about its tasks, each third
/// of a lease and whenever a message comes. It ends when the store is dropped.
pub(super) fn start(redis: &Arc<Redis>, mut heard: mpsc::Receiver<redis::PushInfo>) {
    let weak = Arc::downgrade(redis);
    let every = redis.config.lease / 3;
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                push = heard.recv() => {
                    let (Some(push), Some(redis)) = (push, weak.upgrade()) else {
                        break;
                    };
                    if let Some(id) = nudged(&push) {
                        if redis.runner.runs(&id) {
                            poll(&redis, &id).await;
                        }
                    }
                }
                _ = tick.tick() => {
                    let Some(redis) = weak.upgrade() else {
                        break;
                    };
                    if let Err(error) = redis.renew_lease().await {
                        tracing::warn!(
                            error = said(&*error.source_error()),
                            "renewing this process's lease on its tasks"
                        );
                    }
                    for id in redis.runner.due() {
                        withdraw_unwaited(&redis, &id).await;
                        poll(&redis, &id).await;
                    }
                }
            }
        }
    });
}

/// The task id a channel message names.
fn nudged(push: &redis::PushInfo) -> Option<String> {
    if push.kind != redis::PushKind::Message {
        return None;
    }
    redis::from_redis_value_ref(push.data.get(1)?).ok()
}

/// Hears what changed for task `id`: answers go to the questions waiting for them; a task
/// settled by another process (cancelled, failed) or gone has its call stopped.
pub(super) async fn poll(redis: &Redis, id: &str) {
    let taken: Result<(String, HashMap<String, String>), _> = redis
        .run(&redis.scripts.take, &[id], || {
            format!("polling task {id:?}")
        })
        .await;
    let (status, answers) = match taken {
        Ok(taken) => taken,
        // The next tick tries again.
        Err(error) => {
            tracing::debug!(task = id, error = said(&error), "polling a task");
            return;
        }
    };
    redis.runner.deliver(id, answers);
    if status != "working" && status != "input_required" {
        if let Some(local) = redis.runner.forget(id) {
            local.cancel.cancel();
        }
    }
}

/// Takes the questions task `id`'s call stopped waiting on out of its record.
pub(super) async fn withdraw_unwaited(redis: &Redis, id: &str) {
    let gone = redis.runner.unwaited(id);
    if gone.is_empty() {
        return;
    }
    let now = current_timestamp();
    let mut args = vec![id, now.as_str()];
    args.extend(gone.iter().map(String::as_str));
    let withdrawn: Result<i64, _> = redis
        .run(&redis.scripts.withdraw, &args, || {
            format!("withdrawing questions of task {id:?}")
        })
        .await;
    if let Err(error) = withdrawn {
        tracing::debug!(task = id, error = said(&error), "withdrawing questions");
    }
}
