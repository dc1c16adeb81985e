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
    ///
    /// A free gate is taken with `try_*` first: no waiting future, and none of tokio's
    /// cooperative budget spent (a batch of 1,000 calls otherwise yields every 128). That never
    /// jumps the queue: a waiting call already holds every permit the gate gives back, so a
    /// `try_*` behind it fails and waits its turn like the rest.
    pub async fn enter(&self, parallel: bool) -> Pass<'_> {
        if parallel {
            match self.0.try_read() {
                Ok(pass) => Pass::Shared(pass),
                Err(_) => Pass::Shared(self.0.read().await),
            }
        } else {
            match self.0.try_write() {
                Ok(pass) => Pass::Exclusive(pass),
                Err(_) => Pass::Exclusive(self.0.write().await),
            }
        }
    }
}
