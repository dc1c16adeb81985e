//! The workspace the server serves: small files the good calls read and find, a CSV file, a
//! small tree, and `big/`, many files for the slow searches.

use std::fs;
use std::io;
use std::path::Path;

/// `docs/f{k}.txt` for k below this.
pub const DOCS: usize = 50;
/// Data rows in `data.csv`.
pub const CSV_ROWS: usize = 500;

/// Writes the workspace into `root`, with `big` files under `big/`.
pub fn write(root: &Path, big: usize) -> io::Result<()> {
    fs::create_dir_all(root.join("docs"))?;
    for k in 0..DOCS {
        let mut text = format!("file {k}: a small document\nneedle-{k}- is here\n");
        for line in 0..40 {
            text.push_str(&format!("line {line} of file {k}, with nothing to find\n"));
        }
        fs::write(root.join(format!("docs/f{k}.txt")), text)?;
    }

    let mut csv = String::from("id,value,when,label\n");
    for row in 0..CSV_ROWS {
        csv.push_str(&format!(
            "{row},{}.{},2024-05-{:02}T10:{:02}:00Z,item {}\n",
            row * 7 % 1000,
            row % 10,
            1 + row % 28,
            row % 60,
            row % 13
        ));
    }
    fs::write(root.join("data.csv"), csv)?;

    fs::create_dir_all(root.join("tree/a/b"))?;
    fs::create_dir_all(root.join("tree/c"))?;
    fs::write(root.join("tree/a/b/leaf.txt"), "leaf\n")?;
    fs::write(root.join("tree/a/one.txt"), "one\n")?;
    fs::write(root.join("tree/c/two.txt"), "two\n")?;

    // 2 KiB or so each, in folders of 100.
    let paragraph =
        "The quick brown fox jumps over the lazy dog; nothing here is searched for.\n".repeat(28);
    for n in 0..big {
        let dir = root.join(format!("big/d{}", n / 100));
        if n % 100 == 0 {
            fs::create_dir_all(&dir)?;
        }
        fs::write(dir.join(format!("f{n}.txt")), &paragraph)?;
    }
    Ok(())
}
