//! [`RegistryBuilder::build`]: every tool brought to one shape, checked, and prepared for
//! calls (schema, validator, exactness, resolvers, dispatch settings).

use super::build_error::{BuildError, Location};
use super::build_note::BuildNote;
use super::builder::RegistryBuilder;
use super::candidate::Candidate;
use super::defaults;
use super::mcp_header;
use super::Registry;
use crate::approval::ApprovalPolicy;
use crate::context::SharedResolver;
use crate::def::ToolDef;
use crate::export::names::ExportNames;
use crate::pipeline::checked::PropertyChecks;
use crate::pipeline::output_check::OutputCheck;
use crate::pipeline::tool_lookup::NameIndex;
use crate::pipeline::{exact, validate};
use crate::pipeline::{Config, Entry};
use crate::spec::ToolSpec;
use crate::state::StateMap;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

/// The settings that shape each tool's entry.
struct PerTool<'a> {
    states: &'a StateMap,
    validation: bool,
    strict_build: bool,
    resolvers: &'a [(String, SharedResolver)],
    context_defaults: &'a [(String, Value)],
    timeouts: &'a [(String, Duration)],
    default_timeout: Option<Duration>,
    approval: ApprovalPolicy,
    parallel: &'a [(String, bool)],
    max_output: usize,
    max_outputs: &'a [(String, usize)],
}

impl RegistryBuilder {
    /// Checks every tool and builds the registry: schemas are generated and validators
    /// compiled here, once. Every problem is reported, not just the first.
    ///
    /// # Errors
    ///
    /// A [`BuildError`] listing every problem found: two tools with one name, a state no one
    /// provided, a `#[tool]` schema that can't be used, a tool named in a setting that doesn't
    /// exist (and an outside tool's unusable schema under [`strict_build`](Self::strict_build)).
    pub fn build(mut self) -> Result<Registry, BuildError> {
        let finish = self.finish.take();
        let registry = build(self)?;
        match finish {
            Some(finish) => finish(registry),
            None => Ok(registry),
        }
    }
}

fn build(builder: RegistryBuilder) -> Result<Registry, BuildError> {
    let RegistryBuilder {
        given,
        states,
        use_inventory,
        only,
        exclude,
        limits,
        repair,
        validation,
        strict_build,
        resolvers,
        context_defaults,
        default_timeout,
        timeouts,
        parallel,
        concurrency,
        approval,
        approver,
        max_output,
        max_outputs,
        #[cfg(feature = "mcp")]
        resources,
        #[cfg(feature = "mcp")]
        mcp,
        finish: _,
    } = builder;
    // The registry's order: `#[tool]` fns collected by `inventory` (which has no order of its
    // own) by name, then the tools given to the builder in the order given.
    let mut collected: Vec<ToolDef> = if use_inventory {
        crate::registration::collected().collect()
    } else {
        Vec::new()
    };
    // The same definition from inventory and from `register` is one tool, not a clash: it
    // keeps its place among the given tools.
    let registered: HashSet<_> = given
        .iter()
        .filter_map(|c| Some((c.name.as_str(), c.location?)))
        .collect();
    collected.retain(|d| !registered.contains(&(d.name, d.location)));
    collected.sort_by(|a, b| {
        (a.name, a.location.file, a.location.line).cmp(&(b.name, b.location.file, b.location.line))
    });
    collected.dedup_by(|a, b| (a.name, a.location) == (b.name, b.location));
    let mut candidates: Vec<Candidate> = collected
        .into_iter()
        .map(Candidate::from)
        .chain(given)
        .collect();

    let mut errors = Vec::new();
    #[cfg(feature = "mcp")]
    for import in mcp {
        errors.push(BuildError::ToolSource {
            origin: import.describe(),
            reason: "connecting to an MCP server is async: build with `build_async().await`"
                .to_owned(),
        });
    }
    let known: HashSet<&str> = candidates.iter().map(|c| c.name.as_str()).collect();
    for (filter, names) in [
        ("only", only.clone().unwrap_or_default()),
        ("exclude", exclude.clone()),
        ("resolver", named(&resolvers)),
        ("timeout", named(&timeouts)),
        ("parallel", named(&parallel)),
        ("tool_max_output", named(&max_outputs)),
    ] {
        for name in names.into_iter().filter(|n| !known.contains(n.as_str())) {
            errors.push(BuildError::UnknownName { filter, name });
        }
    }
    if let Some(only) = &only {
        candidates.retain(|c| only.contains(&c.name));
    }
    candidates.retain(|c| !exclude.contains(&c.name));

    let settings = PerTool {
        states: &states,
        validation,
        strict_build,
        resolvers: &resolvers,
        context_defaults: &context_defaults,
        timeouts: &timeouts,
        default_timeout,
        approval,
        parallel: &parallel,
        max_output,
        max_outputs: &max_outputs,
    };
    let mut notes = Vec::new();
    let mut index =
        HashMap::with_capacity_and_hasher(candidates.len(), foldhash::fast::RandomState::default());
    let mut tools: Vec<Entry> = Vec::with_capacity(candidates.len());
    for candidate in candidates {
        if let Some(&first) = index.get(&candidate.name) {
            let first: &Entry = &tools[first];
            errors.push(BuildError::DuplicateName {
                name: candidate.name.clone(),
                first: first
                    .spec
                    .location
                    .map_or(Location::Runtime, Location::Source),
                second: candidate
                    .location
                    .map_or(Location::Runtime, Location::Source),
            });
            continue;
        }
        if let Some(entry) = entry(candidate, &settings, &mut errors, &mut notes) {
            index.insert(entry.spec.name.clone(), tools.len());
            tools.push(entry);
        }
    }

    #[cfg(feature = "mcp")]
    errors.extend(crate::resources::check(&resources));
    if let Some(error) = BuildError::from_list(errors) {
        return Err(error);
    }
    for note in &notes {
        tracing::warn!("{note}");
    }
    let (names, exported, catalog) = lookups(&tools);
    Ok(Registry {
        tools,
        index,
        names,
        exported,
        catalog,
        states: Arc::new(states),
        config: Config {
            limits,
            repair,
            context_defaults,
            concurrency: concurrency.map(|n| Arc::new(tokio::sync::Semaphore::new(n))),
            approver,
            max_output,
            gate: Default::default(),
        },
        blocking: Default::default(),
        exports: Default::default(),
        notes,
        #[cfg(feature = "mcp")]
        resources: Arc::new(resources),
    })
}

