//! The official MCP conformance suite's client scenarios, both suites, every scenario they
//! list: `conformance client --command "tool-examples conformance-client" --scenario NAME`
//! starts the scenario's server and runs our import against it
//! (`tool-examples/src/cli/conformance_client.rs`), one scenario at a time (the suite's
//! `--suite` runs them all at once, and `sse-retry` times a reconnection to 250 ms).
//!
//! Each scenario's outcome is written below: a pass, or a failure with its reason. A
//! scenario that fails where a pass is written fails the test, and so does one that passes
//! where a failure is written (the list must stay true), or one the suite lists and this
//! file doesn't (a new suite's scenarios get a line each).

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::Command;
use std::sync::Mutex;
use std::time::Duration;
use tool_test_support::mcp_clients::{clients, run_bounded};

const BINARY: &str = env!("CARGO_BIN_EXE_tool-examples");

/// What a scenario is expected to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    Pass,
    /// Fails, for this reason.
    Fail(&'static str),
}

use Expect::{Fail, Pass};

/// `private_key_jwt` client credentials: rmcp's `auth-client-credentials-jwt` (jsonwebtoken on
/// aws-lc-rs, a C library to build) is not turned on.
const NO_JWT: &str = "client credentials with a signed JWT (private_key_jwt) are not built: \
                      rmcp's `auth-client-credentials-jwt` feature builds aws-lc's C library";

/// The sign-in scenarios pass with the import's OAuth (feature `mcp-oauth`, on by default).
const OAUTH: Expect = if cfg!(feature = "mcp-oauth") {
    Pass
} else {
    Fail("this build has no sign-in: tool-examples' `mcp-oauth` feature is off")
};

/// With the feature that signs assertions (`.ci/run` runs this test with it too), a pass.
const JWT: Expect = if cfg!(feature = "mcp-oauth-jwt") {
    Pass
} else {
    Fail(NO_JWT)
};

/// 0.1.16's fixture serves authorization server metadata whose `issuer` (`<origin>/oauth`)
/// is not the URL it was fetched from; RFC 8414 §3.3 says to refuse it, and rmcp does. The
/// suite fixed its fixture after 0.1.16 ("make 2025-03-26 backcompat mock RFC 8414
/// §3.3-compliant", modelcontextprotocol/conformance#359), and the pre-release suite passes.
const WRONG_ISSUER: &str = "the fixture's metadata names another issuer than its URL, which \
                            RFC 8414 requires a client to refuse (fixed in the pre-release suite)";

/// `@modelcontextprotocol/conformance` 0.1.16.
const SUITE: &[(&str, Expect)] = &[
    ("initialize", Pass),
    ("tools_call", Pass),
    ("elicitation-sep1034-client-defaults", Pass),
    ("sse-retry", Pass),
    ("auth/metadata-default", OAUTH),
    ("auth/metadata-var1", OAUTH),
    ("auth/metadata-var2", OAUTH),
    ("auth/metadata-var3", OAUTH),
    ("auth/basic-cimd", OAUTH),
    ("auth/scope-from-www-authenticate", OAUTH),
    ("auth/scope-from-scopes-supported", OAUTH),
    ("auth/scope-omitted-when-undefined", OAUTH),
    ("auth/scope-step-up", OAUTH),
    ("auth/scope-retry-limit", OAUTH),
    ("auth/token-endpoint-auth-basic", OAUTH),
    ("auth/token-endpoint-auth-post", OAUTH),
    ("auth/token-endpoint-auth-none", OAUTH),
    ("auth/pre-registration", OAUTH),
    (
        "auth/2025-03-26-oauth-metadata-backcompat",
        Fail(WRONG_ISSUER),
    ),
    ("auth/2025-03-26-oauth-endpoint-fallback", OAUTH),
    // Passes with or without sign-in: the import must not authorize for another resource.
    ("auth/resource-mismatch", Pass),
    ("auth/offline-access-scope", OAUTH),
    ("auth/offline-access-not-supported", OAUTH),
    ("auth/client-credentials-jwt", JWT),
    ("auth/client-credentials-basic", OAUTH),
    ("auth/cross-app-access-complete-flow", OAUTH),
];

