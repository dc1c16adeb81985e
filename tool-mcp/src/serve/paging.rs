//! Cursors for the `*/list` requests: a cursor is the index of the page's first item.

use rmcp::model::ErrorData;

/// The page of `items` starting at `cursor`, at most `size` long, and the next page's cursor.
///
/// # Errors
///
/// `-32602` for a cursor this server didn't give.
pub(crate) fn page<T: Clone>(
    items: &[T],
    cursor: Option<&str>,
    size: usize,
) -> Result<(Vec<T>, Option<String>), ErrorData> {
    let start = match cursor {
        None => 0,
        Some(cursor) => cursor
            .parse::<usize>()
            .ok()
            .filter(|&at| at <= items.len())
            .ok_or_else(|| ErrorData::invalid_params(format!("invalid cursor {cursor:?}"), None))?,
    };
    // Saturating: `page_size(usize::MAX)` means "one page".
    let end = start.saturating_add(size).min(items.len());
    let next = (end < items.len()).then(|| end.to_string());
    Ok((items[start..end].to_vec(), next))
}

#[cfg(test)]
mod tests {
    use super::page;

    #[test]
    fn pages_follow_their_cursors_to_the_end() {
        let items: Vec<u32> = (0..5).collect();
        let (first, next) = page(&items, None, 2).unwrap();
        assert_eq!((first, next.as_deref()), (vec![0, 1], Some("2")));
        let (last, next) = page(&items, Some("4"), 2).unwrap();
        assert_eq!((last, next), (vec![4], None));
        assert_eq!(page(&items, None, usize::MAX).unwrap().0.len(), 5);
        assert!(page(&items, Some("6"), 2).is_err());
        assert!(page(&items, Some("x"), 2).is_err());
        assert!(page::<u32>(&[], None, 2).unwrap().0.is_empty());
    }
}
