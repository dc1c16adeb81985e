#!/usr/bin/env python3
"""Generates the compile-time benchmark crates (run by scripts/bench-compile.sh).

    python3 scripts/gen_compile_bench.py OUT_DIR [TOOLS]

Writes one cargo workspace at OUT_DIR with four crates, each holding TOOLS (default 100)
tools of the benchmark tool's shape, `search(query: String, limit: u32 = 10,
exact: Option<bool>, mode: Mode)` returning a small struct:

- c_tool:     `#[tool]` fns (and a list of their definitions, so every one is compiled in);
- c_plain:    the same fns as plain fns, `#[derive(Deserialize)]` argument structs,
              `#[derive(Serialize)]` outputs and a hand-written `match name` dispatcher, so
              serde's code is instantiated in the crate as a framework's would be;
- c_schemars: c_plain plus `#[derive(JsonSchema)]` on the argument structs and a list of
              their schemas;
- c_rmcp:     one `#[tool_router]` impl with the tools as rmcp `#[tool]` methods
              (`Parameters<Args>` in, `Json<Out>` out) and `#[tool_handler]`.

The workspace is outside the main one (and its lock file is the peers' bench's), so building
it never touches the main workspace's build.
"""

import os
import sys

MAIN = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MODE = """/// How hard to search.
#[derive(Clone, Copy, Debug, serde::Deserialize, serde::Serialize{schema})]
#[serde(rename_all = "snake_case")]
pub enum Mode {{
    /// Quick and rough.
    Fast,
    /// The usual.
    Balanced,
    /// Slow and careful.
    Thorough,
}}
"""

OUT = """/// What tool {i} found.
#[derive(serde::Serialize{schema})]
pub struct Out{i} {{
    pub query: String,
    pub limit: u32,
    pub exact: Option<bool>,
    pub mode: Mode,
    pub count: usize,
}}
"""

BODY = """    let count = query.len() % (limit as usize + 1) + {i};
    Out{i} {{ query, limit, exact, mode, count }}"""

ARGS = """/// The arguments of tool {i}.
#[derive(serde::Deserialize{schema})]
#[serde(deny_unknown_fields)]
pub struct Args{i} {{
    /// What to look for.
    pub query: String,
    /// How many results.
    #[serde(default = "ten")]
    pub limit: u32,
    /// Match the whole phrase.
    #[serde(default)]
    pub exact: Option<bool>,
    /// How hard to search.
    pub mode: Mode,
}}
"""


def c_tool(n):
    out = ["//! Generated: {n} `#[tool]` fns.\n".format(n=n), "use tool_runtime::tool;\n"]
    out.append(MODE.format(schema=", schemars::JsonSchema"))
    for i in range(n):
        out.append(OUT.format(i=i, schema=""))
        out.append(
            """/// Search index {i}.
#[tool(read_only)]
pub fn search_{i}(
    /// What to look for.
    query: String,
    /// How many results.
    #[tool(default = 10)]
    limit: u32,
    /// Match the whole phrase.
    exact: Option<bool>,
    /// How hard to search.
    mode: Mode,
) -> Out{i} {{
{body}
}}
""".format(i=i, body=BODY.format(i=i))
        )
    # Every definition used, without naming its type's path (which has moved between
    # revisions, and bench-build.sh runs this generator against old ones too).
    out.append("/// How many tools there are, every definition used.\npub fn tools() -> usize {\n    std::hint::black_box(vec![\n")
    out.extend("        search_{i}::TOOL,\n".format(i=i) for i in range(n))
    out.append("    ]).len()\n}\n")
    return "".join(out)


def c_plain(n, schemars):
    schema = ", schemars::JsonSchema" if schemars else ""
    out = ["//! Generated: {n} plain fns, serde{s} argument structs.\n".format(
        n=n, s=" + schemars" if schemars else "")]
    out.append(MODE.format(schema=schema))
    out.append("fn ten() -> u32 {\n    10\n}\n")
    for i in range(n):
        out.append(ARGS.format(i=i, schema=schema))
        out.append(OUT.format(i=i, schema=""))
        out.append(
            """/// Search index {i}.
pub fn search_{i}(query: String, limit: u32, exact: Option<bool>, mode: Mode) -> Out{i} {{
{body}
}}
""".format(i=i, body=BODY.format(i=i))
        )
    out.append(
        "/// Calls a tool by name with JSON arguments.\n"
        "pub fn call(name: &str, args: &str) -> Result<String, String> {\n"
        "    match name {\n"
    )
    for i in range(n):
        out.append(
            """        "search_{i}" => {{
            let a: Args{i} = serde_json::from_str(args).map_err(|e| e.to_string())?;
            serde_json::to_string(&search_{i}(a.query, a.limit, a.exact, a.mode)).map_err(|e| e.to_string())
        }}
""".format(i=i)
        )
    out.append('        _ => Err(format!("unknown tool {name}")),\n    }\n}\n')
    if schemars:
        out.append("/// Every tool's input schema.\npub fn schemas() -> Vec<(&'static str, schemars::Schema)> {\n    vec![\n")
        out.extend(
            '        ("search_{i}", schemars::schema_for!(Args{i})),\n'.format(i=i) for i in range(n)
        )
        out.append("    ]\n}\n")
    return "".join(out)


