//! What the fuzz targets run and check, one `check_*` function per target. Each takes the raw
//! fuzz input, drives one public entry point of `tool-runtime` with it, and panics when an
//! invariant breaks (which libFuzzer reports as a crash).
//!
//! The regression test `tests/integration/fuzz_regressions.rs` includes this file as a module
//! and replays the kept inputs through the same functions, so a finding stays checked by
//! `cargo test` without cargo-fuzz.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Once, OnceLock};
use tool_runtime::pipeline::RepairPolicy;
use tool_runtime::router;
use tool_runtime::router::stream::{Accumulate, StreamEvent};
use tool_runtime::router::text::{self, TextFormat, TextParse, TextStream};
use tool_runtime::{tool, ErrorCode, Provider, Registry, ToolCall, ToolError, ToolOutput};

/// Panics that `tool-runtime` contains on purpose: inside `llm_json`, which the lenient repair
/// runs under `catch_unwind` because it is third-party code fed hostile text.
pub static CONTAINED_PANICS: AtomicUsize = AtomicUsize::new(0);

/// Call first in every target. libFuzzer's panic hook aborts at any panic, even one caught
/// further up; this keeps that for every panic except the ones the runtime contains by design
/// (inside `llm_json`), which are counted and let unwind to their `catch_unwind`. A panic a
/// tool raises is still a crash: the example tools must not panic.
pub fn setup() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let abort_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let in_llm_json = info
                .location()
                .is_some_and(|l| l.file().contains("llm_json"))
                || std::backtrace::Backtrace::force_capture()
                    .to_string()
                    .contains("llm_json::");
            if in_llm_json {
                if CONTAINED_PANICS.fetch_add(1, Ordering::Relaxed) == 0 {
                    eprintln!("(contained panic in llm_json, not a crash: {info})");
                }
                return;
            }
            abort_hook(info);
        }));
    });
}

/// Input as text: invalid UTF-8 replaced, as a caller reading bytes off the wire would.
fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

// ---------------------------------------------------------------------------------------------
// Text formats

/// The format a selector byte names: `Auto` or one of [`TextFormat::ALL`].
pub fn text_format(byte: u8) -> TextFormat {
    match usize::from(byte) % (TextFormat::ALL.len() + 1) {
        0 => TextFormat::Auto,
        n => TextFormat::ALL[n - 1],
    }
}

