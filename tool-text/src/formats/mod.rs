//! Every text format, each declared whole in a file of its own named after it (its name,
//! aliases, triggers, prompt convention, writer and model names; see [`Format`]), and
//! [`FORMATS`], the one list of them the rest of `text` reads.
//!
//! Adding a format is adding its file here, its variant to [`TextFormat`] and its row to
//! [`FORMATS`] (a test fails when a file is missing from the list), and, for reading it, its
//! matcher to the scan.

/// How the formats with a tag per argument want values written (a macro, for `concat!`).
macro_rules! values {
    () => {
        "Write strings as they are, without quotes or escaping; write numbers, booleans, arrays and objects as JSON."
    };
}

/// The convention of a DSML version, by its tag prefix and block name.
macro_rules! dsml_convention {
    ($tag:literal, $block:literal) => {
        concat!(
            "To call tools, write a <", $tag, $block, "> block like the following, with one invoke per call and one parameter per argument:\n\n",
            "<", $tag, $block, ">\n<", $tag, "invoke name=\"TOOL_NAME\">\n<", $tag,
            "parameter name=\"ARGUMENT_NAME\" string=\"true|false\">value</", $tag, "parameter>\n</",
            $tag, "invoke>\n</", $tag, $block, ">\n\n",
            "Write strings as they are, without quotes or escaping, and set string=\"true\"; ",
            "write numbers, booleans, arrays and objects as JSON and set string=\"false\"."
        )
    };
}

mod apertus;
mod command_r;
mod command_r_plus;
mod deepseek_v3;
mod deepseek_v31;
mod deepseek_v32;
mod deepseek_v4;
mod deepseek_v41;
mod dots;
mod envelope;
mod fenced;
mod functionary;
mod functionary_v32;
mod functiongemma;
mod gemma4;
mod gigachat;
mod glm;
mod granite;
mod granite_20b_fc;
mod harmony;
mod hermes;
mod hermes_variants;
mod hy_v3;
mod inkling;
mod internlm;
mod jamba;
mod k2_horizon;
mod kimi_k2;
mod kimi_k3;
mod lfm2;
mod llama3;
mod longcat;
mod minicpm5;
mod minimax_m2;
mod minimax_m3;
mod mistral;
mod muse;
mod nemotron;
mod olmo3;
mod phi4_mini;
mod plamo3;
mod pythonic;
mod qwen_xml;
mod seed_oss;
mod step3;
mod xlam;

use super::cursor::Reader;
use super::format::TextFormat;
use super::triggers::Automaton;
use crate::{ToolCall, ToolSpec};
use std::sync::OnceLock;

/// The tool list and calling convention in a family's own template words, for these tools
/// (`None` when the family's template can't list them).
pub(crate) type FamilyPrompt = fn(&[&ToolSpec]) -> Option<String>;

/// Everything a text format says about itself, declared in one value in its file under
/// `formats/` and listed once in `formats::FORMATS`: the tables (names, triggers, model
/// names, prompts, writers) are all read from these values.
pub(crate) struct Format {
    /// The variant this value declares.
    pub format: TextFormat,
    /// Its name, as serde and the CLI's `--text-tools` spell it.
    pub name: &'static str,
    /// Other names [`FromStr`](std::str::FromStr) accepts: vLLM's `--tool-call-parser` and
    /// SGLang's names, llama.cpp's older `COMMON_CHAT_FORMAT_*` lowercased.
    pub aliases: &'static [&'static str],
    /// The bytes a call can start with, and the backtick that starts code (whose content is
    /// prose in every format): the scanner looks at nothing else.
    pub triggers: &'static [u8],
    /// Markers whose first byte is too common in prose to stop at (a letter, `>`), found whole.
    pub words: &'static [&'static [u8]],
    /// Model-name fragments (lowercase) that pick this format, each with its rank: of all the
    /// formats' fragments a name holds, the lowest rank wins, so a more specific fragment
    /// (`qwen3-coder`) needs a lower rank than a general one (`qwen`).
    pub models: &'static [(u16, &'static str)],
    /// Markup a chat template writes for a past call in this format, ranked the same way.
    pub templates: &'static [(u16, &'static str)],
    /// How to call tools in this format, in words, for the generic prompt.
    pub convention: &'static str,
    /// The readers of its calls, asked at their trigger bytes in their priority order (a
    /// format the text is parsed in asks its own; [`Auto`](TextFormat::Auto), every format's
    /// but those asked only when chosen).
    pub readers: &'static [Reader],
    /// Calls written the way a model writes them in this format.
    pub write: fn(&[ToolCall]) -> String,
    /// The tool list and calling convention in the family's own chat template, when there is
    /// one (`prompt_templates/`).
    pub family_prompt: Option<FamilyPrompt>,
}

/// Every format but [`Auto`](TextFormat::Auto), in [`TextFormat`]'s order.
pub(crate) const FORMATS: [&Format; 46] = [
    &hermes::FORMAT,
    &qwen_xml::FORMAT,
    &mistral::FORMAT,
    &llama3::FORMAT,
    &pythonic::FORMAT,
    &envelope::FORMAT,
    &fenced::FORMAT,
    &jamba::FORMAT,
    &granite::FORMAT,
    &granite_20b_fc::FORMAT,
    &internlm::FORMAT,
    &longcat::FORMAT,
    &nemotron::FORMAT,
    &harmony::FORMAT,
    &gemma4::FORMAT,
    &functiongemma::FORMAT,
    &lfm2::FORMAT,
    &olmo3::FORMAT,
    &functionary::FORMAT,
    &apertus::FORMAT,
    &command_r::FORMAT,
    &glm::FORMAT,
    &hy_v3::FORMAT,
    &k2_horizon::FORMAT,
    &minimax_m2::FORMAT,
    &minicpm5::FORMAT,
    &step3::FORMAT,
    &seed_oss::FORMAT,
    &plamo3::FORMAT,
    &deepseek_v3::FORMAT,
    &deepseek_v31::FORMAT,
    &deepseek_v32::FORMAT,
    &deepseek_v4::FORMAT,
    &deepseek_v41::FORMAT,
    &kimi_k2::FORMAT,
    &kimi_k3::FORMAT,
    &xlam::FORMAT,
    &phi4_mini::FORMAT,
    &dots::FORMAT,
    &gigachat::FORMAT,
    &inkling::FORMAT,
    &functionary_v32::FORMAT,
    &minimax_m3::FORMAT,
    &command_r_plus::FORMAT,
    &muse::FORMAT,
    &hermes_variants::FORMAT,
];

