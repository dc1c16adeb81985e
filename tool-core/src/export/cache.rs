//! [`ExportCache`]: each shape's export, made on first use and kept: the registry never
//! changes, so neither does its tool list, which an agent sends with every request.

use crate::Provider;
use serde_json::value::RawValue;
use serde_json::Value;
use std::sync::{Arc, OnceLock};

/// How many shapes there are: each provider strict and not, and the neutral list.
const SHAPES: usize = 2 * Provider::ALL.len() + 1;

/// Every shape's tool list, as a value and as JSON text.
#[derive(Debug, Default)]
pub(crate) struct ExportCache {
    pub(super) values: [OnceLock<Arc<Value>>; SHAPES],
    pub(super) texts: [OnceLock<Arc<RawValue>>; SHAPES],
}

/// The slot of `provider`'s export (`None`: the neutral list), strict or not.
pub(super) fn slot(provider: Option<Provider>, strict: bool) -> usize {
    // `Provider::ALL` lists the variants in declaration order.
    provider.map_or(SHAPES - 1, |provider| {
        2 * provider as usize + usize::from(strict)
    })
}
