//! What a running call holds (its pass through the gate, its place under the concurrency
//! limit), and how a call that asks its client gives it back while the question is out.
//!
//! A question to a client can take as long as the client likes: a person reading a form, a
//! client that hung up and never answers. A call that kept its pass while it waited would
//! stop every other call (an exclusive pass bars all of them; a shared one bars the next
//! exclusive call, and the fair lock queues every later call behind that one). So a call
//! served with a client lends its hold to its questions ([`CallHold`]): the first question out
//! gives it back, and the tool reads its answer only once the hold is taken again, in the
//! gate's order like any new call. The tool's code before and after a question each run
//! alone (or shared) as the tool's flags say; what it read before asking may have changed by
//! the time the answer comes.

// Without the `client` feature no call asks, so nothing steps out: the hold only holds.
#![cfg_attr(not(feature = "client"), allow(dead_code))]

use super::gate::{Gate, Pass};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

/// What a running call holds: its pass through the gate and its place under the concurrency
/// limit, given back when the tool returns.
pub(crate) struct Hold {
    pub(crate) _pass: Pass,
    pub(crate) _permit: Option<OwnedSemaphorePermit>,
}

/// The hold of a call that may ask its client, shared by the call and its
/// [`ToolContext`](crate::ToolContext): one per call run with a
/// [`Client`](crate::client::Client) in scope.
pub(crate) struct CallHold {
    gate: Arc<Gate>,
    parallel: bool,
    limit: Option<Arc<Semaphore>>,
    state: Mutex<State>,
    /// Wakes the questions of the call waiting for one of them to take the hold back.
    changed: Notify,
}

#[derive(Default)]
struct State {
    /// The hold, while the call has it.
    hold: Option<Hold>,
    /// The call's questions out now.
    out: usize,
    /// One of them is taking the hold back.
    retaking: bool,
    /// The call has ended: nothing is lent any more (a `ToolContext` kept past its call
    /// asks without giving back or taking anything).
    ended: bool,
}

impl CallHold {
    /// The hold of a call passing `gate` (shared when `parallel`) under `limit`.
    pub(crate) fn new(gate: &Arc<Gate>, parallel: bool, limit: Option<&Arc<Semaphore>>) -> Self {
        CallHold {
            gate: Arc::clone(gate),
            parallel,
            limit: limit.map(Arc::clone),
            state: Mutex::default(),
            changed: Notify::new(),
        }
    }

    /// Keeps the call's `hold` here for its questions to give back and take again; the guard
    /// gives it back for good when the call ends (dropped where the tool returns).
    pub(crate) fn lend(self: &Arc<Self>, hold: Hold) -> Lent {
        self.lock().hold = Some(hold);
        Lent(Arc::clone(self))
    }

    /// A question goes out: the first of the call's gives the hold back. The guard's
    /// [`back`](Away::back) takes it again.
    pub(crate) fn step_out(self: &Arc<Self>) -> Away {
        let (counted, given_back) = {
            let mut state = self.lock();
            if state.ended {
                (false, None)
            } else {
                state.out += 1;
                (true, state.hold.take())
            }
        };
        // Dropped outside the lock: giving a pass back wakes the calls waiting for it.
        drop(given_back);
        Away {
            hold: Arc::clone(self),
            counted,
        }
    }

    /// Waits until the call has its hold again and no question of it is out: the last
    /// question back takes it (in the gate's order), the others wait for it.
    async fn retake(&self) {
        loop {
            let changed = self.changed.notified();
            let mut changed = std::pin::pin!(changed);
            changed.as_mut().enable();
            let take = {
                let mut state = self.lock();
                if state.ended || (state.out == 0 && state.hold.is_some()) {
                    return;
                }
                let take = state.out == 0 && !state.retaking;
                state.retaking |= take;
                take
            };
            if !take {
                changed.await;
                continue;
            }
            let retaking = Retaking(self);
            let hold = self.take().await;
            let late = {
                let mut state = self.lock();
                // Another question went out meanwhile: it may not wait holding the pass.
                if state.out == 0 && !state.ended {
                    state.hold = Some(hold);
                    None
                } else {
                    Some(hold)
                }
            };
            drop(late);
            drop(retaking);
        }
    }

    /// A new hold, as the call took its first: the gate, then the concurrency limit.
    async fn take(&self) -> Hold {
        let pass = self.gate.enter(self.parallel).await;
        let permit = match &self.limit {
            Some(limit) => Arc::clone(limit).acquire_owned().await.ok(),
            None => None,
        };
        Hold {
            _pass: pass,
            _permit: permit,
        }
    }

