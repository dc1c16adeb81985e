//! The conformance tool whose argument also travels as an HTTP header (MCP 2026-07-28's
//! custom headers, SEP-2243).

use tool_runtime::tool;

/// Reports the status of one region's servers.
///
/// The region is also sent as the header `Mcp-Param-Region`, so a load balancer can route
/// the call to that region without reading the body. Scenario
/// `http-custom-header-server-validation` calls it with the header plain, Base64-wrapped
/// (`=?base64?SGVsbG8=?=`), badly wrapped and missing: the server answers the first two and
/// refuses the others with HTTP 400 and `-32020`, before the tool runs.
#[tool(read_only, parallel)]
pub(super) fn region_status(
    /// The region, such as "eu-west".
    #[tool(mcp_header = "Region")]
    region: String,
) -> String {
    format!("All systems normal in {region}.")
}
