//! Finding the next place a call may start: one search over every trigger of a format, the
//! bytes its calls start with and its words, built once per format (under
//! [`Auto`](super::TextFormat::Auto), once over all 46 formats' triggers).

use aho_corasick::packed::{self, Searcher};
use aho_corasick::Span;

use super::scan::surely_prose;

/// How many bytes after the place asked from the Teddy search looks at one by one first:
/// in markdown the next stop is rarely further, and starting Teddy costs more than this.
const NEAR: usize = 32;

/// Every trigger of one format, found in one pass over the text.
///
/// The pass stops at a set of bytes: the trigger bytes, and for a word (a marker whose first
/// byte is too common in prose to stop at, like a letter) that holds none, its last byte.
/// A word is found from its *anchor*, the first of its bytes the pass stops at: no byte of
/// the word before its anchor stops the pass, so a word is found before any trigger after its
/// start. Up to three stop bytes are searched with `memchr`; more (six under `Auto`) with one
/// Teddy searcher (`aho-corasick`'s packed SIMD search), built once.
#[derive(Debug)]
pub(crate) struct Automaton {
    /// The bytes the pass stops at.
    stop: [bool; 256],
    /// The bytes a call can start at.
    trigger: [bool; 256],
    /// The bytes some word is anchored at.
    anchor: [bool; 256],
    /// Each word, with the offset of its anchor.
    words: Vec<(&'static [u8], usize)>,
    /// The length of the longest word.
    longest: usize,
    /// Whether the prose the scan would surely read at a trigger byte is passed
    /// ([`surely_prose`]): handing each to the scan costs more than the search between them.
    passes_prose: bool,
    search: Search,
}

/// The vector search for the stop bytes.
#[derive(Debug)]
enum Search {
    One(u8),
    Two(u8, u8),
    Three(u8, u8, u8),
    Packed(Searcher),
    /// Where no vector search builds: a byte at a time.
    Table,
}

impl Automaton {
    /// The search for the bytes in `triggers` and the words in `words`.
    pub(crate) fn new(triggers: &[u8], words: &[&'static [u8]]) -> Automaton {
        let mut stop = [false; 256];
        let mut trigger = [false; 256];
        for &byte in triggers {
            stop[usize::from(byte)] = true;
            trigger[usize::from(byte)] = true;
        }
        let words: Vec<&'static [u8]> = words.iter().copied().filter(|w| !w.is_empty()).collect();
        for word in &words {
            if !word.iter().any(|&b| trigger[usize::from(b)]) {
                if let Some(&last) = word.last() {
                    stop[usize::from(last)] = true;
                }
            }
        }
        let words: Vec<(&'static [u8], usize)> = words
            .into_iter()
            .map(|word| {
                let anchor = word
                    .iter()
                    .position(|&b| stop[usize::from(b)])
                    .unwrap_or(word.len() - 1);
                (word, anchor)
            })
            .collect();
        let mut anchor = [false; 256];
        for (word, at) in &words {
            anchor[usize::from(word[*at])] = true;
        }
        let longest = words.iter().map(|(word, _)| word.len()).max().unwrap_or(0);
        let bytes: Vec<u8> = (0..=255u8).filter(|&b| stop[usize::from(b)]).collect();
        let search = match *bytes.as_slice() {
            [a] => Search::One(a),
            [a, b] => Search::Two(a, b),
            [a, b, c] => Search::Three(a, b, c),
            [] => Search::Table,
            _ => {
                let mut builder = packed::Config::new()
                    .match_kind(packed::MatchKind::LeftmostFirst)
                    .builder();
                for byte in &bytes {
                    builder.add([*byte]);
                }
                builder.build().map_or(Search::Table, Search::Packed)
            }
        };
        Automaton {
            stop,
            trigger,
            anchor,
            words,
            longest,
            passes_prose: false,
            search,
        }
    }

    /// The same search, passing the prose the scan would surely read at a trigger byte (the
    /// byte, or inline code): what the scan finds is unchanged, it is only asked less.
    pub(crate) fn passing_prose(mut self) -> Automaton {
        self.passes_prose = true;
        self
    }

    /// How many bytes of prose the scan would surely read at the trigger byte at `pos`;
    /// `None`: it must be asked.
    #[inline]
    fn passes(&self, hay: &[u8], pos: usize) -> Option<usize> {
        if self.passes_prose {
            surely_prose(hay, pos)
        } else {
            None
        }
    }

    /// The first stop byte in `hay[from..]`.
    fn stop_at(&self, hay: &[u8], from: usize) -> Option<usize> {
        let rest = &hay[from..];
        let found = match &self.search {
            Search::One(a) => memchr::memchr(*a, rest),
            Search::Two(a, b) => memchr::memchr2(*a, *b, rest),
            Search::Three(a, b, c) => memchr::memchr3(*a, *b, *c, rest),
            Search::Packed(searcher) => {
                // Dense text (markdown) has its next stop a few bytes on: a table lookup a
                // byte finds it for less than starting the vector search.
                let near = (from + NEAR).min(hay.len());
                if let Some(i) = hay[from..near]
                    .iter()
                    .position(|&b| self.stop[usize::from(b)])
                {
                    return Some(from + i);
                }
                return searcher
                    .find_in(hay, Span::from(near..hay.len()))
                    .map(|found| found.start());
            }
            Search::Table => rest.iter().position(|&b| self.stop[usize::from(b)]),
        };
        found.map(|i| from + i)
    }

    /// The first trigger byte or word start at or after `from`, or where `hay` ends inside
    /// the beginning of a word (the rest may come in the next piece of a stream).
    fn find(&self, hay: &[u8], from: usize) -> Option<usize> {
        let mut at = from;
        let found = loop {
            let Some(pos) = self.stop_at(hay, at) else {
                break None;
            };
            let byte = usize::from(hay[pos]);
            // The scan goes on after such prose as if asked; no word holds a backtick, so
            // none starts inside inline code and ends after it.
            let passed = if self.trigger[byte] {
                self.passes(hay, pos)
            } else {
                None
            };
            if !self.anchor[byte] {
                if !self.trigger[byte] {
                    at = pos + 1;
                    continue;
                }
                match passed {
                    Some(n) => at = pos + n,
                    None => break Some(pos),
                }
                continue;
            }
            let mut best = (self.trigger[byte] && passed.is_none()).then_some(pos);
            for &(word, anchor) in &self.words {
                // The first byte before the whole word: most anchors start no word.
                if usize::from(word[anchor]) == byte
                    && pos >= from + anchor
                    && hay[pos - anchor] == word[0]
                    && hay[pos - anchor..].starts_with(word)
                {
                    best = nearer(best, Some(pos - anchor));
                }
            }
            if best.is_some() {
                break best;
            }
            at = pos + passed.unwrap_or(1);
        };
        if self.words.is_empty() || found.is_some_and(|at| at + self.longest <= hay.len()) {
            return found;
        }
        nearer(found, self.begun(hay, from))
    }

    /// Where `hay` ends inside the beginning of a word, at or after `from`.
    fn begun(&self, hay: &[u8], from: usize) -> Option<usize> {
        self.words
            .iter()
            .filter_map(|(word, _)| {
                let longest = (word.len() - 1).min(hay.len() - from);
                (1..=longest)
                    .rev()
                    .find(|&k| hay.ends_with(&word[..k]))
                    .map(|k| hay.len() - k)
            })
            .min()
    }
}

/// Finds the next trigger in one text: each hit is remembered until the scan passes it.
pub(crate) struct Triggers<'a> {
    hay: &'a [u8],
    automaton: &'a Automaton,
    /// The last search: where it started, and what it found.
    last: Option<(usize, Option<usize>)>,
}

impl<'a> Triggers<'a> {
    /// A finder over `hay` for the triggers of `automaton`.
    pub(super) fn new(automaton: &'a Automaton, hay: &'a [u8]) -> Self {
        Triggers {
            hay,
            automaton,
            last: None,
        }
    }

