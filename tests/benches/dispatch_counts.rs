//! Instructions per call of a 1,000-call batch, counted by callgrind (see `pipeline_counts.rs`
//! for the method; `scripts/bench-counts.sh` runs it).
//!
//! `dispatch_counts PATH BATCHES`: PATH is `join_all_hand_written`, `dispatch_all_parallel_safe`
//! or `dispatch_all_exclusive` (the paths of `batch_dispatch.rs`); each batch is 1,000 calls
//! with the small payload.

use futures_util::future::join_all;
use std::hint::black_box;

// The bench tools, defined once (`search_tool.rs` is a bench of its own too).
#[allow(unreachable_pub)]
#[path = "search_tool.rs"]
mod search_tool;

use search_tool::BATCH as CALLS;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let [path, batches] = args.as_slice() else {
        // `cargo bench` runs every bench binary; this one only counts when asked to.
        eprintln!("usage: dispatch_counts PATH BATCHES (run through scripts/bench-counts.sh)");
        return;
    };
    let batches: usize = batches.parse().expect("BATCHES is a number");
    let registry = search_tool::registry(search_tool::with_exclusive);
    let runtime = search_tool::runtime();
    let [(_, args), _] = search_tool::payloads();
    let calls = |tool: &str| search_tool::batch(tool, &args);
    let arguments: Vec<String> = vec![args.clone(); CALLS];
    runtime.block_on(async {
        match path.as_str() {
            "join_all_hand_written" => {
                for _ in 0..batches {
                    black_box(
                        join_all(
                            arguments
                                .iter()
                                .map(|a| search_tool::baseline_async(black_box(a))),
                        )
                        .await,
                    );
                }
            }
            "dispatch_all_parallel_safe" | "dispatch_all_exclusive" => {
                let tool = if path == "dispatch_all_exclusive" {
                    "search_exclusive"
                } else {
                    "search_async"
                };
                let batch = calls(tool);
                for _ in 0..batches {
                    black_box(registry.call_all(black_box(&batch)).await);
                }
            }
            other => panic!("unknown path {other}"),
        }
    });
}
