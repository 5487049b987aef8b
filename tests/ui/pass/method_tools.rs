//! `#[mcp_tools]`: the methods of an impl block marked `#[mcp_tool]` are tools, with every
//! option, extractor and parameter doc a free function has; `&self` is the server's
//! `State<Self>`. Read back from the registry, and the methods called as written.

#![allow(dead_code)]

use std::sync::Mutex;

use mcp_runtime::__private::{ToolDescriptor, ToolHints, inventory};
use mcp_runtime::{Context, Json, LogLevel, State, ToolError, mcp_tool, mcp_tools};

struct Notes {
    db: Mutex<Vec<String>>,
}

struct Clock;

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Page {
    notes: Vec<String>,
}

#[mcp_tools]
impl Notes {
    /// The most notes a page holds.
    const PAGE: usize = 20;

    /// Add a note.
    #[mcp_tool(destructive = false)]
    async fn add(
        &self,
        /// The text.
        text: String,
    ) -> usize {
        let mut db = self.db.lock().unwrap();
        db.push(text);
        db.len()
    }

    /// Count notes.
    #[mcp_tool(read_only)]
    fn count(&self) -> usize {
        self.db.lock().unwrap().len()
    }

    /// A method without self works too.
    #[mcp_tool]
    async fn version() -> &'static str {
        "1"
    }

    /// A plain `fn` without self.
    #[mcp_tool(idempotent)]
    fn reset_hint() {}

    /// List notes.
    ///
    /// # Arguments
    ///
    /// * `limit` - At most this many.
    #[mcp_tool(
        read_only,
        name = "notes.list",
        title = "List notes",
        tags = ["notes"],
        timeout = "5s",
        max_concurrency = 2,
        rate = "10/s",
    )]
    async fn list(
        self: &Self,
        #[mcp(default = Self::PAGE)] limit: usize,
        /// Only notes that contain this.
        #[mcp(rename = "filter")]
        _contains: Option<String>,
        ctx: Context,
        clock: State<Clock>,
    ) -> Result<Json<Page>, ToolError> {
        let _ = &*clock;
        ctx.log(LogLevel::Info, "listing");
        let notes = self.db.lock().unwrap().iter().take(limit).cloned().collect();
        Ok(Json(Page { notes }))
    }

    /// Blocking, with arguments and a context.
    #[mcp_tool]
    fn search(&self, query: String, ctx: Context) -> Json<Vec<String>> {
        let _ = ctx.is_cancelled();
        Json(self.matching(&query))
    }

    /// Compiled out: neither the method nor its registration exists.
    #[cfg(any())]
    #[mcp_tool]
    fn missing(&self) -> NoSuchType {}

    /// Not a tool: left alone.
    fn matching(&self, query: &str) -> Vec<String> {
        self.db.lock().unwrap().iter().filter(|note| note.contains(query)).cloned().collect()
    }
}

// A second block of the same type.
#[mcp_tools]
impl Notes {
    /// From another block.
    #[mcp_runtime::mcp_tool]
    fn first(&self) -> String {
        self.db.lock().unwrap().first().cloned().unwrap_or_default()
    }
}

/// A type whose path has generic arguments.
struct Store<T>(T);

#[mcp_tools]
impl Store<u32> {
    /// Reads the store.
    #[mcp_tool]
    fn value(&self) -> u32 {
        self.0
    }
}

fn tool(name: &str) -> &'static ToolDescriptor {
    inventory::iter::<ToolDescriptor>
        .into_iter()
        .find(|tool| tool.name == name)
        .unwrap_or_else(|| panic!("no tool named {name}"))
}

fn names(tool: &ToolDescriptor) -> Vec<&'static str> {
    tool.params.iter().map(|param| param.name).collect()
}

#[tokio::main]
async fn main() {
    struct Timer;

    #[mcp_tools]
    impl Timer {
        /// In a function body.
        #[mcp_tool]
        fn now(&self) -> u64 {
            0
        }
    }

    let add = tool("add");
    assert_eq!(add.description, Some("Add a note."));
    assert_eq!(add.hints, ToolHints { destructive: Some(false), ..ToolHints::default() });
    // `&self` is a `State<Notes>` named `self`; then the arguments.
    assert_eq!(names(add), ["self", "text"]);
    assert_eq!(add.params[1].description, Some("The text."));
    assert_eq!(add.location.line, 29);
    assert!(add.location.file.ends_with("method_tools.rs"));

    assert_eq!(names(tool("count")), ["self"]);
    assert!(tool("version").params.is_empty());
    assert_eq!(tool("reset_hint").hints.idempotent, Some(true));

    let list = tool("notes.list");
    assert_eq!(list.title, Some("List notes"));
    assert_eq!(list.tags, ["notes"]);
    assert_eq!(list.description, Some("List notes."));
    assert_eq!(list.policy.timeout_ms, Some(5_000));
    assert_eq!(list.policy.max_concurrency, Some(2));
    assert_eq!(names(list), ["self", "limit", "filter", "ctx", "clock"]);
    assert_eq!(list.params[1].description, Some("At most this many."));
    assert!(!list.params[1].required);
    assert_eq!(list.params[1].default.map(|default| default()), Some(serde_json::json!(20)));
    assert_eq!(list.params[2].description, Some("Only notes that contain this."));
    assert!(!list.params[2].required);

    assert_eq!(names(tool("search")), ["self", "query", "ctx"]);
    assert_eq!(names(tool("first")), ["self"]);
    assert_eq!(names(tool("value")), ["self"]);
    assert_eq!(names(tool("now")), ["self"]);
    assert!(!inventory::iter::<ToolDescriptor>.into_iter().any(|tool| tool.name == "missing"));

    // The methods stay as written.
    let notes = Notes { db: Mutex::new(Vec::new()) };
    assert_eq!(notes.add("one".into()).await, 1);
    assert_eq!(notes.count(), 1);
    assert_eq!(Notes::version().await, "1");
    Notes::reset_hint();
    assert_eq!(notes.matching("on"), ["one"]);
    assert_eq!(notes.first(), "one");
    assert_eq!(Store(7).value(), 7);
    assert_eq!(Timer.now(), 0);
}
