use super::*;
use serde_json::json;

fn limits(ttl_ms: u64, max: usize) -> Limits {
    Limits {
        ttl: Duration::from_millis(ttl_ms),
        poll_interval: Duration::from_millis(500),
        max,
        max_per_client: usize::MAX,
        bytes: 1 << 20,
        bytes_per_client: 1 << 20,
    }
}

fn store(ttl_ms: u64, max: usize) -> MemoryTasks {
    MemoryTasks::new(limits(ttl_ms, max))
}

fn anyone() -> Owner {
    Owner::default()
}

fn completed(text: &str) -> TaskPayload {
    let result = json!({"content": [{"type": "text", "text": text}]});
    let serde_json::Value::Object(result) = result else {
        unreachable!()
    };
    TaskPayload::Completed { result }
}

#[test]
fn a_created_task_is_working_until_finished() {
    let store = store(60_000, 10);
    let (task, _) = store.create(anyone(), 0).unwrap();
    assert_eq!(task.ttl_ms, Some(60_000));
    assert_eq!(task.poll_interval_ms, Some(500));
    let got = store.get(&task.task_id, &anyone()).unwrap();
    assert_eq!(got.status(), TaskStatus::Working);

    store.finish(&task.task_id, completed("done"));
    let got = store.get(&task.task_id, &anyone()).unwrap();
    assert_eq!(got.status(), TaskStatus::Completed);
    let wire = serde_json::to_value(&got).unwrap();
    assert_eq!(wire["result"]["content"][0]["text"], "done");
}

#[test]
fn tasks_expire_after_their_ttl_and_their_call_is_stopped() {
    let store = store(30, 10);
    let (task, token) = store.create(anyone(), 0).unwrap();
    assert!(store.get(&task.task_id, &anyone()).is_some());
    std::thread::sleep(Duration::from_millis(60));
    assert!(store.get(&task.task_id, &anyone()).is_none());
    assert!(token.is_cancelled());
    assert_eq!(store.len(), 0);
}

/// Item 7: with no request to sweep, the task's own timer stops its call at the TTL.
#[tokio::test]
async fn a_timer_stops_the_call_at_the_ttl_with_no_request() {
    let store = store(30, 10);
    let (_, token) = store.create(anyone(), 100).unwrap();
    tokio::time::timeout(Duration::from_secs(5), token.cancelled())
        .await
        .expect("cancelled at the TTL");
    // And what it kept is given back, counted from the timer alone.
    assert_eq!(store.bytes(&anyone()), (0, 0));
}

#[test]
fn past_the_cap_a_new_task_is_refused_until_one_expires() {
    let store = store(40, 2);
    store.create(anyone(), 0).unwrap();
    store.create(anyone(), 0).unwrap();
    assert_eq!(
        store.create(anyone(), 0).unwrap_err(),
        TaskStoreError::Full { max: 2 }
    );
    std::thread::sleep(Duration::from_millis(80));
    assert!(store.create(anyone(), 0).is_ok());
}

/// Item 3: a client gets its share and no more; its own settled tasks make way first, a
/// running one never does, and other clients still get theirs.
#[test]
fn a_client_keeps_its_share_and_its_settled_tasks_make_way() {
    let store = MemoryTasks::new(Limits {
        max_per_client: 2,
        ..limits(60_000, 5)
    });
    let a = Owner::session("a");
    let (first, first_token) = store.create(a.clone(), 0).unwrap();
    let (second, _) = store.create(a.clone(), 0).unwrap();
    assert_eq!(
        store.create(a.clone(), 0).unwrap_err(),
        TaskStoreError::ClientFull { max: 2 }
    );
    for other in ["b", "c"] {
        store.create(Owner::session(other), 0).unwrap();
    }
    store.finish(&second.task_id, completed("second"));
    store.finish(&first.task_id, completed("first"));
    // Both settled: the one that settled first goes.
    store.create(a.clone(), 0).unwrap();
    assert!(store.get(&second.task_id, &a).is_none());
    assert!(store.get(&first.task_id, &a).is_some());
    assert!(!first_token.is_cancelled());
    // Sessionless clients are told apart by address.
    let here = Owner {
        session: None,
        address: Some([127, 0, 0, 1].into()),
    };
    store.create(here.clone(), 0).unwrap();
    // The store is full (5): a's settled task goes before anyone's running one.
    let there = Owner {
        address: Some([127, 0, 0, 2].into()),
        ..here
    };
    store.create(there.clone(), 0).unwrap();
    assert!(store.get(&first.task_id, &a).is_none());
    assert_eq!(
        store.create(there, 0).unwrap_err(),
        TaskStoreError::Full { max: 5 }
    );
}

