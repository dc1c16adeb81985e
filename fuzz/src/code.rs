//! The `code_workers` target: Python generated from the fuzz input, run by code mode in
//! worker processes (`CodeSettings::workers`) against three tools. Kept out of `lib.rs`, which
//! the regression test includes without code mode.
//!
//! Byte 0 picks how the input becomes Python: even, the rest of the input read as a program
//! of fragments (each byte one fragment from [`FRAGMENTS`], a byte of 0xf0 or more the text
//! up to the next newline, as is); odd, the rest as the code itself. Fragments are what a
//! model or an attacker writes: tool calls good and bad, gathers, loops, recursion, huge
//! allocations, walks to builtins, imports, syntax cut in the middle.
//!
//! What must hold: exactly one output, within the output cap, never a caught panic, never a
//! lost worker (`WorkerPool::lost_workers`: a worker that crashed is a finding, what would
//! take a host down in process), and every 64th run, the pool still answers.

use tool_fuzz::check_output;
use serde_json::json;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::Duration;
use tool_runtime::code::{CodeLimits, CodeSettings, WorkerPool};
use tool_runtime::{tool, Registry, ToolError, ToolOutput};

/// Add two numbers.
#[tool]
fn add(a: i64, b: i64) -> Result<i64, ToolError> {
    a.checked_add(b)
        .ok_or_else(|| ToolError::new("the sum overflows"))
}

/// Say the text back.
#[tool(read_only)]
async fn echo(text: String) -> String {
    text
}

/// Always fails.
#[tool]
fn fail(why: String) -> Result<String, ToolError> {
    Err(ToolError::new(why))
}

/// One line of Python each, joined by newlines; indentation is part of the fragment.
pub const FRAGMENTS: &[&str] = &[
    "x = add(a=1, b=2)",
    "x = add(a='one', b=2)",
    "x = add(1, 2, 3)",
    "x = add(a=2**62, b=2**62)",
    "x = echo(text='hi' * 3)",
    "x = echo(text=str(x))",
    "x = fail(why='no')",
    "try:\n    fail(why='caught')\nexcept Exception as e:\n    x = str(e)",
    "import asyncio\nx = await asyncio.gather(*[echo_async(text=str(i)) for i in range(5)])",
    "x = await asyncio.gather(add_async(a=1, b=1), fail_async(why='g'))",
    "for i in range(30):\n    add(a=i, b=i)",
    "while True:\n    pass",
    "def f(n):\n    return f(n + 1)\nf(0)",
    "x = 'x' * 10**9",
    "xs = []\nwhile True:\n    xs.append(xs[:])",
    "x = [x]",
    "x = {'k': x}",
    "x = (x,)",
    "print(x)",
    "print('p' * 10000)",
    "x = repr(x)",
    "x = hash(x)",
    "x == x",
    "open('/etc/passwd').read()",
    "import os\nos.listdir('/')",
    "import os\nos.environ",
    "__import__('os')",
    "eval('1')",
    "exec('y = 1')",
    "().__class__.__base__.__subclasses__()",
    "x.__class__.__mro__",
    "import sys\nsys.exit(1)",
    "raise SystemExit",
    "raise KeyboardInterrupt",
    "import json\nx = json.loads(json.dumps(x))",
    "import json\nx = json.loads('[' * 100000)",
    "x = sorted([3, 1, 2], key=lambda v: add(a=v, b=0))",
    "class C:\n    def __del__(self):\n        add(a=1, b=1)\nc = C()\ndel c",
    "async def g():\n    return await echo_async(text='g')\nx = await g()",
    "x = echo_async(text='never awaited')",
    "x = search_tools(query='add')",
    "x = describe_tool(name='add')",
    "def (",
    "x = (((",
    "    x = 1",
    "if x:",
    "x = 1 / 0",
    "x = int('9' * 5000)",
    "x = 10 ** 10 ** 10",
    "x = [i for i in range(10**8)]",
    "x = b'\\xff' * 1000",
    "x = '\\udcff'",
    "x",
];

fn program(bytes: &[u8]) -> String {
    let mut lines = Vec::new();
    let mut rest = bytes;
    while let Some((&byte, tail)) = rest.split_first() {
        if byte >= 0xf0 {
            let end = tail.iter().position(|&b| b == b'\n').unwrap_or(tail.len());
            lines.push(String::from_utf8_lossy(&tail[..end]).into_owned());
            rest = tail.get(end + 1..).unwrap_or_default();
        } else {
            lines.push(FRAGMENTS[usize::from(byte) % FRAGMENTS.len()].to_owned());
            rest = tail;
        }
    }
    lines.join("\n")
}

/// Where the worker binary is: `$MONTY_WORKER`, else the repository's `.venv/bin/monty`
/// (`scripts/install-test-clients.sh` puts it there).
fn worker_binary() -> PathBuf {
    std::env::var_os("MONTY_WORKER").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.venv/bin/monty")),
        PathBuf::from,
    )
}

struct Fixture {
    runtime: tokio::runtime::Runtime,
    registry: Registry,
    pool: WorkerPool,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let pool = runtime
            .block_on(WorkerPool::start(worker_binary(), 2))
            .expect("the monty worker starts: run scripts/install-test-clients.sh");
        let mut limits = CodeLimits::default();
        limits.time = Duration::from_millis(200);
        // Under libFuzzer's 10 s hang timeout (scripts/fuzz.sh), with room for a worker's start.
        limits.wall = Duration::from_secs(5);
        limits.memory = 16 << 20;
        limits.tool_calls = 20;
        let registry = Registry::builder()
            .without_inventory()
            .register(add::TOOL)
            .register(echo::TOOL)
            .register(fail::TOOL)
            .code_mode_with(
                tool_runtime::code::CodeMode::Alone,
                CodeSettings::default().limits(limits).workers(pool.clone()),
            )
            .build()
            .expect("the code registry builds");
        Fixture {
            runtime,
            registry,
            pool,
        }
    })
}

static RUNS: AtomicUsize = AtomicUsize::new(0);

/// The `code_workers` target; see the module's doc.
pub fn check_code_workers(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let code = if selector & 1 == 0 {
        program(rest)
    } else {
        String::from_utf8_lossy(rest).into_owned()
    };
    let fixture = fixture();
    let run = |code: &str| -> ToolOutput {
        let args = json!({ "code": code }).to_string();
        fixture
            .runtime
            .block_on(fixture.registry.call("run_python", &args))
    };
    let output = run(&code);
    check_output(&output, ToolOutput::DEFAULT_MAX_OUTPUT);
    assert_eq!(
        fixture.pool.lost_workers(),
        0,
        "the worker died on {code:?}: {}",
        output.to_model_text()
    );
    if RUNS.fetch_add(1, Ordering::Relaxed) % 64 == 63 {
        assert_eq!(run("1 + 1").to_model_text(), "2", "the pool stopped answering");
    }
}
