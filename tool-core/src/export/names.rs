//! Tool names each provider accepts, and the reversible mapping for names it doesn't.
//!
//! A registry may hold names a provider rejects (a dotted `math.add` from an MCP server, a
//! name longer than 64 characters). Each is exported under a sanitized name: bad characters
//! become `_`, a name too long is cut and ends in a short hash of the original, and a name
//! that would clash with another tool's gets a hash too. The registry keeps the way back, so a
//! call to the exported name reaches the right tool.

use std::collections::HashMap;

/// A provider's rule for tool names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[doc(hidden)]
pub enum NameRule {
    /// `^[a-zA-Z0-9_-]{1,64}$`: OpenAI (`openai-python` `shared_params/function_definition.py`:
    /// "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64")
    /// and Anthropic (the same pattern in its tool docs; newer docs allow 128, 64 fits both).
    OpenAiAnthropic,
    /// `^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`: Gemini `FunctionDeclaration.name` ("Must start with
    /// a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots, colons
    /// and dashes, with a maximum length of 64", googleapis java-genai / Vertex reference).
    Gemini,
    /// `^[A-Za-z0-9_.-]{1,128}$`: MCP 2025-11-25 `server/tools.mdx`, "Tool names".
    Mcp,
}

impl NameRule {
    /// Every rule, in the order the registry assigns names.
    pub(crate) const ALL: [NameRule; 3] =
        [NameRule::OpenAiAnthropic, NameRule::Gemini, NameRule::Mcp];

    /// The longest name the rule allows.
    pub(crate) fn max_len(self) -> usize {
        match self {
            NameRule::OpenAiAnthropic | NameRule::Gemini => 64,
            NameRule::Mcp => 128,
        }
    }

    /// Whether `c` may appear in a name.
    pub(crate) fn allows_char(self, c: char) -> bool {
        c.is_ascii_alphanumeric()
            || matches!(
                (self, c),
                (_, '_' | '-') | (NameRule::Gemini | NameRule::Mcp, '.') | (NameRule::Gemini, ':')
            )
    }

    /// Whether `name` follows the rule.
    pub(crate) fn accepts(self, name: &str) -> bool {
        let starts_well = match self {
            NameRule::Gemini => name
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_'),
            _ => true,
        };
        !name.is_empty()
            && name.len() <= self.max_len()
            && starts_well
            && name.chars().all(|c| self.allows_char(c))
    }

    /// The closest name the rule accepts: bad characters as `_`, a bad start prefixed with
    /// `_`, and a name too long cut to leave room for `_` and an 8-digit hash of `name`.
    pub(crate) fn sanitize(self, name: &str) -> String {
        let mut out: String = name
            .chars()
            .map(|c| if self.allows_char(c) { c } else { '_' })
            .collect();
        if out.is_empty() {
            out.push_str("tool");
        }
        if self == NameRule::Gemini && !self.accepts(&out[..1]) {
            out.insert(0, '_');
        }
        if out.len() > self.max_len() {
            return with_hash(&out, name, self.max_len());
        }
        out
    }
}

/// `base` cut so that `base_<hash of original>` fits in `max` bytes (`base` is ASCII).
pub(crate) fn with_hash(base: &str, original: &str, max: usize) -> String {
    let hash = format!("{:08x}", fnv1a(original.as_bytes()) as u32);
    let keep = base.len().min(max - hash.len() - 1);
    format!("{}_{hash}", &base[..keep])
}

/// FNV-1a, 64-bit: stable across runs and Rust versions, unlike `DefaultHasher`, so an
/// exported name doesn't change between two processes serving the same tools.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Every tool's exported name under every rule, and the way back.
#[derive(Debug, Default)]
pub(crate) struct ExportNames {
    /// `exported[rule][tool]`, in [`NameRule::ALL`] order.
    exported: [Vec<String>; 3],
    /// Exported names that differ from the tool's own, to the tool's index.
    reverse: HashMap<String, usize>,
}