    /// A new hold if one is free now, for a question dropped unanswered with nobody to wait.
    fn try_take(&self) -> Option<Hold> {
        let pass = self.gate.try_enter(self.parallel)?;
        let permit = match &self.limit {
            Some(limit) => Some(Arc::clone(limit).try_acquire_owned().ok()?),
            None => None,
        };
        Some(Hold {
            _pass: pass,
            _permit: permit,
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // Every change under the lock is one field: a panic leaves the state consistent.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The call's hold lent to its questions, given back for good when dropped: where the tool
/// returns (or its future is dropped: timed out, cancelled), whoever still has its context.
pub(crate) struct Lent(Arc<CallHold>);

impl Drop for Lent {
    fn drop(&mut self) {
        let hold = {
            let mut state = self.0.lock();
            state.ended = true;
            state.hold.take()
        };
        drop(hold);
        self.0.changed.notify_waiters();
    }
}

/// One question out, counted until it is [`back`](Away::back) (or dropped).
pub(crate) struct Away {
    hold: Arc<CallHold>,
    counted: bool,
}

impl Away {
    /// The answer came (or the deadline passed): waits until the call has its hold again.
    pub(crate) async fn back(mut self) {
        if std::mem::take(&mut self.counted) {
            self.hold.lock().out -= 1;
        }
        self.hold.retake().await;
    }
}

impl Drop for Away {
    /// A question dropped before its answer (the tool stopped waiting for it): another of the
    /// call's questions waiting to come back takes the hold; with none, it is taken here if
    /// it is free, and otherwise when the call next asks.
    fn drop(&mut self) {
        if !self.counted {
            return;
        }
        let mut state = self.hold.lock();
        state.out -= 1;
        if state.out == 0 && state.hold.is_none() && !state.ended && !state.retaking {
            state.hold = self.hold.try_take();
        }
        drop(state);
        self.hold.changed.notify_waiters();
    }
}

/// Marks the end of one question's taking the hold back, however it ends (its call's future
/// may be dropped while it waits for the gate), and wakes the others.
struct Retaking<'a>(&'a CallHold);

impl Drop for Retaking<'_> {
    fn drop(&mut self) {
        self.0.lock().retaking = false;
        self.0.changed.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn held(gate: &Arc<Gate>) -> (Arc<CallHold>, Lent) {
        let hold = Hold {
            _pass: gate.try_enter(false).unwrap(),
            _permit: None,
        };
        let call = Arc::new(CallHold::new(gate, false, None));
        let lent = call.lend(hold);
        (call, lent)
    }

    #[tokio::test]
    async fn a_question_out_gives_the_gate_back_and_its_answer_waits_for_it() {
        let gate = Arc::new(Gate::default());
        let (call, _lent) = held(&gate);
        assert!(gate.try_enter(false).is_none(), "the call holds the gate");
        let away = call.step_out();
        let other = gate
            .try_enter(false)
            .expect("free while the question is out");
        let back = tokio::spawn(async move { away.back().await });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!back.is_finished(), "the answer waits for the other call");
        drop(other);
        tokio::time::timeout(Duration::from_secs(5), back)
            .await
            .unwrap()
            .unwrap();
        assert!(gate.try_enter(true).is_none(), "the call holds it again");
    }

    #[tokio::test]
    async fn questions_asked_together_give_it_back_once_and_take_it_once() {
        let gate = Arc::new(Gate::default());
        let (call, lent) = held(&gate);
        let (first, second) = (call.step_out(), call.step_out());
        let first = tokio::spawn(first.back());
        tokio::time::sleep(Duration::from_millis(20)).await;
        // The first answer waits for the second question: none may wait holding the gate.
        assert!(!first.is_finished());
        assert!(gate.try_enter(false).is_some(), "free while one is out");
        tokio::time::timeout(Duration::from_secs(5), second.back())
            .await
            .unwrap();
        tokio::time::timeout(Duration::from_secs(5), first)
            .await
            .unwrap()
            .unwrap();
        assert!(gate.try_enter(true).is_none(), "taken back once, for both");
        drop(lent);
        assert!(
            gate.try_enter(false).is_some(),
            "given back when the call ends"
        );
    }

    #[tokio::test]
    async fn a_context_kept_past_its_call_asks_without_holding_anything() {
        let gate = Arc::new(Gate::default());
        let (call, lent) = held(&gate);
        drop(lent);
        call.step_out().back().await;
        drop(call.step_out());
        assert!(
            gate.try_enter(false).is_some(),
            "nothing taken after the call"
        );
    }

    #[tokio::test]
    async fn a_dropped_question_takes_the_free_gate_back() {
        let gate = Arc::new(Gate::default());
        let (call, _lent) = held(&gate);
        drop(call.step_out());
        assert!(gate.try_enter(true).is_none());
    }
}