    /// The first trigger at or after `from`.
    pub(super) fn next(&mut self, from: usize) -> Option<usize> {
        if from >= self.hay.len() {
            return None;
        }
        if let Some((asked, hit)) = self.last {
            // Nothing lies between where the last search started and its hit.
            if asked <= from && hit.is_none_or(|hit| hit >= from) {
                return hit;
            }
        }
        let hit = self.automaton.find(self.hay, from);
        self.last = Some((from, hit));
        hit
    }
}

/// The nearer of two hits.
fn nearer(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(automaton: &Automaton, hay: &[u8]) -> Vec<usize> {
        let mut triggers = Triggers::new(automaton, hay);
        let mut found = Vec::new();
        let mut pos = 0;
        while let Some(at) = triggers.next(pos) {
            found.push(at);
            pos = at + 1;
        }
        found
    }

    /// What the search must find, one position at a time.
    fn expected(triggers: &[u8], words: &[&[u8]], hay: &[u8]) -> Vec<usize> {
        (0..hay.len())
            .filter(|&i| {
                triggers.contains(&hay[i])
                    || words.iter().any(|word| {
                        hay[i..].starts_with(word)
                            || (hay.len() - i < word.len() && word.starts_with(&hay[i..]))
                    })
            })
            .collect()
    }

    #[test]
    fn every_trigger_is_found_in_order() {
        let hay = b"ab<c{d`e[f{{";
        for (set, expected) in [
            (&b"<[`{"[..], &[2, 4, 6, 8, 10, 11][..]),
            (b"{", &[4, 10, 11]),
            (b"<`", &[2, 6]),
        ] {
            assert_eq!(all(&Automaton::new(set, &[]), hay), expected);
        }
    }

    #[test]
    fn a_word_is_found_whole_and_begun_at_the_end() {
        let hay = b"a functools[ b <functools[ c >>x func";
        let automaton = Automaton::new(b"<", &[b"functools[", b">>>"]);
        assert_eq!(all(&automaton, hay), [2, 15, 16, 33]);
    }

    #[test]
    fn passing_prose_leaves_out_only_what_the_scan_reads_as_prose() {
        let words: [&'static [u8]; 2] = [b"Action:", b"functools["];
        let texts: [&[u8]; 4] = [
            b"See [the docs](https://x.com/a_(b)) and `code`, {a, b} with x < y. Action: no",
            b"[f(a=1)] {\"name\": 1} <tool_call> functools[ [TOOL_CALLS] { } [x #",
            b"a long stretch of prose, then [link] and {a} and x < y at the end: [f",
            b"",
        ];
        let every = Automaton::new(b"<[`{", &words);
        let passing = Automaton::new(b"<[`{", &words).passing_prose();
        for text in texts {
            // What the scan is asked about when it goes on after what it reads as prose.
            let mut asked = Vec::new();
            let mut next = 0;
            for at in all(&every, text) {
                if at < next {
                    continue;
                }
                next = at + surely_prose(text, at).unwrap_or(1);
                if surely_prose(text, at).is_none() {
                    asked.push(at);
                }
            }
            assert_eq!(
                all(&passing, text),
                asked,
                "{:?}",
                std::str::from_utf8(text)
            );
        }
        assert_eq!(all(&passing, texts[0]), [67]);
    }

    #[test]
    fn one_pass_finds_what_each_trigger_alone_would() {
        let words: [&'static [u8]; 4] = [
            b"Action:",
            b">>>",
            b"]<]minimax[>[<tool_call>",
            b"functools[",
        ];
        let texts: [&[u8]; 8] = [
            b"See [the docs](https://x.com/a_(b)) and `code`, {a, b} with x < y. Action: no",
            b"a]<]minimax[>[<tool_call>b ]<]minimax[> >>>> >> >>>x Action Action:: functools[[",
            b"functoolsfunctools[ ]]<]minimax[>[<tool_call> :: :Action:Action: `{<[",
            b"a long stretch of prose with nothing in it at all, then at the end ]<]mini",
            b"a long stretch of prose with nothing in it at all, then at the end Actio",
            b"a long stretch of prose with nothing in it at all, then at the end >>",
            b"a long stretch of prose with nothing in it at all, then at the end function",
            b"",
        ];
        for (triggers, words) in [
            (&b"<[`{"[..], &words[..]),
            (b"<`", &words[..1]),
            (b"<`", &words[1..2]),
            (b"<`", &words[2..3]),
            (b"<`", &words[3..]),
        ] {
            let automaton = Automaton::new(triggers, words);
            for text in texts {
                let long = [&b"x".repeat(100)[..], text].concat();
                for hay in [text, &long[..]] {
                    assert_eq!(
                        all(&automaton, hay),
                        expected(triggers, words, hay),
                        "{:?} in {:?}",
                        std::str::from_utf8(triggers),
                        std::str::from_utf8(hay)
                    );
                }
            }
        }
    }
}
