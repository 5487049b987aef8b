use std::borrow::Cow;

use mcp_runtime::{
    Completing, Context, EmbeddedResource, Extract, Json, Rejection, State, ToolCall, ToolError,
    mcp_resource,
};

struct Db;

struct Caller(String);

impl Extract for Caller {
    fn extract(_call: &mut ToolCall, _parameter: &'static str) -> Result<Self, Rejection> {
        Ok(Caller("me".to_owned()))
    }
}

/// Every return type of `IntoResourceContents`.
#[mcp_resource(uri = "text://string")]
async fn string() -> String {
    String::new()
}

#[mcp_resource(uri = "text://str")]
fn str_slice() -> &'static str {
    ""
}

#[mcp_resource(uri = "text://cow")]
async fn cow() -> Cow<'static, str> {
    Cow::Borrowed("")
}

#[mcp_resource(uri = "blob://vec", mime_type = "image/png")]
async fn bytes() -> Vec<u8> {
    Vec::new()
}

#[mcp_resource(uri = "blob://slice")]
fn byte_slice() -> &'static [u8] {
    b""
}

#[mcp_resource(uri = "json://value")]
async fn json() -> Json<Vec<u32>> {
    Json(vec![1, 2])
}

#[mcp_resource(uri = "embedded://one")]
async fn embedded() -> EmbeddedResource {
    unimplemented!()
}

#[mcp_resource(uri = "embedded://many")]
fn embedded_many() -> Vec<EmbeddedResource> {
    Vec::new()
}

#[mcp_resource(uri = "fallible://string")]
async fn fallible() -> Result<String, ToolError> {
    Ok(String::new())
}

#[mcp_resource(uri = "fallible://io")]
fn fallible_io() -> std::io::Result<Vec<u8>> {
    Ok(Vec::new())
}

/// A fixed resource with every option and extractors.
#[mcp_resource(
    uri = "notes://today",
    name = "today-notes",
    title = "Today",
    description = "The notes of today",
    mime_type = "text/markdown",
    size = 10,
    audience = ["user"],
    priority = 1,
    last_modified = "2025-01-12T15:00:58.25+01:00",
    icon = "https://example.com/notes.png",
    icon(src = "data:image/svg+xml;base64,PHN2Zz4=", sizes = ["any"], theme = "light"),
)]
async fn today(ctx: Context, db: State<Db>, who: Caller) -> String {
    let _ = (ctx, &*db);
    who.0
}

/// A template: a simple and a reserved variable, renamed and typed parameters, extractors.
#[mcp_resource(uri = "repo://{owner}/{id}/files/{+path}")]
async fn file(
    /// The repository's owner.
    #[mcp(complete = owners)]
    owner: String,
    #[mcp(rename = "id")]
    number: u64,
    #[mcp(complete = paths)]
    path: String,
    who: Caller,
    ctx: Context,
) -> Result<Json<(String, u64, String)>, ToolError> {
    let _ = (who, ctx);
    Ok(Json((owner, number, path)))
}

/// A blocking template.
#[mcp_resource(uri = "users://{id}/profile", priority = 0.25)]
fn profile(#[mcp(complete = ids)] id: u32, db: State<Db>) -> String {
    let _ = &*db;
    id.to_string()
}

/// An `async fn(Completing)` completion of a variable of an async template.
#[mcp_resource(uri = "cities://{city}")]
async fn city(#[mcp(complete = cities)] city: String) -> String {
    city
}

fn owners(prefix: &str) -> Vec<String> {
    vec![prefix.to_owned()]
}

fn paths(prefix: &str, request: &Completing) -> Vec<&'static str> {
    let _ = (prefix, request.argument("owner"));
    vec!["src/lib.rs"]
}

async fn ids(prefix: String) -> Vec<String> {
    vec![prefix]
}

async fn cities(request: Completing) -> Vec<String> {
    vec![request.value().to_owned()]
}

fn main() {}
