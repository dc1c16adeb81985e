//! Finding the next byte a call may start at, with `memchr`.

/// Finds the next trigger byte with `memchr`: up to three bytes in one pass, a fourth in
/// another, each remembered until the scan passes it.
pub(crate) struct Triggers<'a> {
    hay: &'a [u8],
    set: &'static [u8],
    /// The next hit of the first (up to three) bytes and of the fourth, once searched.
    main: Option<Option<usize>>,
    extra: Option<Option<usize>>,
}

impl<'a> Triggers<'a> {
    /// A finder over `hay` for the bytes in `set` (up to four).
    pub(super) fn new(set: &'static [u8], hay: &'a [u8]) -> Self {
        Triggers {
            hay,
            set,
            main: None,
            extra: None,
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
        match (main_hit, extra_hit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
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
            let mut triggers = Triggers::new(set, hay);
            let mut found = Vec::new();
            let mut pos = 0;
            while let Some(at) = triggers.next(pos) {
                found.push(at);
                pos = at + 1;
            }
            assert_eq!(found, expected);
        }
    }
}
