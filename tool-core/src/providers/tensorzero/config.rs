//! A registry as TensorZero configuration: a `tensorzero.toml` fragment with one
//! `[tools.NAME]` entry per tool (`description`, `parameters = "tools/NAME.json"`, `strict`),
//! one JSON Schema file per tool, and, when asked, a chat function that offers them all.
//!
//! The TOML is written by hand: it holds only bare keys, strings, booleans and a list of
//! strings, and a TOML crate in the core crate would cost every user compile time for a few
//! escapes. The tests parse it back with the `toml` crate and load it in the real gateway.

use crate::export::handle::Export;
use crate::Provider;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The folder, beside `tensorzero.toml`, the schema files go in (TensorZero resolves
/// `parameters` relative to the config file).
const TOOLS_DIR: &str = "tools";

/// A registry's tools as TensorZero configuration, from
/// [`Registry::export_tensorzero`](crate::Registry::export_tensorzero).
///
/// Names TensorZero's providers can't take go out sanitized, exactly as in
/// [`Registry::export`](crate::Registry::export) (`math.add` becomes `math_add`), and a call to
/// the sanitized name still reaches the tool. In strict mode each tool that can be is written
/// in strict form with `strict = true` (TensorZero passes it on to OpenAI-compatible
/// providers); one that can't goes out as it is, `strict = false`.
///
/// ```
/// use tool_runtime::{tool, Registry};
///
/// /// Get the weather for a city.
/// #[tool]
/// fn get_weather(city: String) -> String {
///     format!("Sunny in {city}")
/// }
///
/// let registry = Registry::builder().without_inventory().register(get_weather::TOOL).build().unwrap();
/// let config = registry
///     .export_tensorzero()
///     .strict(true)
///     .function("assistant")
///     .model("openai::gpt-4o-mini");
/// let toml = config.toml();
/// assert!(toml.contains("[tools.get_weather]\n"));
/// assert!(toml.contains("parameters = \"tools/get_weather.json\"\n"));
/// assert!(toml.contains("[functions.assistant]\ntype = \"chat\"\ntools = [\"get_weather\"]\n"));
/// let files = config.files();
/// assert_eq!(files[1].path, "tools/get_weather.json");
///
/// let dir = std::env::temp_dir().join(format!("tz-doc-{}", std::process::id()));
/// let written = config.write_to(&dir).unwrap();
/// assert!(written[0].ends_with("tensorzero.toml"));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Clone, Debug)]
#[must_use = "a TensorZeroConfig does nothing until it is written or turned into text"]
pub struct TensorZeroConfig<'r> {
    export: Export<'r>,
    function: Option<String>,
    model: Option<String>,
}

/// One file of a [`TensorZeroConfig`]: where it goes, relative to the config folder, and
/// what it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorZeroFile {
    /// `tensorzero.toml`, or `tools/NAME.json`.
    pub path: String,
    /// The file's text.
    pub contents: String,
}

/// A file of the configuration that could not be written.
#[derive(Debug, thiserror::Error)]
#[error("could not write {}: {source}", path.display())]
pub struct TensorZeroWriteError {
    /// The file or folder.
    pub path: PathBuf,
    /// Why.
    #[source]
    pub source: std::io::Error,
}

