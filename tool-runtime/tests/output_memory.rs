//! The output cap's own memory: cutting a large JSON output must not cost a multiple of it.
//! One test in its own binary, so the peak it reads (`VmHWM`, Linux) is its own.

use tool_runtime::ToolOutput;

use big_json::big_json;
use tool_test_support::big_json;
use tool_test_support::memory::{peak_kib, reset_peak, resident_kib};

/// A 64 MiB JSON output cut to 8 KiB: the cut adds at most a quarter of the output's size to
/// the peak (it was about ten times the size when the cut parsed it into a `Value`).
#[test]
fn cutting_large_json_costs_a_fraction_of_its_size() {
    let text = big_json(64 << 20);
    let size_kib = (text.len() / 1024) as u64;
    let output: ToolOutput = serde_json::from_str::<Box<serde_json::value::RawValue>>(&text)
        .map(|raw| ToolOutput::json(&raw))
        .expect("valid JSON");
    drop(text);
    let (Some(before), Some(_)) = (resident_kib(), peak_kib()) else {
        eprintln!("no /proc/self/status here: nothing to measure");
        return;
    };
    // From here the peak is this cut's ("5" resets `VmHWM`).
    reset_peak().expect("reset the peak");
    let cut = output.bounded(8192);
    let peak = peak_kib().expect("read the peak");
    let added = peak.saturating_sub(before);
    eprintln!(
        "output {size_kib} KiB, resident before {before} KiB, peak {peak} KiB, added {added} KiB"
    );
    assert!(cut.to_model_text().len() <= 8192);
    assert!(cut.truncation().is_some());
    assert!(
        added < size_kib / 4,
        "cutting a {size_kib} KiB output added {added} KiB to the peak"
    );
}
