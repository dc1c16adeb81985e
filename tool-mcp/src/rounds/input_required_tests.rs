use super::*;
use serde_json::json;

#[test]
fn answers_are_checked_against_their_question() {
    let accept = json!({"action": "accept", "content": {"name": "Ada"}});
    assert!(fits("elicitation/create", &accept).is_ok());
    assert!(fits("elicitation/create", &json!(12345)).is_err());
    assert!(fits("elicitation/create", &json!({"action": "maybe"})).is_err());
    let message =
        json!({"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m"});
    assert!(fits("sampling/createMessage", &message).is_ok());
    assert!(fits("sampling/createMessage", &accept).is_err());
    assert!(fits("roots/list", &json!({"roots": []})).is_ok());
    assert!(fits("roots/list", &json!({"roots": 1})).is_err());
}

#[test]
fn a_state_opens_only_unchanged_and_for_its_own_call() {
    let states = RequestStates::random();
    let answers = BTreeMap::from([("user_name".to_owned(), json!({"action": "decline"}))]);
    let sealed = |bound: &str| {
        let options = SealOptions::new()
            .associated_data(bound.as_bytes())
            .ttl(STATE_TTL);
        states.codec.seal_json_with(&answers, &options).unwrap()
    };
    let open = |state: &str, bound: &str| {
        states
            .codec
            .open_json_with::<BTreeMap<String, Value>>(state, bound.as_bytes())
    };
    let state = sealed("tools/call\ngreet\n{}");
    assert_eq!(open(&state, "tools/call\ngreet\n{}").unwrap(), answers);
    assert!(open(&format!("{state}-TAMPERED"), "tools/call\ngreet\n{}").is_err());
    assert!(open(&state, "tools/call\ndelete\n{}").is_err());
    // Another server's key (a replica not given the same key) can't open it either.
    let other = RequestStates::random();
    assert!(other
        .codec
        .open_json_with::<BTreeMap<String, Value>>(&state, b"tools/call\ngreet\n{}")
        .is_err());
    assert!(RequestStates::with_key(b"short".to_vec()).is_err());
}

#[tokio::test]
async fn a_question_without_an_answer_yields_once_then_waits_for_the_next_round() {
    let mut asked = pending("user_name".to_owned());
    let waker = futures_util::task::noop_waker();
    let mut cx = std::task::Context::from_waker(&waker);
    assert!(asked.as_mut().poll(&mut cx).is_pending());
    match asked.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(Err(error)) => {
            assert_eq!(error.downcast::<InputPending>().unwrap().key, "user_name");
        }
        _ => panic!("the second poll ends the question"),
    }
}

#[test]
fn a_refused_capability_is_named_as_the_client_would_declare_it() {
    let wire = |capability: &str| serde_json::to_value(required(capability)).unwrap();
    assert_eq!(wire("sampling"), json!({"sampling": {}}));
    assert_eq!(wire("sampling.tools"), json!({"sampling": {"tools": {}}}));
    assert_eq!(
        wire("sampling.context"),
        json!({"sampling": {"context": {}}})
    );
    assert_eq!(wire("elicitation"), json!({"elicitation": {"form": {}}}));
    assert_eq!(wire("elicitation.url"), json!({"elicitation": {"url": {}}}));
    assert_eq!(wire("roots"), json!({"roots": {}}));
}
