//! `tool-examples schema`: every tool's schema in one provider's shape, or the neutral list.

use super::{write_json, CliError};
use std::io::Write;
use std::process::ExitCode;
use tool_runtime::{Provider, Registry};

/// What `schema --dialect` names.
#[derive(Clone, Copy, Debug)]
pub(super) enum Shape {
    /// A provider's tool list.
    Provider(Provider),
    /// The neutral list (`Registry::export_schema`).
    Plain,
}

/// Prints the exported tool list as pretty JSON. With `--strict`, says on stderr which tools
/// go out without strict mode and why (the export itself never fails over it).
pub(super) fn run(
    registry: &Registry,
    shape: Shape,
    strict: bool,
    out: &mut dyn Write,
) -> Result<ExitCode, CliError> {
    let export = match shape {
        Shape::Provider(provider) => registry.export(provider).strict(strict),
        Shape::Plain => registry.export_plain(),
    };
    match shape {
        Shape::Provider(provider) if strict && !provider.has_strict_mode() => eprintln!(
            "note: {} has no strict mode; --strict changes nothing",
            provider.as_str()
        ),
        Shape::Plain if strict => {
            eprintln!("note: the plain list has no strict mode; --strict changes nothing");
        }
        _ => {}
    }
    if export.is_strict() {
        for spec in registry.specs() {
            if let Err(issues) = export.check(spec.name()) {
                eprintln!("note: exported with strict: false: {issues}");
            }
        }
    }
    write_json(out, &*export.shared())?;
    Ok(ExitCode::SUCCESS)
}
