//! Locking the mcp module's plain mutexes: each guards state a panicking holder leaves
//! whole (maps and counters updated in one step), so a poisoned lock is taken as it is
//! rather than failing every request after one panic.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Locks `mutex`, poisoned or not.
#[doc(hidden)]
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
