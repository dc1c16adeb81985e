//! The cases both engines run (`code_mode.rs` in process, `code_workers.rs` in worker
//! processes): snippets a model writes, run against real tools through the registry's
//! pipeline, and every class of bad input answered with a clear error while the host goes on.
//! The test binary's root says where the code runs: `crate::engine()`.

use crate::engine;
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tool_runtime::code::CodeLimits;
use tool_runtime::{tool, Registry, State, ToolContext, ToolError, ToolOutput};

/// How many times each test's tools ran, and when the slow ones started and ended.
#[derive(Default)]
struct Log {
    calls: AtomicUsize,
    spans: Mutex<Vec<(Instant, Instant)>>,
}

/// Add two numbers.
#[tool]
fn add(
    /// The first number.
    a: i64,
    /// The second number.
    b: i64,
    log: State<Log>,
) -> i64 {
    log.calls.fetch_add(1, Ordering::SeqCst);
    a + b
}

/// Wait a while, then say the word back.
#[tool(read_only)]
async fn slow_echo(
    /// What to say back.
    word: String,
    /// How long to wait, in milliseconds.
    ms: u64,
    log: State<Log>,
) -> String {
    let start = Instant::now();
    tokio::time::sleep(Duration::from_millis(ms)).await;
    log.spans.lock().unwrap().push((start, Instant::now()));
    word
}

/// Always fails.
#[tool]
fn flaky(
    /// Why it fails.
    reason: String,
) -> Result<String, ToolError> {
    Err(ToolError::new(format!("the disk is full ({reason})")).with_retry_hint("free some space"))
}

/// List the files in a directory.
#[tool(read_only)]
fn list_dir(
    /// The directory.
    path: String,
) -> Vec<String> {
    vec![format!("{path}/a.txt"), format!("{path}/b.txt")]
}

/// Find tools by a word in their name or description.
#[tool(read_only)]
fn search_tools(
    /// The word to look for.
    query: String,
    ctx: ToolContext,
) -> Vec<String> {
    let query = query.to_lowercase();
    ctx.tools()
        .filter(|t| t.name() != ctx.tool_name())
        .filter(|t| t.name().contains(&query) || t.description().to_lowercase().contains(&query))
        .map(|t| t.name().to_owned())
        .collect()
}

fn tools(log: &Arc<Log>) -> Arc<Registry> {
    Arc::new(
        Registry::builder()
            .without_inventory()
            .register(add::TOOL)
            .register(slow_echo::TOOL)
            .register(flaky::TOOL)
            .register(list_dir::TOOL)
            .register(search_tools::TOOL)
            .state_arc(Arc::clone(log))
            .build()
            .unwrap(),
    )
}

fn limits() -> CodeLimits {
    let mut limits = CodeLimits::default();
    limits.time = Duration::from_millis(500);
    limits.wall = Duration::from_secs(20);
    limits
}

/// The registry the model sees: the code tool alone.
async fn code_registry(log: &Arc<Log>) -> Registry {
    let code = tools(log).code_tool_with(engine().await.limits(limits()));
    Registry::builder()
        .without_inventory()
        .dynamic(code)
        .max_output(64 * 1024)
        .build()
        .unwrap()
}

async fn run(registry: &Registry, code: &str) -> ToolOutput {
    registry
        .call("run_python", &json!({ "code": code }).to_string())
        .await
}

#[tokio::test]
async fn a_loop_calls_a_tool_twenty_times_in_one_run() {
    let log = Arc::new(Log::default());
    let registry = code_registry(&log).await;
    let out = run(
        &registry,
        "total = 0\nfor i in range(20):\n    total = add(total, b=i)\ntotal",
    )
    .await;
    assert!(!out.is_error(), "{}", out.to_model_text());
    assert_eq!(out.to_model_text(), "190");
    assert_eq!(log.calls.load(Ordering::SeqCst), 20);
}

#[tokio::test]
async fn five_gathered_calls_run_at_once() {
    let log = Arc::new(Log::default());
    let registry = code_registry(&log).await;
    let code = r#"
import asyncio
words = await asyncio.gather(*[slow_echo_async(word=w, ms=300) for w in ["a", "b", "c", "d", "e"]])
"-".join(words)
"#;
    let out = run(&registry, code).await;
    assert_eq!(out.to_model_text(), "'a-b-c-d-e'");
    let spans = log.spans.lock().unwrap().clone();
    assert_eq!(spans.len(), 5);
    // They overlapped: every call started before any of them ended.
    let last_start = spans.iter().map(|s| s.0).max().unwrap();
    let first_end = spans.iter().map(|s| s.1).min().unwrap();
    assert!(
        last_start < first_end,
        "the five calls ran one after another"
    );
}

