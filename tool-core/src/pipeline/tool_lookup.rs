//! Finding the tool a call names: exactly, after a safe normalization, or not at all, with
//! the closest names to suggest.

use super::repair::{Repair, RepairKind, RepairPolicy};
use super::report::Clock;
use super::{Config, Entry};
use crate::error::{ErrorCode, ToolError};
use crate::output::ToolOutput;
use crate::violation::short;
use serde_json::Value;
use std::collections::HashMap;

/// Name to tool, hashed with foldhash: the lookup is on every call's path.
pub(crate) type Index = HashMap<String, usize, foldhash::fast::RandomState>;

/// The registry's names, normalized once at build so repairs cost a hash lookup.
#[derive(Default)]
pub(crate) struct NameIndex {
    normalized: HashMap<String, Vec<usize>>,
}

impl NameIndex {
    pub(crate) fn new<'a>(names: impl Iterator<Item = &'a str>) -> NameIndex {
        let mut normalized: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, name) in names.enumerate() {
            normalized.entry(fold(name)).or_default().push(i);
        }
        NameIndex { normalized }
    }

    /// The one tool whose name matches the call's, if exactly one does: case folded and `-`
    /// read as `_`, then with the call's `functions.` or other `namespace.` prefixes dropped
    /// one at a time. Only the call's name loses a prefix, never a tool's: MCP allows dots in
    /// names, and `trash.delete` must not reach a tool named `files.delete`.
    pub(crate) fn repair(&self, name: &str) -> Option<usize> {
        let name = fold(name);
        let mut rest = name.as_str();
        loop {
            if let Some(found) = self.normalized.get(rest) {
                return match found.as_slice() {
                    [only] => Some(*only),
                    _ => None,
                };
            }
            rest = rest.split_once(['.', '/', ':'])?.1;
        }
    }
}

/// Whether two names are the same bytes. Tool names are short: from 8 to 16 bytes they
/// compare as two overlapping words, with no call to `memcmp`.
#[inline]
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let word = |chunk: Option<&[u8; 8]>| chunk.map(|c| u64::from_ne_bytes(*c));
    if (8..=16).contains(&a.len()) {
        return word(a.first_chunk()) == word(b.first_chunk())
            && word(a.last_chunk()) == word(b.last_chunk());
    }
    if (4..8).contains(&a.len()) {
        let half = |chunk: Option<&[u8; 4]>| chunk.map(|c| u32::from_ne_bytes(*c));
        return half(a.first_chunk()) == half(b.first_chunk())
            && half(a.last_chunk()) == half(b.last_chunk());
    }
    a == b
}

/// Case folded and `-` read as `_`.
fn fold(name: &str) -> String {
    name.trim()
        .chars()
        .map(|c| {
            if c == '-' || c == ' ' {
                '_'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

/// Names longer than this get no suggestions.
const MAX_SUGGEST_LEN: usize = 256;

/// `name` folded, without any `namespace.` prefix: what suggestions compare.
fn normalize(name: &str) -> String {
    let name = name.trim();
    fold(name.rsplit(['.', '/', ':']).next().unwrap_or(name))
}

/// Up to three names close to `name`, closest first.
pub(crate) fn closest<'a>(name: &str, names: impl Iterator<Item = &'a str>) -> Vec<String> {
    // No tool name is this long (MCP allows 128 characters): comparing a huge one against
    // every name would only cost time.
    if name.len() > MAX_SUGGEST_LEN {
        return Vec::new();
    }
    let wanted = normalize(name);
    let mut scored: Vec<(f64, &str)> = names
        .map(|candidate| {
            let norm = normalize(candidate);
            let mut score = strsim::jaro_winkler(&wanted, &norm);
            if !wanted.is_empty() && (norm.contains(&wanted) || wanted.contains(&norm)) {
                score = score.max(0.9);
            }
            (score, candidate)
        })
        .filter(|(score, _)| *score >= 0.75)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored
        .into_iter()
        .take(3)
        .map(|(_, n)| n.to_owned())
        .collect()
}

/// The tool with exactly this name.
#[inline]
pub(crate) fn find<'a>(tools: &'a [Entry], index: &Index, name: &str) -> Option<&'a Entry> {
    // A few tools: comparing names beats hashing one.
    if tools.len() <= 8 {
        return tools
            .iter()
            .find(|t| same(t.spec.name.as_bytes(), name.as_bytes()));
    }
    find_hashed(tools, index, name)
}

/// [`find`] in a registry of many tools: kept out of line, so that `find` stays small enough
/// to inline.
#[inline(never)]
fn find_hashed<'a>(tools: &'a [Entry], index: &Index, name: &str) -> Option<&'a Entry> {
    index.get(name).map(|&i| &tools[i])
}

