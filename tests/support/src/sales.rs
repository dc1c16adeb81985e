//! The agent tests' one scenario: a workspace holding `sales.csv`, and the upstream's script
//! for a turn that summarizes it with `csv_summary` and then answers.

use crate::replies::{chat_call_chunks, chat_calls, chat_text, chat_text_chunks};
use crate::upstream::Scripted;

/// A temporary workspace with `sales.csv` (regions north 10 and south 32).
pub fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(
        dir.path().join("sales.csv"),
        "region,amount\nnorth,10\nsouth,32\n",
    )
    .expect("sales.csv is written");
    dir
}

/// The upstream's script for one run: a call `c1` to `csv_summary` on `sales.csv`, then the
/// answer "Sales total 42.", as server-sent events or whole.
pub fn script(stream: bool) -> [Scripted; 2] {
    let args = r#"{"path": "sales.csv"}"#;
    if stream {
        [
            Scripted::sse(chat_call_chunks("c1", "csv_summary", args, true)),
            Scripted::sse(chat_text_chunks("Sales total ", "42.")),
        ]
    } else {
        [
            Scripted::json(chat_calls(&[("c1", "csv_summary", args)])),
            Scripted::json(chat_text("Sales total 42.")),
        ]
    }
}
