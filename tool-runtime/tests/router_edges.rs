//! Edge cases of the non-streamed provider routers: response shapes the providers send that
//! the routers misread.

use serde_json::json;
use tool_runtime::router::{self, RouteError};
use tool_runtime::Provider;

/// Gemini answers a blocked prompt with no `candidates` at all, only `promptFeedback`
/// (python-genai `GenerateContentResponse`: "If the prompt was blocked, no candidates are
/// returned"). The Gemini router reads it as a provider error, but `route_auto` doesn't
/// recognize it as Gemini at all, so the caller is told to name the format.
#[test]
fn a_blocked_gemini_prompt_is_a_provider_error_under_auto_too() {
    let blocked = json!({
        "promptFeedback": {
            "blockReason": "SAFETY",
            "safetyRatings": [{"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "HIGH"}]
        },
        "usageMetadata": {"promptTokenCount": 8, "totalTokenCount": 8},
        "modelVersion": "gemini-2.5-flash",
        "responseId": "abc123"
    });
    let named = router::route(Provider::Gemini, &blocked);
    assert!(
        matches!(named, Err(RouteError::Provider { .. })),
        "the Gemini router itself calls it a blocked prompt: {named:?}"
    );
    assert_eq!(
        router::detect(&blocked),
        Some(Provider::Gemini),
        "a Gemini response with only promptFeedback (a blocked prompt) is not detected as Gemini"
    );
    assert_eq!(
        router::route_auto(&blocked),
        named,
        "route_auto gives a different answer than Provider::Gemini for a blocked Gemini prompt"
    );
}

/// Chat Completions still answers requests that use `functions` (the API's deprecated but
/// supported form) with `message.function_call` and `finish_reason: "function_call"`
/// (openai-python `ChatCompletionMessage.function_call`). The router returns no call and no
/// error: the call is silently dropped.
#[test]
fn a_chat_function_call_is_not_silently_dropped() {
    let response = json!({"id": "chatcmpl-1", "object": "chat.completion", "choices": [{
        "index": 0, "finish_reason": "function_call",
        "message": {"role": "assistant", "content": null,
                    "function_call": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}}]});
    let routed = router::route_auto(&response);
    let calls = routed.as_ref().map(|r| r.calls.len()).unwrap_or(usize::MAX);
    assert!(
        calls == 1 || routed.is_err(),
        "a Chat `function_call` was dropped without an error: {routed:?}"
    );
}
