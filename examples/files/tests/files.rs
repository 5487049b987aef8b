//! The read-only file server: reads and lists inside its root, refuses every way out.

use std::path::Path;

use mcp_tests::{StdioClient, first_text};
use serde_json::{Value, json};

struct Served {
    root: tempdir::Dir,
    /// Where the links out of the root point; removed with the test's other directories.
    outside: tempdir::Dir,
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
    let mut client = StdioClient::spawn(
        env!("CARGO_BIN_EXE_files"),
        &[root.path().to_str().unwrap()],
    );
    client.initialize("2025-11-25");
    Served {
        root,
        outside,
        client,
    }
}

fn call(client: &mut StdioClient, tool: &str, arguments: Value) -> Value {
    client.request("tools/call", json!({"name": tool, "arguments": arguments}))["result"].clone()
}

#[test]
fn reads_and_lists_inside_the_root() {
    let Served {
        root,
        outside: _outside,
        mut client,
    } = serve("reads");
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
    let Served {
        root,
        outside: _outside,
        mut client,
    } = serve("escapes");
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

/// What `resources/read` of a path under the root answers, as text (a result or an error).
fn read_resource(client: &mut StdioClient, path: &str) -> String {
    client
        .request("resources/read", json!({"uri": format!("file:///{path}")}))
        .to_string()
}

fn complete(client: &mut StdioClient, prefix: &str) -> Value {
    client.request(
        "completion/complete",
        json!({"ref": {"type": "ref/resource", "uri": "file:///{+path}"},
            "argument": {"name": "path", "value": prefix}}),
    )["result"]["completion"]["values"]
        .clone()
}

#[cfg(unix)]
#[test]
fn symbolic_links_are_followed_only_while_they_stay_inside() {
    let Served {
        root,
        outside: _outside,
        mut client,
    } = serve("links");
    let elsewhere = tempdir::Dir::new("links-elsewhere");
    std::fs::write(elsewhere.path().join("secret.txt"), "top secret").unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), root.path().join("elsewhere")).unwrap();
    std::os::unix::fs::symlink("../hello.txt", root.path().join("docs/hello-link")).unwrap();
    std::os::unix::fs::symlink("docs", root.path().join("docs-link")).unwrap();

    // A link to a file outside (`escape`) and a link to a directory outside.
    for path in ["escape", "elsewhere/secret.txt"] {
        let result = call(&mut client, "read_file", json!({"path": path}));
        assert_eq!(result["isError"], true, "{path}: {result}");
        assert!(
            !first_text(&result).contains("top secret"),
            "{path}: {result}"
        );
        let read = read_resource(&mut client, path);
        assert!(
            read.contains("\"error\"") && !read.contains("top secret"),
            "{path}: {read}"
        );
    }
    let listed = call(&mut client, "list_directory", json!({"path": "elsewhere"}));
    assert_eq!(listed["isError"], true, "{listed}");
    assert!(!listed.to_string().contains("secret.txt"), "{listed}");
    assert_eq!(complete(&mut client, "elsewhere/"), json!([]));

    // Links that stay inside are followed, to a file and to a directory.
    assert_eq!(
        first_text(&call(
            &mut client,
            "read_file",
            json!({"path": "docs/hello-link"})
        )),
        "hello, world\n"
    );
    assert_eq!(
        first_text(&call(
            &mut client,
            "read_file",
            json!({"path": "docs-link/notes.md"})
        )),
        "# Notes\n"
    );
    let listed = call(&mut client, "list_directory", json!({"path": "docs-link"}));
    assert_eq!(
        listed["structuredContent"]["directory"], "docs-link",
        "{listed}"
    );
    assert_eq!(
        complete(&mut client, "docs-link/"),
        json!(["docs-link/hello-link", "docs-link/notes.md"])
    );
}

/// A served directory swapped, again and again, for a link to a directory outside that
/// holds a file of the same name, while the client reads that file and lists the directory
/// through the server: checked first and opened by its path later, a read would now and
/// then open the outside file. None may.
#[cfg(unix)]
#[test]
fn a_directory_swapped_for_a_link_out_while_it_is_read_never_leads_out() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    let Served {
        root,
        outside: _outside,
        mut client,
    } = serve("swaps");
    let elsewhere = tempdir::Dir::new("swaps-elsewhere");
    std::fs::write(elsewhere.path().join("notes.md"), "top secret").unwrap();
    std::fs::write(elsewhere.path().join("outside-only.txt"), "").unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = std::thread::spawn({
        let stop = Arc::clone(&stop);
        let docs = root.path().join("docs");
        let parked = root.path().join("docs-parked");
        let elsewhere = elsewhere.path().to_owned();
        move || {
            let mut swaps = 0;
            while !stop.load(Ordering::Relaxed) {
                std::fs::rename(&docs, &parked).unwrap();
                std::os::unix::fs::symlink(&elsewhere, &docs).unwrap();
                std::thread::yield_now();
                std::fs::remove_file(&docs).unwrap();
                std::fs::rename(&parked, &docs).unwrap();
                std::thread::yield_now();
                swaps += 1;
            }
            swaps
        }
    });
    let (mut inside, mut refused) = (0, 0);
    let deadline = Instant::now() + Duration::from_secs(3);
    while Instant::now() < deadline {
        let result = call(&mut client, "read_file", json!({"path": "docs/notes.md"}));
        let text = first_text(&result);
        assert!(!text.contains("top secret"), "{result}");
        if text == "# Notes\n" {
            inside += 1;
        } else {
            refused += 1;
        }
        let read = read_resource(&mut client, "docs/notes.md");
        assert!(!read.contains("top secret"), "{read}");
        let listed = call(&mut client, "list_directory", json!({"path": "docs"}));
        assert!(!listed.to_string().contains("outside-only"), "{listed}");
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swapper.join().expect("the swapper does not panic");
    eprintln!(
        "{swaps} swaps; read_file read the file inside {inside} times, failed {refused} times"
    );
    assert!(swaps > 0 && inside + refused > 0);
}