/// The lookup of a name that isn't a tool's own: `exported` is the tool an export's name
/// rule gave this name, if any; otherwise a safe normalization finds it (recorded), or the
/// model learns which tools there are. Kept out of line, so that the common case stays small
/// enough to inline.
#[cold]
pub(crate) fn lookup_other<'a>(
    tools: &'a [Entry],
    names: &NameIndex,
    exported: Option<usize>,
    config: &Config,
    name: &str,
    repairs: &mut Vec<Repair>,
    clock: &mut Clock,
) -> Result<&'a Entry, ToolOutput> {
    if let Some(i) = exported {
        return Ok(&tools[i]);
    }
    if config.repair != RepairPolicy::Off {
        if let Some(i) = names.repair(name) {
            repairs.push(Repair {
                kind: RepairKind::ToolName,
                pointer: String::new(),
                detail: name.to_owned(),
            });
            return Ok(&tools[i]);
        }
    }
    let _ = clock.lap();
    Err(unknown_tool(tools, name).bounded(config.max_output))
}

fn unknown_tool(tools: &[Entry], name: &str) -> ToolOutput {
    const SHOWN: usize = 20;
    let suggestions = closest(name, tools.iter().map(|t| t.spec.name.as_str()));
    let mut message = format!(
        "Unknown tool {:?}.",
        short(&Value::from(name)).trim_matches('"')
    );
    if suggestions.is_empty() {
        let listed: Vec<&str> = tools
            .iter()
            .take(SHOWN)
            .map(|t| t.spec.name.as_str())
            .collect();
        message.push_str(&format!(" Available tools: {}", listed.join(", ")));
        if tools.len() > SHOWN {
            message.push_str(&format!(" (and {} more)", tools.len() - SHOWN));
        }
        message.push('.');
    } else {
        message.push_str(&format!(" Did you mean {}?", quoted_list(&suggestions)));
    }
    let hint = "Call one of the available tools by its exact name.";
    let mut error = ToolError::with_code(ErrorCode::UnknownTool, message)
        .for_tool(name)
        .with_retry_hint(hint);
    error.suggestions = suggestions;
    ToolOutput::from(error)
}

fn quoted_list(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    match quoted.as_slice() {
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
        [] => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_agrees_with_byte_equality_at_every_length() {
        let name = "abcdefghijklmnopqrstu";
        for len in 0..=name.len() {
            let a = &name.as_bytes()[..len];
            assert!(same(a, a), "{len}");
            for i in 0..len {
                // One byte changed anywhere, first word, last word or the overlap.
                let mut b = a.to_vec();
                b[i] ^= 0x20;
                assert!(!same(a, &b), "{len}, byte {i}");
            }
            assert!(!same(a, &name.as_bytes()[..len.saturating_sub(1)]) || len == 0);
        }
    }

    #[test]
    fn huge_names_get_no_suggestions() {
        let names = ["read_file", "list_dir"];
        assert!(closest(&"read_file".repeat(100), names.into_iter()).is_empty());
        assert_eq!(closest("read_fil", names.into_iter()), ["read_file"]);
    }

    #[test]
    fn normalization_repairs_case_dashes_and_prefixes() {
        let index = NameIndex::new(["read_file", "list_dir"].into_iter());
        for name in [
            "Read_File",
            "read-file",
            "functions.read_file",
            "tools.fs.read_file",
            "READ FILE",
        ] {
            assert_eq!(index.repair(name), Some(0), "{name}");
        }
        assert_eq!(index.repair("write_file"), None);
    }

    #[test]
    fn only_the_calls_name_loses_a_prefix() {
        let index = NameIndex::new(["files.delete", "read_file"].into_iter());
        assert_eq!(index.repair("FILES.DELETE"), Some(0));
        assert_eq!(index.repair("functions.files.delete"), Some(0));
        assert_eq!(index.repair("trash.delete"), None);
        assert_eq!(index.repair("delete"), None);
        assert_eq!(index.repair("mcp:read_file"), Some(1));
    }

    #[test]
    fn an_ambiguous_normalization_is_not_a_repair() {
        let index = NameIndex::new(["read_file", "Read-File"].into_iter());
        assert_eq!(index.repair("READ_FILE"), None);
    }

    #[test]
    fn close_names_are_suggested() {
        let names = ["search_products", "search_orders", "add_numbers", "noop"];
        assert_eq!(
            closest("serch_products", names.into_iter()),
            ["search_products", "search_orders"]
        );
        assert_eq!(closest("products", names.into_iter())[0], "search_products");
        assert!(closest("zzzz", names.into_iter()).is_empty());
    }
}