/// The pre-release suite (`conformance-alpha`, 0.2.0-alpha.12): protocol 2026-07-28's
/// scenarios run with `MCP_CONFORMANCE_PROTOCOL_VERSION=2026-07-28`.
const ALPHA: &[(&str, Expect)] = &[
    ("initialize", Pass),
    ("tools_call", Pass),
    ("elicitation-sep1034-client-defaults", Pass),
    ("sse-retry", Pass),
    ("request-metadata", Pass),
    ("auth/metadata-default", OAUTH),
    ("auth/metadata-var1", OAUTH),
    ("auth/metadata-var2", OAUTH),
    ("auth/metadata-var3", OAUTH),
    ("auth/basic-cimd", OAUTH),
    ("auth/scope-from-www-authenticate", OAUTH),
    ("auth/scope-from-scopes-supported", OAUTH),
    ("auth/scope-omitted-when-undefined", OAUTH),
    ("auth/scope-step-up", OAUTH),
    ("auth/scope-retry-limit", OAUTH),
    ("auth/token-endpoint-auth-basic", OAUTH),
    ("auth/token-endpoint-auth-post", OAUTH),
    ("auth/token-endpoint-auth-none", OAUTH),
    ("auth/pre-registration", OAUTH),
    ("auth/2025-03-26-oauth-metadata-backcompat", OAUTH),
    ("auth/2025-03-26-oauth-endpoint-fallback", OAUTH),
    ("auth/resource-mismatch", OAUTH),
    ("auth/offline-access-scope", OAUTH),
    ("auth/offline-access-not-supported", OAUTH),
    ("auth/authorization-server-migration", OAUTH),
    ("auth/iss-supported", OAUTH),
    ("auth/iss-not-advertised", OAUTH),
    ("auth/iss-supported-missing", OAUTH),
    ("auth/iss-wrong-issuer", OAUTH),
    ("auth/iss-unexpected", OAUTH),
    ("auth/iss-normalized", OAUTH),
    ("auth/metadata-issuer-mismatch", OAUTH),
    ("auth/client-credentials-jwt", JWT),
    ("auth/client-credentials-basic", OAUTH),
    ("auth/enterprise-managed-authorization", OAUTH),
    ("auth/dpop", OAUTH),
    ("auth/dpop-nonce", OAUTH),
    ("auth/wif-jwt-bearer", OAUTH),
    ("sep-2322-client-request-state", Pass),
    ("http-standard-headers", Pass),
    ("http-custom-headers", Pass),
    ("http-invalid-tool-headers", Pass),
    ("json-schema-ref-no-deref", Pass),
    ("json-schema-2020-12-preservation", Pass),
    // Skills (SEP-2640): the import fetches no skill, so nothing is prefetched or unverified.
    ("sep-2640-client-no-prefetch", Pass),
    ("sep-2640-client-verify-digest", Pass),
    ("sep-2640-client-verify-size", Pass),
    ("sep-2640-client-verify-frontmatter", Pass),
];

/// One suite at a time: `sse-retry` measures a reconnection's timing.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The client scenarios `suite` lists.
fn listed(suite: &Path) -> Vec<String> {
    let out = run_bounded(
        Command::new(&clients().node)
            .arg(suite)
            .args(["list", "--client"]),
        Duration::from_secs(60),
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| line.strip_prefix("  - "))
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

/// Runs every scenario of `suite` and compares each outcome with `expected`.
fn run_suite(suite: &Path, expected: &[(&str, Expect)]) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let listed = listed(suite);
    let unlisted: Vec<&String> = listed
        .iter()
        .filter(|name| !expected.iter().any(|(known, _)| known == name))
        .collect();
    assert!(
        unlisted.is_empty(),
        "scenarios this file doesn't list: {unlisted:?}"
    );
    let scratch = tempfile::tempdir().unwrap();
    let mut wrong = Vec::new();
    let (mut passed, mut failed) = (0, 0);
    for (scenario, expect) in expected {
        assert!(
            listed.iter().any(|name| name == scenario),
            "{scenario} is no longer listed: {listed:?}"
        );
        // `sse-retry` times our reconnection against a 250 ms window, which a loaded machine
        // can miss: up to three tries for it, one for the others.
        let tries = if *scenario == "sse-retry" { 3 } else { 1 };
        let (mut passes, mut stdout) = (false, String::new());
        for _ in 0..tries {
            stdout = run_scenario(suite, scenario, scratch.path());
            passes = stdout.contains("OVERALL: PASSED");
            if passes {
                break;
            }
        }
        if passes {
            passed += 1;
        } else {
            failed += 1;
        }
        match (expect, passes) {
            (Pass, true) | (Fail(_), false) => {}
            (Pass, false) => {
                let failures: String = stdout
                    .lines()
                    .filter(|line| {
                        ["FAILURE", "WARNING", "Error", "OVERALL", "timed out"]
                            .iter()
                            .any(|word| line.contains(word))
                    })
                    .take(20)
                    .collect::<Vec<_>>()
                    .join("\n");
                wrong.push(format!("{scenario} failed:\n{failures}"));
            }
            (Fail(why), true) => wrong.push(format!(
                "{scenario} passes, where this file says it fails ({why}): say Pass"
            )),
        }
    }
    println!("{}: {passed} passed, {failed} failed", suite.display());
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

/// Runs one scenario and gives what the suite printed (its verdict and checks go to stdout
/// or stderr, by version: both).
fn run_scenario(suite: &Path, scenario: &str, scratch: &Path) -> String {
    let out = run_bounded(
        Command::new(&clients().node)
            .arg(suite)
            .arg("client")
            .arg("--command")
            .arg(format!("{BINARY} conformance-client"))
            .args(["--scenario", scenario])
            .current_dir(scratch),
        Duration::from_secs(120),
    );
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn the_client_scenarios_of_the_conformance_suite() {
    run_suite(&clients().conformance, SUITE);
}

#[test]
fn the_client_scenarios_of_the_pre_release_suite() {
    run_suite(&clients().conformance_alpha, ALPHA);
}
