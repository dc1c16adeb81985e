//! Instructions per call, counted by callgrind: deterministic where wall time is noisy (other
//! work on the machine changes nanoseconds, not instruction counts). `scripts/bench-counts.sh`
//! runs every path twice (0 and N calls) and prints instructions per call and the ratios.
//!
//! `pipeline_counts PATH SIZE CALLS`: PATH is one of `baseline`, `exact`, `validation_off`,
//! `range_checked`; SIZE `small` or `large`.

// The bench tools, defined once (`search_tool.rs` is a bench of its own too).
#[allow(unreachable_pub)]
#[path = "search_tool.rs"]
mod search_tool;

use search_tool::{baseline, payloads, registry};
use std::hint::black_box;
use tool_runtime::ToolOutput;

/// The output's text, moved out (the baseline also ends holding a `String`).
fn text(output: ToolOutput) -> String {
    match output {
        ToolOutput::Json(json) => json.into_string(),
        ToolOutput::Text(text) => text,
        other => other.to_model_text(),
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let [path, size, calls] = args.as_slice() else {
        // `cargo bench` runs every bench binary; this one only counts when asked to.
        eprintln!("usage: pipeline_counts PATH SIZE CALLS (run through scripts/bench-counts.sh)");
        return;
    };
    let calls: usize = calls.parse().expect("CALLS is a number");
    let payload = payloads()
        .into_iter()
        .find(|(name, _)| name == size)
        .expect("SIZE is small or large")
        .1;
    let validated = registry(|b| b);
    let unvalidated = registry(|b| b.validation(false));
    let expected = baseline("search", &payload).expect("the baseline runs");
    let run: Box<dyn Fn() -> String> = match path.as_str() {
        "baseline" => {
            Box::new(|| baseline(black_box("search"), black_box(&payload)).unwrap_or_default())
        }
        "exact" => {
            Box::new(|| text(validated.call_blocking(black_box("search"), black_box(&payload))))
        }
        "validation_off" => {
            Box::new(|| text(unvalidated.call_blocking(black_box("search"), black_box(&payload))))
        }
        "range_checked" => Box::new(|| {
            text(validated.call_blocking(black_box("search_ranged"), black_box(&payload)))
        }),
        other => panic!("unknown path {other}"),
    };
    assert_eq!(run(), expected, "the path gives the baseline's output");
    for _ in 0..calls {
        black_box(run());
    }
}
