//! `tool-examples call NAME ARGS`: one call, its output as JSON.

use super::{write_json, CliError, CALL_FAILED};
use std::io::{self, Read, Write};
use std::path::Path;
use std::process::ExitCode;
use tool_runtime::Registry;

/// Calls the tool and prints the output; exit code 1 when the output is an error.
pub(super) async fn run(
    registry: &Registry,
    root: Option<&Path>,
    name: &str,
    args: &str,
    out: &mut dyn Write,
) -> Result<ExitCode, CliError> {
    let root = root.unwrap_or(Path::new("."));
    if !root.is_dir() {
        return Err(CliError::Setup(format!(
            "--root {} is not a directory",
            root.display()
        )));
    }
    let args = if args == "-" {
        let mut text = String::new();
        io::stdin().read_to_string(&mut text)?;
        text
    } else {
        args.to_owned()
    };
    let output = registry.call(name, &args).await;
    write_json(out, &output)?;
    Ok(if output.is_error() {
        CALL_FAILED
    } else {
        ExitCode::SUCCESS
    })
}
