//! The registry's settings for the pipeline, set on the builder and read by every stage.

use crate::approval::Approver;
use crate::gate::Gate;
use crate::pipeline::{Limits, RepairPolicy};
use serde_json::Value;
use std::sync::Arc;

/// How the pipeline treats calls, set on the builder.
pub(crate) struct Config {
    pub limits: Limits,
    pub repair: RepairPolicy,
    pub context_defaults: Vec<(String, Value)>,
    /// How many calls may run at once, across all callers.
    pub concurrency: Option<Arc<tokio::sync::Semaphore>>,
    pub approver: Option<Box<dyn Approver>>,
    /// The output cap of a tool that has none of its own, in bytes.
    pub max_output: usize,
    /// The gate every call passes (`gate`): parallel-safe calls share it, any other runs
    /// alone. Beside the concurrency limit, it is what calls of one registry share.
    pub gate: Arc<Gate>,
}
