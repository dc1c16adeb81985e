//! Finding the next place a call may start: one search over every trigger of a format, the
//! bytes its calls start with and its words, built once per format (under
//! [`Auto`](super::TextFormat::Auto), once over all 46 formats' triggers).

use aho_corasick::packed::{self, Searcher};
use aho_corasick::Span;

use super::prose::surely_prose;

/// How many bytes the search looks at together before it starts Teddy: in markdown the next
/// stop is rarely further, and starting Teddy costs more than a look at this many.
const BLOCK: usize = 64;

/// Every trigger of one format, found in one pass over the text.
///
/// The pass stops at a set of bytes: the trigger bytes, and for a word (a marker whose first
/// byte is too common in prose to stop at, like a letter) that holds none, its last byte.
/// A word is found from its *anchor*, the first of its bytes the pass stops at: no byte of
/// the word before its anchor stops the pass, so a word is found before any trigger after its
/// start. Up to three stop bytes are searched with `memchr`; more (six under `Auto`) 64 bytes
/// at a time, as a bitmask kept for the stops after, and past 64 bytes of prose with one
/// Teddy searcher (`aho-corasick`'s packed SIMD search), built once.
#[derive(Debug)]
pub(crate) struct Automaton {
    /// The bytes the pass stops at.
    stop: [bool; 256],
    /// The bytes a call can start at.
    trigger: [bool; 256],
    /// For each byte, the words anchored at it: a range of `words`.
    anchored: [(u8, u8); 256],
    /// Each word, with the offset of its anchor, in the order of their anchor bytes.
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
    /// Four to eight stop bytes: 64 bytes at a time, then Teddy.
    Packed(Searcher, Set),
    /// More: Teddy from each stop.
    Wide(Searcher),
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
        let mut words: Vec<(&'static [u8], usize)> = words
            .into_iter()
            .map(|word| {
                let anchor = word
                    .iter()
                    .position(|&b| stop[usize::from(b)])
                    .unwrap_or(word.len() - 1);
                (word, anchor)
            })
            .collect();
        words.sort_by_key(|&(word, at)| word[at]);
        // A format has a handful of words; more than 255 would be a list gone wrong.
        words.truncate(usize::from(u8::MAX));
        let mut anchored = [(0u8, 0u8); 256];
        for (i, (word, at)) in (0u8..).zip(&words) {
            let range = &mut anchored[usize::from(word[*at])];
            if range.0 == range.1 {
                *range = (i, i);
            }
            range.1 = i + 1;
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
                match builder.build() {
                    None => Search::Table,
                    Some(searcher) if bytes.len() <= 8 => {
                        Search::Packed(searcher, Set::new(&bytes))
                    }
                    Some(searcher) => Search::Wide(searcher),
                }
            }
        };
        Automaton {
            stop,
            trigger,
            anchored,
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

    /// The first stop byte in `hay[from..]`; `near` keeps the stops of the last 64 bytes
    /// looked at together, for the next stops.
    fn stop_at(&self, hay: &[u8], from: usize, near: &mut Near) -> Option<usize> {
        let rest = &hay[from..];
        let found = match &self.search {
            Search::One(a) => memchr::memchr(*a, rest),
            Search::Two(a, b) => memchr::memchr2(*a, *b, rest),
            Search::Three(a, b, c) => memchr::memchr3(*a, *b, *c, rest),
            Search::Packed(searcher, set) => return near.next(searcher, set, hay, from),
            Search::Wide(searcher) => {
                return searcher
                    .find_in(hay, Span::from(from..hay.len()))
                    .map(|found| found.start());
            }
            Search::Table => rest.iter().position(|&b| self.stop[usize::from(b)]),
        };
        found.map(|i| from + i)
    }

    /// The first trigger byte or word start at or after `from`, or where `hay` ends inside
    /// the beginning of a word (the rest may come in the next piece of a stream).
    fn find(&self, hay: &[u8], from: usize, near: &mut Near) -> Option<usize> {
        let mut at = from;
        let found = loop {
            let Some(pos) = self.stop_at(hay, at, near) else {
                break None;
            };
            let byte = usize::from(hay[pos]);
            let is_trigger = self.trigger[byte];
            // The scan goes on after such prose as if asked; no word holds a backtick, so
            // none starts inside inline code and ends after it.
            let passed = if is_trigger {
                self.passes(hay, pos)
            } else {
                None
            };
            // A stop byte that is neither a trigger nor an anchor (a word's last byte where
            // another of its bytes anchors it) finds nothing and moves on by one.
            let (first, end) = self.anchored[byte];
            let mut best = (is_trigger && passed.is_none()).then_some(pos);
            for &(word, anchor) in &self.words[usize::from(first)..usize::from(end)] {
                // The first byte before the whole word: most anchors start no word.
                if pos >= from + anchor
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
    near: Near,
}

impl<'a> Triggers<'a> {
    /// A finder over `hay` for the triggers of `automaton`.
    pub(super) fn new(automaton: &'a Automaton, hay: &'a [u8]) -> Self {
        Triggers {
            hay,
            automaton,
            last: None,
            near: Near::default(),
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
        let hit = self.automaton.find(self.hay, from, &mut self.near);
        self.last = Some((from, hit));
        hit
    }
}

/// The stops in the last 64 bytes looked at together: where they start, and bit `i` set for
/// a stop byte at `start + i`.
#[derive(Default)]
struct Near(Option<(usize, u64)>);

impl Near {
    /// The first of `set` in `hay[from..]`: from the bits kept where they cover `from`, else
    /// from the next 64 bytes, else (64 bytes of prose) with `searcher`.
    #[inline]
    fn next(&mut self, searcher: &Searcher, set: &Set, hay: &[u8], from: usize) -> Option<usize> {
        let mut at = from;
        if let Some((start, bits)) = self.0 {
            if (start..start + BLOCK).contains(&from) {
                let left = bits >> (from - start);
                if left != 0 {
                    return Some(from + left.trailing_zeros() as usize);
                }
                at = start + BLOCK;
            }
        }
        if at >= hay.len() {
            return None;
        }
        let bits = set.stops_in_block(hay, at);
        self.0 = Some((at, bits));
        if bits != 0 {
            return Some(at + bits.trailing_zeros() as usize);
        }
        let far = at + BLOCK;
        if far >= hay.len() {
            return None;
        }
        let found = searcher.find_in(hay, Span::from(far..hay.len()))?.start();
        self.0 = Some((found, set.stops_in_block(hay, found)));
        Some(found)
    }
}

/// The stop bytes searched 64 at a time, as many as there are: each compare costs as much
/// as the rest of the look.
#[derive(Debug)]
enum Set {
    Four([u8; 4]),
    Five([u8; 5]),
    Six([u8; 6]),
    Seven([u8; 7]),
    Eight([u8; 8]),
}

impl Set {
    /// The set of `bytes`, four to eight of them.
    fn new(bytes: &[u8]) -> Set {
        fn array<const N: usize>(bytes: &[u8]) -> [u8; N] {
            std::array::from_fn(|i| bytes[i.min(bytes.len() - 1)])
        }
        match bytes.len() {
            4 => Set::Four(array(bytes)),
            5 => Set::Five(array(bytes)),
            6 => Set::Six(array(bytes)),
            7 => Set::Seven(array(bytes)),
            _ => Set::Eight(array(bytes)),
        }
    }

    /// Bit `i` set where `hay[at + i]` is in the set, for the 64 bytes from `at` (fewer where
    /// `hay` ends).
    #[inline]
    fn stops_in_block(&self, hay: &[u8], at: usize) -> u64 {
        match self {
            Set::Four(set) => stops_in_block(set, hay, at),
            Set::Five(set) => stops_in_block(set, hay, at),
            Set::Six(set) => stops_in_block(set, hay, at),
            Set::Seven(set) => stops_in_block(set, hay, at),
            Set::Eight(set) => stops_in_block(set, hay, at),
        }
    }
}

/// Bit `i` set where `hay[at + i]` is one of `set`, for the 64 bytes from `at` (fewer where
/// `hay` ends).
#[inline]
fn stops_in_block<const N: usize>(set: &[u8; N], hay: &[u8], at: usize) -> u64 {
    let rest = &hay[at..];
    match rest.first_chunk::<BLOCK>() {
        Some(block) => block_stops(set, block),
        None => {
            // Zeros pad the block; where one is in the set, its bits are cut off.
            let mut padded = [0u8; BLOCK];
            padded[..rest.len()].copy_from_slice(rest);
            block_stops(set, &padded) & ((1u64 << rest.len()) - 1)
        }
    }
}

/// Bit `i` set where `block[i]` is one of `set`.
#[cfg(target_arch = "x86_64")]
#[inline]
fn block_stops<const N: usize>(set: &[u8; N], block: &[u8; BLOCK]) -> u64 {
    // SAFETY: `sse2_block_stops` needs SSE2 and nothing else, and every x86_64 CPU has it
    // (the target's baseline); it reads only through the references it is given.
    unsafe { sse2_block_stops(set, block) }
}

/// [`block_stops`] in SSE2: sixteen bytes compared with each of the set at once, their
/// matches taken as a bitmask (`movemask`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn sse2_block_stops<const N: usize>(set: &[u8; N], block: &[u8; BLOCK]) -> u64 {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_set_epi64x,
        _mm_setzero_si128,
    };
    let mut bits = 0u64;
    for (k, sixteen) in block.chunks_exact(16).enumerate() {
        let half = |from: usize| {
            let eight: [u8; 8] = sixteen[from..from + 8]
                .try_into()
                .expect("eight of sixteen");
            i64::from_le_bytes(eight)
        };
        let bytes = _mm_set_epi64x(half(8), half(0));
        let mut hit = _mm_setzero_si128();
        for &byte in set {
            hit = _mm_or_si128(hit, _mm_cmpeq_epi8(bytes, _mm_set1_epi8(byte as i8)));
        }
        // The sign bit of each of the 16 bytes, as the low 16 bits.
        let mask = _mm_movemask_epi8(hit) as u16;
        bits |= u64::from(mask) << (16 * k);
    }
    bits
}

/// [`block_stops`] where there is no SSE2 to ask for, in plain code the compiler turns into
/// vector compares where it can: a byte of 0 or 1 per position, then eight positions packed
/// to eight bits by one multiply. Tests compare it with the SSE2 one.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn portable_block_stops<const N: usize>(set: &[u8; N], block: &[u8; BLOCK]) -> u64 {
    let mut hits = [0u8; BLOCK];
    for (hit, &byte) in hits.iter_mut().zip(block) {
        *hit = set.iter().fold(0, |h, &s| h | u8::from(byte == s));
    }
    let mut bits = 0u64;
    for (k, eight) in hits.chunks_exact(8).enumerate() {
        let eight = u64::from_le_bytes(eight.try_into().expect("chunks of eight"));
        // Byte j (0 or 1) lands on bit 56 + j, with no carry between them.
        bits |= (eight.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
    }
    bits
}

/// Bit `i` set where `block[i]` is one of `set`.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn block_stops<const N: usize>(set: &[u8; N], block: &[u8; BLOCK]) -> u64 {
    portable_block_stops(set, block)
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
    fn the_vector_look_at_64_bytes_agrees_with_the_plain_one() {
        let set = *b"<[`{:>";
        let mut block = [0u8; BLOCK];
        // Every byte value at every position, and a few blocks dense with stops.
        for value in 0..=255u8 {
            for at in 0..BLOCK {
                block.fill(b'x');
                block[at] = value;
                block[(at * 7 + 3) % BLOCK] = b'`';
                assert_eq!(
                    block_stops(&set, &block),
                    portable_block_stops(&set, &block),
                    "{value} at {at}"
                );
            }
        }
        let dense: Vec<u8> = b"[a]<b>{c}`d`:e"
            .iter()
            .cycle()
            .take(BLOCK)
            .copied()
            .collect();
        let dense: [u8; BLOCK] = dense.try_into().expect("64");
        assert_eq!(
            block_stops(&set, &dense),
            portable_block_stops(&set, &dense)
        );
        // Seven stops in each 14 bytes: four whole runs and `[`, `<`, `>`, `{` of the fifth.
        assert_eq!(block_stops(&set, &dense).count_ones(), 4 * 7 + 4);
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
                // Around the edges of the 64 bytes looked at together, and past them (Teddy).
                let prefixed: Vec<Vec<u8>> = [0, 1, 33, 63, 64, 65, 100, 127, 128, 129, 200]
                    .into_iter()
                    .map(|n| [&b"x".repeat(n)[..], text].concat())
                    .collect();
                // Stops 60 to 70 bytes apart: each look at 64 finds one or none.
                let spread: Vec<u8> = text
                    .iter()
                    .enumerate()
                    .flat_map(|(i, &b)| {
                        let mut gap = vec![b'x'; 60 + i % 11];
                        gap.push(b);
                        gap
                    })
                    .collect();
                for hay in prefixed.iter().chain([&spread]).map(Vec::as_slice) {
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
