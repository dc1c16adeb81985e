//! Instructions per registry build and per export of 1,000 tools, counted by callgrind (the
//! method of `pipeline_counts.rs`; `scripts/bench-counts.sh` runs it).
//!
//! `registry_counts WHAT N`: WHAT is `build`, `build_validation_off` or a dialect
//! (`openai-chat`, `openai-chat_strict`, `openai-responses`, `openai-responses_strict`,
//! `anthropic`, `anthropic_strict`, `gemini`, `mcp`); N how many times.

use std::hint::black_box;
use tool_runtime::Provider;

// The bench tools, defined once (`search_tool.rs` is a bench of its own too).
#[allow(unreachable_pub)]
#[path = "search_tool.rs"]
mod search_tool;

use search_tool::builder_of as builder;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let [what, times] = args.as_slice() else {
        // `cargo bench` runs every bench binary; this one only counts when asked to.
        eprintln!("usage: registry_counts WHAT N (run through scripts/bench-counts.sh)");
        return;
    };
    let times: usize = times.parse().expect("N is a number");
    // The same 1,000 copies as `registry_scale.rs`.
    let defs = search_tool::search_copies(1_000);
    match what.as_str() {
        "build" => (0..times).for_each(|_| drop(black_box(builder(&defs).build()))),
        "build_validation_off" => {
            (0..times).for_each(|_| drop(black_box(builder(&defs).validation(false).build())))
        }
        what => {
            // `DIALECT`: a fresh registry's first export, build included (the script takes
            // the build's own count off); `DIALECT_repeat`: the cached export, copied.
            let (what, repeat) = match what.strip_suffix("_repeat") {
                Some(what) => (what, true),
                None => (what, false),
            };
            let (name, strict) = match what.strip_suffix("_strict") {
                Some(name) => (name, true),
                None => (what, false),
            };
            let provider: Provider = name.parse().expect("a provider");
            if repeat {
                let registry = builder(&defs).build().expect("it builds");
                drop(registry.export(provider).strict(strict).shared());
                (0..times).for_each(|_| {
                    drop(black_box(
                        registry.export(provider).strict(strict).to_value(),
                    ))
                });
            } else {
                (0..times).for_each(|_| {
                    let registry = builder(&defs).build().expect("it builds");
                    drop(black_box(registry.export(provider).strict(strict).shared()));
                });
            }
        }
    }
}
