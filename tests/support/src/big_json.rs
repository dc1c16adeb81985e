//! A large JSON tool output, built as text (a `serde_json::Value` would itself cost a multiple
//! of it). Shared by `tool-runtime/tests/output_memory.rs` (the cut's peak memory) and
//! `tests/benches/output_bounds.rs` (its time).

/// The JSON text of `{"rows": [[i, "row i\n", {"ok": true}], …], "log": "…"}` at about
/// `bytes`: half rows, half one long string with line breaks.
pub fn big_json(bytes: usize) -> String {
    let mut text = String::with_capacity(bytes + 1024);
    text.push_str("{\"rows\":[");
    let mut i = 0usize;
    while text.len() < bytes / 2 {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&format!("[{i},\"row {i}\\n\",{{\"ok\":true}}]"));
        i += 1;
    }
    text.push_str("],\"log\":\"");
    while text.len() < bytes {
        text.push_str("a line of the log\\n");
    }
    text.push_str("\"}");
    text
}
