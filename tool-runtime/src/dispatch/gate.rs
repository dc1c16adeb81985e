//! The read/write gate: parallel-safe calls share it, any other call holds it alone (the
//! codex-rs scheme), so a call that writes never overlaps another call.

use tokio::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

/// One per registry: every call through it passes the gate.
#[derive(Default)]
pub(crate) struct Gate(RwLock<()>);

/// Held while a call runs.
pub(crate) enum Pass<'a> {
    Shared(#[allow(dead_code)] RwLockReadGuard<'a, ()>),
    Exclusive(#[allow(dead_code)] RwLockWriteGuard<'a, ()>),
}

impl Gate {
    /// Waits for a shared pass (parallel-safe calls) or the only pass (everything else).
    /// Tokio's lock is fair, so calls pass in the order they asked: an exclusive call queued
    /// behind running parallel calls is not starved, and parallel calls after it wait for it.
    pub async fn enter(&self, parallel: bool) -> Pass<'_> {
        if parallel {
            Pass::Shared(self.0.read().await)
        } else {
            Pass::Exclusive(self.0.write().await)
        }
    }
}
