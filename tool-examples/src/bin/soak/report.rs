//! The figures: the ledger of call ids, calls per second, answers by kind, latency
//! percentiles and the server's memory; and the verdict.

use crate::calls::{Group, Outcome, KINDS};
use crate::flood::Flood;
use crate::server::Sample;
use crate::ClientLog;
use std::collections::BTreeMap;

pub struct Figures {
    pub clients: usize,
    pub seconds: f64,
    /// Ids handed out: every one must have exactly one answer.
    pub issued: u64,
    pub logs: Vec<ClientLog>,
    /// The server before any client connected, at the end of the load, and 2 s after the
    /// clients closed their sessions.
    pub idle: Sample,
    pub loaded: Sample,
    pub after: Sample,
    pub samples: Vec<Sample>,
    pub max_rss_mb: u64,
    pub died: Option<String>,
    pub reconnect_every: u64,
    pub big_files: usize,
    pub exec: bool,
    /// The session flood after the load, when run.
    pub flood: Option<Flood>,
    /// Cores and load average, before and after.
    pub machine: String,
}

/// The `p`th percentile (nearest rank) of sorted values.
fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ms(micros: u64) -> String {
    format!("{:.2}", micros as f64 / 1000.0)
}

fn mib(kb: u64) -> String {
    format!("{:.1}", kb as f64 / 1024.0)
}

/// `| count | p50 | p99 | p99.9 | max |` of some latencies.
fn latency_row(label: &str, mut micros: Vec<u64>) -> String {
    micros.sort_unstable();
    format!(
        "| {label} | {} | {} | {} | {} | {} |",
        micros.len(),
        ms(percentile(&micros, 50.0)),
        ms(percentile(&micros, 99.0)),
        ms(percentile(&micros, 99.9)),
        ms(micros.last().copied().unwrap_or(0))
    )
}

