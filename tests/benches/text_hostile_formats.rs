//! The classic parser traps, for every text format, at two sizes: what a text costs must grow
//! with its length, not its square (issue 21). A bench binary, not criterion: 36 formats ×
//! 3 traps × 2 ways of reading is too many criterion groups to be useful, and the question is
//! one ratio per row.
//!
//! `cargo bench -p tool-tests --features bench --bench text_hostile_formats [-- FORMAT,..]`
//!
//! Each trap is built from the format's own call (`write_calls`), cut in half:
//! - `head`: the first half of a call and a few words, repeated (an unclosed special token);
//! - `tail`: the second half alone, repeated (closers with nothing open);
//! - `nested`: the first half with a whole call after it, repeated.
//!
//! Each is read whole (`parse`) and streamed in 16-byte pushes (`TextStream`), as the format
//! and under `Auto`, at 64 and 256 KiB. The last column is the worst of the four ratios of
//! 256 KiB to 64 KiB time (of cells that take 50 µs or more at 64 KiB): about 4 means linear;
//! 16 would be quadratic.

use std::hint::black_box;
use std::time::{Duration, Instant};
use tool_runtime::text::{parse, write_calls, TextFormat, TextStream};
use tool_runtime::ToolCall;

const SIZES: [usize; 2] = [64 << 10, 256 << 10];

/// The best of a few runs, so that a busy machine's pauses don't count.
fn best(runs: usize, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn whole(text: &str, format: TextFormat) -> Duration {
    best(3, || {
        black_box(parse(black_box(text), format, &()));
    })
}

fn streamed(text: &str, format: TextFormat) -> Duration {
    best(3, || {
        let mut stream = TextStream::new(format, &());
        let mut at = 0;
        while at < text.len() {
            let mut end = (at + 16).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            black_box(stream.push(&text[at..end]));
            at = end;
        }
        black_box(stream.finish());
    })
}

fn main() {
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .flat_map(|a| a.split(',').map(str::to_owned).collect::<Vec<_>>())
        .collect();
    let call = ToolCall::new("c", "get_weather", r#"{"city": "Paris", "days": 3}"#);
    println!(
        "| format | trap | whole, 64 → 256 KiB | streamed, 64 → 256 KiB | `Auto` whole | `Auto` streamed | worst ratio |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|");
    let mut worst_all: f64 = 0.0;
    for format in TextFormat::ALL {
        if !only.is_empty() && !only.iter().any(|o| o == format.name()) {
            continue;
        }
        let written = write_calls(format, std::slice::from_ref(&call));
        let mut half = written.len() / 2;
        while !written.is_char_boundary(half) {
            half += 1;
        }
        let (head, tail) = written.split_at(half);
        for (trap, piece) in [
            ("head", format!("{head} and ")),
            ("tail", tail.to_owned()),
            ("nested", format!("{head}{written}")),
        ] {
            let texts: Vec<String> = SIZES
                .iter()
                .map(|size| piece.repeat(size / piece.len() + 1))
                .collect();
            let mut cells = Vec::new();
            let mut worst: f64 = 0.0;
            for (parse_as, read) in [
                (format, whole as fn(&str, TextFormat) -> Duration),
                (format, streamed),
                (TextFormat::Auto, whole),
                (TextFormat::Auto, streamed),
            ] {
                let small = read(&texts[0], parse_as);
                let large = read(&texts[1], parse_as);
                // Below 50 µs a run is a few memchr passes over cached text: the ratio there
                // says more about caches than about the parser.
                if small >= Duration::from_micros(50) {
                    worst = worst.max(large.as_secs_f64() / small.as_secs_f64());
                }
                cells.push(format!("{small:.2?} → {large:.2?}"));
            }
            worst_all = worst_all.max(worst);
            println!(
                "| `{}` | {trap} | {} | {worst:.1} |",
                format.name(),
                cells.join(" | ")
            );
        }
    }
    println!("\nworst ratio of 256 KiB to 64 KiB time: {worst_all:.1} (4 is linear)");
}
