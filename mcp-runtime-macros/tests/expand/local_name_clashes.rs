/// A tool named `invoke` whose parameter has its name: the generated items and bindings
/// get names that can't shadow the user's.
#[mcp_tool]
async fn invoke(invoke: Arguments) -> String {
    invoke.0
}
