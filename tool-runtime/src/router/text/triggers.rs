//! Finding the next byte a call may start at, with `memchr`.

/// Finds the next trigger byte with `memchr`: up to three bytes in one pass, a fourth in
/// another, and up to four words (markers whose first byte is too common in prose to stop at,
/// like a letter) with `memmem`, each remembered until the scan passes it.
pub(crate) struct Triggers<'a> {
    hay: &'a [u8],
    set: &'static [u8],
    words: &'static [&'static [u8]],
    /// The next hit of the first (up to three) bytes, of the fourth and of each word, once
    /// searched.
    main: Option<Option<usize>>,
    extra: Option<Option<usize>>,
    word_hits: [Option<Option<usize>>; 4],
    /// The nearest of the words' hits, so that the scan, which asks at every trigger byte,
    /// looks at the words only when it has passed that one.
    word_min: Option<Option<usize>>,
}

impl<'a> Triggers<'a> {
    /// A finder over `hay` for the bytes in `set` (up to four) and `words` (up to four): where
    /// a word starts, or where the text ends inside its beginning (the rest may come in the
    /// next piece of a stream).
    pub(super) fn new(set: &'static [u8], words: &'static [&'static [u8]], hay: &'a [u8]) -> Self {
        Triggers {
            hay,
            set,
            words: &words[..words.len().min(4)],
            main: None,
            extra: None,
            word_hits: [None; 4],
            word_min: None,
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
        let words = self.words;
        let word_hits = &mut self.word_hits;
        let word_hit = cached(&mut self.word_min, from, |from| {
            let mut nearest = None;
            for (&word, slot) in words.iter().zip(word_hits.iter_mut()) {
                nearest = nearer(nearest, cached(slot, from, |from| word_at(hay, from, word)));
            }
            nearest
        });
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

/// The first place at or after `from` where `word` starts, or where `hay` ends inside it.
fn word_at(hay: &[u8], from: usize, word: &[u8]) -> Option<usize> {
    if let Some(n) = memchr::memmem::find(&hay[from..], word) {
        return Some(from + n);
    }
    let longest = (word.len() - 1).min(hay.len() - from);
    (1..=longest)
        .rev()
        .find(|&k| hay.ends_with(&word[..k]))
        .map(|k| hay.len() - k)
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
            let mut triggers = Triggers::new(set, &[], hay);
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
        let mut triggers = Triggers::new(b"<", &[b"functools[", b">>>"], hay);
        let mut found = Vec::new();
        let mut pos = 0;
        while let Some(at) = triggers.next(pos) {
            found.push(at);
            pos = at + 1;
        }
        assert_eq!(found, [2, 15, 16, 33]);
    }
}
