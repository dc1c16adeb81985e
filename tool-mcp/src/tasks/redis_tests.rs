//! The Redis store against a real Redis (`tests/support/src/redis.rs`): two connections
//! stand for two processes (each has its own id, lease and channel), as two servers of a
//! fleet would. The processes themselves, behind a balancer, are in
//! `tool-examples/tests/mcp_tasks_redis.rs`.

use super::*;
use crate::tasks::limits::Limits;
use serde_json::json;
use std::time::Duration;
use tool_test_support::redis::RedisServer;

fn limits(max: usize) -> Limits {
    Limits {
        ttl: Duration::from_secs(60),
        poll_interval: Duration::from_millis(500),
        max,
        max_per_client: max,
        bytes: 1 << 20,
        bytes_per_client: 1 << 20,
    }
}

/// A process of the fleet: its own connection, lease and channel.
async fn process(redis: &RedisServer, lease: Duration, max: usize) -> RedisTasks {
    let config = RedisConfig::new(redis.url())
        .lease(lease)
        .timeout(Duration::from_secs(1));
    RedisTasks::new(Redis::connect(config).await.unwrap(), limits(max))
}

/// Two processes of the fleet on `redis`, with a 10 s lease and room for `max` tasks.
async fn two(redis: &RedisServer, max: usize) -> (RedisTasks, RedisTasks) {
    let lease = Duration::from_secs(10);
    (
        process(redis, lease, max).await,
        process(redis, lease, max).await,
    )
}

/// A new task of `tasks`, created for anyone.
async fn created(tasks: &RedisTasks, cancel: CancellationToken) -> Task {
    tasks.create(anyone(), 0, cancel).await.unwrap()
}

fn anyone() -> Owner {
    Owner::default()
}

fn completed(text: &str) -> TaskPayload {
    let Value::Object(result) = json!({"content": [{"type": "text", "text": text}]}) else {
        unreachable!()
    };
    TaskPayload::Completed { result }
}

fn elicitation() -> InputRequest {
    serde_json::from_value(json!({
        "method": "elicitation/create",
        "params": {
            "mode": "form",
            "message": "Delete it?",
            "requestedSchema": {"type": "object", "properties": {"confirm": {"type": "boolean"}}}
        }
    }))
    .unwrap()
}

/// Waits (at most 10 s) until `check` holds.
async fn eventually(what: &str, mut check: impl AsyncFnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if check().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("not within 10 s: {what}");
}

#[tokio::test]
async fn a_task_created_by_one_process_is_read_and_settled_through_another() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (a, b) = two(&redis, 10).await;
    let task = a
        .create(anyone(), 10, CancellationToken::new())
        .await
        .unwrap();
    let seen = b.get(&task.task_id, &anyone()).await.unwrap().unwrap();
    assert_eq!(seen.status(), TaskStatus::Working);
    assert_eq!(seen.task.ttl_ms, Some(60_000));
    assert_eq!(seen.task.poll_interval_ms, Some(500));

    a.finish(&task.task_id, completed("done")).await;
    let done = b.get(&task.task_id, &anyone()).await.unwrap().unwrap();
    assert_eq!(done.status(), TaskStatus::Completed);
    let wire = serde_json::to_value(&done).unwrap();
    assert_eq!(wire["result"]["content"][0]["text"], "done", "{wire}");

    // Another session's task is nobody else's.
    let other = Owner::session("someone-else");
    assert!(b.get(&task.task_id, &other).await.unwrap().is_none());
    assert!(b.get("no-such-task", &anyone()).await.unwrap().is_none());
}

#[tokio::test]
async fn max_tasks_counts_every_process_and_settled_tasks_make_way() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (a, b) = two(&redis, 2).await;
    let first = a
        .create(anyone(), 0, CancellationToken::new())
        .await
        .unwrap();
    b.create(anyone(), 0, CancellationToken::new())
        .await
        .unwrap();
    let refused = a.create(anyone(), 0, CancellationToken::new()).await;
    assert_eq!(refused.unwrap_err(), TaskStoreError::ClientFull { max: 2 });

    // Once one has settled, it makes way (the oldest settled first).
    a.finish(&first.task_id, completed("one")).await;
    let third = b.create(anyone(), 0, CancellationToken::new()).await;
    assert!(third.is_ok(), "{third:?}");
    assert!(a.get(&first.task_id, &anyone()).await.unwrap().is_none());
}

#[tokio::test]
async fn a_question_asked_in_one_process_is_answered_through_another() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (a, b) = two(&redis, 10).await;
    let task = created(&a, CancellationToken::new()).await;
    let answer = a
        .ask(&task.task_id, None, "elicitation/create", elicitation())
        .await
        .unwrap();
    let waiting = b.get(&task.task_id, &anyone()).await.unwrap().unwrap();
    assert_eq!(waiting.status(), TaskStatus::InputRequired);
    let wire = serde_json::to_value(&waiting).unwrap();
    assert_eq!(
        wire["inputRequests"]["elicitation-1"]["method"], "elicitation/create",
        "{wire}"
    );

    // An answer of the wrong shape is refused, and nothing is taken.
    let wrong: InputResponses =
        serde_json::from_value(json!({"elicitation-1": {"nope": true}})).unwrap();
    assert!(matches!(
        b.answer(&task.task_id, &anyone(), wrong).await,
        Err(AnswerError::Invalid(_))
    ));
    let right: InputResponses = serde_json::from_value(
        json!({"elicitation-1": {"action": "accept", "content": {"confirm": true}}}),
    )
    .unwrap();
    b.answer(&task.task_id, &anyone(), right).await.unwrap();
    let heard = tokio::time::timeout(Duration::from_secs(10), answer)
        .await
        .expect("the answer reached the process running the task within 10 s")
        .unwrap();
    assert_eq!(heard["action"], "accept");
    let working = b.get(&task.task_id, &anyone()).await.unwrap().unwrap();
    assert_eq!(working.status(), TaskStatus::Working);
}