/// Item 4: the bytes a task keeps (arguments while it runs, questions, result) count
/// per client and in all; what doesn't fit is refused, or the task fails saying so.
#[test]
fn the_bytes_tasks_keep_are_bounded_per_client_and_in_all() {
    let store = MemoryTasks::new(Limits {
        bytes: 2_500,
        bytes_per_client: 1_500,
        ..limits(60_000, 10)
    });
    let (a, b, c) = (
        Owner::session("a"),
        Owner::session("b"),
        Owner::session("c"),
    );
    let (running, _) = store.create(a.clone(), 1_000).unwrap();
    assert!(matches!(
        store.create(a.clone(), 1_000),
        Err(TaskStoreError::ClientBytes {
            needed: 1_000,
            left: 500,
            max: 1_500
        })
    ));
    store.create(b.clone(), 1_000).unwrap();
    assert!(matches!(
        store.create(c.clone(), 1_000),
        Err(TaskStoreError::Bytes { left: 500, .. })
    ));
    assert_eq!(store.bytes(&a), (2_000, 1_000));

    // A question counts too.
    let big = json!({"mode": "form", "message": "x".repeat(600), "requestedSchema": {"type": "object", "properties": {}}});
    let big = crate::rounds::input_required::input_request("elicitation/create", big).unwrap();
    let refused = store.ask(&running.task_id, None, "elicitation/create", big);
    assert!(matches!(refused, Err(AskError::TooLarge(_))), "{refused:?}");
    store
        .ask(&running.task_id, None, "elicitation/create", elicitation())
        .unwrap();
    let asked = store.bytes(&a).1 - 1_000;
    assert!(asked > 0);

    // Settled, the task keeps its result instead of its arguments and question.
    store.finish(&running.task_id, completed("done"));
    let (_, kept) = store.bytes(&a);
    assert_eq!(kept, payload_len(&completed("done")));
    store.create(c, 1_000).unwrap();

    // A result larger than what is left fails the task, saying so.
    let (late, _) = store.create(a.clone(), 0).unwrap();
    store.finish(&late.task_id, completed(&"y".repeat(2_000)));
    let got = serde_json::to_value(store.get(&late.task_id, &a).unwrap()).unwrap();
    assert_eq!(got["status"], "failed", "{got}");
    let why = got["error"]["message"].as_str().unwrap();
    assert!(why.contains("is not kept"), "{why}");
}

/// Item 8: a session's end cancels and drops its tasks, and the ended session starts
/// none.
#[test]
fn a_sessions_end_cancels_and_drops_its_tasks() {
    let store = store(60_000, 10);
    store.track_sessions();
    let (a, b) = (Owner::session("a"), Owner::session("b"));
    assert_eq!(
        store.create(a.clone(), 0).unwrap_err(),
        TaskStoreError::SessionEnded,
        "never opened"
    );
    store.session_started("a");
    store.session_started("b");
    let (mine, my_call) = store.create(a.clone(), 10).unwrap();
    let (theirs, their_call) = store.create(b.clone(), 10).unwrap();
    store.session_ended("a");
    assert!(my_call.is_cancelled());
    assert!(store.get(&mine.task_id, &a).is_none());
    assert_eq!(store.bytes(&a), (10, 0));
    assert_eq!(
        store.create(a, 0).unwrap_err(),
        TaskStoreError::SessionEnded
    );
    assert!(!their_call.is_cancelled());
    assert!(store.get(&theirs.task_id, &b).is_some());
}

#[test]
fn cancel_settles_a_running_task_and_leaves_a_settled_one() {
    let store = store(60_000, 10);
    let (running, token) = store.create(anyone(), 0).unwrap();
    store.cancel(&running.task_id, &anyone()).unwrap();
    assert!(token.is_cancelled());
    // What the stopped call reports afterwards doesn't change the outcome.
    store.finish(
        &running.task_id,
        TaskPayload::Failed {
            error: Default::default(),
        },
    );
    let got = store.get(&running.task_id, &anyone()).unwrap();
    assert_eq!(got.status(), TaskStatus::Cancelled);

    let (done, token) = store.create(anyone(), 0).unwrap();
    store.finish(
        &done.task_id,
        TaskPayload::Failed {
            error: Default::default(),
        },
    );
    store.cancel(&done.task_id, &anyone()).unwrap();
    assert!(!token.is_cancelled());
    assert_eq!(
        store.get(&done.task_id, &anyone()).unwrap().status(),
        TaskStatus::Failed
    );
}

#[test]
fn a_session_sees_only_its_own_tasks() {
    let store = store(60_000, 10);
    let mine = Owner::session("session-a");
    let theirs = Owner::session("session-b");
    let (task, token) = store.create(mine.clone(), 0).unwrap();
    assert!(store.get(&task.task_id, &theirs).is_none());
    assert!(store.get(&task.task_id, &anyone()).is_none());
    assert!(store.cancel(&task.task_id, &theirs).is_none());
    assert!(!token.is_cancelled());
    assert!(store.get(&task.task_id, &mine).is_some());
}

