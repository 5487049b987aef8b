//! The read-only file server: reads and lists inside its root, refuses every way out.

use std::path::Path;

use mcp_tests::{StdioClient, first_text};
use serde_json::{Value, json};

struct Served {
    root: tempdir::Dir,
    client: StdioClient,
}

mod tempdir {
    use std::path::{Path, PathBuf};

    /// A directory removed when dropped.
    pub struct Dir(PathBuf);

    impl Dir {
        pub fn new(label: &str) -> Dir {
            let path =
                std::env::temp_dir().join(format!("mcp-files-{label}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&path);
            std::fs::create_dir_all(&path).unwrap();
            Dir(path)
        }

        pub fn path(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn serve(label: &str) -> Served {
    let outside = tempdir::Dir::new(&format!("{label}-outside"));
    std::fs::write(outside.path().join("secret.txt"), "top secret").unwrap();
    let root = tempdir::Dir::new(label);
    std::fs::write(root.path().join("hello.txt"), "hello, world\n").unwrap();
    std::fs::create_dir(root.path().join("docs")).unwrap();
    std::fs::write(root.path().join("docs/notes.md"), "# Notes\n").unwrap();
    std::fs::write(root.path().join("binary.bin"), [0xff, 0xfe, 0x00]).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        outside.path().join("secret.txt"),
        root.path().join("escape"),
    )
    .unwrap();
    // Keep the outside directory alive for the server's lifetime by leaking its guard into
    // the root's lifetime: it is removed when the process's temp dir is cleaned.
    std::mem::forget(outside);
    let mut client = StdioClient::spawn(
        env!("CARGO_BIN_EXE_files"),
        &[root.path().to_str().unwrap()],
    );
    client.initialize("2025-11-25");
    Served { root, client }
}

fn call(client: &mut StdioClient, tool: &str, arguments: Value) -> Value {
    client.request("tools/call", json!({"name": tool, "arguments": arguments}))["result"].clone()
}

#[test]
fn reads_and_lists_inside_the_root() {
    let Served { root, mut client } = serve("reads");
    assert_eq!(
        first_text(&call(
            &mut client,
            "read_file",
            json!({"path": "hello.txt"})
        )),
        "hello, world\n"
    );
    assert_eq!(
        first_text(&call(
            &mut client,
            "read_file",
            json!({"path": "docs/notes.md"})
        )),
        "# Notes\n"
    );
    assert_eq!(
        first_text(&call(
            &mut client,
            "read_file",
            json!({"path": "docs/../hello.txt"})
        )),
        "hello, world\n"
    );

    let listing = call(&mut client, "list_directory", json!({}));
    let entries = &listing["structuredContent"]["entries"];
    let names: Vec<&str> = entries
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert!(names.starts_with(&["binary.bin", "docs"]), "{listing}");
    assert_eq!(listing["structuredContent"]["directory"], ".");
    let docs = call(&mut client, "list_directory", json!({"path": "docs"}));
    assert_eq!(
        docs["structuredContent"]["entries"],
        json!([{"name": "notes.md", "kind": "file", "size": 8}])
    );
    drop(root);
}

#[test]
fn refuses_every_way_out_of_the_root() {
    let Served { root, mut client } = serve("escapes");
    let outside_secret = root.path().parent().unwrap().join("secret.txt");
    std::fs::write(&outside_secret, "also secret").ok();
    let absolute_inside = root.path().join("hello.txt");
    for path in [
        "../secret.txt",
        "docs/../../secret.txt",
        "/etc/passwd",
        "escape",
        "missing.txt",
        "docs",
        "binary.bin",
    ] {
        let result = call(&mut client, "read_file", json!({"path": path}));
        assert_eq!(result["isError"], true, "{path}: {result}");
        let text = first_text(&result);
        assert!(
            !text.contains("top secret") && !text.contains("also secret"),
            "{path}: {result}"
        );
    }
    let listed = call(&mut client, "list_directory", json!({"path": ".."}));
    assert_eq!(listed["isError"], true, "{listed}");
    // An absolute path is taken relative to the root, never as a path on the machine.
    let result = call(
        &mut client,
        "read_file",
        json!({"path": absolute_inside.to_str().unwrap()}),
    );
    assert_eq!(result["isError"], true, "{result}");
    let _ = std::fs::remove_file(outside_secret);
    assert!(Path::new(root.path()).exists());
}

#[test]
fn refuses_to_start_without_a_root() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_files"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("usage: files <ROOT>"));
}
