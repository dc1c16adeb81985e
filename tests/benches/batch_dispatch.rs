//! A batch of 1,000 calls through `call_all`, against a plain `join_all` of the same tool
//! futures.
//!
//! `cargo bench -p tool-tests --features bench --bench batch_dispatch`
//!
//! Both batches call the async benchmark tool with the small payload: `search_async`
//! (read-only, so parallel-safe: the calls share the gate) and `search_exclusive` (not
//! parallel-safe: each call holds the gate alone, one after another). The baselines run the
//! same number of calls with `futures_util::future::join_all`, in the same task:
//! - `join_all_hand_written`: per call, what the one-call baseline does (`from_str`, await the
//!   fn directly, `to_string`), so the ratio is the dispatcher's whole price;
//! - `join_all_direct`: the tool fn's futures alone, arguments already typed and nothing
//!   serialized: the floor of running 1,000 futures at all.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use futures_util::future::join_all;
use std::hint::black_box;

// The bench tools, defined once (`search_tool.rs` is a bench of its own too).
#[allow(unreachable_pub)]
#[path = "search_tool.rs"]
mod search_tool;

use search_tool::{batch as calls, BATCH as CALLS};

fn bench(c: &mut Criterion) {
    let registry = search_tool::registry(search_tool::with_exclusive);
    let runtime = search_tool::runtime();
    let [(_, args), _] = search_tool::payloads();
    let shared = calls("search_async", &args);
    let exclusive = calls("search_exclusive", &args);
    let arguments: Vec<String> = vec![args.clone(); CALLS];

    let expected = search_tool::baseline("search", &args).expect("the baseline runs");
    for batch in [&shared, &exclusive] {
        let outputs = runtime.block_on(registry.call_all(batch));
        assert_eq!(outputs.len(), CALLS);
        assert!(outputs.iter().all(|o| o.to_model_text() == expected));
    }

    let mut group = c.benchmark_group("dispatch_1000");
    group.throughput(Throughput::Elements(CALLS as u64));
    group.sample_size(30);
    group.bench_function("join_all_direct", |b| {
        b.to_async(&runtime)
            .iter(|| join_all((0..CALLS).map(|_| search_tool::search_typed_async())))
    });
    group.bench_function("join_all_hand_written", |b| {
        b.to_async(&runtime).iter(|| {
            join_all(
                arguments
                    .iter()
                    .map(|a| search_tool::baseline_async(black_box(a))),
            )
        })
    });
    group.bench_function("dispatch_all_parallel_safe", |b| {
        b.to_async(&runtime)
            .iter(|| registry.call_all(black_box(&shared)))
    });
    group.bench_function("dispatch_all_exclusive", |b| {
        b.to_async(&runtime)
            .iter(|| registry.call_all(black_box(&exclusive)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
