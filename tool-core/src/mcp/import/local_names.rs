//! Local names for a server's tools: `{server}__{tool}`, in the rule every provider accepts
//! (`^[a-zA-Z0-9_-]{1,64}$`), through the sanitizer the exporters use (`export::names`).

use crate::export::names::{with_hash, NameRule};
use crate::mcp::ImportNote;
use std::collections::HashSet;

/// The longest server prefix kept, so that tool names keep most of the 64 characters.
const PREFIX_MAX: usize = 24;

/// A server's name as a prefix: sanitized, and cut when long.
pub(crate) fn prefix(server: &str) -> String {
    let mut prefix = NameRule::OpenAiAnthropic.sanitize(server.trim());
    prefix.truncate(PREFIX_MAX);
    prefix
}

/// One local name per remote tool, in order, and a note for each that isn't plainly
/// `{prefix}__{tool}`. `taken` holds names already in use (other servers' tools); the names
/// given are added to it.
pub(crate) fn assign(
    prefix: &str,
    tools: &[&str],
    taken: &mut HashSet<String>,
) -> (Vec<String>, Vec<ImportNote>) {
    let rule = NameRule::OpenAiAnthropic;
    let mut names = Vec::with_capacity(tools.len());
    let mut notes = Vec::new();
    for tool in tools {
        let plain = format!("{prefix}__{tool}");
        let mut name = rule.sanitize(&plain);
        let mut reason = if name == plain {
            None
        } else if plain.len() > rule.max_len() {
            Some("the name is longer than 64 characters")
        } else {
            Some("the name has characters outside [a-zA-Z0-9_-]")
        };
        let mut salt = 0u32;
        while taken.contains(&name) {
            salt += 1;
            name = with_hash(
                &rule.sanitize(&plain),
                &format!("{plain}#{salt}"),
                rule.max_len(),
            );
            reason = Some("another tool already has the name");
        }
        if let Some(reason) = reason {
            notes.push(ImportNote::Renamed {
                tool: (*tool).to_owned(),
                name: name.clone(),
                reason,
            });
        }
        taken.insert(name.clone());
        names.push(name);
    }
    (names, notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_prefixed_sanitized_and_unique() {
        let long = "t".repeat(80);
        let tools = ["echo", "get.weather", "get_weather", long.as_str()];
        let mut taken = HashSet::new();
        let (names, notes) = assign(&prefix("everything"), &tools, &mut taken);
        assert_eq!(names[0], "everything__echo");
        assert_eq!(names[1], "everything__get_weather");
        assert_ne!(names[2], names[1]);
        assert!(
            names[2].starts_with("everything__get_weather_"),
            "{}",
            names[2]
        );
        assert_eq!(names[3].len(), 64);
        for name in &names {
            assert!(NameRule::OpenAiAnthropic.accepts(name), "{name}");
        }
        let renamed: Vec<&str> = notes
            .iter()
            .map(|n| match n {
                ImportNote::Renamed { tool, .. } => tool.as_str(),
                _ => "",
            })
            .collect();
        assert_eq!(renamed, ["get.weather", "get_weather", long.as_str()]);
    }

    #[test]
    fn a_second_server_of_the_same_name_gets_other_names() {
        let mut taken = HashSet::new();
        let (first, _) = assign("s", &["a"], &mut taken);
        let (second, notes) = assign("s", &["a"], &mut taken);
        assert_ne!(first, second);
        assert_eq!(notes.len(), 1);
    }

    #[test]
    fn prefixes_are_cut() {
        assert_eq!(prefix("@modelcontextprotocol/server-everything").len(), 24);
        assert_eq!(prefix("my server"), "my_server");
    }
}
