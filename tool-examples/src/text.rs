//! Small text helpers the tools share: binary sniffing and char-safe truncation.

/// How much of a file's start is checked for NUL bytes when deciding whether it is binary.
pub(crate) const SNIFF_LEN: usize = 8 * 1024;

/// Whether bytes from a file's start look binary: text files don't contain NUL.
pub(crate) fn looks_binary(head: &[u8]) -> bool {
    head[..head.len().min(SNIFF_LEN)].contains(&0)
}

/// The first `max` chars of `text`, with `…` appended when something was cut.
pub(crate) fn truncate_chars(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_respects_char_boundaries() {
        assert_eq!(truncate_chars("héllo", 2), "hé…");
        assert_eq!(truncate_chars("héllo", 5), "héllo");
        assert_eq!(truncate_chars("", 0), "");
        assert_eq!(truncate_chars("🦀🦀", 1), "🦀…");
    }

    #[test]
    fn nul_means_binary() {
        assert!(looks_binary(b"PK\x03\x04\0\0"));
        assert!(!looks_binary("plain text é".as_bytes()));
    }
}
