//! `tool-examples schema`: every tool's schema in one export dialect.

use super::{write_json, CliError};
use std::io::Write;
use std::process::ExitCode;
use tool_runtime::{Dialect, Registry};

/// Prints the exported tool list as pretty JSON. With `--strict`, says on stderr which tools
/// go out without strict mode and why (the export itself never fails over it).
pub fn run(
    registry: &Registry,
    dialect: Dialect,
    strict: bool,
    out: &mut dyn Write,
) -> Result<ExitCode, CliError> {
    if strict && !dialect.has_strict_mode() {
        eprintln!(
            "note: {} has no strict mode; --strict changes nothing",
            dialect.as_str()
        );
    }
    if dialect.is_strict() {
        for spec in registry.specs() {
            if let Err(issues) = registry.strict_check(spec.name(), dialect) {
                eprintln!("note: exported with strict: false: {issues}");
            }
        }
    }
    write_json(out, &registry.export_schema(dialect))?;
    Ok(ExitCode::SUCCESS)
}
