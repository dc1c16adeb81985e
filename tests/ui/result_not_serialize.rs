use tool_runtime::{tool, ToolError};

/// A report, but without `Serialize`.
pub struct Report {
    pub lines: Vec<String>,
}

/// Build a report.
#[tool]
async fn report(title: String) -> Result<Report, ToolError> {
    Ok(Report { lines: vec![title] })
}

fn main() {}