/// The tool schemas the text targets parse with (the parser's own tests use the same).
pub fn text_tools() -> &'static HashMap<String, Value> {
    static TOOLS: OnceLock<HashMap<String, Value>> = OnceLock::new();
    TOOLS.get_or_init(|| {
        HashMap::from([
            (
                "get_weather".to_owned(),
                json!({"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}}),
            ),
            (
                "get_time".to_owned(),
                json!({"type": "object", "properties": {"tz": {"type": "string"}, "utc": {"type": "boolean"}, "at": {"type": "number"}}}),
            ),
            ("f".to_owned(), json!({"type": "object"})),
        ])
    })
}

/// What every parse of `text` must satisfy: each error's span lies in the text, on char
/// boundaries, and holds exactly the error's raw text; calls are numbered `call_0`, `call_1`,
/// ... and their arguments are a JSON object; the prose left over is no longer than the text.
pub fn check_text_invariants(text: &str, parsed: &TextParse) {
    for error in &parsed.errors {
        assert!(
            error.span.start <= error.span.end && error.span.end <= text.len(),
            "span {:?} out of bounds (text is {} bytes): {error:?}",
            error.span,
            text.len()
        );
        assert_eq!(
            text.get(error.span.clone()),
            Some(error.raw.as_str()),
            "the span doesn't hold the error's raw text: {error:?} in {text:?}"
        );
    }
    for (n, call) in parsed.calls.iter().enumerate() {
        assert_eq!(call.id, format!("call_{n}"), "{call:?}");
        let arguments: Value = serde_json::from_str(&call.arguments)
            .unwrap_or_else(|e| panic!("arguments of {call:?} are not JSON ({e}) in {text:?}"));
        assert!(
            arguments.is_object(),
            "arguments not an object: {call:?} in {text:?}"
        );
    }
}

/// Streams `text` cut at `cuts` (char boundaries, ascending) and collects the events.
pub fn stream_text(text: &str, format: TextFormat, cuts: &[usize]) -> TextParse {
    let mut stream = TextStream::new(format, text_tools());
    let mut events = Vec::new();
    let mut last = 0;
    for &cut in cuts {
        events.extend(stream.push(&text[last..cut]));
        last = cut;
    }
    events.extend(stream.push(&text[last..]));
    events.extend(stream.finish());
    events.into_iter().collect()
}

/// Target `text`: byte 0 picks the format, byte 1 how the text is cut into chunks for the
/// streaming parser (`0xff`: char by char; otherwise up to 15 cuts from a PRNG seeded with
/// it), the rest is the model's text. Parsed whole with the tool schemas and without any, both
/// must satisfy [`check_text_invariants`]; however it is cut, streaming must give exactly what
/// parsing the whole text gives.
pub fn check_text(data: &[u8]) {
    let [selector, seed, rest @ ..] = data else {
        return;
    };
    let format = text_format(*selector);
    let text = lossy(rest);
    let whole = text::parse(&text, format, text_tools());
    check_text_invariants(&text, &whole);
    let without = text::parse(&text, format, &());
    check_text_invariants(&text, &without);
    let cuts: Vec<usize> = if *seed == 0xff {
        text.char_indices().map(|(i, _)| i).skip(1).collect()
    } else {
        let mut state = u64::from(*seed).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut cuts: Vec<usize> = (0..usize::from(seed % 16))
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let mut at = (state % (text.len() as u64 + 1)) as usize;
                while !text.is_char_boundary(at) {
                    at += 1;
                }
                at
            })
            .collect();
        cuts.sort_unstable();
        cuts
    };
    let streamed = stream_text(&text, format, &cuts);
    assert_eq!(
        streamed, whole,
        "{format:?} streamed cut at {cuts:?} differs from the whole parse of {text:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Provider routers

/// The provider a selector byte names (`None`: detect it).
pub fn provider_format(byte: u8) -> Option<Provider> {
    [
        None,
        Some(Provider::OpenAiChat),
        Some(Provider::OpenAiResponses),
        Some(Provider::Anthropic),
        Some(Provider::Gemini),
        Some(Provider::TensorZero),
    ][usize::from(byte) % 6]
}

/// Routes `text` as `provider`, or as whichever provider it looks like (`None`).
pub fn route_selected(
    provider: Option<Provider>,
    text: &str,
) -> Result<router::Routed, router::RouteError> {
    match provider {
        Some(provider) => router::route(provider, text),
        None => router::route_auto(text),
    }
}

/// Target `router`: byte 0 picks the provider (or `Auto`), the rest is the response's JSON
/// text. A routed turn names a real provider (the one asked for), every call has an id, the
/// turn serializes, and `Auto` gives what routing as the detected provider gives.
pub fn check_router(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let format = provider_format(selector);
    let text = lossy(rest);
    let Ok(routed) = route_selected(format, &text) else {
        return;
    };
    if let Some(provider) = format {
        assert_eq!(routed.provider, provider);
    } else {
        let again = router::route(routed.provider, text.as_str());
        assert_eq!(
            again.as_ref(),
            Ok(&routed),
            "Auto and {:?} disagree",
            routed.provider
        );
    }
    for call in &routed.calls {
        assert!(!call.id.is_empty(), "a call without an id: {call:?}");
    }
    serde_json::to_string(&routed).expect("a routed turn serializes");
}

// ---------------------------------------------------------------------------------------------
// Stream accumulators

/// Targets `stream_*`: the input's lines, each pushed with [`Accumulate::push_line`]. An event
/// the accumulator refuses leaves it exactly as it was; every call `push` completed is in what
/// [`Accumulate::finish`] returns; every finished call has an id; the text `push`
/// gave out is all in the finished turn's text.
pub fn check_stream<A: Accumulate + std::fmt::Debug>(data: &[u8], new: fn() -> A) {
    let input = lossy(data);
    let mut stream = new();
    let mut completed: Vec<ToolCall> = Vec::new();
    let mut text_bytes = 0;
    for line in input.split('\n') {
        let before = format!("{stream:?}");
        match stream.push_line(line) {
            Ok(events) => {
                for event in events {
                    match event {
                        StreamEvent::Call(call) => completed.push(call),
                        StreamEvent::Text(text) => text_bytes += text.len(),
                    }
                }
            }
            Err(error) => assert_eq!(
                format!("{stream:?}"),
                before,
                "the refused event {line:?} ({error}) changed the accumulator"
            ),
        }
    }
    let turn = stream.finish();
    for call in &completed {
        let times = turn.calls.iter().filter(|c| *c == call).count();
        let pushed = completed.iter().filter(|c| *c == call).count();
        // At least: an identical call may also be one the stream left open (finish
        // completes it without `push` having returned it).
        assert!(
            times >= pushed,
            "{call:?} completed by push {pushed} times, in finish {times} times: {turn:?}"
        );
    }
    for call in &turn.calls {
        assert!(!call.id.is_empty(), "a call without an id: {call:?}");
    }
    assert!(
        turn.text.len() >= text_bytes,
        "push gave out {text_bytes} bytes of text, finish has {}: {turn:?}",
        turn.text.len()
    );
    serde_json::to_string(&turn).expect("a routed turn serializes");
}

// ---------------------------------------------------------------------------------------------
// Lenient JSON repair

/// A point, for the `echo` tool's nested parameter.
#[derive(Debug, Deserialize, Serialize, schemars::JsonSchema)]
pub struct Point {
    /// Across.
    pub x: i32,
    /// Down.
    pub y: Option<i32>,
}

/// A mode, for the `echo` tool's enum parameter.
#[derive(Debug, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Quickly.
    Fast,
    /// Slowly, at a level.
    Slow {
        /// How slow.
        level: u8,
    },
}

