//! The first export of 1,000 tools in a fresh process: what a program that starts, builds its
//! registry and sends its first request pays, page faults included.
//!
//! Criterion's `registry_1000/export_*_first` (in `registry_scale.rs`) times the first export
//! of fresh registries one after another in one process, where each export reuses the heap
//! its predecessors freed. A program's first export has no such heap: every page it writes is
//! new to the process, and the kernel faults it in and zeroes it. `scripts/bench-first-export.sh`
//! runs this binary once per process, several processes per dialect, and prints the medians.
//!
//! `first_export DIALECT`: DIALECT as in `registry_counts.rs` (`openai-chat`,
//! `openai-chat_strict`, ...). Prints the export's milliseconds and the page faults it took.

use std::hint::black_box;
use std::time::Instant;
use tool_runtime::Provider;

// The bench tools, defined once (`search_tool.rs` is a bench of its own too).
#[allow(unreachable_pub)]
#[path = "search_tool.rs"]
mod search_tool;

/// Minor page faults of this process so far (`getrusage`'s `ru_minflt`, read from
/// `/proc/self/stat` to need no libc binding); 0 where there is no such file.
fn page_faults() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Field 10 (minflt), counted after the parenthesized command name, which may hold spaces.
    stat.rsplit_once(')')
        .and_then(|(_, rest)| rest.split_whitespace().nth(7))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let [what] = args.as_slice() else {
        // `cargo bench` runs every bench binary; this one only times when asked to.
        eprintln!("usage: first_export DIALECT (run through scripts/bench-first-export.sh)");
        return;
    };
    let (name, strict) = match what.strip_suffix("_strict") {
        Some(name) => (name, true),
        None => (what.as_str(), false),
    };
    let provider: Provider = name.parse().expect("a provider");
    // The same 1,000 copies as `registry_scale.rs`.
    let defs = search_tool::search_copies(1_000);
    let registry = search_tool::builder_of(&defs).build().expect("it builds");
    let faults = page_faults();
    let start = Instant::now();
    let export = registry.export(black_box(provider)).strict(strict).shared();
    let elapsed = start.elapsed();
    let faults = page_faults() - faults;
    black_box(&export);
    println!("{:.3} {faults}", elapsed.as_secs_f64() * 1e3);
}