impl ExportNames {
    /// Assigns names for tools given in registry order. One exported name always means one
    /// tool, whatever the rule: a name a rule gives tool `a` is never another tool's real name,
    /// nor the name another rule gives tool `b`.
    pub(crate) fn new<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> ExportNames {
        let names: Vec<&str> = names.collect();
        let mut taken: HashMap<String, usize> = names
            .iter()
            .enumerate()
            .map(|(i, n)| ((*n).to_owned(), i))
            .collect();
        let mut reverse = HashMap::new();
        let mut exported: [Vec<String>; 3] = Default::default();
        for (slot, rule) in exported.iter_mut().zip(NameRule::ALL) {
            for (i, name) in names.iter().enumerate() {
                if rule.accepts(name) {
                    slot.push((*name).to_owned());
                    continue;
                }
                let mut candidate = rule.sanitize(name);
                let mut salt = 0u32;
                while taken.get(&candidate).is_some_and(|&owner| owner != i) {
                    let seed = if salt == 0 {
                        (*name).to_owned()
                    } else {
                        format!("{name}#{salt}")
                    };
                    candidate = with_hash(&rule.sanitize(name), &seed, rule.max_len());
                    salt += 1;
                }
                taken.insert(candidate.clone(), i);
                reverse.insert(candidate.clone(), i);
                slot.push(candidate);
            }
        }
        ExportNames { exported, reverse }
    }

    /// The name tool `index` is exported under by `rule`.
    pub(crate) fn get(&self, rule: NameRule, index: usize) -> &str {
        let slot = NameRule::ALL.iter().position(|r| *r == rule).unwrap_or(0);
        &self.exported[slot][index]
    }

    /// The tool an exported name stands for, when it isn't the tool's own name.
    pub(crate) fn tool(&self, exported: &str) -> Option<usize> {
        self.reverse.get(exported).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_accepts_what_its_provider_documents() {
        use NameRule::*;
        assert!(OpenAiAnthropic.accepts("read_file-2"));
        assert!(!OpenAiAnthropic.accepts("math.add"));
        assert!(!OpenAiAnthropic.accepts(&"a".repeat(65)));
        assert!(Gemini.accepts("math.add:v2"));
        assert!(!Gemini.accepts("2fa"), "must start with a letter or `_`");
        assert!(Mcp.accepts("admin.tools.list") && Mcp.accepts(&"a".repeat(128)));
        assert!(!Mcp.accepts("a:b") && !Mcp.accepts(""));
    }

    #[test]
    fn valid_names_are_kept_and_others_mapped_back() {
        let long = "x".repeat(100);
        let names = ["math.add", "math_add", "2fa", long.as_str(), "héllo"];
        let map = ExportNames::new(names.iter().copied());
        let openai = |i| map.get(NameRule::OpenAiAnthropic, i).to_owned();
        assert_eq!(openai(1), "math_add", "a valid name is never renamed");
        assert!(openai(0).starts_with("math_add_") && openai(0).len() == 17);
        assert_eq!(map.get(NameRule::Gemini, 2), "_2fa");
        assert_eq!(map.get(NameRule::Mcp, 2), "2fa");
        assert_eq!(openai(3).len(), 64);
        assert_eq!(map.get(NameRule::Mcp, 3), long);
        assert_eq!(openai(4), "h_llo");
        for rule in NameRule::ALL {
            for (i, name) in names.iter().enumerate() {
                let exported = map.get(rule, i);
                assert!(rule.accepts(exported), "{rule:?} {exported}");
                if exported != *name {
                    assert_eq!(map.tool(exported), Some(i), "{exported}");
                }
            }
        }
    }

    #[test]
    fn one_exported_name_means_one_tool_across_rules() {
        // OpenAI maps both to `a_b`; MCP keeps `a.b` and would give `a:b` the name `a_b`.
        let map = ExportNames::new(["a.b", "a:b"].into_iter());
        let first = map.get(NameRule::OpenAiAnthropic, 0).to_owned();
        let second_mcp = map.get(NameRule::Mcp, 1).to_owned();
        assert_eq!(first, "a_b");
        assert_ne!(second_mcp, "a_b");
        assert_eq!(map.tool(&second_mcp), Some(1));
    }

    #[test]
    fn hashes_are_stable() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
