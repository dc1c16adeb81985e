//! Code mode: the model writes one Python snippet that calls the tools.
//!
//! [`Registry::code_tool`] makes a tool (named `run_python` unless you name it) whose one
//! parameter is `code`. Its description lists every tool of the registry as a Python function,
//! with type hints from the tool's JSON Schema and a docstring from its description. The code
//! runs in [Monty](https://github.com/pydantic/monty), a sandboxed Python interpreter written in
//! Rust: no filesystem, network, environment or imports beyond its safe standard library; the
//! only functions that reach outside are the tools.
//!
//! Every tool call from the code is a real call through the registry's whole pipeline: limits,
//! repair, the ParamResolver, validation, approval, the read/write gate, the concurrency
//! limit, timeouts, caught panics, bounded outputs, a tracing span under the code tool's. A
//! tool's result comes back as a Python value; its error as an exception the code can catch.
//! `list_dir(path=".")` calls a tool and returns its result; `list_dir_async(path=".")` starts
//! the same call and returns an awaitable, for `asyncio.gather`.
//!
//! ```
//! # #[cfg(feature = "code")] {
//! use std::sync::Arc;
//! use tool_runtime::{tool, Registry};
//!
//! /// Add two numbers.
//! #[tool]
//! fn add(a: i64, b: i64) -> i64 {
//!     a + b
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let tools = Arc::new(Registry::builder().without_inventory().register(add::TOOL).build().unwrap());
//! // The model sees one tool; every tool is a function inside it.
//! let registry = Registry::builder().without_inventory().dynamic(tools.code_tool()).build().unwrap();
//! let code = "total = 0\nfor i in range(5):\n    total = add(a=total, b=i)\nprint('done')\ntotal";
//! let output = registry.call("run_python", &serde_json::json!({ "code": code }).to_string()).await;
//! assert_eq!(output.to_model_text(), "done\n10");
//! # });
//! # }
//! ```

mod answer;
mod mode;
mod run;
mod signature;
mod values;
#[cfg(feature = "code-workers")]
mod workers;

use crate::context::{CallContext, Calls};
use crate::def::{Args, Pending, ToolFlags};
use crate::registry::Registry;
use crate::spec::ToolSpec;
use crate::tool::{DynamicTool, RuntimeTool};
use crate::ToolOutput;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

/// What a tool's awaitable form adds to its name: `read_file_async(...)`.
pub const ASYNC_SUFFIX: &str = "_async";

/// The limits of one run of the model's code. Defaults a server can live with.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct CodeLimits {
    /// The interpreter's own running time, tool calls not counted (default 5 s).
    pub time: Duration,
    /// The whole run, tool calls included (default 60 s).
    pub wall: Duration,
    /// Bytes the code may allocate (default 64 MiB). In process, one allocation over it is
    /// always refused; the total of live allocations is enforced where Monty's allocator
    /// (`monty-alloc`) is the program's global allocator.
    pub memory: usize,
    /// How deep calls may nest (default 200).
    pub recursion: usize,
    /// Tool calls in one run, both forms (default 100).
    pub tool_calls: usize,
}

impl Default for CodeLimits {
    fn default() -> Self {
        CodeLimits {
            time: Duration::from_secs(5),
            wall: Duration::from_secs(60),
            memory: 64 << 20,
            recursion: 200,
            tool_calls: 100,
        }
    }
}

pub use mode::CodeMode;
#[cfg(feature = "code-workers")]
pub use workers::{WorkerPool, WorkerPoolError};

/// How the code tool is made: its name, its limits, and where the code runs.
#[derive(Clone, Debug)]
pub struct CodeSettings {
    pub(crate) name: String,
    pub(crate) limits: CodeLimits,
    pub(crate) engine: Engine,
}

impl Default for CodeSettings {
    fn default() -> Self {
        CodeSettings {
            name: "run_python".to_owned(),
            limits: CodeLimits::default(),
            engine: Engine::InProcess,
        }
    }
}

/// Where the code runs.
#[derive(Clone, Debug)]
pub(crate) enum Engine {
    /// In this process: the fastest start, but code that crashes the interpreter natively (a
    /// stack overflow Monty's own depth limit misses, an allocator abort) takes the process
    /// with it.
    InProcess,
    /// In a pool of worker processes.
    #[cfg(feature = "code-workers")]
    Workers(WorkerPool),
}

impl CodeSettings {
    /// The code tool's name (default `run_python`; the seed projects call it `python_exec`).
    #[must_use]
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The limits of each run.
    #[must_use]
    pub fn limits(mut self, limits: CodeLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Runs each snippet in a worker process of `pool` rather than in this process: code
    /// that crashes the interpreter (a native stack overflow, an allocator abort) ends its
    /// worker only, the call gets an error result, and the pool starts another worker. Each
    /// run costs a round trip to the worker per tool call (see BENCHMARKS.md).
    #[cfg(feature = "code-workers")]
    #[must_use]
    pub fn workers(mut self, pool: WorkerPool) -> Self {
        self.engine = Engine::Workers(pool);
        self
    }
}

impl Registry {
    /// The code tool over this registry's tools, named `run_python`, with the default
    /// [`CodeLimits`]: give it to another registry's builder (`.dynamic(..)`) alone, or beside
    /// the tools themselves. See [`code`](crate::code);
    /// [`RegistryBuilder::code_mode`](crate::RegistryBuilder::code_mode) does it in one step.
    pub fn code_tool(self: &Arc<Self>) -> DynamicTool {
        self.code_tool_with(CodeSettings::default())
    }

