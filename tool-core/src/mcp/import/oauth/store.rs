//! Where tokens are kept between runs ([`McpOAuth::token_folder`](super::McpOAuth::token_folder)):
//! one JSON file per server in a folder only its owner may enter (0700), each file readable
//! by its owner alone (0600), written whole to a temporary file and renamed over the old one.
//! By default nothing is kept: tokens live in the import's memory.

use rmcp::transport::auth::{AuthError, CredentialStore, StoredCredentials};
use std::path::{Path, PathBuf};

/// The tokens of one server, in one file.
pub(super) struct FileStore {
    path: PathBuf,
}

impl FileStore {
    /// The file for the server at `url` in `folder`: its name is the URL with every
    /// character but letters and digits made `_`, so a URL can't reach out of the folder.
    pub(super) fn new(folder: &Path, url: &str) -> FileStore {
        let name: String = url
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        FileStore {
            path: folder.join(format!("{name}.json")),
        }
    }

    fn failed(&self, doing: &str, error: impl std::fmt::Display) -> AuthError {
        AuthError::CredentialStoreError(format!("{doing} {}: {error}", self.path.display()))
    }
}

#[async_trait::async_trait]
impl CredentialStore for FileStore {
    async fn load(&self) -> Result<Option<StoredCredentials>, AuthError> {
        match tokio::fs::read(&self.path).await {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map(Some)
                .map_err(|e| self.failed("reading", e)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(self.failed("reading", e)),
        }
    }

    async fn save(&self, credentials: StoredCredentials) -> Result<(), AuthError> {
        let json = serde_json::to_vec(&credentials).map_err(|e| self.failed("writing", e))?;
        let path = self.path.clone();
        tokio::task::spawn_blocking(move || write_private(&path, &json))
            .await
            .map_err(|e| self.failed("writing", e))?
            .map_err(|e| self.failed("writing", e))
    }

    async fn clear(&self) -> Result<(), AuthError> {
        match tokio::fs::remove_file(&self.path).await {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(self.failed("removing", e)),
            _ => Ok(()),
        }
    }
}

/// Writes `bytes` to `path` so that no one but the owner can read it at any moment: the
/// folder is made 0700, the temporary file is created 0600, then renamed over `path`.
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let folder = path.parent().unwrap_or(Path::new("."));
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(folder)?;
    let temporary = path.with_extension("json.tmp");
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(&temporary)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    std::fs::rename(&temporary, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn tokens_are_kept_for_their_owner_alone() {
        let folder = tempfile::tempdir().unwrap();
        let store = FileStore::new(
            &folder.path().join("oauth"),
            "https://mcp.example.com/mcp?x=../..",
        );
        assert!(store.load().await.unwrap().is_none());
        let credentials =
            StoredCredentials::new("client".to_owned(), None, vec!["read".to_owned()], Some(1));
        store.save(credentials).await.unwrap();
        let loaded = store.load().await.unwrap().unwrap();
        assert_eq!(loaded.client_id, "client");
        assert_eq!(store.path.parent().unwrap(), folder.path().join("oauth"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&store.path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
            let folder_mode = std::fs::metadata(store.path.parent().unwrap())
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(folder_mode & 0o777, 0o700);
        }
        store.clear().await.unwrap();
        assert!(store.load().await.unwrap().is_none());
    }
}
