//! What happened to one call, stage by stage: [`Registry::call_with_report`](crate::Registry::call_with_report).

use super::repair::Repair;
use crate::context::FilledField;
use crate::violation::Violation;
use serde::Serialize;
use std::time::{Duration, Instant};

/// The record of one call: repairs applied, fields filled and by whom, validation errors, and
/// the time spent in each stage.
#[derive(Clone, Debug, Default, Serialize)]
pub struct CallReport {
    /// The tool the call reached (after any name repair), if any.
    pub tool: Option<String>,
    /// Every repair made to the call, in order.
    pub repairs: Vec<Repair>,
    /// Every field the ParamResolver filled.
    pub filled: Vec<FilledField>,
    /// Every way the final arguments broke the schema (empty when the call ran).
    pub violations: Vec<Violation>,
    /// Time per stage.
    pub timings: StageTimings,
}

/// Time spent in each stage of a call; a stage that didn't run took zero.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct StageTimings {
    /// Finding the tool by name.
    pub lookup: Duration,
    /// Size and depth limits.
    pub limits: Duration,
    /// Parsing and repairing the arguments.
    pub repair: Duration,
    /// The ParamResolver.
    pub resolve: Duration,
    /// JSON Schema validation.
    pub validate: Duration,
    /// Deserializing into the typed arguments and injecting state.
    pub deserialize: Duration,
    /// Running the tool and building its output.
    pub run: Duration,
    /// The whole call.
    pub total: Duration,
}

/// Measures stages only when a report was asked for, so plain calls pay no clock reads.
pub(crate) struct Clock(Option<Instant>);

impl Clock {
    #[inline]
    pub(crate) fn start(enabled: bool) -> Clock {
        Clock(enabled.then(Instant::now))
    }

    /// The time since the last lap, restarting the lap.
    pub(crate) fn lap(&mut self) -> Duration {
        match &mut self.0 {
            Some(last) => {
                let now = Instant::now();
                let elapsed = now - *last;
                *last = now;
                elapsed
            }
            None => Duration::ZERO,
        }
    }
}
