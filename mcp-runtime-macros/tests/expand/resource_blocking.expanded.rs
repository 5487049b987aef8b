/// The configuration, read from disk.
fn config() -> std::io::Result<String> {
    std::fs::read_to_string("/etc/app.toml")
}
#[allow(non_upper_case_globals)]
const __mcp_resource_config__must_be_a_free_function_outside_any_impl_block: () = {
    const _: () = __mcp_resource_config__must_be_a_free_function_outside_any_impl_block;
    ::mcp_runtime::__private::inventory::submit! {
        ::mcp_runtime::__private::ResourceDescriptor {
            uri: "file:///etc/app.toml",
            name: "config",
            title: ::core::option::Option::None,
            description: ::core::option::Option::Some("The configuration, read from disk."),
            mime_type: ::core::option::Option::None,
            size: ::core::option::Option::None,
            annotations: ::mcp_runtime::__private::ResourceAnnotations {
                audience: &[],
                priority: ::core::option::Option::None,
                last_modified: ::core::option::Option::None,
            },
            icons: &[
                ::mcp_runtime::__private::IconDescriptor {
                    src: "https://example.com/config.svg",
                    mime_type: ::core::option::Option::Some("image/svg+xml"),
                    sizes: &[],
                    theme: ::core::option::Option::None,
                },
            ],
            params: &[],
            completions: &[],
            scopes: &[],
            invoke: |__mcp_tool_call| {
                let __mcp_run = |_: &mut ::mcp_runtime::__private::ToolCall| ::core::result::Result::Ok(
                    config,
                );
                ::mcp_runtime::__private::read_blocking(__mcp_tool_call, __mcp_run)
            },
            location: ::mcp_runtime::__private::SourceLocation {
                file: ::core::file!(),
                line: ::core::line!(),
                module_path: ::core::module_path!(),
            },
        }
    }
};