    /// [`code_tool`](Self::code_tool) with a name and limits of your own.
    pub fn code_tool_with(self: &Arc<Self>, settings: CodeSettings) -> DynamicTool {
        let registry = Arc::clone(self);
        let tool = Arc::new(CodeTool {
            limits: settings.limits,
            engine: settings.engine,
        });
        let description = description(self.specs());
        let flags = flags(self.specs());
        DynamicTool::new(
            settings.name,
            description,
            input_schema(),
            move |args: Value, cx| {
                let registry = Arc::clone(&registry);
                let tool = Arc::clone(&tool);
                async move { tool.run(&*registry, &args, cx.call_id()).await }
            },
        )
        .with_flags(flags)
    }
}

/// The code tool's flags, from the tools it calls: it writes, destroys or reaches outside
/// when one of them may. It runs beside other calls: each call it makes passes the gate.
fn flags<'a>(specs: impl Iterator<Item = &'a ToolSpec>) -> ToolFlags {
    let mut flags = ToolFlags {
        read_only: true,
        parallel: Some(true),
        ..ToolFlags::default()
    };
    for spec in specs {
        let theirs = spec.flags();
        flags.read_only &= theirs.read_only;
        flags.destructive |= theirs.destructive;
        flags.open_world |= theirs.open_world;
    }
    flags
}

/// The code tool: how each snippet runs (its limits, its engine). Beside the tools it calls
/// it is the registry's own tool and reaches them through the call's context; alone it runs
/// inside a [`DynamicTool`] over the registry of the tools.
pub(crate) struct CodeTool {
    pub(crate) limits: CodeLimits,
    pub(crate) engine: Engine,
}

impl CodeTool {
    /// One run of the `code` argument against `calls`, within the wall-time limit.
    async fn run(&self, calls: &dyn Calls, args: &Value, call_id: Option<&str>) -> ToolOutput {
        let code = args["code"].as_str().unwrap_or_default();
        let limits = &self.limits;
        let run = async {
            match &self.engine {
                Engine::InProcess => run::run(calls, limits, code, call_id).await,
                #[cfg(feature = "code-workers")]
                Engine::Workers(pool) => workers::run(pool, calls, limits, code, call_id).await,
            }
        };
        match tokio::time::timeout(limits.wall, run).await {
            Ok(output) => output,
            Err(_) => ToolOutput::error(
                crate::ErrorCode::Timeout,
                format!(
                    "the code ran past its limit of {:?}, tool calls included: do less in one snippet",
                    limits.wall
                ),
            ),
        }
    }
}

impl RuntimeTool for CodeTool {
    fn invoke<'a>(&'a self, args: Args<'a>, cx: &'a CallContext<'a>) -> Pending<'a> {
        let args = match args.parse::<Value>(cx) {
            Ok(args) => args,
            Err(output) => return Pending::Refused(output),
        };
        let Some(calls) = cx.calls else {
            return Pending::Refused(ToolOutput::error(
                crate::ErrorCode::RuntimeError,
                "code mode runs only inside a registry",
            ));
        };
        Pending::Async(Box::pin(
            async move { self.run(calls, &args, cx.call_id).await },
        ))
    }
}

fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "code": {
                "type": "string",
                "description": "Python to run. The value of the last line is returned, after what the code printed."
            }
        },
        "required": ["code"],
        "additionalProperties": false
    })
}

/// The code tool's description: how to use it, the tools as Python functions, and what the
/// sandbox refuses.
pub(crate) fn description<'a>(specs: impl Iterator<Item = &'a ToolSpec>) -> String {
    format!(
        "Run Python code that calls the tools below as functions. Use it to make several tool \
calls in one step: loops, conditions, and `await asyncio.gather(...)` over the `_async` forms \
to run calls at once. The value of the last line is returned, after whatever the code printed.\n\n\
Each tool is a function: `name(arg=value)` calls it and returns its result (JSON as dict, \
list, str, int, float, bool or None). `name_async(arg=value)` is the same call as an \
awaitable. A failed call raises an exception (ValueError for bad arguments, PermissionError \
for a denied call, RuntimeError otherwise) that `try`/`except` can catch.\n\n\
```python\n{}```\n\n\
The sandbox runs a subset of Python 3 with its safe standard library (asyncio, json, re, math, \
datetime, dataclasses, typing, ...). It refuses files, the network, the environment, \
subprocesses, `eval`, `exec` and `__import__`; the only functions that reach outside are the \
tools above.",
        signature::python_api(specs)
    )
}