#[tokio::test]
async fn a_failing_tool_is_an_exception_the_code_catches() {
    let log = Arc::new(Log::default());
    let registry = code_registry(&log).await;
    let code = r#"
try:
    flaky(reason="test")
    outcome = "no error"
except RuntimeError as e:
    outcome = "caught: " + str(e)
outcome
"#;
    let out = run(&registry, code).await;
    let text = out.to_model_text();
    assert!(!out.is_error(), "{text}");
    assert!(
        text.contains("caught: flaky: the disk is full (test)"),
        "{text}"
    );
    assert!(text.contains("free some space"), "{text}");
}

#[tokio::test]
async fn bad_arguments_raise_the_validation_message() {
    let log = Arc::new(Log::default());
    let registry = code_registry(&log).await;
    let out = run(&registry, "add(a='one', b=2)").await;
    let text = out.to_model_text();
    assert!(out.is_error());
    assert!(text.contains("ValueError"), "{text}");
    assert!(text.contains("Invalid arguments for add"), "{text}");
    assert!(text.contains("line 1"), "{text}");
    let caught = run(
        &registry,
        "try:\n    add(a='one', b=2)\nexcept ValueError as e:\n    print('bad:', e)",
    )
    .await;
    assert!(
        caught
            .to_model_text()
            .starts_with("bad: add: Invalid arguments"),
        "{}",
        caught.to_model_text()
    );
}

#[tokio::test]
async fn results_are_python_values() {
    let log = Arc::new(Log::default());
    let registry = code_registry(&log).await;
    let code = r#"
files = list_dir(path=".")
n = add(a=len(files), b=40)
print(f"{len(files)} files, first {files[0]}")
f"total {n * 2}"
"#;
    let out = run(&registry, code).await;
    assert_eq!(out.to_model_text(), "2 files, first ./a.txt\n'total 84'");
}

#[tokio::test]
async fn search_then_call_what_it_found() {
    let log = Arc::new(Log::default());
    let registry = code_registry(&log).await;
    let code = r#"
found = search_tools(query="directory")
print(found)
list_dir(path="/data") if "list_dir" in found else None
"#;
    let out = run(&registry, code).await;
    assert_eq!(
        out.to_model_text(),
        "['list_dir']\n['/data/a.txt', '/data/b.txt']"
    );
}

#[tokio::test]
async fn the_description_lists_each_tool_as_a_python_function() {
    let log = Arc::new(Log::default());
    let registry = code_registry(&log).await;
    let spec = registry.get("run_python").unwrap();
    let text = spec.description();
    assert!(text.contains("def add(a: int, b: int) -> Any:"), "{text}");
    assert!(
        text.contains("def slow_echo(word: str, ms: int) -> Any:"),
        "{text}"
    );
    assert!(text.contains("a: The first number."), "{text}");
    assert_eq!(spec.input_schema()["required"], json!(["code"]));
}

// Bad input: a clear error, and the host goes on.

async fn error_of(code: &str) -> String {
    let log = Arc::new(Log::default());
    let registry = code_registry(&log).await;
    let out = run(&registry, code).await;
    assert!(
        out.is_error(),
        "no error for {code:?}: {}",
        out.to_model_text()
    );
    // The host goes on: the same registry runs the next snippet.
    assert_eq!(run(&registry, "1 + 1").await.to_model_text(), "2");
    out.to_model_text()
}

#[tokio::test]
async fn a_syntax_error_names_line_and_column() {
    let text = error_of("x = 1\ny = 2 +* 3\n").await;
    assert!(text.contains("SyntaxError"), "{text}");
    assert!(text.contains("line 2"), "{text}");
    // The column, as CPython marks it: a caret line under the code.
    assert!(text.contains("y = 2 +* 3\n"), "{text}");
    assert!(text.contains('^') || text.contains('~'), "{text}");
}

#[tokio::test]
async fn an_endless_loop_hits_the_time_limit() {
    let text = error_of("while True:\n    pass").await;
    assert!(text.contains("TimeoutError: time limit exceeded"), "{text}");
    // The code can't catch it.
    let text = error_of("try:\n    while True: pass\nexcept BaseException:\n    'caught'").await;
    assert!(text.contains("time limit exceeded"), "{text}");
}

