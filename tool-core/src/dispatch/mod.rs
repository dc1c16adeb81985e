//! Running calls: each prepared call gated, approved, limited, timed, cancelled and isolated
//! by [`run`]'s [`run_pending`](run::run_pending), after the pipeline prepared it and before
//! its output check.

pub(crate) mod run;

pub(crate) use run::run_pending;
