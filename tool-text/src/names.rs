//! A format's names: how it is written ([`TextFormat::name`], `Display`) and read back
//! ([`FromStr`], with its aliases).

use super::format::TextFormat;
use std::fmt;
use std::str::FromStr;

impl TextFormat {
    /// The format's name, as serde and the CLI's `--text-tools` spell it.
    pub fn name(self) -> &'static str {
        self.declared().name
    }

    /// The names vLLM's `--tool-call-parser` and SGLang's give the format (and llama.cpp's
    /// older `COMMON_CHAT_FORMAT_*`, lowercased), which [`FromStr`] accepts too.
    pub fn aliases(self) -> &'static [&'static str] {
        self.declared().aliases
    }
}

impl fmt::Display for TextFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no [`TextFormat`]'s (nor one of its aliases).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown text format `{name}`; expected auto or one of: {}", known())]
pub struct UnknownTextFormat {
    /// The name given.
    pub name: String,
}

fn known() -> String {
    TextFormat::ALL
        .iter()
        .map(|f| f.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A format by its [`name`](TextFormat::name) or one of its [`aliases`](TextFormat::aliases)
/// (vLLM's and SGLang's parser names), case and `-`/`_` aside.
///
/// ```
/// use tool_runtime::text::TextFormat;
///
/// assert_eq!("hermes".parse::<TextFormat>().unwrap(), TextFormat::Hermes);
/// assert_eq!("qwen3_coder".parse::<TextFormat>().unwrap(), TextFormat::QwenXml);
/// assert_eq!("hunyuan-a13b".parse::<TextFormat>().unwrap(), TextFormat::Jamba);
/// assert_eq!("deepseekv31".parse::<TextFormat>().unwrap(), TextFormat::DeepSeekV31);
/// assert!("nope".parse::<TextFormat>().is_err());
/// ```
impl FromStr for TextFormat {
    type Err = UnknownTextFormat;

    fn from_str(text: &str) -> Result<TextFormat, UnknownTextFormat> {
        let wanted = text.trim().to_ascii_lowercase().replace('-', "_");
        std::iter::once(TextFormat::Auto)
            .chain(TextFormat::ALL)
            .find(|format| {
                format.name() == wanted
                    || format
                        .aliases()
                        .iter()
                        .any(|alias| alias.replace('-', "_") == wanted)
            })
            .ok_or_else(|| UnknownTextFormat {
                name: text.to_owned(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_and_alias_reads_back_and_serde_agrees() {
        for format in std::iter::once(TextFormat::Auto).chain(TextFormat::ALL) {
            assert_eq!(format.name().parse::<TextFormat>(), Ok(format));
            let json = serde_json::to_string(&format).unwrap();
            assert_eq!(json, format!("\"{}\"", format.name()));
            for alias in format.aliases() {
                assert_eq!(alias.parse::<TextFormat>(), Ok(format), "{alias}");
            }
        }
        let names: Vec<&str> = TextFormat::ALL
            .iter()
            .flat_map(|f| std::iter::once(f.name()).chain(f.aliases().iter().copied()))
            .collect();
        let unique: std::collections::HashSet<&&str> = names.iter().collect();
        assert_eq!(unique.len(), names.len(), "a name means one format");
    }
}
