//! Configuring and building a [`Registry`].

use super::build_error::{BuildError, Location};
use super::{Config, Entry, Registry};
use crate::approval::{ApprovalPolicy, Approver};
use crate::def::ToolDef;
use crate::dialect::names::ExportNames;
use crate::error::ToolError;
use crate::pipeline::names::NameIndex;
use crate::pipeline::resolve::{Resolve, SharedResolver};
use crate::pipeline::{exact, validate, Limits, RepairPolicy};
use crate::schema;
use crate::spec::ToolSpec;
use crate::state::StateMap;
use serde::Serialize;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

/// Collects tools, shared state and pipeline settings, then checks them all at
/// [`build`](RegistryBuilder::build).
#[must_use]
pub struct RegistryBuilder {
    defs: Vec<ToolDef>,
    states: StateMap,
    use_inventory: bool,
    only: Option<Vec<String>>,
    exclude: Vec<String>,
    limits: Limits,
    repair: RepairPolicy,
    validation: bool,
    resolvers: Vec<(String, SharedResolver)>,
    context_defaults: Vec<(String, Value)>,
    default_timeout: Option<Duration>,
    timeouts: Vec<(String, Duration)>,
    parallel: Vec<(String, bool)>,
    concurrency: Option<usize>,
    approval: ApprovalPolicy,
    approver: Option<Box<dyn Approver>>,
}

impl Default for RegistryBuilder {
    fn default() -> Self {
        RegistryBuilder {
            defs: Vec::new(),
            states: StateMap::default(),
            use_inventory: true,
            only: None,
            exclude: Vec::new(),
            limits: Limits::default(),
            repair: RepairPolicy::default(),
            validation: true,
            resolvers: Vec::new(),
            context_defaults: Vec::new(),
            default_timeout: None,
            timeouts: Vec::new(),
            parallel: Vec::new(),
            concurrency: None,
            approval: ApprovalPolicy::default(),
            approver: None,
        }
    }
}