impl<'r> TensorZeroConfig<'r> {
    pub(crate) fn new(export: Export<'r>) -> TensorZeroConfig<'r> {
        debug_assert_eq!(export.provider(), Some(Provider::TensorZero));
        TensorZeroConfig {
            export,
            function: None,
            model: None,
        }
    }

    /// Strict mode on or off (off unless asked).
    pub fn strict(self, on: bool) -> Self {
        TensorZeroConfig {
            export: self.export.strict(on),
            ..self
        }
    }

    /// Adds `[functions.NAME]`, a chat function offering every tool, so the config works as
    /// it is pasted. Without [`model`](Self::model) its `variants` table is left empty for
    /// you to fill (TensorZero requires the table).
    pub fn function(self, name: impl Into<String>) -> Self {
        TensorZeroConfig {
            function: Some(name.into()),
            ..self
        }
    }

    /// With [`function`](Self::function): the function's one variant, a `chat_completion`
    /// on `model` (a model of the config, or a short-hand such as `openai::gpt-4o-mini`),
    /// named after the model.
    pub fn model(self, model: impl Into<String>) -> Self {
        TensorZeroConfig {
            model: Some(model.into()),
            ..self
        }
    }

    /// Every file: `tensorzero.toml` first, then one schema file per tool in registry order.
    pub fn files(&self) -> Vec<TensorZeroFile> {
        let tools = self.export.shared();
        let entries = tools.as_array().map(Vec::as_slice).unwrap_or_default();
        let paths = schema_paths(entries);
        let mut files = Vec::with_capacity(entries.len() + 1);
        files.push(TensorZeroFile {
            path: "tensorzero.toml".to_owned(),
            contents: self.toml_for(entries, &paths),
        });
        for (tool, path) in entries.iter().zip(paths) {
            let schema = tool.get("parameters").unwrap_or(&Value::Null);
            // A `Value` always serializes.
            let mut contents = serde_json::to_string_pretty(schema).unwrap_or_default();
            contents.push('\n');
            files.push(TensorZeroFile { path, contents });
        }
        files
    }

    /// The `tensorzero.toml` text alone.
    pub fn toml(&self) -> String {
        let tools = self.export.shared();
        let entries = tools.as_array().map(Vec::as_slice).unwrap_or_default();
        self.toml_for(entries, &schema_paths(entries))
    }

    /// Writes every file under `dir` (created if missing; files already there are replaced)
    /// and returns their paths, `tensorzero.toml` first.
    ///
    /// # Errors
    ///
    /// The file or folder that could not be written, with the I/O error.
    pub fn write_to(&self, dir: impl AsRef<Path>) -> Result<Vec<PathBuf>, TensorZeroWriteError> {
        let dir = dir.as_ref();
        let tools_dir = dir.join(TOOLS_DIR);
        std::fs::create_dir_all(&tools_dir).map_err(|source| TensorZeroWriteError {
            path: tools_dir.clone(),
            source,
        })?;
        self.files()
            .into_iter()
            .map(|file| {
                let path = dir.join(&file.path);
                std::fs::write(&path, file.contents)
                    .map(|()| path.clone())
                    .map_err(|source| TensorZeroWriteError { path, source })
            })
            .collect()
    }

    fn toml_for(&self, entries: &[Value], paths: &[String]) -> String {
        let mut toml = String::with_capacity(128 * entries.len() + 256);
        toml.push_str(
            "# Tools exported by tool-runtime: one [tools.NAME] entry per tool, its parameters\n\
             # in tools/NAME.json beside this file.\n",
        );
        let mut names = Vec::with_capacity(entries.len());
        for (tool, path) in entries.iter().zip(paths) {
            let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
            let description = tool
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let strict = tool.get("strict").and_then(Value::as_bool) == Some(true);
            let _ = write!(
                toml,
                "\n[tools.{}]\ndescription = {}\nparameters = {}\nstrict = {strict}\n",
                key(name),
                string(description),
                string(path),
            );
            names.push(string(name));
        }
        if let Some(function) = &self.function {
            let function = key(function);
            let _ = write!(
                toml,
                "\n[functions.{function}]\ntype = \"chat\"\ntools = [{}]\n",
                names.join(", ")
            );
            match &self.model {
                Some(model) => {
                    let _ = write!(
                        toml,
                        "\n[functions.{function}.variants.{}]\ntype = \"chat_completion\"\nmodel = {}\n",
                        key(model),
                        string(model)
                    );
                }
                None => {
                    let _ = write!(
                        toml,
                        "\n# Add a variant, for example:\n\
                         # [functions.{function}.variants.default]\n\
                         # type = \"chat_completion\"\n\
                         # model = \"openai::gpt-4o-mini\"\n\
                         [functions.{function}.variants]\n"
                    );
                }
            }
        }
        toml
    }
}

/// Each tool's schema file. Exported names are `[A-Za-z0-9_-]`, safe as file names, but two
/// may differ only in case (`Add`, `add`), which a case-insensitive file system would make
/// one file: every stem is compared lowercased, and no two tools ever share a file.
///
/// A tool keeps its own name as its stem whenever no earlier tool's name takes it. Only then
/// are the others given a hashed stem, and a hashed stem is checked against every stem
/// already taken, real or hashed, and salted again until it is free: a tool whose real name
/// is another's hashed stem (`h__add_18e1ead4` beside `h__Add` and `h__add`) once had its
/// schema file overwritten by the third one's.
fn schema_paths(entries: &[Value]) -> Vec<String> {
    use std::collections::HashSet;
    let names: Vec<&str> = entries
        .iter()
        .map(|tool| tool.get("name").and_then(Value::as_str).unwrap_or_default())
        .collect();
    // First every name that can be its own file's stem, so that a hashed stem chosen later
    // can never take a real name.
    let mut taken: HashSet<String> = HashSet::with_capacity(names.len());
    let own: Vec<bool> = names
        .iter()
        .map(|name| taken.insert(name.to_ascii_lowercase()))
        .collect();
    names
        .iter()
        .zip(own)
        .map(|(name, own)| {
            let stem = if own {
                (*name).to_owned()
            } else {
                let mut salt = 0u32;
                loop {
                    let seed = match salt {
                        0 => (*name).to_owned(),
                        n => format!("{name}#{n}"),
                    };
                    let stem = crate::export::names::with_hash(name, &seed, 128);
                    if taken.insert(stem.to_ascii_lowercase()) {
                        break stem;
                    }
                    salt += 1;
                }
            };
            format!("{TOOLS_DIR}/{stem}.json")
        })
        .collect()
}

/// `text` as a TOML key: bare when it can be, quoted otherwise.
fn key(text: &str) -> String {
    let bare = !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if bare {
        text.to_owned()
    } else {
        string(text)
    }
}

/// `text` as a TOML basic string (TOML 1.0 "Basic strings": `"` and `\` escaped, control
/// characters as `\uXXXX` or their short escapes).
fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strings_escape_what_toml_requires() {
        assert_eq!(
            string("a \"b\" \\ c\nd\u{7f}\u{1}é"),
            r#""a \"b\" \\ c\nd\u007F\u0001é""#
        );
        assert_eq!(key("chat-1_a"), "chat-1_a");
        assert_eq!(key("a.b"), "\"a.b\"");
        assert_eq!(key(""), "\"\"");
    }

