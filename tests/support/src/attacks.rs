//! The attack corpus (`tests/attacks/*.jsonl`): loading it, expanding generated inputs, the
//! workspace its path attacks expect, and checking an outcome against an entry's expectation.
//! Shared by `tests/integration/attacks.rs` (in-process) and `tool-examples/tests/attacks.rs`
//! (the CLI and the MCP server).

use serde::Deserialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// One hostile input and the outcome it must get.
#[derive(Clone, Debug, Deserialize)]
pub struct Entry {
    pub name: String,
    #[serde(default)]
    pub tool: Option<String>,
    /// The tool name, generated (for names too large to store).
    #[serde(default)]
    pub tool_gen: Option<Vec<Part>>,
    #[serde(default)]
    pub arguments: Option<String>,
    /// The argument text, generated (for inputs too large to store).
    #[serde(default)]
    pub arguments_gen: Option<Vec<Part>>,
    #[serde(default)]
    pub expect: Option<Expect>,
    /// A whole batch of calls instead of one (`batches.jsonl`).
    #[serde(default)]
    pub batch: Option<Batch>,
}

/// A piece of generated text: literal, one unit repeated, or one unit repeated with `{}`
/// replaced by the repetition's number (for distinct keys).
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Part {
    Text { text: String },
    Repeat { repeat: String, times: usize },
    Numbered { numbered: String, times: usize },
}

/// What an input must get.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Expect {
    /// The error code (`invalid_arguments`, `unknown_tool`, ...), when it must fail.
    #[serde(default)]
    pub code: Option<String>,
    /// When it must succeed.
    #[serde(default)]
    pub ok: bool,
    #[serde(default)]
    pub message_contains: Option<String>,
    #[serde(default)]
    pub output_contains: Option<String>,
    #[serde(default)]
    pub output_equals: Option<String>,
    /// The most bytes the model's text may have.
    #[serde(default)]
    pub max_output: Option<usize>,
    /// A file in the workspace that must not exist afterwards (a shell would have made it).
    #[serde(default)]
    pub no_file: Option<String>,
}

/// Many calls in one model message, routed from a provider's response.
#[derive(Clone, Debug, Deserialize)]
pub struct Batch {
    /// `openai_chat` or `anthropic`.
    pub format: String,
    /// The calls, repeated `repeat` times in turn.
    pub calls: Vec<BatchCall>,
    pub repeat: usize,
    /// `unique`, `same` (every call one id), `pairs` (each id twice) or `empty`.
    pub ids: String,
}

#[derive(Clone, Debug, Deserialize)]
pub struct BatchCall {
    pub tool: String,
    pub arguments: String,
    pub expect: Expect,
}

pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../attacks")
}

/// Every entry of every file, as `(file stem, entry)`, files in name order.
pub fn load() -> Vec<(String, Entry)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("tests/attacks exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&file).unwrap();
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let entry: Entry = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{}:{}: {e}", file.display(), i + 1));
            out.push((stem.clone(), entry));
        }
    }
    out
}

pub fn expand(parts: &[Part]) -> String {
    let mut out = String::new();
    for part in parts {
        match part {
            Part::Text { text } => out.push_str(text),
            Part::Repeat { repeat, times } => out.push_str(&repeat.repeat(*times)),
            Part::Numbered { numbered, times } => {
                for i in 0..*times {
                    out.push_str(&numbered.replace("{}", &i.to_string()));
                }
            }
        }
    }
    out
}

impl Entry {
    pub fn tool_name(&self) -> String {
        match (&self.tool, &self.tool_gen) {
            (Some(tool), _) => tool.clone(),
            (None, Some(parts)) => expand(parts),
            (None, None) => panic!("{}: no tool", self.name),
        }
    }

    pub fn argument_text(&self) -> String {
        match (&self.arguments, &self.arguments_gen) {
            (Some(text), _) => text.clone(),
            (None, Some(parts)) => expand(parts),
            (None, None) => panic!("{}: no arguments", self.name),
        }
    }

    /// Small enough to send through a child process's pipes in a sample.
    pub fn is_small(&self) -> bool {
        self.arguments_gen.is_none() && self.tool_gen.is_none() && self.batch.is_none()
    }
}