fn elicitation() -> InputRequest {
    let params = json!({"mode": "form", "message": "Sure?", "requestedSchema": {"type": "object", "properties": {}}});
    crate::rounds::input_required::input_request("elicitation/create", params).unwrap()
}

/// The keys of the questions task `id` waits on, as `tasks/get` lists them.
fn waiting(store: &MemoryTasks, id: &str) -> Vec<String> {
    let got = serde_json::to_value(store.get(id, &anyone()).unwrap()).unwrap();
    got["inputRequests"]
        .as_object()
        .map(|requests| requests.keys().cloned().collect())
        .unwrap_or_default()
}

#[test]
fn questions_get_keys_unique_in_the_tasks_life_and_their_answers() {
    let store = store(60_000, 10);
    let (task, _) = store.create(anyone(), 0).unwrap();
    let id = &task.task_id;
    let mut first = store
        .ask(id, None, "elicitation/create", elicitation())
        .unwrap();
    let mut named = store
        .ask(id, Some("confirm"), "elicitation/create", elicitation())
        .unwrap();
    let got = serde_json::to_value(store.get(id, &anyone()).unwrap()).unwrap();
    assert_eq!(got["status"], "input_required");
    assert_eq!(waiting(&store, id), ["confirm", "elicitation-1"]);

    let accept = json!({"action": "accept", "content": {}});
    let answers = InputResponses::from([("confirm".to_owned(), accept.clone())]);
    store.answer(id, &anyone(), answers).unwrap();
    assert_eq!(named.try_recv().unwrap(), accept);
    assert!(first.try_recv().is_err(), "unanswered");
    // A key asked again after its answer is another question.
    let _again = store
        .ask(id, Some("confirm"), "elicitation/create", elicitation())
        .unwrap();
    assert_eq!(waiting(&store, id), ["confirm-2", "elicitation-1"]);

    // Another session can't answer; a settled task takes no more questions.
    let theirs = Owner::session("session-b");
    assert_eq!(
        store.answer(id, &theirs, InputResponses::new()),
        Err(AnswerError::Unknown)
    );
    store.finish(id, TaskPayload::Cancelled);
    assert!(first.try_recv().is_err(), "dropped with the task");
    assert!(matches!(
        store.ask(id, None, "elicitation/create", elicitation()),
        Err(AskError::Ended)
    ));
    let got = serde_json::to_value(store.get(id, &anyone()).unwrap()).unwrap();
    assert!(got.get("inputRequests").is_none(), "{got}");
}

#[test]
fn the_last_answer_puts_the_task_back_to_work() {
    let store = store(60_000, 10);
    let (task, _) = store.create(anyone(), 0).unwrap();
    let id = &task.task_id;
    let _asked = store
        .ask(id, Some("q"), "elicitation/create", elicitation())
        .unwrap();
    let wrong = InputResponses::from([("q".to_owned(), json!({"content": {}}))]);
    assert!(matches!(
        store.answer(id, &anyone(), wrong),
        Err(AnswerError::Invalid(_))
    ));
    assert_eq!(
        store.get(id, &anyone()).unwrap().status(),
        TaskStatus::InputRequired
    );
    let right = InputResponses::from([("q".to_owned(), json!({"action": "decline"}))]);
    store.answer(id, &anyone(), right).unwrap();
    assert_eq!(
        store.get(id, &anyone()).unwrap().status(),
        TaskStatus::Working
    );
    // The answered question no longer counts.
    assert_eq!(store.bytes(&anyone()), (0, 0));
}

#[test]
fn a_question_nobody_waits_on_any_more_is_withdrawn() {
    let store = store(60_000, 10);
    let (task, _) = store.create(anyone(), 0).unwrap();
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
        store.get(id, &anyone()).unwrap().status(),
        TaskStatus::InputRequired
    );
    // The withdrawn question no longer counts in the client's bytes.
    let (_, kept_bytes) = store.bytes(&anyone());
    drop(kept);
    assert!(waiting(&store, id).is_empty());
    assert_eq!(
        store.get(id, &anyone()).unwrap().status(),
        TaskStatus::Working
    );
    assert!(kept_bytes > 0);
    assert_eq!(store.bytes(&anyone()), (0, 0));
}

#[test]
fn ids_are_unique() {
    let store = store(60_000, 1000);
    let ids: std::collections::HashSet<_> = (0..1000)
        .map(|_| store.create(anyone(), 0).unwrap().0.task_id)
        .collect();
    assert_eq!(ids.len(), 1000);
}