    #[test]
    fn names_that_differ_only_in_case_get_files_of_their_own() {
        let entries = [json!({"name": "Add"}), json!({"name": "add"})];
        let paths = schema_paths(&entries);
        assert_eq!(paths[0], "tools/Add.json");
        assert_ne!(paths[1].to_lowercase(), paths[0].to_lowercase());
        assert!(paths[1].starts_with("tools/add_"), "{}", paths[1]);
    }

    /// Issue 32 item 6: a tool whose real name is the hashed stem another tool would get
    /// (`with_hash` of `add`), in every order: each tool gets a file of its own, the real
    /// name keeps its own file, and no two paths are equal even ignoring case.
    #[test]
    fn a_hashed_file_name_never_takes_a_name_already_taken() {
        let hashed = crate::export::names::with_hash("add", "add", 128);
        let orders = [
            [hashed.as_str(), "Add", "add"],
            ["Add", "add", hashed.as_str()],
            ["add", hashed.as_str(), "ADD"],
        ];
        for order in orders {
            let entries: Vec<Value> = order.iter().map(|n| json!({"name": n})).collect();
            let paths = schema_paths(&entries);
            let mut lower: Vec<String> = paths.iter().map(|p| p.to_lowercase()).collect();
            lower.sort();
            lower.dedup();
            assert_eq!(lower.len(), 3, "{order:?}: {paths:?}");
            let own = order.iter().position(|n| *n == hashed).unwrap_or(0);
            assert_eq!(paths[own], format!("tools/{hashed}.json"), "{order:?}");
        }
    }
}