impl Batch {
    /// The calls as `(id, tool, arguments, expect)`.
    pub fn expand(&self) -> Vec<(String, BatchCall)> {
        let n = self.calls.len();
        (0..self.repeat * n)
            .map(|i| {
                let id = match self.ids.as_str() {
                    "unique" => format!("call_{i}"),
                    "same" => "call_same".to_owned(),
                    "pairs" => format!("call_{}", i / 2),
                    "empty" => String::new(),
                    other => panic!("unknown id scheme {other}"),
                };
                (id, self.calls[i % n].clone())
            })
            .collect()
    }

    /// The provider response that carries these calls.
    pub fn response(&self) -> Value {
        let calls = self.expand();
        match self.format.as_str() {
            "openai_chat" => {
                serde_json::json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                "role": "assistant", "content": null,
                "tool_calls": calls.iter().map(|(id, c)| serde_json::json!({
                    "id": id, "type": "function",
                    "function": {"name": c.tool, "arguments": c.arguments}})).collect::<Vec<_>>()}}]})
            }
            "anthropic" => {
                serde_json::json!({"type": "message", "role": "assistant", "stop_reason": "tool_use",
                "content": calls.iter().map(|(id, c)| serde_json::json!({
                    "type": "tool_use", "id": id, "name": c.tool,
                    // Anthropic sends an object: arguments that aren't JSON go as a string.
                    "input": serde_json::from_str::<Value>(&c.arguments).unwrap_or(Value::String(c.arguments.clone()))})).collect::<Vec<_>>()})
            }
            other => panic!("unknown format {other}"),
        }
    }
}

/// The workspace the path attacks expect: `notes.txt`, `sub/`, a link inside (`inner_link.txt`)
/// and three ways out (`escape/` a directory link, `link_secret.txt` a file link, `chain.txt`
/// a link to that link), all leading to `secret.txt` in a second directory.
pub struct AttackWorkspace {
    pub root: tempfile::TempDir,
    pub outside: tempfile::TempDir,
}

impl AttackWorkspace {
    pub fn new() -> AttackWorkspace {
        let root = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.txt"), "TOP SECRET\n").unwrap();
        std::fs::write(root.path().join("notes.txt"), "one\ntwo\n").unwrap();
        std::fs::create_dir(root.path().join("sub")).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::symlink;
            symlink(outside.path(), root.path().join("escape")).unwrap();
            symlink(
                outside.path().join("secret.txt"),
                root.path().join("link_secret.txt"),
            )
            .unwrap();
            symlink("link_secret.txt", root.path().join("chain.txt")).unwrap();
            symlink("notes.txt", root.path().join("inner_link.txt")).unwrap();
        }
        AttackWorkspace { root, outside }
    }

    pub fn path(&self) -> &Path {
        self.root.path()
    }
}

impl Default for AttackWorkspace {
    fn default() -> Self {
        AttackWorkspace::new()
    }
}

/// Checks an outcome seen from outside: `error_code` is `None` for a success (or when the
/// channel doesn't carry codes, with `is_error` telling), `text` what the model reads.
/// Returns a description of the mismatch, if any.
pub fn check(
    expect: &Expect,
    is_error: bool,
    error_code: Option<&str>,
    text: &str,
    check_code: bool,
) -> Result<(), String> {
    let short = |t: &str| t.chars().take(300).collect::<String>();
    if expect.ok {
        if is_error {
            return Err(format!("expected success, got error {}", short(text)));
        }
    } else if let Some(code) = &expect.code {
        if !is_error {
            return Err(format!("expected {code}, got success {}", short(text)));
        }
        if check_code && error_code != Some(code.as_str()) {
            return Err(format!(
                "expected {code}, got {error_code:?}: {}",
                short(text)
            ));
        }
    }
    for needle in [&expect.message_contains, &expect.output_contains]
        .into_iter()
        .flatten()
    {
        if !text.contains(needle.as_str()) {
            return Err(format!("expected {needle:?} in {}", short(text)));
        }
    }
    if let Some(equals) = &expect.output_equals {
        if text != equals {
            return Err(format!("expected exactly {equals:?}, got {}", short(text)));
        }
    }
    if let Some(max) = expect.max_output {
        if text.len() > max {
            return Err(format!("{} bytes, over {max}", text.len()));
        }
    }
    Ok(())
}
