//! `tool-examples list`: one line per tool.

use super::CliError;
use std::io::{self, Write};
use std::process::ExitCode;
use tool_runtime::registry::ToolFlags;
use tool_runtime::Registry;

/// Prints the tool list.
pub(super) fn run(registry: &Registry, out: &mut dyn Write) -> Result<ExitCode, CliError> {
    write(registry, out)?;
    Ok(ExitCode::SUCCESS)
}

/// Writes one aligned line per tool: name, flags, and the first line of its description.
pub(super) fn write(registry: &Registry, out: &mut dyn Write) -> io::Result<()> {
    // Names and descriptions may come from an imported server: escaped for the terminal.
    let rows: Vec<(String, String, String)> = registry
        .specs()
        .map(|spec| {
            let summary = spec.description().lines().next().unwrap_or("").trim();
            (
                super::terminal::text(spec.name()).into_owned(),
                flags(spec.flags()),
                super::terminal::text(summary).into_owned(),
            )
        })
        .collect();
    let name_width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let flags_width = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    for (name, flags, summary) in rows {
        writeln!(out, "{name:name_width$}  {flags:flags_width$}  {summary}")?;
    }
    Ok(())
}

/// The flags that are set, comma-separated, or `-` for none.
fn flags(flags: ToolFlags) -> String {
    let set: Vec<&str> = [
        (flags.read_only, "read_only"),
        (flags.destructive, "destructive"),
        (flags.idempotent, "idempotent"),
        (flags.open_world, "open_world"),
    ]
    .into_iter()
    .filter_map(|(on, name)| on.then_some(name))
    .collect();
    if set.is_empty() {
        "-".to_owned()
    } else {
        set.join(",")
    }
}
