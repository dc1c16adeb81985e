//! Replies for the scripted upstream, in each provider's documented shape. They are what the
//! fixture sends; none of them came from a model.
//!
//! - OpenAI Chat Completions: the `ChatCompletion` and `ChatCompletionChunk` objects of the
//!   API reference (and `openai-openapi.yaml`'s `CreateChatCompletionResponse`).
//! - OpenAI Responses: the `Response` object and its streaming events
//!   (`response.output_item.added`, `response.function_call_arguments.delta`, ...).
//! - Anthropic Messages: the `Message` object and its streaming events (`message_start`,
//!   `content_block_start`, `content_block_delta`, ..., `message_stop`), docs.anthropic.com
//!   "Streaming Messages".
//! - Gemini: `GenerateContentResponse`, as in ai.google.dev "Function calling" (the
//!   `functionCall` part, `thoughtSignature`) and the `streamGenerateContent?alt=sse` events.
//! - Ollama `/api/chat`: `ChatResponse` (github.com/ollama/ollama `api/types.go`), as in
//!   `docs/api.md` "Chat request (No streaming, with tools)" and "(Streaming with tools)":
//!   calls with object arguments and the server's `call_` ids, one JSON object a line when
//!   streamed, the last `"done": true` with the token counts.

use serde_json::{json, Value};

/// Chat Completions: a reply with these calls (`(id, name, arguments JSON text)`).
pub fn chat_calls(calls: &[(&str, &str, &str)]) -> Value {
    let tool_calls: Vec<Value> = calls
        .iter()
        .map(|(id, name, args)| {
            json!({"id": id, "type": "function", "function": {"name": name, "arguments": args}})
        })
        .collect();
    json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1_700_000_000, "model": "scripted",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "logprobs": null,
            "message": {"role": "assistant", "content": null, "refusal": null, "tool_calls": tool_calls}}],
        "usage": {"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60}
    })
}

/// Chat Completions: a final text answer.
pub fn chat_text(text: &str) -> Value {
    json!({
        "id": "chatcmpl-2", "object": "chat.completion", "created": 1_700_000_001, "model": "scripted",
        "choices": [{"index": 0, "finish_reason": "stop", "logprobs": null,
            "message": {"role": "assistant", "content": text, "refusal": null}}],
        "usage": {"prompt_tokens": 70, "completion_tokens": 5, "total_tokens": 75}
    })
}

