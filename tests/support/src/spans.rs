//! A tracing subscriber that keeps every span: its name, its parent, its fields as recorded,
//! so a test can check the spans a run made (`execute_tool`, `invoke_agent`, `chat ...`): run
//! it under `tracing::subscriber::with_default(capture.clone(), ..)`, then read
//! `capture.spans()`.

use std::cell::RefCell;
use std::sync::{Arc, Mutex};

/// A span as captured.
#[derive(Clone, Debug)]
pub struct Span {
    pub name: String,
    /// The index of its parent in [`Capture::spans`]: the explicit parent, or the span entered
    /// on the thread that made it.
    pub parent: Option<usize>,
    /// Each field as recorded, in order (a field recorded twice appears twice).
    pub fields: Vec<(String, String)>,
}

impl Span {
    /// The field's last recorded value, or `""`.
    pub fn field(&self, key: &str) -> String {
        self.fields
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }
}

/// The subscriber. Clones share what they capture.
#[derive(Clone, Default)]
pub struct Capture(Arc<Mutex<Vec<Span>>>);

thread_local! {
    /// The spans entered on this thread, innermost last: a new span's contextual parent.
    static ENTERED: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

impl Capture {
    /// Every span so far, in the order they were made.
    pub fn spans(&self) -> Vec<Span> {
        self.0.lock().unwrap().clone()
    }
}

fn index(id: &tracing::span::Id) -> usize {
    id.into_u64() as usize - 1
}

struct Fields<'a>(&'a mut Vec<(String, String)>);

impl tracing::field::Visit for Fields<'_> {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.0.push((
            field.name().to_owned(),
            format!("{value:?}").trim_matches('"').to_owned(),
        ));
    }
}

impl tracing::Subscriber for Capture {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, span: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        let parent = match span.parent() {
            Some(id) => Some(index(id)),
            None if span.is_contextual() => ENTERED.with(|e| e.borrow().last().copied()),
            None => None,
        };
        let mut fields = Vec::new();
        span.record(&mut Fields(&mut fields));
        let mut spans = self.0.lock().unwrap();
        spans.push(Span {
            name: span.metadata().name().to_owned(),
            parent,
            fields,
        });
        tracing::span::Id::from_u64(spans.len() as u64)
    }
    fn record(&self, span: &tracing::span::Id, values: &tracing::span::Record<'_>) {
        let mut spans = self.0.lock().unwrap();
        values.record(&mut Fields(&mut spans[index(span)].fields));
    }
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, _: &tracing::Event<'_>) {}
    fn enter(&self, span: &tracing::span::Id) {
        ENTERED.with(|e| e.borrow_mut().push(index(span)));
    }
    fn exit(&self, _: &tracing::span::Id) {
        ENTERED.with(|e| e.borrow_mut().pop());
    }
}
