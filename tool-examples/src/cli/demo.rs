//! The demo: a scratch workspace it writes itself, the tool list, one schema, and a few
//! calls, good and bad. The output is the same on every run: no temporary path is printed.

use super::{list, write_json, CliError};
use std::io::Write;
use std::process::ExitCode;
use tool_runtime::Provider;

const NOTES: &str = "Release checklist
- bump the version
- TODO: write the changelog
- tag the release
";

const SALES: &str = "date,region,units,price,returned
2024-03-01,north,12,9.99,false
2024-03-01,south,7,12.50,false
2024-03-02,north,,9.99,true
2024-03-02,east,3,NaN,false
2024-03-03,south,15,11.25,false
";

/// One demo call: what it shows, and whether it should fail.
struct DemoCall {
    tool: &'static str,
    args: &'static str,
    shows: &'static str,
    fails: bool,
}

const CALLS: &[DemoCall] = &[
    DemoCall {
        tool: "list_dir",
        args: r#"{"depth": 2}"#,
        shows: "an async tool; path and limit take their defaults",
        fails: false,
    },
    DemoCall {
        tool: "read_file",
        args: r#"{"path": "notes.txt", "offset": 2, "limit": 2}"#,
        shows: "numbered lines, and where to continue",
        fails: false,
    },
    DemoCall {
        tool: "search_files",
        args: r#"{"query": "todo"}"#,
        shows: "case-insensitive by default; a JSON result",
        fails: false,
    },
    DemoCall {
        tool: "csv_summary",
        args: r#"{"path": "data/sales.csv", "columns": ["units", "price"]}"#,
        shows: "an empty value and a NaN, counted but kept out of the stats",
        fails: false,
    },
    DemoCall {
        tool: "update_plan",
        args: r#"{"explanation": "Preparing the release", "plan": [{"step": "Bump the version", "status": "completed"}, {"step": "Write the changelog", "status": "in_progress"}, {"step": "Tag the release", "status": "pending"}]}"#,
        shows: "nested structs and an enum; the plan is kept in shared state",
        fails: false,
    },
    DemoCall {
        tool: "delete_file",
        args: r#"{"path": "notes.txt"}"#,
        shows: "an unknown tool",
        fails: true,
    },
    DemoCall {
        tool: "read_file",
        args: r#"{"path": "notes.txt""#,
        shows: "malformed JSON",
        fails: true,
    },
    DemoCall {
        tool: "read_file",
        args: r#"{"offset": 2}"#,
        shows: "a missing required argument",
        fails: true,
    },
    DemoCall {
        tool: "read_file",
        args: r#"{"path": "../../etc/passwd"}"#,
        shows: "a path that escapes the workspace",
        fails: true,
    },
];

/// The tool whose schema the demo prints.
const SHOWN_SCHEMA: &str = "read_file";

/// Runs the demo; exit code 1 if a call didn't turn out as the demo expects.
pub(super) async fn run(out: &mut dyn Write) -> Result<ExitCode, CliError> {
    let dir = tempfile::tempdir()?;
    std::fs::write(dir.path().join("notes.txt"), NOTES)?;
    std::fs::create_dir(dir.path().join("data"))?;
    std::fs::write(dir.path().join("data/sales.csv"), SALES)?;
    let registry = tool_examples::registry(dir.path().to_path_buf())
        .map_err(|e| CliError::Setup(format!("the registry could not be built: {e}")))?;

    writeln!(
        out,
        "tool-examples demo: {} tools over a scratch workspace holding notes.txt and data/sales.csv.",
        registry.len()
    )?;
    writeln!(out, "\n== The tools (`tool-examples list`)")?;
    list::write(&registry, out)?;

    writeln!(
        out,
        "\n== The schema of {SHOWN_SCHEMA}, as MCP lists it (`tool-examples schema`)"
    )?;
    let exported = registry.export(Provider::Mcp).to_value();
    let shown = exported
        .as_array()
        .and_then(|tools| tools.iter().find(|t| t["name"] == SHOWN_SCHEMA));
    write_json(out, &shown)?;

    writeln!(out, "\n== Calls (`tool-examples call NAME ARGS`)")?;
    let mut surprises = 0;
    for call in CALLS {
        writeln!(out, "\n>>> {} {}\n# {}", call.tool, call.args, call.shows)?;
        let output = registry.call(call.tool, call.args).await;
        write_json(out, &output)?;
        if output.is_error() != call.fails {
            surprises += 1;
            writeln!(
                out,
                "!! expected {}",
                if call.fails { "an error" } else { "success" }
            )?;
        }
    }
    writeln!(
        out,
        "\n== Next: give these tools to a model\n\
         # no model server was given; point `chat` at any OpenAI-compatible one, for example\n\
         tool-examples chat --provider openai-chat --url http://127.0.0.1:8000/v1 --model Qwen/Qwen3-8B\n\
         # add --text-tools hermes for a server without a tool parser, --prompt \"...\" for one shot"
    )?;
    Ok(if surprises == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
