//! The read/write gate: parallel-safe calls share it, any other call holds it alone (the
//! codex-rs scheme), so a call that writes never overlaps another call.
//!
//! Except while it waits for its client: a call that asks gives its pass back while the
//! question is out and waits its turn again for the answer (`dispatch::hold`), so what runs
//! alone is the tool's code on either side of a question, never the wait.

use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::sync::Arc;
use tokio::sync::{Notify, OwnedRwLockReadGuard, OwnedRwLockWriteGuard, RwLock};

/// One per registry, behind an `Arc`: every call through it passes the gate.
///
/// While no exclusive call is waiting or running, a parallel-safe call passes with one atomic
/// counter and no lock: releasing even an uncontended tokio lock takes its waiter list's mutex,
/// which was a tenth of a small async call. Everything else queues on a fair tokio `RwLock`.
#[derive(Default)]
pub(crate) struct Gate {
    /// Shared passes taken without the lock.
    fast: AtomicUsize,
    /// Exclusive calls waiting or running; while there is one, shared passes take the lock.
    exclusive: AtomicUsize,
    lock: Arc<RwLock<()>>,
    /// Wakes an exclusive call waiting for the last lock-free shared pass to end.
    drained: Notify,
}

/// Held while a call runs. It owns its hold on the gate, so a sync tool's thread can keep it
/// until the tool returns, even after the call was answered (timed out or cancelled): a tool
/// that can't be stopped still never runs beside one it must not.
pub(crate) enum Pass {
    Fast(#[allow(dead_code)] FastPass),
    Shared(#[allow(dead_code)] OwnedRwLockReadGuard<()>),
    Exclusive(
        #[allow(dead_code)] OwnedRwLockWriteGuard<()>,
        #[allow(dead_code)] Claim,
    ),
}

/// A shared pass taken without the lock.
pub(crate) struct FastPass(Arc<Gate>);

impl Drop for FastPass {
    fn drop(&mut self) {
        let gate = &self.0;
        if gate.fast.fetch_sub(1, SeqCst) == 1 && gate.exclusive.load(SeqCst) > 0 {
            gate.drained.notify_waiters();
        }
    }
}

/// An exclusive call's place in [`Gate::exclusive`], given back however the call ends
/// (a cancelled call may be dropped while it waits).
pub(crate) struct Claim(Arc<Gate>);

impl Drop for Claim {
    fn drop(&mut self) {
        self.0.exclusive.fetch_sub(1, SeqCst);
    }
}

impl Gate {
    /// Waits for a shared pass (parallel-safe calls) or the only pass (everything else).
    /// Tokio's lock is fair, so calls pass in the order they asked: an exclusive call queued
    /// behind running parallel calls is not starved, and parallel calls after it wait for it
    /// (they see it in `exclusive` and queue on the lock behind it).
    ///
    /// A free lock is taken with `try_*` first: no waiting future, and none of tokio's
    /// cooperative budget spent (a batch of 1,000 calls otherwise yields every 128). That never
    /// jumps the queue: a waiting call already holds every permit the lock gives back, so a
    /// `try_*` behind it fails and waits its turn like the rest.
    pub(crate) async fn enter(self: &Arc<Self>, parallel: bool) -> Pass {
        if let Some(pass) = self.try_enter(parallel) {
            return pass;
        }
        if parallel {
            Pass::Shared(Arc::clone(&self.lock).read_owned().await)
        } else {
            self.exclusive.fetch_add(1, SeqCst);
            let claim = Claim(Arc::clone(self));
            let guard = Arc::clone(&self.lock).write_owned().await;
            self.drain().await;
            Pass::Exclusive(guard, claim)
        }
    }

    /// A pass without waiting, when the gate has one free (see [`enter`](Self::enter)).
    pub(crate) fn try_enter(self: &Arc<Self>, parallel: bool) -> Option<Pass> {
        if parallel {
            // Announce, then look (both SeqCst): an exclusive call announces itself before it
            // looks at `fast`, so one of the two always sees the other.
            if self.exclusive.load(SeqCst) == 0 {
                self.fast.fetch_add(1, SeqCst);
                let pass = FastPass(Arc::clone(self));
                if self.exclusive.load(SeqCst) == 0 {
                    return Some(Pass::Fast(pass));
                }
            }
            Arc::clone(&self.lock)
                .try_read_owned()
                .ok()
                .map(Pass::Shared)
        } else {
            self.exclusive.fetch_add(1, SeqCst);
            let claim = Claim(Arc::clone(self));
            let guard = Arc::clone(&self.lock).try_write_owned().ok()?;
            // Lock-free shared passes taken before this call announced itself still run.
            (self.fast.load(SeqCst) == 0).then(|| Pass::Exclusive(guard, claim))
        }
    }

    /// Waits until every lock-free shared pass has ended.
    async fn drain(&self) {
        loop {
            let drained = self.drained.notified();
            let mut drained = std::pin::pin!(drained);
            drained.as_mut().enable();
            if self.fast.load(SeqCst) == 0 {
                return;
            }
            drained.await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn an_exclusive_pass_waits_for_lock_free_shared_passes() {
        let gate = Arc::new(Gate::default());
        let shared = gate.enter(true).await;
        assert!(matches!(shared, Pass::Fast(_)));
        let (tx, mut rx) = tokio::sync::oneshot::channel();
        let waiting = Arc::clone(&gate);
        let task = tokio::spawn(async move {
            let _pass = waiting.enter(false).await;
            let _ = tx.send(());
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(
            rx.try_recv().is_err(),
            "the exclusive call ran beside a shared one"
        );
        // While it waits, new shared calls queue behind it instead of passing lock-free.
        assert_eq!(gate.exclusive.load(SeqCst), 1);
        drop(shared);
        task.await.unwrap();
        assert!(rx.try_recv().is_ok());
        assert_eq!(gate.exclusive.load(SeqCst), 0);
        assert!(matches!(gate.enter(true).await, Pass::Fast(_)));
    }

    #[tokio::test]
    async fn a_cancelled_exclusive_call_gives_its_claim_back() {
        let gate = Arc::new(Gate::default());
        let shared = gate.enter(true).await;
        let waiting = tokio::time::timeout(Duration::from_millis(10), gate.enter(false)).await;
        assert!(waiting.is_err());
        assert_eq!(gate.exclusive.load(SeqCst), 0);
        drop(shared);
        assert!(matches!(gate.enter(true).await, Pass::Fast(_)));
    }
}