#[tokio::test]
async fn a_huge_string_hits_the_memory_limit() {
    let text = error_of("'x' * 10**10").await;
    assert!(
        text.contains("MemoryError: memory limit exceeded"),
        "{text}"
    );
    assert!(text.contains("line 1"), "{text}");
}

#[tokio::test]
async fn a_list_that_grows_forever_is_stopped() {
    let text = error_of("xs = []\nwhile True:\n    xs.append('x' * 1000)").await;
    assert!(
        text.contains("time limit exceeded") || text.contains("memory limit"),
        "{text}"
    );
}

#[tokio::test]
async fn deep_recursion_is_a_recursion_error() {
    let text = error_of("def f(n):\n    return f(n + 1)\nf(0)").await;
    assert!(text.contains("RecursionError"), "{text}");
}

#[tokio::test]
async fn files_os_and_builtins_of_escape_are_refused() {
    for code in [
        "open('/etc/passwd').read()",
        "import os\nos.listdir('/')",
        "import os\nos.environ['HOME']",
        "__import__('os')",
        "eval('1 + 1')",
        "exec('x = 1')",
        "().__class__.__base__.__subclasses__()",
        "import subprocess",
        "import socket",
    ] {
        let text = error_of(code).await;
        assert!(
            [
                "PermissionError",
                "NameError",
                "ModuleNotFoundError",
                "AttributeError",
                "ImportError",
                "NotImplementedError"
            ]
            .iter()
            .any(|kind| text.contains(kind)),
            "{code}: {text}"
        );
    }
}

#[tokio::test]
async fn ten_thousand_calls_hit_the_per_run_cap() {
    let log = Arc::new(Log::default());
    let registry = code_registry(&log).await;
    let out = run(&registry, "for i in range(10000):\n    add(a=i, b=1)").await;
    let text = out.to_model_text();
    assert!(out.is_error());
    assert!(text.contains("more than 100 tool calls"), "{text}");
    assert_eq!(log.calls.load(Ordering::SeqCst), 100);
    // The cap can't be caught.
    let out = run(&registry, "try:\n    for i in range(200):\n        add(a=i, b=1)\nexcept BaseException:\n    'caught'").await;
    assert!(out.is_error(), "{}", out.to_model_text());
}

#[tokio::test]
async fn prints_before_an_error_come_with_the_traceback() {
    let text = error_of("print('step 1')\nx = 1 / 0").await;
    assert!(
        text.starts_with("Printed before the error:\nstep 1\n"),
        "{text}"
    );
    assert!(text.contains("ZeroDivisionError"), "{text}");
    assert!(text.contains("line 2"), "{text}");
}

/// An approver that takes its time, as a person would, and refuses to add 13.
struct SlowApprover;

impl tool_runtime::pipeline::Approver for SlowApprover {
    fn approve<'a>(
        &'a self,
        request: &'a tool_runtime::pipeline::ApprovalRequest<'a>,
    ) -> tool_runtime::pipeline::BoxFuture<'a, tool_runtime::pipeline::Approval> {
        Box::pin(async move {
            tokio::time::sleep(Duration::from_millis(50)).await;
            let args: serde_json::Value = serde_json::from_str(request.arguments).unwrap();
            if args["b"] == 13 {
                tool_runtime::pipeline::Approval::deny("13 is unlucky")
            } else {
                tool_runtime::pipeline::Approval::Allow
            }
        })
    }
}

#[tokio::test]
async fn calls_wait_for_approval_and_a_denial_is_a_permission_error() {
    let log = Arc::new(Log::default());
    let tools = Arc::new(
        Registry::builder()
            .without_inventory()
            .register(add::TOOL)
            .state_arc(Arc::clone(&log))
            .approval(tool_runtime::pipeline::ApprovalPolicy::Every)
            .approver(SlowApprover)
            .build()
            .unwrap(),
    );
    let registry = Registry::builder()
        .without_inventory()
        .dynamic(tools.code_tool_with(engine().await.limits(limits())))
        .build()
        .unwrap();
    let code = r#"
print("before")
x = add(a=1, b=2)
try:
    add(a=1, b=13)
except PermissionError as e:
    print("denied:", e)
x
"#;
    let out = run(&registry, code).await;
    // What ran before the wait ran once; the code went on from the call after approval.
    assert_eq!(
        out.to_model_text(),
        "before\ndenied: add: The call to add was denied: 13 is unlucky (Don't repeat this call unchanged; continue without it or ask the user.)\n3",
        "{}",
        out.to_model_text()
    );
    assert_eq!(log.calls.load(Ordering::SeqCst), 1);
}

