use tool_runtime::tool;

/// A report, serializable but without a JSON Schema.
#[derive(serde::Serialize)]
pub struct Report {
    pub lines: Vec<String>,
}

/// Build a report.
#[tool(output_schema)]
fn report(title: String) -> Result<Report, String> {
    Ok(Report { lines: vec![title] })
}

/// Log a line.
#[tool(output_schema)]
fn log_line(line: String) {
    let _ = line;
}

fn main() {}
