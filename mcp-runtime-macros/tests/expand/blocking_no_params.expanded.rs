/// A plain `fn` without parameters or return type: `call_blocking`, `struct Arguments {}`.
pub(crate) fn reset() {}
#[allow(non_upper_case_globals)]
const __mcp_tool_reset__needs_mcp_tools_on_its_impl_block: () = {
    const _: () = __mcp_tool_reset__needs_mcp_tools_on_its_impl_block;
    #[doc(hidden)]
    #[allow(non_local_definitions)]
    #[macro_export]
    macro_rules! __mcp_tool_reset__is_used_twice__rename_one_with_the_name_option {
        () => {};
    }
    ::mcp_runtime::__private::inventory::submit! {
        ::mcp_runtime::__private::ToolDescriptor {
            name: "reset",
            title: ::core::option::Option::None,
            description: ::core::option::Option::Some(
                "A plain `fn` without parameters or return type: `call_blocking`, `struct Arguments {}`.",
            ),
            hints: ::mcp_runtime::__private::ToolHints {
                read_only: ::core::option::Option::None,
                destructive: ::core::option::Option::Some(false),
                idempotent: ::core::option::Option::None,
                open_world: ::core::option::Option::Some(false),
            },
            icons: &[],
            tags: &[],
            ui: ::mcp_runtime::__private::ToolUi {
                resource_uri: ::core::option::Option::None,
                visibility: ::mcp_runtime::__private::Visibility::ModelAndApp,
            },
            params: &[],
            output_schema: ::mcp_runtime::__private::output_schema::<()>,
            policy: ::mcp_runtime::__private::ToolPolicy {
                timeout_ms: ::core::option::Option::None,
                max_concurrency: ::core::option::Option::None,
                rate: ::core::option::Option::None,
                task: ::mcp_runtime::__private::TaskSupport::Forbidden,
                input_before_task: false,
                scopes: &[],
            },
            layers: &[],
            invoke: |__mcp_tool_call| {
                let __mcp_run = |_: &mut ::mcp_runtime::__private::ToolCall| ::core::result::Result::Ok(
                    reset,
                );
                ::mcp_runtime::__private::call_blocking(__mcp_tool_call, __mcp_run)
            },
            location: ::mcp_runtime::__private::SourceLocation {
                file: ::core::file!(),
                line: ::core::line!(),
                module_path: ::core::module_path!(),
            },
        }
    }
};