/// [`Auto`](TextFormat::Auto): any format's triggers, and Hermes's convention and writer.
const AUTO: Format = Format {
    format: TextFormat::Auto,
    name: "auto",
    aliases: &[],
    triggers: b"<[`{",
    words: &[],
    models: &[],
    templates: &[],
    convention: hermes::FORMAT.convention,
    readers: &[],
    write: hermes::FORMAT.write,
    family_prompt: None,
};

impl TextFormat {
    /// Every format that is not [`Auto`](TextFormat::Auto).
    pub const ALL: [TextFormat; 46] = {
        let mut all = [TextFormat::Auto; 46];
        let mut i = 0;
        while i < all.len() {
            all[i] = FORMATS[i].format;
            i += 1;
        }
        all
    };

    /// What the format declares about itself.
    pub(crate) fn declared(self) -> &'static Format {
        // `FORMATS` is in the enum's order, after `Auto` (a test holds it to that).
        match (self as usize).checked_sub(1) {
            Some(index) => FORMATS.get(index).copied().unwrap_or(&AUTO),
            None => &AUTO,
        }
    }

    /// The bytes a call in this format can start with; see [`Format::triggers`].
    pub(crate) fn triggers(self) -> &'static [u8] {
        self.declared().triggers
    }

    /// The markers found as whole words when parsing in this format: its own, or under
    /// [`Auto`](TextFormat::Auto) every format's.
    fn trigger_words(self) -> Vec<&'static [u8]> {
        match self {
            TextFormat::Auto => FORMATS.iter().flat_map(|f| f.words).copied().collect(),
            _ => self.declared().words.to_vec(),
        }
    }

    /// The one search over every trigger of this format, its bytes and its words (under
    /// [`Auto`](TextFormat::Auto), all 46 formats'), built the first time a scan needs it.
    pub(crate) fn automaton(self) -> &'static Automaton {
        static AUTOMATA: [OnceLock<Automaton>; TextFormat::ALL.len() + 1] =
            [const { OnceLock::new() }; TextFormat::ALL.len() + 1];
        // One cell per variant: `Auto` and the 46 of `ALL`.
        AUTOMATA[self as usize]
            .get_or_init(|| Automaton::new(self.triggers(), &self.trigger_words()).passing_prose())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_in_the_enums_order_and_declares_each_variant_once() {
        for (index, format) in FORMATS.iter().enumerate() {
            assert_eq!(format.format as usize, index + 1, "{}", format.name);
            assert_eq!(format.format.declared().name, format.name);
        }
        assert_eq!(TextFormat::Auto.declared().name, "auto");
    }

    #[test]
    fn a_format_lists_the_shared_readers_that_serve_it() {
        use crate::cursor::Reader;
        use crate::{glm, invoke_xml, special, wrapped};
        for format in TextFormat::ALL {
            let lists = |reader: Reader| {
                format
                    .declared()
                    .readers
                    .iter()
                    .any(|r| r.byte == reader.byte && r.priority == reader.priority)
            };
            assert_eq!(lists(glm::READER), glm::looks_for(format), "{format:?}");
            let wrapped = wrapped::wrap(format).is_some();
            assert_eq!(lists(wrapped::READER), wrapped, "{format:?}");
            let invoke = invoke_xml::looks_for(format);
            assert_eq!(lists(invoke_xml::READER), invoke, "{format:?}");
            assert_eq!(
                lists(special::READER),
                special::handles(format),
                "{format:?}"
            );
        }
    }

    #[test]
    fn readers_of_one_byte_have_priorities_of_their_own() {
        // Two readers of one byte at one priority would be asked in the list's order.
        let mut seen: Vec<(u8, u8, usize)> = Vec::new();
        for reader in FORMATS.iter().flat_map(|f| f.readers) {
            let key = (reader.byte, reader.priority, reader.at as usize);
            let clash = seen
                .iter()
                .any(|&(byte, priority, at)| (byte, priority) == (key.0, key.1) && at != key.2);
            assert!(!clash, "byte {} priority {}", reader.byte, reader.priority);
            seen.push(key);
        }
    }

    #[test]
    fn every_format_file_is_in_the_list() {
        // A format's file that the list forgets would compile and never be used.
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/formats");
        let mut files: Vec<String> = std::fs::read_dir(&folder)
            .unwrap()
            .filter_map(|entry| {
                let name = entry.ok()?.file_name().into_string().ok()?;
                let stem = name.strip_suffix(".rs")?;
                (stem != "mod").then(|| stem.to_owned())
            })
            .collect();
        files.sort();
        let mut listed: Vec<String> = FORMATS.iter().map(|f| f.name.to_owned()).collect();
        listed.sort();
        assert_eq!(
            files, listed,
            "each file in formats/ is named after a format in FORMATS"
        );
    }
}