/// How many times `echo` has run: a call must run its tool at most once.
static ECHO_RUNS: AtomicUsize = AtomicUsize::new(0);

/// Echo the arguments back, as the tool received them; a text starting with `refuse` is
/// refused with the code a bad call gets, as a tool may answer.
#[tool(read_only)]
pub fn echo(
    /// Any text.
    text: String,
    /// A count.
    #[tool(default = 0)]
    count: u32,
    /// A flag.
    #[tool(default = false)]
    flag: bool,
    /// Some numbers.
    #[tool(default = Vec::new())]
    items: Vec<i64>,
    /// A point.
    point: Option<Point>,
    /// A mode.
    #[tool(default = Mode::Fast)]
    mode: Mode,
    /// A ratio.
    ratio: Option<f64>,
) -> Result<Value, ToolError> {
    ECHO_RUNS.fetch_add(1, Ordering::SeqCst);
    if text.starts_with("refuse") {
        return Err(ToolError::with_code(
            ErrorCode::InvalidArguments,
            "refused by the tool",
        ));
    }
    Ok(
        json!({"text": text, "count": count, "flag": flag, "items": items, "point": point, "mode": mode, "ratio": ratio}),
    )
}

/// Runs one call of `echo`, checking that it ran the tool at most once.
fn echo_once<T>(args: &str, call: impl FnOnce() -> T) -> T {
    ECHO_RUNS.store(0, Ordering::SeqCst);
    let output = call();
    let runs = ECHO_RUNS.load(Ordering::SeqCst);
    assert!(runs <= 1, "echo ran {runs} times for one call: {args:?}");
    output
}

/// A registry of the `echo` tool under `policy`.
pub fn echo_registry(policy: RepairPolicy) -> Registry {
    Registry::builder()
        .without_inventory()
        .register(echo::TOOL)
        .repair(policy)
        .build()
        .expect("the echo registry builds")
}

fn echo_registries() -> &'static [Registry; 3] {
    static REGISTRIES: OnceLock<[Registry; 3]> = OnceLock::new();
    REGISTRIES.get_or_init(|| {
        [
            echo_registry(RepairPolicy::Off),
            echo_registry(RepairPolicy::Safe),
            echo_registry(RepairPolicy::Lenient),
        ]
    })
}

