//! This process's memory as Linux reports it (`/proc/self/status`), for the tests that bound
//! what an input may cost. `None` where there is no such file.

/// The peak resident memory so far, in KiB (`VmHWM`).
pub fn peak_kib() -> Option<u64> {
    status_kib("VmHWM:")
}

/// The resident memory now, in KiB (`VmRSS`).
pub fn resident_kib() -> Option<u64> {
    status_kib("VmRSS:")
}

/// Starts the peak over from the memory resident now (Linux: "5" to `clear_refs` resets
/// `VmHWM`), so the peak read after is what followed.
pub fn reset_peak() -> std::io::Result<()> {
    std::fs::write("/proc/self/clear_refs", "5")
}

fn status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
