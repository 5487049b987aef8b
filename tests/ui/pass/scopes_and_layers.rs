//! `scopes = [...]` is recorded in the descriptor's policy, in order; each `layer = ...` adds
//! one layer (a struct's constructor, a function returning `impl Layer`), in order; a method
//! of an `#[mcp_tools]` block takes both too.

use mcp_runtime::__private::{ToolDescriptor, inventory};
use mcp_runtime::middleware::{Audit, Layer, Next, ToolRequest, from_fn};
use mcp_runtime::{mcp_tool, mcp_tools};

fn timing() -> impl Layer {
    from_fn(|call: ToolRequest, next: Next| async move {
        let started = std::time::Instant::now();
        let result = next.run(call).await;
        let _elapsed = started.elapsed();
        result
    })
}

/// Scoped and layered.
#[mcp_tool(scopes = ["notes:write", "admin"], layer = mcp_runtime::middleware::Audit::new(), layer = timing())]
async fn guarded(text: String) -> String {
    text
}

/// Neither.
#[mcp_tool]
async fn plain() {}

struct Notes;

#[mcp_tools]
impl Notes {
    /// A method tool with a scope and a layer.
    #[mcp_tool(scopes = ["notes:read"], layer = Audit::new())]
    async fn read(&self) -> String {
        String::new()
    }
}

fn descriptor(name: &str) -> &'static ToolDescriptor {
    inventory::iter::<ToolDescriptor>
        .into_iter()
        .find(|tool| tool.name == name)
        .expect("registered")
}

fn main() {
    assert_eq!(
        descriptor("guarded").policy.scopes,
        ["notes:write", "admin"]
    );
    assert_eq!(descriptor("guarded").layers.len(), 2);
    for make in descriptor("guarded").layers {
        drop(make());
    }
    assert!(descriptor("plain").policy.scopes.is_empty());
    assert!(descriptor("plain").layers.is_empty());
    assert_eq!(descriptor("read").policy.scopes, ["notes:read"]);
    assert_eq!(descriptor("read").layers.len(), 1);
}