/// Target `repair`: the whole input is the argument text of a call to `echo`, made under
/// each repair policy. No call panics or runs the tool twice, each output is bounded; a
/// stricter policy's success is kept unchanged by a more lenient one (repair never changes a
/// good call), and a call that needed lenient JSON repair failed under `Safe` as malformed.
pub fn check_repair(data: &[u8]) {
    let args = lossy(data);
    let [off, safe, lenient] = echo_registries();
    let off_out = echo_once(&args, || off.call_blocking("echo", &args));
    let safe_out = echo_once(&args, || safe.call_blocking("echo", &args));
    let (lenient_out, report) =
        echo_once(&args, || block_on(lenient.call_with_report("echo", &args)));
    for out in [&off_out, &safe_out, &lenient_out] {
        check_output(out, ToolOutput::DEFAULT_MAX_OUTPUT);
    }
    if !off_out.is_error() {
        assert_eq!(
            safe_out, off_out,
            "Safe changed a call Off accepted: {args:?}"
        );
    }
    if !safe_out.is_error() {
        assert_eq!(
            lenient_out, safe_out,
            "Lenient changed a call Safe accepted: {args:?}"
        );
    }
    let repaired_json = report
        .repairs
        .iter()
        .any(|r| r.kind == tool_runtime::pipeline::RepairKind::LenientJson);
    if repaired_json {
        assert_eq!(
            safe_out.as_error().map(|e| e.code),
            Some(ErrorCode::MalformedArguments),
            "lenient JSON repair on text Safe could read: {args:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// The whole pipeline on the example registry

/// A line only the file outside the workspace root holds: no output may ever show it.
pub const CANARY: &str = "FUZZ_CANARY_7f3e91_outside_the_root";

/// The example tools' sandbox: `root/` (the workspace, with a few files and symlinks that
/// point out of it) and `outside/secret.txt` (holding [`CANARY`]), in a temp dir kept for the
/// process's life.
pub struct Sandbox {
    _dir: tempfile::TempDir,
    /// Each repair policy's registry, all on the same root.
    pub registries: [Registry; 3],
    /// The runtime `call` and `call_all` run on.
    pub runtime: tokio::runtime::Runtime,
}

fn write(path: &Path, contents: &str) {
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
    std::fs::write(path, contents).expect("write");
}

/// The example registry without `exec_command` (the fuzzer must never run commands), confined
/// to `root`.
pub fn example_registry(root: &Path, policy: RepairPolicy) -> Registry {
    tool_examples::TOOLS
        .iter()
        .filter(|t| t.name() != "exec_command")
        .fold(Registry::builder().without_inventory(), |b, &t| {
            b.register(t)
        })
        .state(tool_examples::Workspace::new(root))
        .state_arc(Arc::new(tool_examples::PlanBoard::default()))
        .repair(policy)
        .build()
        .expect("the example registry builds")
}

/// The sandbox, made once per process.
pub fn sandbox() -> &'static Sandbox {
    static SANDBOX: OnceLock<Sandbox> = OnceLock::new();
    SANDBOX.get_or_init(|| {
        let dir = tempfile::tempdir().expect("a temp dir");
        let root = dir.path().join("root");
        let outside = dir.path().join("outside");
        write(&outside.join("secret.txt"), &format!("{CANARY}\n"));
        write(&root.join("a.txt"), "alpha\nbeta\ngamma\n");
        write(
            &root.join("src/main.rs"),
            "fn main() {\n    println!(\"hi\");\n}\n",
        );
        write(
            &root.join("data/sales.csv"),
            "date,region,amount\n2024-01-01,north,12.5\n2024-01-02,south,NaN\n2024-01-03,north,\n",
        );
        write(&root.join("notes/todo.md"), "# Todo\n- fuzz\n");
        #[cfg(unix)]
        {
            let _ = std::os::unix::fs::symlink(&outside, root.join("escape"));
            let _ = std::os::unix::fs::symlink(outside.join("secret.txt"), root.join("secret"));
        }
        let root = root.canonicalize().expect("the root exists");
        let registries = [
            example_registry(&root, RepairPolicy::Off),
            example_registry(&root, RepairPolicy::Safe),
            example_registry(&root, RepairPolicy::Lenient),
        ];
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        Sandbox {
            _dir: dir,
            registries,
            runtime,
        }
    })
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime")
        })
        .block_on(future)
}

/// What every output must satisfy: within the output cap (text, JSON text or error message),
/// never a caught panic, and serializable.
pub fn check_output(output: &ToolOutput, max: usize) {
    if let Some(error) = output.as_error() {
        assert_ne!(
            error.code,
            ErrorCode::Panicked,
            "a tool panicked: {output:?}"
        );
    }
    let size = match output {
        ToolOutput::Json(json) => json.as_str().len(),
        ToolOutput::Error(error) => error.message.len(),
        ToolOutput::Text(text) => text.len(),
        other => other.to_model_text().len(),
    };
    assert!(
        size <= max,
        "output of {size} bytes over the cap of {max}: {output:?}"
    );
    serde_json::to_string(output).expect("an output serializes");
}

