//! Checked-in JSON snapshots: [`assert_json_snapshot`], and the comparison the contract
//! snapshot of a [`TestClient`](super::TestClient) shares.

use std::path::Path;

use serde_json::Value;

/// Set to `overwrite` to write snapshots instead of comparing them.
pub const SNAPSHOTS_ENV: &str = "MCP_SNAPSHOTS";

/// Compares `value` with the JSON snapshot checked in at `path`, panicking with a line diff
/// if they differ; the panic names the line that called it. With `MCP_SNAPSHOTS=overwrite`
/// in the environment it writes the snapshot instead (creating directories as needed):
/// review the diff, then commit it.
///
/// ```
/// use mcp_runtime::testing::assert_json_snapshot;
/// use serde_json::json;
///
/// let path = std::env::temp_dir().join("mcp-runtime-doc-snapshot.json");
/// std::fs::write(&path, "{\n  \"answer\": 42\n}\n").unwrap();
/// assert_json_snapshot(&path, &json!({ "answer": 42 }));
///
/// let changed = std::panic::catch_unwind(|| assert_json_snapshot(&path, &json!({ "answer": 43 })));
/// # if std::env::var_os("MCP_SNAPSHOTS").is_none() {
/// assert!(changed.is_err());
/// # }
/// ```
#[track_caller]
pub fn assert_json_snapshot(path: impl AsRef<Path>, value: &Value) {
    // Panics here, not in a helper or a closure, so the panic names the caller's line.
    if let Err(problem) = compare_snapshot(path.as_ref(), value) {
        panic!("{problem}");
    }
}

/// Compares `value` with the snapshot at `path` (or writes it, with `MCP_SNAPSHOTS=overwrite`);
/// `Err` says what differs and what to do.
pub(super) fn compare_snapshot(path: &Path, value: &Value) -> Result<(), String> {
    let current =
        serde_json::to_string_pretty(value).expect("a JSON value always serializes") + "\n";
    if std::env::var_os(SNAPSHOTS_ENV).is_some_and(|mode| mode == "overwrite") {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|error| format!("cannot create {}: {error}", parent.display()))?;
        }
        return std::fs::write(path, &current)
            .map_err(|error| format!("cannot write {}: {error}", path.display()));
    }
    let stored = std::fs::read_to_string(path).map_err(|error| {
        format!(
            "no snapshot at {} ({error}); run with {SNAPSHOTS_ENV}=overwrite to create it, then \
             review and commit it",
            path.display()
        )
    })?;
    if stored == current {
        return Ok(());
    }
    let diff = similar::TextDiff::from_lines(&stored, &current);
    Err(format!(
        "{} is out of date (- checked in, + now); if the change is intended, rerun with \
         {SNAPSHOTS_ENV}=overwrite and review the diff:\n{}",
        path.display(),
        diff.unified_diff()
            .context_radius(3)
            .header("checked in", "now")
    ))
}
