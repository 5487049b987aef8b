use mcp_runtime::mcp_tool;
/// Search the catalog.
async fn search(query: String) -> Vec<String> {
    vec![query]
}
#[allow(non_upper_case_globals)]
const __mcp_tool_search__needs_mcp_tools_on_its_impl_block: () = {
    const _: () = __mcp_tool_search__needs_mcp_tools_on_its_impl_block;
    #[doc(hidden)]
    #[allow(non_local_definitions)]
    #[macro_export]
    macro_rules! __mcp_tool_search__is_used_twice__rename_one_with_the_name_option {
        () => {};
    }
    ::mcp_runtime::__private::inventory::submit! {
        ::mcp_runtime::__private::ToolDescriptor {
            name: "search",
            title: ::core::option::Option::None,
            description: ::core::option::Option::Some("Search the catalog."),
            hints: ::mcp_runtime::__private::ToolHints {
                read_only: ::core::option::Option::Some(true),
                destructive: ::core::option::Option::None,
                idempotent: ::core::option::Option::None,
                open_world: ::core::option::Option::None,
            },
            icons: &[],
            tags: &[],
            ui: ::mcp_runtime::__private::ToolUi {
                resource_uri: ::core::option::Option::None,
                visibility: ::mcp_runtime::__private::Visibility::ModelAndApp,
            },
            params: &[
                ::mcp_runtime::__private::ParamDescriptor {
                    name: "query",
                    description: ::core::option::Option::Some("What to look for."),
                    required: true,
                    default: ::core::option::Option::None,
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::param_schema::<String>,
                    check: ::mcp_runtime::__private::param_check::<String>,
                    typed: ::mcp_runtime::__private::TypedParam::of::<String>(),
                },
            ],
            output_schema: ::mcp_runtime::__private::output_schema::<Vec<String>>,
            policy: ::mcp_runtime::__private::ToolPolicy {
                timeout_ms: ::core::option::Option::Some(30000u64),
                max_concurrency: ::core::option::Option::Some(4u32),
                rate: ::core::option::Option::Some(
                    ::mcp_runtime::__private::Rate::per_second(10u32),
                ),
                task: ::mcp_runtime::__private::TaskSupport::Forbidden,
                input_before_task: false,
                scopes: &[],
            },
            layers: &[],
            invoke: |__mcp_tool_call| {
                let __mcp_run = |__mcp_call: &mut ::mcp_runtime::__private::ToolCall| {
                    let __mcp_arg_0 = __mcp_call.extract::<String>("query")?;
                    ::core::result::Result::Ok(search(__mcp_arg_0))
                };
                ::mcp_runtime::__private::call_async(__mcp_tool_call, __mcp_run)
            },
            location: ::mcp_runtime::__private::SourceLocation {
                file: ::core::file!(),
                line: ::core::line!(),
                module_path: ::core::module_path!(),
            },
        }
    }
};
/// Send a message (expensive: a few an hour).
fn send(text: String) -> String {
    text
}
#[allow(non_upper_case_globals)]
const __mcp_tool_send__needs_mcp_tools_on_its_impl_block: () = {
    const _: () = __mcp_tool_send__needs_mcp_tools_on_its_impl_block;
    #[doc(hidden)]
    #[allow(non_local_definitions)]
    #[macro_export]
    macro_rules! __mcp_tool_send__is_used_twice__rename_one_with_the_name_option {
        () => {};
    }
    ::mcp_runtime::__private::inventory::submit! {
        ::mcp_runtime::__private::ToolDescriptor {
            name: "send",
            title: ::core::option::Option::None,
            description: ::core::option::Option::Some(
                "Send a message (expensive: a few an hour).",
            ),
            hints: ::mcp_runtime::__private::ToolHints {
                read_only: ::core::option::Option::None,
                destructive: ::core::option::Option::None,
                idempotent: ::core::option::Option::None,
                open_world: ::core::option::Option::None,
            },
            icons: &[],
            tags: &[],
            ui: ::mcp_runtime::__private::ToolUi {
                resource_uri: ::core::option::Option::None,
                visibility: ::mcp_runtime::__private::Visibility::ModelAndApp,
            },
            params: &[
                ::mcp_runtime::__private::ParamDescriptor {
                    name: "text",
                    description: ::core::option::Option::Some("The message."),
                    required: true,
                    default: ::core::option::Option::None,
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::param_schema::<String>,
                    check: ::mcp_runtime::__private::param_check::<String>,
                    typed: ::mcp_runtime::__private::TypedParam::of::<String>(),
                },
            ],
            output_schema: ::mcp_runtime::__private::output_schema::<String>,
            policy: ::mcp_runtime::__private::ToolPolicy {
                timeout_ms: ::core::option::Option::None,
                max_concurrency: ::core::option::Option::None,
                rate: ::core::option::Option::Some(
                    ::mcp_runtime::__private::Rate::per_hour(5u32),
                ),
                task: ::mcp_runtime::__private::TaskSupport::Forbidden,
                input_before_task: false,
                scopes: &[],
            },
            layers: &[],
            invoke: |__mcp_tool_call| {
                let __mcp_run = |__mcp_call: &mut ::mcp_runtime::__private::ToolCall| {
                    let __mcp_arg_0 = __mcp_call.extract::<String>("text")?;
                    ::core::result::Result::Ok(move || send(__mcp_arg_0))
                };
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
fn main() {}
