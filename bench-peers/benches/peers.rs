//! One call of the same tool through each framework, beside the hand-written baseline, in one
//! criterion run.
//!
//! `scripts/bench-peers.sh` (or, from `bench-peers/`,
//! `CARGO_TARGET_DIR=../target cargo bench --bench peers`)
//!
//! Every path starts from `(name, args_json)` and ends with the `String` the framework hands
//! on: our output's text, rmcp's serialized `tools/call` result, rig's rendered output. The
//! bench first checks that every path carries the baseline's output.

use bench_peers::{baseline, ours, payloads, peer_rig, peer_rmcp, runtime};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let runtime = runtime();
    let registry = ours::registry();
    let rmcp = runtime.block_on(async { peer_rmcp::Harness::new() });
    let rig = peer_rig::toolset();

    for (size, args) in payloads() {
        let expected = baseline::call("search", &args).expect("the baseline runs");
        assert_eq!(ours::call_blocking(&registry, "search", &args), expected);
        assert_eq!(
            runtime.block_on(ours::call_async(&registry, "search_async", &args)),
            expected
        );
        for sync in ["search", "search_inline"] {
            assert_eq!(
                runtime.block_on(ours::call_async(&registry, sync, &args)),
                expected
            );
        }
        let rmcp_out = runtime
            .block_on(rmcp.call("search", &args))
            .expect("rmcp runs");
        assert!(
            rmcp_out.contains(&format!(r#""structuredContent":{expected}"#)),
            "rmcp carries the output: {rmcp_out}"
        );
        let rig_out = runtime
            .block_on(peer_rig::call(&rig, "search", &args))
            .expect("rig runs");
        assert_eq!(rig_out, expected);

        let mut group = c.benchmark_group(format!("peers/{size}"));
        group.throughput(Throughput::Bytes(args.len() as u64));
        group.bench_function("baseline_hand_written", |b| {
            b.iter(|| baseline::call(black_box("search"), black_box(&args)))
        });
        group.bench_function("ours_call_blocking", |b| {
            b.iter(|| ours::call_blocking(&registry, black_box("search"), black_box(&args)))
        });
        group.bench_function("ours_async_call", |b| {
            b.to_async(&runtime)
                .iter(|| ours::call_async(&registry, black_box("search_async"), black_box(&args)))
        });
        // A sync tool through the path the agent loop and the MCP server use: by default it
        // hops to tokio's blocking pool; `#[tool(inline)]` runs it on the caller's task.
        group.bench_function("ours_sync_call_await", |b| {
            b.to_async(&runtime)
                .iter(|| ours::call_async(&registry, black_box("search"), black_box(&args)))
        });
        group.bench_function("ours_inline_call_await", |b| {
            b.to_async(&runtime)
                .iter(|| ours::call_async(&registry, black_box("search_inline"), black_box(&args)))
        });
        group.bench_function("rmcp_tool_router_call", |b| {
            b.to_async(&runtime)
                .iter(|| rmcp.call(black_box("search"), black_box(&args)))
        });
        group.bench_function("rig_toolset_execute", |b| {
            b.to_async(&runtime)
                .iter(|| peer_rig::call(&rig, black_box("search"), black_box(&args)))
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
