//! [`ToolList`]: what an export reads, the specs in registry order and the names each rule
//! gives them, so that no export needs the registry itself.

use super::names::{ExportNames, NameRule};
use crate::spec::ToolSpec;
use std::sync::Arc;

/// The tools an export lists: their specs, in the registry's order, and their exported names.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct ToolList<'a> {
    specs: &'a [Arc<ToolSpec>],
    names: &'a ExportNames,
}

impl<'a> ToolList<'a> {
    /// The list of `specs`, named by `names` (assigned for the same specs, in the same order).
    pub(crate) fn new(specs: &'a [Arc<ToolSpec>], names: &'a ExportNames) -> Self {
        ToolList { specs, names }
    }

    /// Every spec, in order.
    pub(crate) fn specs(self) -> impl ExactSizeIterator<Item = &'a ToolSpec> + Clone {
        self.specs.iter().map(|spec| &**spec)
    }

    /// The name tool `index` goes out under by `rule`.
    pub(crate) fn name(self, rule: NameRule, index: usize) -> &'a str {
        self.names.get(rule, index)
    }

    /// The position of the tool named `name` (its own name).
    pub(crate) fn position(self, name: &str) -> Option<usize> {
        self.specs.iter().position(|spec| spec.name() == name)
    }
}
