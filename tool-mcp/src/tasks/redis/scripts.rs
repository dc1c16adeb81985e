//! The Lua scripts that change tasks in Redis, each run atomically by Redis: one per
//! operation, every one with the shared `prelude.lua` in front.

use redis::Script;

/// The scripts, loaded once per connection (Redis caches them by hash; `EVALSHA` falls
/// back to `EVAL` after a Redis restart emptied its cache).
pub(super) struct Scripts {
    pub(super) create: Script,
    pub(super) read: Script,
    pub(super) cancel: Script,
    pub(super) answer: Script,
    pub(super) ask: Script,
    pub(super) take: Script,
    pub(super) withdraw: Script,
    pub(super) finish: Script,
    pub(super) drop: Script,
}

const PRELUDE: &str = include_str!("prelude.lua");

fn script(body: &str) -> Script {
    Script::new(&format!("{PRELUDE}\n{body}"))
}

impl Scripts {
    pub(super) fn new() -> Scripts {
        Scripts {
            create: script(include_str!("create.lua")),
            read: script(include_str!("read.lua")),
            cancel: script(include_str!("cancel.lua")),
            answer: script(include_str!("answer.lua")),
            ask: script(include_str!("ask.lua")),
            take: script(include_str!("take.lua")),
            withdraw: script(include_str!("withdraw.lua")),
            finish: script(include_str!("finish.lua")),
            drop: script(include_str!("drop.lua")),
        }
    }
}
