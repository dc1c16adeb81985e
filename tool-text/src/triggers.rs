//! Finding the next byte a call may start at, with `memchr`.

use aho_corasick::{AhoCorasick, Input, MatchKind};
use std::sync::OnceLock;

/// Finds the next trigger byte with `memchr`: up to three bytes in one pass, a fourth in
/// another; and words (markers whose first byte is too common in prose to stop at, like a
/// letter) with one Aho-Corasick search for them all. Each hit is remembered until the scan
/// passes it.
pub(crate) struct Triggers<'a> {
    hay: &'a [u8],
    set: &'static [u8],
    words: Option<&'a Words>,
    /// The next hit of the first (up to three) bytes, of the fourth, and of any word, once
    /// searched.
    main: Option<Option<usize>>,
    extra: Option<Option<usize>>,
    word: Option<Option<usize>>,
}

impl<'a> Triggers<'a> {
    /// A finder over `hay` for the bytes in `set` (up to four) and `words`: where a word
    /// starts, or where the text ends inside its beginning (the rest may come in the next
    /// piece of a stream).
    pub(super) fn new(set: &'static [u8], words: Option<&'a Words>, hay: &'a [u8]) -> Self {
        Triggers {
            hay,
            set,
            words,
            main: None,
            extra: None,
            word: None,
        }
    }

    /// The first trigger at or after `from`.
    pub(super) fn next(&mut self, from: usize) -> Option<usize> {
        if from >= self.hay.len() {
            return None;
        }
        let (main, extra) = self.set.split_at(self.set.len().min(3));
        let hay = self.hay;
        let main_hit = cached(&mut self.main, from, |from| {
            let rest = &hay[from..];
            let hit = match *main {
                [a] => memchr::memchr(a, rest),
                [a, b] => memchr::memchr2(a, b, rest),
                [a, b, c] => memchr::memchr3(a, b, c, rest),
                _ => None,
            };
            hit.map(|i| i + from)
        });
        let extra_hit = match extra.first() {
            Some(&d) => cached(&mut self.extra, from, |from| {
                memchr::memchr(d, &hay[from..]).map(|i| i + from)
            }),
            None => None,
        };
        let word_hit = match self.words {
            None => None,
            Some(words) => cached(&mut self.word, from, |from| word_at(hay, from, words)),
        };
        nearer(nearer(main_hit, extra_hit), word_hit)
    }
}

/// The nearer of two hits.
fn nearer(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Markers found as whole words, with the searcher for them all, built the first time a scan
/// needs it.
pub(crate) struct Words {
    list: Vec<&'static [u8]>,
    searcher: OnceLock<Option<AhoCorasick>>,
}

impl Words {
    /// The words in `list`.
    pub(crate) fn new(list: Vec<&'static [u8]>) -> Words {
        Words {
            list,
            searcher: OnceLock::new(),
        }
    }

    /// The leftmost of the words in `hay[from..]`.
    fn find(&self, hay: &[u8], from: usize) -> Option<usize> {
        let searcher = self.searcher.get_or_init(|| {
            // A few short literals never reach the builder's limits; were it to fail, each
            // word is searched on its own below.
            AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostFirst)
                .build(&self.list)
                .ok()
        });
        match searcher {
            Some(searcher) => searcher
                .find(Input::new(hay).span(from..hay.len()))
                .map(|found| found.start()),
            None => self
                .list
                .iter()
                .filter_map(|word| memchr::memmem::find(&hay[from..], word).map(|n| from + n))
                .min(),
        }
    }
}

/// The first place at or after `from` where one of `words` starts, or where `hay` ends inside
/// the beginning of one.
fn word_at(hay: &[u8], from: usize, words: &Words) -> Option<usize> {
    if let Some(found) = words.find(hay, from) {
        return Some(found);
    }
    words
        .list
        .iter()
        .filter_map(|word| {
            let longest = (word.len() - 1).min(hay.len() - from);
            (1..=longest)
                .rev()
                .find(|&k| hay.ends_with(&word[..k]))
                .map(|k| hay.len() - k)
        })
        .min()
}

/// A search result kept while it is still ahead of the scan.
fn cached(
    slot: &mut Option<Option<usize>>,
    from: usize,
    search: impl FnOnce(usize) -> Option<usize>,
) -> Option<usize> {
    match *slot {
        Some(Some(hit)) if hit >= from => Some(hit),
        Some(None) => None,
        _ => {
            let hit = search(from);
            *slot = Some(hit);
            hit
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_trigger_is_found_in_order() {
        let hay = b"ab<c{d`e[f{{";
        for (set, expected) in [
            (&b"<[`{"[..], &[2, 4, 6, 8, 10, 11][..]),
            (b"{", &[4, 10, 11]),
            (b"<`", &[2, 6]),
        ] {
            let mut triggers = Triggers::new(set, None, hay);
            let mut found = Vec::new();
            let mut pos = 0;
            while let Some(at) = triggers.next(pos) {
                found.push(at);
                pos = at + 1;
            }
            assert_eq!(found, expected);
        }
    }

    #[test]
    fn a_word_is_found_whole_and_begun_at_the_end() {
        let hay = b"a functools[ b <functools[ c >>x func";
        let words = Words::new(vec![b"functools[", b">>>"]);
        let mut triggers = Triggers::new(b"<", Some(&words), hay);
        let mut found = Vec::new();
        let mut pos = 0;
        while let Some(at) = triggers.next(pos) {
            found.push(at);
            pos = at + 1;
        }
        assert_eq!(found, [2, 15, 16, 33]);
    }
}
