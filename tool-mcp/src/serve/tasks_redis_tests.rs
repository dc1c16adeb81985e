//! Two servers sharing a real Redis (`TaskStore::redis`), each on its own port with its own
//! connection, lease and channel, as two processes of a fleet: a task started on one is
//! read, answered and cancelled through the other. Separate processes behind a balancer,
//! and a process killed mid-task, are in `tool-examples/tests/mcp_tasks_redis.rs`.

use super::*;
use crate::tasks::TaskStore;
use crate::transport::{HttpOptions, HttpServer};
use crate::McpServer;
use tool_test_support::redis::RedisServer;

/// A server of the fleet on a free 127.0.0.1 port, its tasks in `redis`.
async fn member(
    tools: Vec<DynamicTool>,
    redis: String,
) -> (std::net::SocketAddr, tokio_util::sync::CancellationToken) {
    let registry = tools
        .into_iter()
        .fold(Registry::builder().without_inventory(), |b, t| b.dynamic(t))
        .build()
        .unwrap();
    let config = crate::RedisConfig::new(redis).timeout(Duration::from_secs(1));
    let store = TaskStore::redis(config).await.unwrap();
    let server = McpServer::new(registry).task_store(store);
    let http = HttpServer::bind(server, ([127, 0, 0, 1], 0).into(), HttpOptions::default())
        .await
        .unwrap();
    let (addr, stop) = (http.local_addr(), http.stop_token());
    tokio::spawn(http.run());
    (addr, stop)
}

/// Two servers of the fleet, each serving `tools()`.
async fn two(
    tools: impl Fn() -> Vec<DynamicTool>,
    redis: &RedisServer,
) -> [(std::net::SocketAddr, tokio_util::sync::CancellationToken); 2] {
    [
        member(tools(), redis.url()).await,
        member(tools(), redis.url()).await,
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_started_on_one_server_is_read_and_cancelled_through_the_other() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let stopped = Arc::new(AtomicBool::new(false));
    let wait = || vec![tool("wait", TaskSupport::Optional, Arc::clone(&stopped))];
    let [(a, stop_a), (b, stop_b)] = two(wait, &redis).await;
    let stopped_seen = Arc::clone(&stopped);
    tokio::task::spawn_blocking(move || {
        let id = started(a, "wait", json!({"ms": 50}));
        let done = settled(b, &id);
        assert_eq!(done["status"], "completed", "{done}");
        assert_eq!(
            done["result"]["content"][0]["text"], "waited 50 ms",
            "{done}"
        );

        let id = started(a, "wait", json!({"ms": 60_000}));
        let ack = post(b, "tasks/cancel", json!({"taskId": id}), true);
        assert!(ack.get("error").is_none(), "{ack}");
        let start = Instant::now();
        while !stopped_seen.load(Ordering::SeqCst) {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "the call on A still runs"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        let got = post(a, "tasks/get", json!({"taskId": id}), true);
        assert_eq!(got["result"]["status"], "cancelled", "{got}");
    })
    .await
    .unwrap();
    stop_a.cancel();
    stop_b.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_question_asked_on_one_server_is_answered_through_the_other() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let [(a, stop_a), (b, stop_b)] = two(|| vec![asking("confirm", 2, false)], &redis).await;
    tokio::task::spawn_blocking(move || {
        let id = started(a, "confirm", json!({}));
        let got = waiting(b, &id, &["q1", "q2"]);
        assert_eq!(
            got["inputRequests"]["q1"]["params"]["message"], "Sure?",
            "{got}"
        );
        let ack = post(
            b,
            "tasks/update",
            json!({"taskId": id, "inputResponses": {"q1": yes()}}),
            true,
        );
        assert!(ack.get("error").is_none(), "{ack}");
        waiting(a, &id, &["q2"]);
        let ack = post(
            a,
            "tasks/update",
            json!({"taskId": id, "inputResponses": {"q2": yes()}}),
            true,
        );
        assert!(ack.get("error").is_none(), "{ack}");
        let done = settled(b, &id);
        assert_eq!(done["status"], "completed", "{done}");
        assert_eq!(
            done["result"]["content"][0]["text"], "true true (task: true)",
            "{done}"
        );
    })
    .await
    .unwrap();
    stop_a.cancel();
    stop_b.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_restarting_mid_run_is_a_clear_error_then_the_task_is_found() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let stopped = Arc::new(AtomicBool::new(false));
    let wait = || vec![tool("wait", TaskSupport::Optional, Arc::clone(&stopped))];
    let [(a, stop_a), (b, stop_b)] = two(wait, &redis).await;
    let redis = Arc::new(std::sync::Mutex::new(redis));
    tokio::task::spawn_blocking(move || {
        let id = started(a, "wait", json!({"ms": 1500}));
        redis.lock().unwrap().stop();
        let got = post(b, "tasks/get", json!({"taskId": id}), true);
        let message = got["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("the task store is unavailable") && message.contains("reading task"),
            "{got}"
        );
        let created = post(
            b,
            "tools/call",
            json!({"name": "wait", "arguments": {"ms": 1}}),
            true,
        );
        let message = created["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains("creating task"), "{created}");
        // Back before the call ends (and within the lease): the task is found, and its
        // result is stored.
        redis.lock().unwrap().restart();
        let done = settled(b, &id);
        assert_eq!(done["status"], "completed", "{done}");
    })
    .await
    .unwrap();
    stop_a.cancel();
    stop_b.cancel();
}
