//! `search_tools` and `describe_tool`: in a large registry, the model finds tools by keyword
//! and asks for one tool's schema when it needs it, instead of every schema up front.

use serde::Serialize;
use tool_runtime::{tool, ToolContext, ToolError, ToolSpec};

/// One search hit.
#[derive(Debug, PartialEq, Serialize)]
pub struct ToolMatch {
    /// The tool's name.
    pub name: String,
    /// The first line of its description.
    pub summary: String,
}

/// Find tools by keyword, in their names and descriptions.
///
/// Returns the best matches first, each with a one-line summary. Call `describe_tool` to get a
/// tool's parameters before calling it.
#[tool(read_only, idempotent)]
pub fn search_tools(
    /// Words describing what you want to do, for example "read a csv file".
    query: String,
    /// The most tools to return.
    #[tool(default = 5)]
    #[schemars(range(min = 1, max = 20))]
    limit: usize,
    ctx: ToolContext,
) -> Result<Vec<ToolMatch>, ToolError> {
    let words: Vec<String> = query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 1)
        .map(str::to_lowercase)
        .collect();
    if words.is_empty() {
        return Err(ToolError::new("the query has no words to search for: describe the task, for example \"read a csv file\""));
    }
    let mut scored: Vec<(usize, &ToolSpec)> = ctx
        .tools()
        .filter(|spec| spec.name() != ctx.tool_name())
        .map(|spec| (score(spec, &words), spec))
        .filter(|(s, _)| *s > 0)
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.name().cmp(b.1.name())));
    Ok(scored
        .into_iter()
        .take(limit)
        .map(|(_, spec)| ToolMatch {
            name: spec.name().to_owned(),
            summary: summary(spec),
        })
        .collect())
}

/// A word in the name counts three times as much as one in the description.
fn score(spec: &ToolSpec, words: &[String]) -> usize {
    let name = spec.name().to_lowercase();
    let description = spec.description().to_lowercase();
    words
        .iter()
        .map(|w| {
            3 * usize::from(name.contains(w.as_str()))
                + usize::from(description.contains(w.as_str()))
        })
        .sum()
}

fn summary(spec: &ToolSpec) -> String {
    spec.description()
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// A tool's full description and the JSON Schema of its parameters.
#[derive(Debug, Serialize)]
pub struct ToolDescription {
    /// The tool's name.
    pub name: String,
    /// What it does.
    pub description: String,
    /// The JSON Schema of its arguments.
    pub parameters: serde_json::Value,
}

/// Get one tool's description and parameter schema, to call it correctly.
#[tool(read_only, idempotent)]
pub fn describe_tool(
    /// The tool's exact name, as `search_tools` returned it.
    name: String,
    ctx: ToolContext,
) -> Result<ToolDescription, ToolError> {
    match ctx.tool(&name) {
        Some(spec) => Ok(ToolDescription {
            name: spec.name().to_owned(),
            description: spec.description().to_owned(),
            parameters: spec.input_schema().clone(),
        }),
        None => {
            let words = vec![name.to_lowercase()];
            let close: Vec<&str> = ctx
                .tools()
                .filter(|s| score(s, &words) > 0)
                .map(ToolSpec::name)
                .take(3)
                .collect();
            let hint = if close.is_empty() {
                "use search_tools to find one".to_owned()
            } else {
                format!("did you mean {}?", close.join(", "))
            };
            Err(ToolError::new(format!("no tool is named {name:?}: {hint}")))
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::registry;
    use serde_json::Value;

    fn call(tool: &str, args: &str) -> Value {
        let root = tempfile::tempdir().unwrap();
        let registry = registry(root.path().to_path_buf()).unwrap();
        let output = registry.call_blocking(tool, args);
        serde_json::from_str(&output.to_model_text())
            .unwrap_or_else(|_| Value::String(output.to_model_text()))
    }

    #[test]
    fn finds_tools_by_keyword_best_first() {
        let found = call("search_tools", r#"{"query": "summarize a CSV file"}"#);
        assert_eq!(found[0]["name"], "csv_summary");
        assert!(found[0]["summary"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .contains("csv"));
        let found = call("search_tools", r#"{"query": "read file", "limit": 1}"#);
        assert_eq!(found.as_array().unwrap().len(), 1);
        assert_eq!(found[0]["name"], "read_file");
    }

    #[test]
    fn a_query_without_words_or_matches() {
        assert!(call("search_tools", r#"{"query": "?!"}"#)
            .as_str()
            .unwrap()
            .contains("no words"));
        assert_eq!(
            call("search_tools", r#"{"query": "quantum teleportation"}"#),
            Value::Array(Vec::new())
        );
        assert!(call("search_tools", r#"{"query": "csv", "limit": 0}"#)
            .as_str()
            .unwrap()
            .contains("less than the minimum 1"));
    }

    #[test]
    fn describes_one_tool_with_its_schema() {
        let described = call("describe_tool", r#"{"name": "read_file"}"#);
        assert_eq!(
            described["parameters"]["required"],
            serde_json::json!(["path"])
        );
        assert!(described["description"]
            .as_str()
            .unwrap()
            .starts_with("Read a text file"));
        let unknown = call("describe_tool", r#"{"name": "csv"}"#);
        assert!(
            unknown
                .as_str()
                .unwrap()
                .contains("did you mean csv_summary"),
            "{unknown}"
        );
    }
}