impl Figures {
    /// Prints the report; whether the soak passed.
    pub fn print(&self) -> bool {
        let records = || self.logs.iter().flat_map(|log| log.calls.iter());

        // The ledger: each id issued, answered exactly once.
        let mut seen = vec![0u32; self.issued as usize];
        let mut foreign = 0u64;
        for record in records() {
            match seen.get_mut(record.id as usize) {
                Some(count) => *count += 1,
                None => foreign += 1,
            }
        }
        let unrecorded = seen.iter().filter(|&&c| c == 0).count() as u64;
        let duplicated = seen.iter().filter(|&&c| c > 1).count() as u64 + foreign;
        let lost = records().filter(|r| r.outcome == Outcome::Lost).count() as u64;
        let transport = records()
            .filter(|r| matches!(r.outcome, Outcome::Transport(_)))
            .count() as u64;
        let unexpected = records().filter(|r| r.unexpected).count() as u64;
        let crossed = records().filter(|r| r.crossed).count() as u64;
        let total = records().count() as u64;
        let answered = total - lost - transport;

        println!(
            "# soak: tool-examples serve --http, {} clients{}",
            self.clients,
            if self.exec { "" } else { ", no exec_command" }
        );
        println!();
        println!(
            "- {total} calls in {:.1} s: **{:.0} calls/s** ({} answered); sessions of {} calls; {} files under big/",
            self.seconds,
            total as f64 / self.seconds,
            answered,
            if self.reconnect_every == 0 { "unlimited".to_owned() } else { self.reconnect_every.to_string() },
            self.big_files,
        );
        println!("- machine: {}", self.machine);
        let mut by_group: BTreeMap<Group, u64> = BTreeMap::new();
        for record in records() {
            *by_group.entry(KINDS[record.kind].1).or_default() += 1;
        }
        println!(
            "- mix: {}",
            by_group
                .iter()
                .map(|(g, n)| format!(
                    "{} {n} ({:.1}%)",
                    g.name(),
                    *n as f64 * 100.0 / total.max(1) as f64
                ))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let mut connects: Vec<u64> = self
            .logs
            .iter()
            .flat_map(|l| l.connects.iter().copied())
            .collect();
        connects.sort_unstable();
        let connect_failures: Vec<&String> = self
            .logs
            .iter()
            .flat_map(|l| l.connect_failures.iter())
            .collect();
        println!(
            "- sessions opened: {} (initialize p50 {} ms, p99 {} ms, max {} ms); failed to open: {}",
            connects.len(),
            ms(percentile(&connects, 50.0)),
            ms(percentile(&connects, 99.0)),
            ms(connects.last().copied().unwrap_or(0)),
            connect_failures.len()
        );
        for failure in connect_failures.iter().take(3) {
            println!("  - {failure}");
        }

        println!();
        println!("## Ledger");
        println!();
        println!("| ids issued | answered once | never recorded | answered twice | lost (no answer in time) | transport errors | unexpected answer | answer of another call |");
        println!("|---|---|---|---|---|---|---|---|");
        println!(
            "| {} | {} | {unrecorded} | {duplicated} | {lost} | {transport} | {unexpected} | {crossed} |",
            self.issued,
            seen.iter().filter(|&&c| c == 1).count()
        );
        for record in records().filter(|r| r.detail.is_some()).take(5) {
            println!(
                "- call {}: {}",
                record.id,
                record.detail.as_deref().unwrap_or("")
            );
        }

        println!();
        println!("## Answers by kind");
        println!();
        let mut outcomes: BTreeMap<String, u64> = BTreeMap::new();
        for record in records() {
            *outcomes.entry(record.outcome.label()).or_default() += 1;
        }
        println!("| answer | calls |");
        println!("|---|---|");
        for (label, n) in &outcomes {
            println!("| {label} | {n} |");
        }

        println!();
        println!("## Latency (ms, client side, per call)");
        println!();
        println!("| calls | count | p50 | p99 | p99.9 | max |");
        println!("|---|---|---|---|---|---|");
        println!(
            "{}",
            latency_row("all", records().map(|r| r.micros).collect())
        );
        for group in [Group::Good, Group::Bad, Group::Slow] {
            let micros = records()
                .filter(|r| KINDS[r.kind].1 == group)
                .map(|r| r.micros)
                .collect();
            println!("{}", latency_row(group.name(), micros));
        }
        for (index, (name, group, _)) in KINDS.iter().enumerate() {
            let micros: Vec<u64> = records()
                .filter(|r| r.kind == index)
                .map(|r| r.micros)
                .collect();
            if !micros.is_empty() {
                println!(
                    "{}",
                    latency_row(&format!("{} / {name}", group.name()), micros)
                );
            }
        }

        println!();
        println!("## Server process");
        println!();
        let peak_kb = self
            .samples
            .iter()
            .map(|s| s.hwm_kb)
            .chain([self.loaded.hwm_kb, self.after.hwm_kb])
            .max()
            .unwrap_or(0);
        // RSS at each tenth of the run: growth that doesn't level off shows here.
        let timeline = (1..=10)
            .filter_map(|tenth| {
                let n = self.samples.len();
                (n > 0).then(|| mib(self.samples[(n * tenth / 10).min(n - 1)].rss_kb))
            })
            .collect::<Vec<_>>()
            .join(" / ");
        println!("| | MiB |");
        println!("|---|---|");
        println!("| RSS before the clients | {} |", mib(self.idle.rss_kb));
        println!("| RSS at each tenth of the run | {timeline} |");
        println!(
            "| RSS at the end of the load | {} |",
            mib(self.loaded.rss_kb)
        );
        println!(
            "| RSS 2 s after the clients closed | {} |",
            mib(self.after.rss_kb)
        );
        println!("| **peak RSS (VmHWM)** | **{}** |", mib(peak_kb));
        let cpu = self.loaded.cpu_s - self.idle.cpu_s;
        println!();
        println!(
            "- threads: {} idle, at most {} (the blocking pool runs sync tools); open files: {} idle, at most {}, {} after",
            self.idle.threads,
            self.samples.iter().map(|s| s.threads).max().unwrap_or(0),
            self.idle.fds,
            self.samples.iter().map(|s| s.fds).max().unwrap_or(0),
            self.after.fds
        );
        println!(
            "- CPU: {:.1} s in {:.1} s ({:.0}% of one core)",
            cpu,
            self.seconds,
            cpu * 100.0 / self.seconds.max(0.001)
        );

        let mut failures = Vec::new();
        if let Some(flood) = &self.flood {
            failures.extend(self.print_flood(flood));
        }
        if let Some(death) = &self.died {
            failures.push(format!("the server died: {death}"));
        }
        if unrecorded + duplicated + lost + transport > 0 {
            failures.push(format!(
                "calls lost: {unrecorded} never recorded, {duplicated} answered twice, {lost} unanswered, {transport} transport errors"
            ));
        }
        if unexpected + crossed > 0 {
            failures.push(format!(
                "wrong answers: {unexpected} unexpected, {crossed} not matching their call"
            ));
        }
        if peak_kb > self.max_rss_mb * 1024 {
            failures.push(format!(
                "peak RSS {} MiB is over the limit of {} MiB",
                mib(peak_kb),
                self.max_rss_mb
            ));
        }
        if self.loaded.hwm_kb == 0 && self.died.is_none() {
            failures.push("the server's memory could not be read from /proc".to_owned());
        }
        if total == 0 {
            failures.push("no call was made".to_owned());
        }
        println!();
        if failures.is_empty() {
            println!("PASS: every call answered exactly once, as expected; the server stayed up within {} MiB", self.max_rss_mb);
            true
        } else {
            for failure in &failures {
                println!("FAIL: {failure}");
            }
            false
        }
    }

    /// Prints the flood's figures; what failed.
    fn print_flood(&self, flood: &Flood) -> Vec<String> {
        let cap = tool_runtime::mcp::HttpOptions::DEFAULT_MAX_SESSIONS;
        println!();
        println!("## Session flood (after the load)");
        println!();
        println!(
            "- {} bare `initialize` requests in {:.1} s, never followed up: {} sessions opened, {} refused with 503, other answers {:?} (the cap is {cap})",
            flood.tried, flood.seconds, flood.opened, flood.refused, flood.other
        );
        println!(
            "- RSS with them open: {} MiB (peak so far {} MiB); {} ended with DELETE, RSS 1 s later: {} MiB",
            mib(flood.full.rss_kb),
            mib(flood.full.hwm_kb),
            flood.deleted,
            mib(flood.emptied.rss_kb)
        );
        println!(
            "- a new client's read_file afterwards: {}",
            match &flood.serves_after {
                Ok(()) => "answered".to_owned(),
                Err(e) => e.clone(),
            }
        );
        let mut failures = Vec::new();
        if flood.opened > cap {
            failures.push(format!(
                "the flood opened {} sessions, over the cap of {cap}",
                flood.opened
            ));
        }
        if flood.tried > cap && flood.refused == 0 {
            failures.push("the flood went past the cap and nothing was refused".to_owned());
        }
        if !flood.other.is_empty() {
            failures.push(format!(
                "unexpected answers to the flood: {:?}",
                flood.other
            ));
        }
        if flood.deleted != flood.opened {
            failures.push(format!(
                "{} of the {} flood sessions could not be ended with DELETE",
                flood.opened - flood.deleted,
                flood.opened
            ));
        }
        if let Err(e) = &flood.serves_after {
            failures.push(format!("after the flood, a new client failed: {e}"));
        }
        failures
    }
}
