//! The text parser under `Auto` on 1 MiB of prose and 1 MiB of trigger-dense markdown, in a
//! plain loop: `cargo bench -p tool-tests --features bench --bench text_scan_loop [-- N]`
//! parses each N times (100 by default) and prints the time a MiB. Being a plain loop, it
//! also runs under `valgrind --tool=callgrind`, whose instruction count does not move with
//! the machine's load the way wall time does (BENCHMARKS.md §5).

use tool_runtime::text::{parse, TextFormat};

const MIB: usize = 1 << 20;
const PROSE: &str =
    "The quick brown fox jumps over the lazy dog, then rests; nothing here looks like a call. ";
const MARKDOWN: &str =
    "See [the docs](https://example.com/a_(b)) and `code`, compare {a, b} with x < y. \n";

fn repeat_to(piece: &str) -> String {
    let mut text = String::with_capacity(MIB);
    while text.len() + piece.len() <= MIB {
        text.push_str(piece);
    }
    text
}

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|arg| arg.parse().ok())
        .unwrap_or(100);
    for (name, piece) in [("prose", PROSE), ("markdown", MARKDOWN)] {
        let text = repeat_to(piece);
        let start = std::time::Instant::now();
        let mut calls = 0;
        for _ in 0..rounds {
            calls += parse(&text, TextFormat::Auto, &()).calls.len();
        }
        assert_eq!(calls, 0, "{name} holds no call");
        let per_mib = start.elapsed().as_secs_f64() / rounds as f64;
        println!(
            "{name}: {:.3} ms a MiB, {:.0} MB/s",
            per_mib * 1e3,
            text.len() as f64 / per_mib / 1e6
        );
    }
}