def c_rmcp(n):
    out = ["//! Generated: {n} rmcp `#[tool]` methods in one `#[tool_router]`.\n".format(n=n)]
    out.append(
        "use rmcp::handler::server::router::tool::ToolRouter;\n"
        "use rmcp::handler::server::wrapper::{Json, Parameters};\n"
        "use rmcp::{tool, tool_handler, tool_router, ServerHandler};\n"
    )
    out.append(MODE.format(schema=", schemars::JsonSchema"))
    out.append("fn ten() -> u32 {\n    10\n}\n")
    for i in range(n):
        out.append(ARGS.format(i=i, schema=", schemars::JsonSchema"))
        out.append(OUT.format(i=i, schema=", schemars::JsonSchema"))
    out.append(
        "#[derive(Clone)]\npub struct Server {\n    tool_router: ToolRouter<Self>,\n}\n\n"
        "impl Server {\n    pub fn new() -> Self {\n        Self { tool_router: Self::tool_router() }\n    }\n}\n\n"
        "impl Default for Server {\n    fn default() -> Self {\n        Self::new()\n    }\n}\n\n"
        "#[tool_router]\nimpl Server {\n"
    )
    for i in range(n):
        out.append(
            """    /// Search index {i}.
    #[tool(annotations(read_only_hint = true))]
    async fn search_{i}(&self, Parameters(a): Parameters<Args{i}>) -> Json<Out{i}> {{
        let count = a.query.len() % (a.limit as usize + 1) + {i};
        Json(Out{i} {{ query: a.query, limit: a.limit, exact: a.exact, mode: a.mode, count }})
    }}
""".format(i=i)
        )
    out.append("}\n\n#[tool_handler(router = self.tool_router)]\nimpl ServerHandler for Server {}\n")
    return "".join(out)


def manifest(name, deps):
    return (
        '[package]\nname = "{name}"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n'
        "[dependencies]\n{deps}"
    ).format(name=name, deps="".join(d + "\n" for d in deps))


def main():
    out = os.path.abspath(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    serde = 'serde = { version = "1", features = ["derive"] }'
    serde_json = 'serde_json = "1"'
    schemars = 'schemars = "1.2"'
    runtime = 'tool-runtime = {{ path = "{}" }}'.format(os.path.join(MAIN, "tool-runtime"))
    rmcp = 'rmcp = { version = "=3.11.0", default-features = false, features = ["server", "macros"] }'
    crates = {
        "c_tool": (c_tool(n), [runtime, serde, schemars]),
        "c_plain": (c_plain(n, False), [serde, serde_json]),
        "c_schemars": (c_plain(n, True), [serde, serde_json, schemars]),
        "c_rmcp": (c_rmcp(n), [rmcp, serde, serde_json, schemars]),
    }
    for name, (code, deps) in crates.items():
        os.makedirs(os.path.join(out, name, "src"), exist_ok=True)
        write(os.path.join(out, name, "Cargo.toml"), manifest(name, deps))
        write(os.path.join(out, name, "src", "lib.rs"), code)
    write(
        os.path.join(out, "Cargo.toml"),
        '[workspace]\nresolver = "2"\nmembers = [{}]\n'.format(
            ", ".join('"{}"'.format(c) for c in crates)
        ),
    )
    lock = os.path.join(out, "Cargo.lock")
    if not os.path.exists(lock):
        # The peers' bench's lock: the same versions of serde, schemars and rmcp.
        with open(os.path.join(MAIN, "bench-peers", "Cargo.lock")) as f:
            write(lock, f.read())


def write(path, text):
    # Only when changed: an unchanged file keeps its mtime, so cargo has nothing to redo.
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return
    with open(path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