#[test]
fn each_call_from_the_code_is_a_span_inside_the_code_tools() {
    use tool_test_support::spans::Capture;
    let log = Arc::new(Log::default());
    let capture = Capture::default();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let registry = runtime.block_on(code_registry(&log));
    let calls = [tool_runtime::ToolCall::new(
        "call_7",
        "run_python",
        json!({"code": "add(a=1, b=2) + add(a=3, b=4)"}).to_string(),
    )];
    let outputs = tracing::subscriber::with_default(capture.clone(), || {
        runtime.block_on(registry.call_all(&calls))
    });
    assert_eq!(outputs[0].to_model_text(), "10");
    let spans = capture.spans();
    let code = spans
        .iter()
        .position(|s| s.field("gen_ai.tool.name") == "run_python")
        .expect("the code tool's span");
    assert_eq!(spans[code].field("gen_ai.tool.call.id"), "call_7");
    let inner: Vec<_> = spans
        .iter()
        .filter(|s| s.name == "execute_tool" && s.field("gen_ai.tool.name") == "add")
        .collect();
    assert_eq!(inner.len(), 2, "{spans:#?}");
    for (n, span) in inner.iter().enumerate() {
        assert_eq!(span.parent, Some(code), "{spans:#?}");
        assert_eq!(
            span.field("gen_ai.tool.call.id"),
            format!("call_7#{}", n + 1)
        );
        assert_eq!(span.field("outcome"), "ok", "{spans:#?}");
    }
}

/// Write something, slowly: a tool that runs alone.
#[tool]
async fn slow_write(
    /// What to write.
    text: String,
    log: State<Log>,
) -> String {
    let start = Instant::now();
    tokio::time::sleep(Duration::from_millis(150)).await;
    log.spans.lock().unwrap().push((start, Instant::now()));
    format!("wrote {text}")
}

fn builder(log: &Arc<Log>) -> tool_runtime::RegistryBuilder {
    Registry::builder()
        .without_inventory()
        .register(add::TOOL)
        .register(slow_write::TOOL)
        .state_arc(Arc::clone(log))
}

#[tokio::test]
async fn code_mode_alone_shows_one_tool() {
    use tool_runtime::code::CodeMode;
    let log = Arc::new(Log::default());
    let registry = builder(&log)
        .code_mode_with(CodeMode::Alone, engine().await.name("python_exec"))
        .build()
        .unwrap();
    let names: Vec<_> = registry.specs().map(|s| s.name().to_owned()).collect();
    assert_eq!(names, ["python_exec"]);
    let exported = registry
        .export(tool_runtime::Provider::OpenAiChat)
        .to_value();
    assert_eq!(exported.as_array().unwrap().len(), 1);
    // The tools are functions inside, not tools of their own.
    let direct = registry.call("add", r#"{"a": 1, "b": 2}"#).await;
    assert_eq!(
        direct.as_error().unwrap().code,
        tool_runtime::ErrorCode::UnknownTool
    );
    let out = registry
        .call("python_exec", &json!({"code": "add(a=1, b=2)"}).to_string())
        .await;
    assert_eq!(out.to_model_text(), "3");
}

#[tokio::test]
async fn code_mode_beside_shares_the_gate_with_direct_calls() {
    use tool_runtime::code::CodeMode;
    let log = Arc::new(Log::default());
    let registry = builder(&log)
        .code_mode_with(CodeMode::Beside, engine().await)
        .build()
        .unwrap();
    let names: Vec<_> = registry.specs().map(|s| s.name().to_owned()).collect();
    assert_eq!(names, ["add", "slow_write", "run_python"]);
    // A tool that runs alone, called from the code: the code tool holds no pass of its own
    // that the call would wait for.
    let calls = [
        tool_runtime::ToolCall::new(
            "c1",
            "run_python",
            json!({"code": "slow_write(text='from code')"}).to_string(),
        ),
        tool_runtime::ToolCall::new("c2", "slow_write", r#"{"text": "direct"}"#),
    ];
    let outputs = tokio::time::timeout(Duration::from_secs(10), registry.call_all(&calls))
        .await
        .expect("no call waits for another forever");
    assert_eq!(outputs[0].to_model_text(), "'wrote from code'");
    assert_eq!(outputs[1].to_model_text(), "wrote direct");
    // The two writes ran one after the other: one gate for both.
    let mut spans = log.spans.lock().unwrap().clone();
    spans.sort();
    assert_eq!(spans.len(), 2);
    assert!(
        spans[0].1 <= spans[1].0,
        "the two writes overlapped: {spans:?}"
    );
}
