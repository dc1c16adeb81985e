//! Configuring and building a [`Registry`].

use super::build_error::{BuildError, Location};
use super::{Entry, Registry};
use crate::def::ToolDef;
use crate::schema;
use crate::spec::ToolSpec;
use crate::state::StateMap;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Collects tools and shared state, then checks them all at [`build`](RegistryBuilder::build).
#[must_use]
pub struct RegistryBuilder {
    defs: Vec<ToolDef>,
    states: StateMap,
    use_inventory: bool,
    only: Option<Vec<String>>,
    exclude: Vec<String>,
}

impl Default for RegistryBuilder {
    fn default() -> Self {
        RegistryBuilder {
            defs: Vec::new(),
            states: StateMap::default(),
            use_inventory: true,
            only: None,
            exclude: Vec::new(),
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

    /// Checks every tool and builds the registry: schemas are generated here, once.
    pub fn build(self) -> Result<Registry, BuildError> {
        let RegistryBuilder {
            mut defs,
            states,
            use_inventory,
            only,
            exclude,
        } = self;
        if use_inventory {
            defs.extend(crate::registration::collected());
        }
        // The same definition from inventory and from `register` is one tool, not a clash.
        let mut seen = HashSet::new();
        defs.retain(|d| seen.insert((d.name, d.location)));

        let mut errors = Vec::new();
        let known: HashSet<&str> = defs.iter().map(|d| d.name).collect();
        for (filter, names) in [
            ("only", only.as_deref().unwrap_or_default()),
            ("exclude", &exclude[..]),
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

        let mut index = HashMap::with_capacity(defs.len());
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
            index.insert(def.name.to_owned(), tools.len());
            tools.push(Entry {
                spec: ToolSpec {
                    name: def.name.to_owned(),
                    description: def.description.to_owned(),
                    input_schema: schema::input_schema(def.schema),
                    flags: def.flags,
                    location: Some(def.location),
                },
                invoke: def.invoke,
            });
        }

        match BuildError::from_list(errors) {
            Some(error) => Err(error),
            None => Ok(Registry {
                tools,
                index,
                states,
                blocking: Default::default(),
            }),
        }
    }
}