impl RegistryBuilder {
    /// Gives the registry a value that tools receive as `State<T>`.
    pub fn state<T: Send + Sync + 'static>(self, value: T) -> Self {
        self.state_arc(Arc::new(value))
    }

    /// Like [`state`](Self::state), for a value you already share.
    pub fn state_arc<T: Send + Sync + 'static>(mut self, value: Arc<T>) -> Self {
        self.states.insert(value);
        self
    }

    /// Adds a `#[tool]` fn by hand: `.register(my_fn::TOOL)`. Needed where `inventory` doesn't
    /// work (such as wasm32) or with [`without_inventory`](Self::without_inventory); harmless
    /// for a tool `inventory` already collects.
    pub fn register(mut self, tool: ToolDef) -> Self {
        self.defs.push(tool);
        self
    }

    /// Leaves out the tools `inventory` collected: only tools passed to
    /// [`register`](Self::register) are used.
    pub fn without_inventory(mut self) -> Self {
        self.use_inventory = false;
        self
    }

    /// Keeps only the named tools. Naming a tool that doesn't exist is a build error.
    pub fn only<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.only
            .get_or_insert_with(Vec::new)
            .extend(names.into_iter().map(Into::into));
        self
    }

    /// Leaves out the named tools. Naming a tool that doesn't exist is a build error.
    pub fn exclude<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.exclude.extend(names.into_iter().map(Into::into));
        self
    }

    /// The size and nesting caps on argument text (default 1 MiB and 64 levels).
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// How much of a model's mistakes to repair (default [`RepairPolicy::Safe`]).
    pub fn repair(mut self, policy: RepairPolicy) -> Self {
        self.repair = policy;
        self
    }

    /// Whether to validate arguments against each tool's JSON Schema (default on). Off, only
    /// what the typed deserializer checks is checked, and no validator is compiled.
    pub fn validation(mut self, on: bool) -> Self {
        self.validation = on;
        self
    }

    /// Adds a resolver for one tool's arguments: it runs before validation and fills what the
    /// model left out, reading injected state if it needs to. A tool may have several; they run
    /// in the order added. See [`Resolve`].
    pub fn resolver<F>(mut self, tool: impl Into<String>, resolver: F) -> Self
    where
        F: Fn(&mut Resolve<'_>) -> Result<(), ToolError> + Send + Sync + 'static,
    {
        self.resolvers.push((tool.into(), Arc::new(resolver)));
        self
    }

    /// A default for a parameter of this name in every tool that has one, used when the model
    /// leaves it out (a working directory, a user id, a locale). Resolvers take precedence;
    /// schema defaults come after.
    pub fn context_default<T: Serialize>(mut self, parameter: impl Into<String>, value: T) -> Self {
        if let Ok(value) = serde_json::to_value(value) {
            self.context_defaults.push((parameter.into(), value));
        }
        self
    }

    /// The timeout of every tool that has none of its own (default: none). A call that runs
    /// longer gets a `timeout` error output and its future is dropped; a sync tool already
    /// running on the blocking pool finishes in the background, its result discarded.
    pub fn default_timeout(mut self, limit: Duration) -> Self {
        self.default_timeout = Some(limit);
        self
    }

    /// One tool's timeout, overriding the default. Naming a tool that doesn't exist is a
    /// build error.
    pub fn timeout(mut self, tool: impl Into<String>, limit: Duration) -> Self {
        self.timeouts.push((tool.into(), limit));
        self
    }

    /// Whether a tool may run beside other calls. By default `read_only` tools may and others
    /// run alone; this overrides it. Naming a tool that doesn't exist is a build error.
    pub fn parallel(mut self, tool: impl Into<String>, parallel: bool) -> Self {
        self.parallel.push((tool.into(), parallel));
        self
    }

    /// How many calls may run at once, across every caller of the registry (default: no limit).
    pub fn concurrency_limit(mut self, calls: usize) -> Self {
        self.concurrency = Some(calls.max(1));
        self
    }

    /// Which calls need approval (default: calls to `destructive` tools).
    pub fn approval(mut self, policy: ApprovalPolicy) -> Self {
        self.approval = policy;
        self
    }

    /// Who approves the calls the [`approval`](Self::approval) policy names. Without one,
    /// such calls are denied.
    pub fn approver(mut self, approver: impl Approver) -> Self {
        self.approver = Some(Box::new(approver));
        self
    }

    /// Checks every tool and builds the registry: schemas are generated and validators
    /// compiled here, once.
    pub fn build(self) -> Result<Registry, BuildError> {
        let RegistryBuilder {
            mut defs,
            states,
            use_inventory,
            only,
            exclude,
            limits,
            repair,
            validation,
            resolvers,
            context_defaults,
            default_timeout,
            timeouts,
            parallel,
            concurrency,
            approval,
            approver,
        } = self;
        if use_inventory {
            defs.extend(crate::registration::collected());
        }
        // The same definition from inventory and from `register` is one tool, not a clash.
        let mut seen = HashSet::new();
        defs.retain(|d| seen.insert((d.name, d.location)));

        let mut errors = Vec::new();
        let known: HashSet<&str> = defs.iter().map(|d| d.name).collect();
        let resolver_names = resolvers.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        for (filter, names) in [
            ("only", only.as_deref().unwrap_or_default()),
            ("exclude", &exclude[..]),
            ("resolver", &resolver_names[..]),
            (
                "timeout",
                &timeouts.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>()[..],
            ),
            (
                "parallel",
                &parallel.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>()[..],
            ),
        ] {
            for name in names.iter().filter(|n| !known.contains(n.as_str())) {
                errors.push(BuildError::UnknownName {
                    filter,
                    name: name.clone(),
                });
            }
        }
        if let Some(only) = &only {
            defs.retain(|d| only.iter().any(|n| n == d.name));
        }
        defs.retain(|d| !exclude.iter().any(|n| n == d.name));
        defs.sort_by(|a, b| {
            a.name
                .cmp(b.name)
                .then(a.location.file.cmp(b.location.file))
                .then(a.location.line.cmp(&b.location.line))
        });

        let mut index =
            HashMap::with_capacity_and_hasher(defs.len(), foldhash::fast::RandomState::default());
        let mut tools: Vec<Entry> = Vec::with_capacity(defs.len());
        for def in &defs {
            for requirement in def.requires.iter().flatten() {
                if !states.contains((requirement.type_id)()) {
                    errors.push(BuildError::MissingState {
                        tool: def.name.to_owned(),
                        type_name: (requirement.type_name)(),
                    });
                }
            }
            if let Some(&first) = index.get(def.name) {
                let first: &Entry = &tools[first];
                errors.push(BuildError::DuplicateName {
                    name: def.name.to_owned(),
                    first: first
                        .spec
                        .location
                        .map_or(Location::Runtime, Location::Source),
                    second: Location::Source(def.location),
                });
                continue;
            }
            let (input_schema, closed_by_us) = schema::input_schema(def.schema);
            let validator = if validation {
                match validate::compile(&input_schema) {
                    Ok(validator) => Some(validator),
                    Err(reason) => {
                        errors.push(BuildError::InvalidSchema {
                            tool: def.name.to_owned(),
                            reason,
                        });
                        None
                    }
                }
            } else {
                None
            };
            let properties = input_schema.get("properties").and_then(Value::as_object);
            let uses_context_defaults = context_defaults
                .iter()
                .any(|(name, _)| properties.is_some_and(|p| p.contains_key(name)));
            index.insert(def.name.to_owned(), tools.len());
            tools.push(Entry {
                exact: exact::is_exact(&input_schema, closed_by_us),
                spec: ToolSpec {
                    name: def.name.to_owned(),
                    title: def.title.map(str::to_owned),
                    description: def.description.to_owned(),
                    input_schema,
                    flags: def.flags,
                    location: Some(def.location),
                },
                invoke: def.invoke,
                validator,
                // The resolver named on #[tool] first, then those added on the builder.
                resolvers: def
                    .resolver
                    .map(|f| Arc::new(f) as SharedResolver)
                    .into_iter()
                    .chain(
                        resolvers
                            .iter()
                            .filter(|(n, _)| n == def.name)
                            .map(|(_, r)| Arc::clone(r)),
                    )
                    .collect(),
                uses_context_defaults,
                // Read-only tools may run beside others unless told otherwise.
                parallel: parallel
                    .iter()
                    .rev()
                    .find(|(n, _)| n == def.name)
                    .map_or(def.flags.read_only, |(_, p)| *p),
                timeout: timeouts
                    .iter()
                    .rev()
                    .find(|(n, _)| n == def.name)
                    .map(|(_, t)| *t),
            });
        }

        if let Some(error) = BuildError::from_list(errors) {
            return Err(error);
        }
        let names = NameIndex::new(tools.iter().map(|t| t.spec.name.as_str()));
        let exported = ExportNames::new(tools.iter().map(|t| t.spec.name.as_str()));
        Ok(Registry {
            tools,
            index,
            names,
            exported,
            states,
            config: Config {
                limits,
                repair,
                context_defaults,
                default_timeout,
                concurrency: concurrency.map(tokio::sync::Semaphore::new),
                approval,
                approver,
            },
            gate: Default::default(),
            blocking: Default::default(),
        })
    }
}
