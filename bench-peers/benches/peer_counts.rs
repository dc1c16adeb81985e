//! Instructions per call, for callgrind: `peer_counts PATH SIZE CALLS` runs one path CALLS
//! times. `scripts/bench-peers.sh` runs each path with 0 and N calls and divides the
//! difference. PATH: `baseline`, `ours_blocking`, `ours_async`, `ours_sync_await`, `ours_inline_await`,
//! `rmcp`, `rig`; SIZE: `small`
//! or `large`.

use bench_peers::{baseline, ours, payloads, peer_rig, peer_rmcp, runtime};
use std::hint::black_box;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let [path, size, calls] = args.as_slice() else {
        // `cargo bench` runs every bench binary; this one only counts when asked to.
        eprintln!("usage: peer_counts PATH SIZE CALLS (run through scripts/bench-peers.sh)");
        return;
    };
    let calls: usize = calls.parse().expect("CALLS is a number");
    let payload = payloads()
        .into_iter()
        .find(|(name, _)| name == size)
        .expect("SIZE is small or large")
        .1;
    let runtime = runtime();
    let registry = ours::registry();
    let rmcp = runtime.block_on(async { peer_rmcp::Harness::new() });
    let rig = peer_rig::toolset();
    let expected = baseline::call("search", &payload).expect("the baseline runs");
    let name = black_box("search");
    let args = black_box(payload.as_str());
    match path.as_str() {
        "baseline" => {
            assert_eq!(baseline::call(name, args).as_ref(), Ok(&expected));
            for _ in 0..calls {
                black_box(baseline::call(name, args).ok());
            }
        }
        "ours_blocking" => {
            assert_eq!(ours::call_blocking(&registry, name, args), expected);
            for _ in 0..calls {
                black_box(ours::call_blocking(&registry, name, args));
            }
        }
        // The async paths run every call inside one `block_on`, so the count is the call's,
        // not the runtime's entry and exit.
        "ours_async" => runtime.block_on(async {
            let name = black_box("search_async");
            assert_eq!(ours::call_async(&registry, name, args).await, expected);
            for _ in 0..calls {
                black_box(ours::call_async(&registry, name, args).await);
            }
        }),
        "ours_sync_await" | "ours_inline_await" => runtime.block_on(async {
            let name = black_box(if path == "ours_sync_await" {
                "search"
            } else {
                "search_inline"
            });
            assert_eq!(ours::call_async(&registry, name, args).await, expected);
            for _ in 0..calls {
                black_box(ours::call_async(&registry, name, args).await);
            }
        }),
        "rmcp" => runtime.block_on(async {
            assert!(rmcp.call(name, args).await.is_ok());
            for _ in 0..calls {
                black_box(rmcp.call(name, args).await.ok());
            }
        }),
        "rig" => runtime.block_on(async {
            assert_eq!(
                peer_rig::call(&rig, name, args).await.as_ref(),
                Ok(&expected)
            );
            for _ in 0..calls {
                black_box(peer_rig::call(&rig, name, args).await.ok());
            }
        }),
        other => panic!("unknown path {other}"),
    }
}
