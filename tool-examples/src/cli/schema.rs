//! `tool-examples schema`: every tool's schema in one export dialect.

use super::{write_json, CliError};
use std::io::Write;
use std::process::ExitCode;
use tool_runtime::{Dialect, Registry};

/// Prints the exported tool list as pretty JSON.
pub fn run(
    registry: &Registry,
    dialect: Dialect,
    out: &mut dyn Write,
) -> Result<ExitCode, CliError> {
    write_json(out, &registry.export_schema(dialect))?;
    Ok(ExitCode::SUCCESS)
}
