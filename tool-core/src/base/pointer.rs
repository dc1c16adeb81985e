//! JSON pointers (RFC 6901) into a call's arguments: built segment by segment as the stages
//! walk the arguments, and shown to the model in its own terms.

/// Appends a JSON pointer segment, escaped per RFC 6901.
pub(crate) fn push_segment(pointer: &mut String, key: &str) {
    pointer.push('/');
    for c in key.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

/// `"/labels/0/name"` → `"labels[0].name"`, quoted, for prose.
pub(crate) fn display_path(pointer: &str) -> String {
    if pointer.is_empty() {
        return "the arguments".to_owned();
    }
    let mut out = String::from('"');
    for (i, segment) in pointer.split('/').skip(1).enumerate() {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        if segment.parse::<usize>().is_ok() && i > 0 {
            out.push_str(&format!("[{segment}]"));
        } else {
            if i > 0 {
                out.push('.');
            }
            out.push_str(&segment);
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_segments_are_escaped() {
        let mut p = String::new();
        push_segment(&mut p, "a/b~c");
        assert_eq!(p, "/a~1b~0c");
    }
}
