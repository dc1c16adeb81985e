use tool_runtime::tool;

/// A report, but without `Serialize`.
pub struct Report {
    pub lines: Vec<String>,
}

/// Build a report.
#[tool]
fn report(title: String) -> Report {
    Report { lines: vec![title] }
}

fn main() {}
