//! Tools shared by the integration tests: one per parameter kind the macro must handle.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tool_runtime::{tool, State, ToolContext, ToolError};

/// A product category.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// Things for feet.
    Shoes,
    /// Things for heads.
    Hats,
}

/// A price range.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
pub struct PriceRange {
    /// Lowest price, in cents.
    pub min: u32,
    /// Highest price, in cents.
    pub max: Option<u32>,
}

/// The catalogue the search tool reads.
pub struct Catalogue {
    /// Product names with their category and price in cents.
    pub products: Vec<(String, Category, u32)>,
}

/// Search the product catalogue.
///
/// Results are ordered by **relevance**.
#[tool(read_only)]
pub async fn search_products(
    /// Free-text query, for example "red running shoes".
    query: String,
    /// How many results to return.
    #[tool(default = 10)]
    #[schemars(range(min = 1, max = 100))]
    limit: u32,
    /// Restrict the search to one category.
    category: Option<Category>,
    /// Only products in this price range.
    price: Option<PriceRange>,
    catalogue: State<Catalogue>,
) -> Result<Vec<String>, ToolError> {
    let words: Vec<String> = query
        .to_lowercase()
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    if words.is_empty() {
        return Err(ToolError::new("the query is empty: give at least one word"));
    }
    Ok(catalogue
        .products
        .iter()
        .filter(|(_, c, _)| category.is_none_or(|want| want == *c))
        .filter(|(_, _, p)| {
            price
                .as_ref()
                .is_none_or(|r| *p >= r.min && r.max.is_none_or(|max| *p <= max))
        })
        .filter(|(name, _, _)| words.iter().any(|w| name.to_lowercase().contains(w)))
        .take(limit as usize)
        .map(|(name, _, _)| name.clone())
        .collect())
}

/// Add two integers.
///
/// # Arguments
///
/// * `a` - The first addend.
/// * `b` - The second addend.
#[tool(name = "add_numbers", idempotent)]
pub fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Echo the call's own context back.
#[tool]
pub fn whoami(ctx: ToolContext) -> String {
    format!("{} {}", ctx.tool_name(), ctx.call_id().unwrap_or("-"))
}

/// Do nothing, successfully.
#[tool(description = "A tool with no parameters and no result.")]
pub fn noop() {}

/// How to sort results.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SortOrder {
    /// Newest first.
    Newest,
    /// Oldest first.
    Oldest,
}

/// A label with a colour.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
pub struct Label {
    /// The label's text.
    pub name: String,
    /// An RGB colour such as `#ff0000`.
    pub colour: Option<String>,
}

/// Exercise every parameter kind the schema tests look at.
#[tool]
#[allow(clippy::too_many_arguments)]
pub fn kinds(
    /// A list of tags.
    tags: Vec<String>,
    /// Counts by key.
    counts: std::collections::HashMap<String, i32>,
    /// Labels to attach.
    labels: Vec<Label>,
    /// A ratio between 0 and 1.
    #[schemars(range(min = 0.0, max = 1.0))]
    ratio: f64,
    /// Whether to be verbose.
    verbose: Option<bool>,
    /// The sort order.
    #[tool(default = SortOrder::Newest)]
    order: SortOrder,
    /// The kind of thing, sent by the model as `type`.
    r#type: String,
    /// Renamed on the wire.
    #[serde(rename = "maxItems")]
    max_items: u8,
) -> serde_json::Value {
    serde_json::json!({
        "tags": tags, "counts": counts, "labels": labels, "ratio": ratio,
        "verbose": verbose, "order": order, "type": r#type, "max_items": max_items,
    })
}

/// The session a resolver reads defaults from.
pub struct Session {
    /// The session's working directory.
    pub cwd: String,
}

/// Print the working directory a command would run in.
#[tool(read_only)]
pub fn pwd(
    /// The working directory.
    cwd: String,
) -> String {
    cwd
}

/// Settings nested inside another argument, with their own defaults.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
pub struct Paging {
    /// Items per page.
    #[serde(default = "default_page_size")]
    pub size: u32,
    /// The page to show, from 1.
    pub page: u32,
}

fn default_page_size() -> u32 {
    25
}

/// List items a page at a time.
#[tool(read_only)]
pub fn list_items(
    /// Which page to show.
    paging: Paging,
    /// Tags to filter on.
    #[tool(default = Vec::new())]
    tags: Vec<String>,
) -> serde_json::Value {
    serde_json::json!({"size": paging.size, "page": paging.page, "tags": tags})
}

/// Fills `cwd` from the session's working directory when the model leaves it out.
pub fn cwd_from_session(
    args: &mut tool_runtime::pipeline::ParamResolver<'_>,
) -> Result<(), ToolError> {
    if let Some(session) = args.state::<Session>() {
        args.fill("cwd", &session.cwd);
    }
    Ok(())
}

/// Show where a command would run: the session's directory unless told otherwise.
#[tool(read_only, resolver = cwd_from_session)]
pub fn run_dir(
    /// The working directory.
    cwd: String,
) -> String {
    cwd
}