#[tokio::test]
async fn a_cancel_through_another_process_stops_the_call() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (a, b) = two(&redis, 10).await;
    let cancel = CancellationToken::new();
    let task = a.create(anyone(), 0, cancel.clone()).await.unwrap();
    b.cancel(&task.task_id, &anyone()).await.unwrap().unwrap();
    tokio::time::timeout(Duration::from_secs(10), cancel.cancelled())
        .await
        .expect("the call was stopped within 10 s");
    // The call's own end changes nothing: the task stays cancelled.
    a.finish(&task.task_id, completed("late")).await;
    let seen = a.get(&task.task_id, &anyone()).await.unwrap().unwrap();
    assert_eq!(seen.status(), TaskStatus::Cancelled);
}

#[tokio::test]
async fn a_task_whose_process_stopped_is_failed_by_another_saying_so() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let lease = Duration::from_millis(400);
    let a = process(&redis, lease, 10).await;
    let b = process(&redis, lease, 10).await;
    let task = created(&a, CancellationToken::new()).await;
    // A stops: its connection and the loop that renews its lease go (as at a `kill -9`,
    // where nothing more is said to Redis either).
    drop(a);
    eventually("the task is failed once the lease ran out", async || {
        let seen = b.get(&task.task_id, &anyone()).await.unwrap().unwrap();
        seen.status() == TaskStatus::Failed
    })
    .await;
    let seen = b.get(&task.task_id, &anyone()).await.unwrap().unwrap();
    let wire = serde_json::to_string(&seen).unwrap();
    assert!(
        wire.contains("the process running this task stopped"),
        "{wire}"
    );
}

#[tokio::test]
async fn redis_down_is_a_clear_error_and_a_result_is_stored_once_it_is_back() {
    let Some(mut redis) = RedisServer::start() else {
        return;
    };
    // A lease longer than the outage: the task must not be failed for it.
    let a = process(&redis, Duration::from_secs(30), 10).await;
    let task = created(&a, CancellationToken::new()).await;
    redis.stop();
    let error = a.get(&task.task_id, &anyone()).await.unwrap_err();
    let said = said(&error);
    assert!(
        matches!(error, TaskStoreError::Unavailable(_)) && said.contains("reading task"),
        "{said}"
    );
    // The call ends while Redis is down: its result waits, and is stored when Redis is back.
    let finishing = tokio::spawn({
        let (a, id) = (
            RedisTasks::new(Arc::clone(&a.redis), a.limits),
            task.task_id.clone(),
        );
        async move { a.finish(&id, completed("kept")).await }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    redis.restart();
    tokio::time::timeout(Duration::from_secs(20), finishing)
        .await
        .expect("the result was stored within 20 s of Redis coming back")
        .unwrap();
    let seen = a.get(&task.task_id, &anyone()).await.unwrap().unwrap();
    assert_eq!(seen.status(), TaskStatus::Completed);
}

#[tokio::test]
async fn a_stored_result_outlives_every_process_and_a_redis_restart() {
    let Some(mut redis) = RedisServer::start() else {
        return;
    };
    let a = process(&redis, Duration::from_secs(10), 10).await;
    let task = created(&a, CancellationToken::new()).await;
    a.finish(&task.task_id, completed("kept")).await;
    drop(a);
    redis.restart();
    let b = process(&redis, Duration::from_secs(10), 10).await;
    let seen = b.get(&task.task_id, &anyone()).await.unwrap().unwrap();
    assert_eq!(seen.status(), TaskStatus::Completed);
}

#[tokio::test]
async fn redis_down_at_start_is_a_clear_start_up_error() {
    let port = tool_test_support::gateways::free_port();
    let url = format!("redis://:secret@127.0.0.1:{port}/0");
    let config = RedisConfig::new(url).timeout(Duration::from_secs(2));
    let error = Redis::connect(config).await.unwrap_err();
    let said = said(&error);
    assert!(
        said.contains(&format!(
            "connecting to Redis at redis://***@127.0.0.1:{port}/0"
        )),
        "{said}"
    );
    assert!(
        !said.contains("secret") && !format!("{error:?}").contains("secret"),
        "{said}"
    );
}

#[tokio::test]
async fn after_redis_lost_its_data_a_live_processs_new_task_is_not_failed() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (a, b) = two(&redis, 10).await;
    // As a Redis restarted without persistence: every key gone, leases included, while
    // both processes live on (their next renewal is seconds away).
    assert!(redis.command(&["FLUSHALL"]).starts_with("+OK"));
    let task = created(&a, CancellationToken::new()).await;
    let seen = b.get(&task.task_id, &anyone()).await.unwrap().unwrap();
    assert_eq!(seen.status(), TaskStatus::Working);
}