/// Target `pipeline`: byte 0 picks the repair policy (bits 0-1: off, safe, lenient) and how
/// the call is made (bits 2-3: `call_blocking`, `call`, or a batch through `call_all`);
/// the rest is `name \0 arguments`, or for a batch such calls separated by `\x01`. Every call
/// gets exactly one output, within the cap, never a panic, and no output shows the file
/// outside the root unless the call's own text held it.
pub fn check_pipeline(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let sandbox = sandbox();
    let registry = &sandbox.registries[usize::from(selector & 3).min(2)];
    let call_of = |bytes: &[u8]| -> (String, String) {
        match bytes.iter().position(|&b| b == 0) {
            Some(at) => (lossy(&bytes[..at]), lossy(&bytes[at + 1..])),
            None => (lossy(bytes), String::new()),
        }
    };
    let max = ToolOutput::DEFAULT_MAX_OUTPUT;
    let check = |name: &str, args: &str, output: &ToolOutput| {
        check_output(output, max);
        if !name.contains(CANARY) && !args.contains(CANARY) {
            assert!(
                !output.to_model_text().contains(CANARY),
                "{name:?} {args:?} read outside the root: {output:?}"
            );
        }
    };
    match (selector >> 2) & 3 {
        0 | 3 => {
            let (name, args) = call_of(rest);
            let output = registry.call_blocking(&name, &args);
            check(&name, &args, &output);
        }
        1 => {
            let (name, args) = call_of(rest);
            let output = sandbox.runtime.block_on(registry.call(&name, &args));
            check(&name, &args, &output);
        }
        _ => {
            let calls: Vec<ToolCall> = rest
                .split(|&b| b == 1)
                .take(16)
                .enumerate()
                .map(|(n, bytes)| {
                    let (name, args) = call_of(bytes);
                    ToolCall::new(format!("call_{n}"), name, args)
                })
                .collect();
            let outputs = sandbox.runtime.block_on(registry.call_all(&calls));
            assert_eq!(outputs.len(), calls.len(), "not one output per call");
            for (call, output) in calls.iter().zip(&outputs) {
                check(&call.name, &call.arguments, output);
            }
        }
    }
}

/// The providers' documented rules (`tool_test_support::rules`), written apart from the exporter.
use tool_test_support::rules;

/// The export target: the input is a tool's JSON Schema. A registry of one to eight copies of
/// it (enough to spend Anthropic's per-request budget) is exported in every dialect. No export
/// may panic; every export must keep its provider's documented rules (each tool that goes out
/// strict, its strict subset); and a tool goes out strict exactly when `Export::check` says it
/// can.
pub fn check_export(data: &[u8]) {
    let Ok(schema) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let copies = 1 + data.len() % 8;
    let registry = (0..copies)
        .fold(Registry::builder().without_inventory(), |builder, i| {
            builder.dynamic(tool_runtime::DynamicTool::new(
                format!("tool_{i}"),
                "A tool.",
                schema.clone(),
                |_, _| async { ToolOutput::Text(String::new()) },
            ))
        })
        .build();
    // A schema the registry refuses (not a schema, or not an object's) is a build error.
    let Ok(registry) = registry else {
        return;
    };
    for dialect @ (provider, strict) in rules::dialects() {
        let exported = registry.export(provider).strict(strict);
        let export = exported.to_value();
        let broken = rules::violations(provider, &export);
        assert!(broken.is_empty(), "{dialect:?} of {schema}: {broken:#?}");
        if !strict {
            continue;
        }
        let tools = export.as_array().expect("a list of tools");
        for (i, tool) in tools.iter().enumerate() {
            let strict = match provider {
                Provider::OpenAiChat => tool["function"]["strict"] == true,
                _ => tool["strict"] == true,
            };
            let checked = exported.check(&format!("tool_{i}"));
            assert_eq!(
                strict,
                checked.is_ok(),
                "{dialect:?} tool_{i} of {schema}: {checked:?}"
            );
        }
    }
}
