//! Tools written as methods of an `#[mcp_tools]` impl block: listed and called like any
//! tool, `&self` lent from the value registered with `Server::state`; without that value
//! the server refuses to start, as for a missing `State<T>`.

use std::sync::Mutex;

use mcp_runtime::testing::TestClient;
use mcp_runtime::{Server, mcp_tool, mcp_tools};
use mcp_tests::checked_client;
use serde_json::json;

struct Notes {
    db: Mutex<Vec<String>>,
}

#[mcp_tools]
impl Notes {
    /// Add a note; answers how many there are.
    #[mcp_tool(destructive = false)]
    async fn append(
        &self,
        /// The text.
        text: String,
        /// Not used yet: published as `tag`, whatever the Rust name.
        #[mcp(rename = "tag")]
        _tag: Option<String>,
    ) -> usize {
        let mut db = self.db.lock().unwrap();
        db.push(text);
        db.len()
    }

    /// Count the notes.
    #[mcp_tool(read_only)]
    fn count(&self) -> usize {
        self.db.lock().unwrap().len()
    }

    /// The notes' format, from a method without `self`.
    #[mcp_tool(read_only)]
    async fn format_version() -> &'static str {
        "1"
    }
}

fn notes() -> Notes {
    Notes {
        db: Mutex::new(vec!["first".to_owned()]),
    }
}

#[tokio::test]
async fn methods_are_listed_and_called_on_the_registered_value() {
    let server = Server::new("notes", "1.0.0").state(notes());
    let client = checked_client("2025-11-25").connect(server).await.unwrap();
    let tools = client.list_tools().await.unwrap();
    let append = tools.iter().find(|tool| tool.name == "append").unwrap();
    // `&self` is supplied by the server: the schema holds the arguments only.
    assert_eq!(
        append.input_schema["properties"],
        json!({
            "text": { "type": "string", "description": "The text." },
            "tag": { "type": "string", "description": "Not used yet: published as `tag`, whatever the Rust name." },
        })
    );
    assert_eq!(append.input_schema["required"], json!(["text"]));
    let count = tools.iter().find(|tool| tool.name == "count").unwrap();
    assert_eq!(count.input_schema["properties"], json!({}));
    assert_eq!(count.hint("readOnlyHint"), Some(true));
    assert!(tools.iter().any(|tool| tool.name == "format_version"));

    // The calls share the one value the server was given.
    let appended = client
        .call_tool("append", json!({ "text": "second", "tag": "work" }))
        .await
        .unwrap();
    assert_eq!(appended.text(), "2");
    // The Rust name is not the argument's name.
    let misnamed = client
        .call_tool("append", json!({ "text": "third", "_tag": "work" }))
        .await
        .unwrap();
    assert!(misnamed.is_error);
    let counted = client.call_tool("count", json!({})).await.unwrap();
    assert_eq!(counted.text(), "2");
    let version = client.call_tool("format_version", json!({})).await.unwrap();
    assert_eq!(version.text(), "1");
    let bad = client
        .call_tool("append", json!({ "text": 5 }))
        .await
        .unwrap();
    assert!(bad.is_error);
    client.close().await.unwrap();
}

#[tokio::test]
async fn without_the_value_the_server_refuses_to_start() {
    let Err(error) = TestClient::connect(Server::new("notes", "1.0.0")).await else {
        panic!("a server without `.state(Notes)` started");
    };
    let message = error.to_string();
    // Named at the method's own `#[mcp_tool]`, not at the impl block.
    assert!(
        message.contains("tool `append` (defined at tests/tests/method_tools.rs:19 "),
        "{message}"
    );
    assert!(message.contains("parameter `self`"), "{message}");
    assert!(
        message.contains("it is a method of `method_tools::Notes`, and no `method_tools::Notes` was registered to lend its `&self`: add `.state(value)` to the `Server` builder"),
        "{message}"
    );
    // The method never wrote `State<…>`: the message names the type its `&self` is.
    assert!(!message.contains("State<"), "{message}");
}