impl Registry {
    /// Adds one more tool after the build (code mode's code tool, made from the others'
    /// specs), and the indexes that name it.
    #[cfg_attr(not(feature = "code"), allow(dead_code))]
    pub(crate) fn add_entry(&mut self, entry: Entry) -> Result<(), BuildError> {
        if self.index.contains_key(&entry.spec.name) {
            return Err(BuildError::DuplicateName {
                name: entry.spec.name.clone(),
                first: Location::Runtime,
                second: Location::Runtime,
            });
        }
        self.index.insert(entry.spec.name.clone(), self.tools.len());
        self.tools.push(entry);
        (self.names, self.exported, self.catalog) = lookups(&self.tools);
        Ok(())
    }
}

/// What the registry derives from its tools to find them: by a name as a model may spell it,
/// by the name an export gives it, and every spec in order.
fn lookups(tools: &[Entry]) -> (NameIndex, ExportNames, Arc<[Arc<ToolSpec>]>) {
    let names = NameIndex::new(tools.iter().map(|t| t.spec.name.as_str()));
    let exported = ExportNames::new(tools.iter().map(|t| t.spec.name.as_str()));
    let catalog = tools.iter().map(|t| Arc::clone(&t.spec)).collect();
    (names, exported, catalog)
}

/// Checks one tool and prepares its entry; `None` (with the problems recorded) when it can't
/// be called.
fn entry(
    candidate: Candidate,
    settings: &PerTool<'_>,
    errors: &mut Vec<BuildError>,
    notes: &mut Vec<BuildNote>,
) -> Option<Entry> {
    let Candidate {
        name,
        title,
        description,
        flags,
        location,
        handler,
        requires,
        resolver,
        timeout,
        max_output,
        error_format,
        schema,
        output_schema,
        typed,
        outside,
        schema_changes,
    } = candidate;
    for requirement in requires.iter().flatten() {
        if !settings.states.contains((requirement.type_id)()) {
            errors.push(BuildError::MissingState {
                tool: name.clone(),
                type_name: (requirement.type_name)(),
            });
        }
    }
    if name.is_empty() {
        errors.push(BuildError::InvalidSchema {
            tool: name,
            reason: "a tool needs a name".into(),
        });
        return None;
    }
    // A schema from outside the program that can't be used leaves its tool out, said once;
    // the program's own (or any, in a strict build) fails the build.
    let unusable = |tool: String, reason: String, errors: &mut Vec<_>, notes: &mut Vec<_>| {
        if outside && !settings.strict_build {
            notes.push(BuildNote::ToolLeftOut { tool, reason });
        } else {
            errors.push(BuildError::InvalidSchema { tool, reason });
        }
    };
    let (input_schema, closed_by_us) = match schema {
        Ok(schema) => schema,
        Err(reason) => {
            unusable(name, reason, errors, notes);
            return None;
        }
    };
    let validator = if settings.validation {
        match validate::compile(&input_schema) {
            Ok(validator) => Some(validator),
            Err(reason) => {
                unusable(name, reason, errors, notes);
                return None;
            }
        }
    } else {
        None
    };
    // Checked whether or not arguments are validated: it is a promise to the tool's callers.
    let (output_schema, output_wrapped, output_check) = match output_schema {
        Ok(None) => (None, false, None),
        Ok(Some((schema, wrapped))) => match OutputCheck::new(&schema, wrapped) {
            Ok(check) => (Some(schema), wrapped, Some(Box::new(check))),
            Err(reason) => {
                unusable(name, format!("its output schema: {reason}"), errors, notes);
                return None;
            }
        },
        Err(reason) => {
            unusable(name, reason, errors, notes);
            return None;
        }
    };
    let bad_headers = mcp_header::check(&input_schema);
    if let Some(first) = bad_headers.first() {
        if outside && !settings.strict_build {
            notes.push(BuildNote::ToolLeftOut {
                tool: name,
                reason: first.to_string(),
            });
        } else {
            errors.extend(
                bad_headers
                    .into_iter()
                    .map(|problem| BuildError::McpHeader {
                        tool: name.clone(),
                        problem,
                    }),
            );
        }
        return None;
    }
    if !schema_changes.is_empty() {
        notes.push(BuildNote::SchemaRewritten {
            tool: name.clone(),
            changes: schema_changes,
        });
    }
    let (unusable, resolve_schema) = defaults::check(&input_schema);
    notes.extend(unusable.into_iter().map(|u| BuildNote::UnusableDefault {
        tool: name.clone(),
        pointer: u.pointer,
        default: u.default,
        reason: u.reason,
    }));
    let properties = input_schema.get("properties").and_then(Value::as_object);
    let uses_context_defaults = settings
        .context_defaults
        .iter()
        .any(|(parameter, _)| properties.is_some_and(|p| p.contains_key(parameter)));
    let mut entry = Entry {
        exact: exact::is_exact(&input_schema, closed_by_us),
        checks: validator
            .as_ref()
            .and_then(|_| PropertyChecks::build(&input_schema, closed_by_us)),
        validator,
        output_check,
        // The resolver named on #[tool] first, then those added on the builder.
        resolvers: resolver
            .map(|f| Arc::new(f) as SharedResolver)
            .into_iter()
            .chain(
                settings
                    .resolvers
                    .iter()
                    .filter(|(n, _)| *n == name)
                    .map(|(_, r)| Arc::clone(r)),
            )
            .collect(),
        uses_context_defaults,
        resolve_schema: resolve_schema.map(Box::new),
        typed,
        // Read-only tools may run beside others unless told otherwise.
        parallel: setting(settings.parallel, &name)
            .or(flags.parallel)
            .unwrap_or(flags.read_only),
        gated: true,
        // The builder's setting, then the one on #[tool], then the registry's.
        timeout: setting(settings.timeouts, &name)
            .or(timeout)
            .or(settings.default_timeout),
        needs_approval: settings.approval.applies_to(flags),
        // The builder's setting, then the one on #[tool], then the registry's.
        max_output: setting(settings.max_outputs, &name)
            .or(max_output)
            .unwrap_or(settings.max_output),
        handler,
        spec: Arc::new(ToolSpec {
            name,
            title,
            description,
            input_schema,
            output_schema,
            output_wrapped,
            flags,
            location,
            error_format,
        }),
        direct: false,
        runs_inline: false,
    };
    entry.direct = entry.typed
        && entry.resolvers.is_empty()
        && !entry.uses_context_defaults
        && (entry.exact || entry.validator.is_none());
    entry.runs_inline = entry.direct && !entry.needs_runtime();
    Some(entry)
}

/// The names a per-tool setting mentions.
fn named<T>(list: &[(String, T)]) -> Vec<String> {
    list.iter().map(|(name, _)| name.clone()).collect()
}

/// A per-tool setting for `tool`: the last one given wins.
fn setting<T: Clone>(list: &[(String, T)], tool: &str) -> Option<T> {
    list.iter()
        .rev()
        .find(|(name, _)| name == tool)
        .map(|(_, value)| value.clone())
}