/// Chat Completions streamed: the call's pieces (id and name first, arguments in two
/// fragments), `finish_reason`, a usage chunk, `[DONE]`. `finish: false` cuts the stream
/// before its end.
pub fn chat_call_chunks(id: &str, name: &str, args: &str, finish: bool) -> Vec<Value> {
    let chunk = |delta: Value, finish_reason: Value| {
        json!({"id": "chatcmpl-3", "object": "chat.completion.chunk", "created": 1_700_000_002,
               "model": "scripted", "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]})
    };
    let (a, b) = args.split_at(args.len() / 2);
    let mut events = vec![
        chunk(
            json!({"role": "assistant", "content": "Let me check. "}),
            Value::Null,
        ),
        chunk(
            json!({"tool_calls": [{"index": 0, "id": id, "type": "function", "function": {"name": name, "arguments": ""}}]}),
            Value::Null,
        ),
        chunk(
            json!({"tool_calls": [{"index": 0, "function": {"arguments": a}}]}),
            Value::Null,
        ),
        chunk(
            json!({"tool_calls": [{"index": 0, "function": {"arguments": b}}]}),
            Value::Null,
        ),
    ];
    if finish {
        events.push(chunk(json!({}), json!("tool_calls")));
        events.push(
            json!({"id": "chatcmpl-3", "object": "chat.completion.chunk", "created": 1_700_000_002,
            "model": "scripted", "choices": [],
            "usage": {"prompt_tokens": 40, "completion_tokens": 12, "total_tokens": 52}}),
        );
        events.push(Value::String("[DONE]".into()));
    }
    events
}

/// Chat Completions streamed: a text answer in two pieces.
pub fn chat_text_chunks(a: &str, b: &str) -> Vec<Value> {
    let chunk = |delta: Value, finish_reason: Value| {
        json!({"id": "chatcmpl-4", "object": "chat.completion.chunk", "created": 1_700_000_003,
               "model": "scripted", "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]})
    };
    vec![
        chunk(json!({"role": "assistant", "content": a}), Value::Null),
        chunk(json!({"content": b}), Value::Null),
        chunk(json!({}), json!("stop")),
        Value::String("[DONE]".into()),
    ]
}

/// Responses: a reasoning item, then a function call (item id `fc_1`).
pub fn responses_call(call_id: &str, name: &str, args: &str) -> Value {
    json!({
        "id": "resp_1", "object": "response", "created_at": 1_700_000_000, "status": "completed",
        "model": "scripted",
        "output": [
            {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAA-opaque"},
            {"type": "function_call", "id": "fc_1", "call_id": call_id, "name": name,
             "arguments": args, "status": "completed"}
        ],
        "usage": {"input_tokens": 30, "output_tokens": 8, "total_tokens": 38}
    })
}

/// Responses: a final text answer.
pub fn responses_text(text: &str) -> Value {
    json!({
        "id": "resp_2", "object": "response", "created_at": 1_700_000_001, "status": "completed",
        "model": "scripted",
        "output": [{"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}],
        "usage": {"input_tokens": 45, "output_tokens": 6, "total_tokens": 51}
    })
}

/// Responses streamed: the events of [`responses_call`].
pub fn responses_call_events(call_id: &str, name: &str, args: &str) -> Vec<Value> {
    let item = json!({"type": "function_call", "id": "fc_1", "call_id": call_id, "name": name,
                      "arguments": "", "status": "in_progress"});
    let done = json!({"type": "function_call", "id": "fc_1", "call_id": call_id, "name": name,
                      "arguments": args, "status": "completed"});
    vec![
        json!({"type": "response.created", "sequence_number": 0, "response": {"id": "resp_3", "status": "in_progress", "output": []}}),
        json!({"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": item}),
        json!({"type": "response.function_call_arguments.delta", "sequence_number": 2, "output_index": 0, "item_id": "fc_1", "delta": args}),
        json!({"type": "response.function_call_arguments.done", "sequence_number": 3, "output_index": 0, "item_id": "fc_1", "arguments": args}),
        json!({"type": "response.output_item.done", "sequence_number": 4, "output_index": 0, "item": done}),
        json!({"type": "response.completed", "sequence_number": 5, "response": {
            "id": "resp_3", "object": "response", "status": "completed", "output": [done],
            "usage": {"input_tokens": 20, "output_tokens": 7, "total_tokens": 27}}}),
    ]
}

/// Anthropic: a thinking block (with its signature), text, and a `tool_use` block.
pub fn anthropic_call(id: &str, name: &str, input: Value) -> Value {
    json!({
        "id": "msg_1", "type": "message", "role": "assistant", "model": "scripted",
        "content": [
            {"type": "thinking", "thinking": "The user wants the weather.", "signature": "EqQBCkYIARgCIkD"},
            {"type": "text", "text": "Let me check."},
            {"type": "tool_use", "id": id, "name": name, "input": input}
        ],
        "stop_reason": "tool_use", "stop_sequence": null,
        "usage": {"input_tokens": 60, "output_tokens": 20}
    })
}

/// Anthropic: a final text answer.
pub fn anthropic_text(text: &str) -> Value {
    json!({
        "id": "msg_2", "type": "message", "role": "assistant", "model": "scripted",
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn", "stop_sequence": null,
        "usage": {"input_tokens": 90, "output_tokens": 6}
    })
}

/// Anthropic streamed: [`anthropic_call`] as events (thinking and signature deltas, the
/// input in two fragments). `stop: false` cuts it before `message_stop`.
pub fn anthropic_call_events(id: &str, name: &str, input: &str, stop: bool) -> Vec<Value> {
    let (a, b) = input.split_at(input.len() / 2);
    let mut events = vec![
        json!({"type": "message_start", "message": {"id": "msg_3", "type": "message", "role": "assistant",
            "model": "scripted", "content": [], "stop_reason": null, "usage": {"input_tokens": 55, "output_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": "", "signature": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "The user wants "}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "the weather."}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "EqQBCkYIARgCIkD"}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "Let me check."}}),
        json!({"type": "content_block_stop", "index": 1}),
        json!({"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}}),
        json!({"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": a}}),
        json!({"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": b}}),
        json!({"type": "content_block_stop", "index": 2}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": null}, "usage": {"output_tokens": 25}}),
    ];
    if stop {
        events.push(json!({"type": "message_stop"}));
    }
    events
}

/// Gemini: text and a `functionCall` part carrying a `thoughtSignature`.
pub fn gemini_call(name: &str, args: Value) -> Value {
    json!({
        "candidates": [{"content": {"role": "model", "parts": [
            {"text": "Let me check."},
            {"functionCall": {"name": name, "args": args}, "thoughtSignature": "CiQBVKhc7opaque"}
        ]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 40, "candidatesTokenCount": 9, "totalTokenCount": 49},
        "modelVersion": "scripted"
    })
}

/// Gemini: a final text answer.
pub fn gemini_text(text: &str) -> Value {
    json!({
        "candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 60, "candidatesTokenCount": 4, "totalTokenCount": 64},
        "modelVersion": "scripted"
    })
}

/// Gemini streamed: text in one event, the call (with its signature) and `finishReason` in
/// the next.
pub fn gemini_call_events(name: &str, args: Value) -> Vec<Value> {
    vec![
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Let me check."}]}, "index": 0}],
               "modelVersion": "scripted"}),
        json!({"candidates": [{"content": {"role": "model", "parts": [
                {"functionCall": {"name": name, "args": args}, "thoughtSignature": "CiQBVKhc7opaque"}]},
               "finishReason": "STOP", "index": 0}],
               "usageMetadata": {"promptTokenCount": 40, "candidatesTokenCount": 9, "totalTokenCount": 49},
               "modelVersion": "scripted"}),
    ]
}

/// Gemini, the parallel example of ai.google.dev/gemini-api/docs/function-calling ("Parallel
/// function calling", the party prompt): three `functionCall` parts in one model content,
/// the first carrying the turn's `thoughtSignature`, as the page on thought signatures
/// (ai.google.dev/gemini-api/docs/thought-signatures) says parallel calls do.
pub fn gemini_docs_party_calls() -> Value {
    json!({
        "candidates": [{"content": {"role": "model", "parts": [
            {"functionCall": {"name": "power_disco_ball", "args": {"power": true}},
             "thoughtSignature": "CiwBVKhc7party"},
            {"functionCall": {"name": "start_music", "args": {"energetic": true, "loud": true}}},
            {"functionCall": {"name": "dim_lights", "args": {"brightness": 0.5}}}
        ]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 120, "candidatesTokenCount": 30, "totalTokenCount": 150},
        "modelVersion": "scripted"
    })
}

/// Gemini, the meeting example of the same page: `schedule_meeting` with the arguments the
/// page shows for "Schedule a meeting with Bob and Alice for 03/14/2025 at 10:00 AM about the
/// Q3 planning."
pub fn gemini_docs_meeting_call() -> Value {
    json!({
        "candidates": [{"content": {"role": "model", "parts": [
            {"functionCall": {"name": "schedule_meeting", "args": {
                "attendees": ["Bob", "Alice"], "date": "2025-03-14", "time": "10:00",
                "topic": "Q3 planning"}}}
        ]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 80, "candidatesTokenCount": 20, "totalTokenCount": 100},
        "modelVersion": "scripted"
    })
}

/// Ollama: one `ChatResponse` line (or a whole reply) holding `message`.
fn ollama_response(message: Value, done: bool) -> Value {
    let mut response = json!({"model": "scripted", "created_at": "2025-07-07T20:32:53.844124Z",
        "message": message, "done": done});
    if done {
        let metrics = json!({"done_reason": "stop", "total_duration": 3_244_883_583u64,
            "load_duration": 2_969_184_542u64, "prompt_eval_count": 169, "prompt_eval_duration": 141_656_333,
            "eval_count": 18, "eval_duration": 133_293_625});
        for (key, value) in metrics.as_object().unwrap() {
            response[key] = value.clone();
        }
    }
    response
}

/// Ollama's `tool_calls` for these calls (`(id, name, arguments object)`; an empty id is
/// left out, as servers before call ids send them).
fn ollama_tool_calls(calls: &[(&str, &str, Value)]) -> Vec<Value> {
    calls
        .iter()
        .enumerate()
        .map(|(index, (id, name, args))| {
            let mut call = json!({"function": {"index": index, "name": name, "arguments": args}});
            if !id.is_empty() {
                call["id"] = json!(id);
            }
            call
        })
        .collect()
}

/// Ollama, whole (`"stream": false`): a reply with these calls and a thought.
pub fn ollama_calls(calls: &[(&str, &str, Value)]) -> Value {
    ollama_response(
        json!({"role": "assistant", "content": "", "thinking": "The user wants the weather.",
               "tool_calls": ollama_tool_calls(calls)}),
        true,
    )
}

/// Ollama, whole: a final text answer.
pub fn ollama_text(text: &str) -> Value {
    ollama_response(json!({"role": "assistant", "content": text}), true)
}

/// Ollama streamed: thinking, text in two lines, every call in one line, and the `done` line
/// (left out with `done: false`, a stream cut before its end).
pub fn ollama_call_lines(calls: &[(&str, &str, Value)], done: bool) -> Vec<Value> {
    let line = |message: Value| ollama_response(message, false);
    let mut lines = vec![
        line(json!({"role": "assistant", "content": "", "thinking": "The user wants "})),
        line(json!({"role": "assistant", "content": "", "thinking": "the weather."})),
        line(json!({"role": "assistant", "content": "Let me "})),
        line(json!({"role": "assistant", "content": "check."})),
        line(json!({"role": "assistant", "content": "", "tool_calls": ollama_tool_calls(calls)})),
    ];
    if done {
        lines.push(ollama_response(
            json!({"role": "assistant", "content": ""}),
            true,
        ));
    }
    lines
}
