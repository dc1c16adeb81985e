//! Wall-time ratios of the pipeline's paths to the hand-written baseline, measured
//! interleaved: each round times a batch of calls of every path back to back, and a path's
//! ratio is the median, over rounds, of its batch time over the baseline's batch time in the
//! same round. The machine's speed drifts over seconds (other tenants, frequency); criterion
//! measures one path for seconds, then the next, so its ratios carry that drift, and
//! interleaving cancels it. `scripts/bench-ratio.sh` runs this in several processes, because
//! where a process's code and heap land moves a 250 ns call by several percent.
//!
//! `cargo bench -p tool-tests --features bench --bench pipeline_ratio [-- ROUNDS]`

// The bench tools, defined once (`search_tool.rs` is a bench of its own too).
#[allow(unreachable_pub)]
#[path = "search_tool.rs"]
mod search_tool;

use search_tool::{baseline, payloads, registry};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(600);
    let validated = registry(|b| b);
    let unvalidated = registry(|b| b.validation(false));
    for (size, args) in payloads() {
        let expected = baseline("search", &args).expect("the baseline runs");
        let paths: [(&str, Path); 4] = [
            (
                "baseline_hand_written",
                Box::new(|| drop(black_box(baseline(black_box("search"), black_box(&args))))),
            ),
            (
                "exact_schema_validation_on",
                Box::new(|| {
                    drop(black_box(
                        validated.call_blocking(black_box("search"), black_box(&args)),
                    ))
                }),
            ),
            (
                "validation_off",
                Box::new(|| {
                    drop(black_box(
                        unvalidated.call_blocking(black_box("search"), black_box(&args)),
                    ))
                }),
            ),
            (
                "range_checked_validation_on",
                Box::new(|| {
                    drop(black_box(
                        validated.call_blocking(black_box("search_ranged"), black_box(&args)),
                    ))
                }),
            ),
        ];
        for tool in ["search", "search_ranged"] {
            assert_eq!(
                validated.call_blocking(tool, &args).to_model_text(),
                expected
            );
        }
        // About half a millisecond per batch.
        let batch = if size == "small" { 2_000 } else { 150 };
        for (_, run) in &paths {
            for _ in 0..batch * 20 {
                run();
            }
        }
        let mut times = vec![Vec::with_capacity(rounds); paths.len()];
        for round in 0..rounds {
            // Each round starts at another path, so none always runs first.
            for k in 0..paths.len() {
                let i = (round + k) % paths.len();
                let started = Instant::now();
                for _ in 0..batch {
                    (paths[i].1)();
                }
                times[i].push(started.elapsed().as_nanos() as f64 / batch as f64);
            }
        }
        println!("{size} ({rounds} rounds of {batch} calls per path)");
        for (i, (name, _)) in paths.iter().enumerate() {
            let mut ratios: Vec<f64> = (0..rounds).map(|r| times[i][r] / times[0][r]).collect();
            println!(
                "  {name:<28} {:>9.1} ns  {:.3}x  (rounds p10-p90 {:.3}-{:.3}x)",
                median(&mut times[i].clone()),
                median(&mut ratios),
                percentile(&ratios, 0.1),
                percentile(&ratios, 0.9),
            );
        }
    }
}

/// One path: a call, its output dropped.
type Path<'a> = Box<dyn Fn() + 'a>;

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    percentile(values, 0.5)
}

/// The value at `q` of sorted `values`.
fn percentile(values: &[f64], q: f64) -> f64 {
    values[((values.len() - 1) as f64 * q).round() as usize]
}
