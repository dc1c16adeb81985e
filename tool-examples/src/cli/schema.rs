//! `tool-examples schema`: every tool's schema in one provider's shape, or the neutral list;
//! with `--out`, a TensorZero config folder.

use super::{write_json, CliError};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use tool_runtime::export::Export;
use tool_runtime::{Provider, Registry};

/// What `schema --dialect` names.
#[derive(Clone, Copy, Debug)]
pub(super) enum Shape {
    /// A provider's tool list.
    Provider(Provider),
    /// The neutral list (`Registry::export_plain`).
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
    explain_strict(registry, export);
    write_json(out, &*export.shared())?;
    Ok(ExitCode::SUCCESS)
}

/// Says on stderr which tools go out without strict mode, and why.
fn explain_strict(registry: &Registry, export: Export<'_>) {
    if export.is_strict() {
        for spec in registry.specs() {
            if let Err(issues) = export.check(spec.name()) {
                let note = format!("exported with strict: false: {issues}");
                eprintln!("note: {}", super::terminal::text(&note));
            }
        }
    }
}

/// `schema --provider tensorzero --out DIR [--function NAME [--model MODEL]]`.
pub(super) struct TensorZeroOut {
    pub(super) dir: PathBuf,
    pub(super) function: Option<String>,
    pub(super) model: Option<String>,
}

/// Writes the TensorZero config folder and prints the paths written, one a line.
pub(super) fn write_tensorzero(
    registry: &Registry,
    shape: Shape,
    strict: bool,
    args: &TensorZeroOut,
    out: &mut dyn Write,
) -> Result<ExitCode, CliError> {
    if !matches!(shape, Shape::Provider(Provider::TensorZero)) {
        return Err(CliError::Input(
            "--out writes a TensorZero config folder: use it with --provider tensorzero (other \
             shapes print their tool list on stdout)"
                .into(),
        ));
    }
    explain_strict(
        registry,
        registry.export(Provider::TensorZero).strict(strict),
    );
    let mut config = registry.export_tensorzero().strict(strict);
    if let Some(function) = &args.function {
        config = config.function(function);
    }
    if let Some(model) = &args.model {
        config = config.model(model);
    }
    let written = config
        .write_to(&args.dir)
        .map_err(|e| CliError::Setup(e.to_string()))?;
    // The file names come from tool names, which an imported server chose.
    for path in written {
        writeln!(
            out,
            "{}",
            super::terminal::text(&path.display().to_string())
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
