//! `#[tool(inline)]`: a sync tool that `call(..).await` runs on the caller's task instead of
//! tokio's blocking pool, with its panics still caught and approval still asked first.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use std::time::Duration;
use tool_runtime::pipeline::Approval;
use tool_runtime::{tool, Registry};

fn thread_name() -> String {
    format!("{:?}", std::thread::current().id())
}

/// The thread it ran on.
#[tool(inline)]
fn where_inline() -> String {
    thread_name()
}

/// The thread it ran on.
#[tool]
fn where_pooled() -> String {
    thread_name()
}

/// Panics.
#[tool(inline)]
fn panics_inline() -> String {
    panic!("boom")
}

/// Deletes nothing, but says it may.
#[tool(inline, destructive)]
fn destroys_inline() -> String {
    "destroyed".into()
}

fn registry() -> Registry {
    Registry::builder()
        .without_inventory()
        .register(where_inline::TOOL)
        .register(where_pooled::TOOL)
        .register(panics_inline::TOOL)
        .register(destroys_inline::TOOL)
        .approver(|_: &tool_runtime::pipeline::ApprovalRequest<'_>| Approval::deny("not today"))
        .build()
        .unwrap()
}

#[tokio::test]
async fn an_inline_sync_tool_runs_on_the_callers_thread_and_others_on_the_pool() {
    let registry = registry();
    let here = thread_name();
    assert_eq!(
        registry.call("where_inline", "{}").await.to_model_text(),
        here
    );
    assert_ne!(
        registry.call("where_pooled", "{}").await.to_model_text(),
        here
    );
    const { assert!(where_inline::TOOL.flags.inline) };
    const { assert!(!where_pooled::TOOL.flags.inline) };
}

#[tokio::test]
async fn an_inline_tool_still_has_its_panic_caught_and_its_approval_asked() {
    let registry = registry();
    let output = registry.call("panics_inline", "{}").await;
    assert!(output.is_error());
    assert!(output.to_model_text().contains("boom"));
    let denied = registry.call("destroys_inline", "{}").await;
    assert!(denied.to_model_text().contains("not today"), "{denied:?}");
}

#[tokio::test]
async fn a_registry_timeout_sends_an_inline_tool_back_to_the_pool() {
    let registry = Registry::builder()
        .without_inventory()
        .register(where_inline::TOOL)
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    assert_ne!(
        registry.call("where_inline", "{}").await.to_model_text(),
        thread_name(),
        "a timeout needs the pool to hold"
    );
}
