/// A tool with an MCP Apps view, and one only its view calls.
async fn forecast(city: String) -> String {
    city
}
#[allow(non_upper_case_globals)]
const __mcp_tool_forecast__needs_mcp_tools_on_its_impl_block: () = {
    const _: () = __mcp_tool_forecast__needs_mcp_tools_on_its_impl_block;
    #[doc(hidden)]
    #[allow(non_local_definitions)]
    #[macro_export]
    macro_rules! __mcp_tool_forecast__is_used_twice__rename_one_with_the_name_option {
        () => {};
    }
    ::mcp_runtime::__private::inventory::submit! {
        ::mcp_runtime::__private::ToolDescriptor {
            name: "forecast",
            title: ::core::option::Option::None,
            description: ::core::option::Option::Some(
                "A tool with an MCP Apps view, and one only its view calls.",
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
                resource_uri: ::core::option::Option::Some("ui://weather/view"),
                visibility: ::mcp_runtime::__private::Visibility::ModelAndApp,
            },
            params: &[
                ::mcp_runtime::__private::ParamDescriptor {
                    name: "city",
                    description: ::core::option::Option::None,
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
                rate: ::core::option::Option::None,
                task: ::mcp_runtime::__private::TaskSupport::Forbidden,
                input_before_task: false,
                scopes: &[],
            },
            layers: &[],
            invoke: |__mcp_tool_call| {
                let __mcp_run = |__mcp_call: &mut ::mcp_runtime::__private::ToolCall| {
                    let __mcp_arg_0 = __mcp_call.extract::<String>("city")?;
                    ::core::result::Result::Ok(forecast(__mcp_arg_0))
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
/// Called by the view's button.
fn refresh() -> &'static str {
    "fresh"
}
#[allow(non_upper_case_globals)]
const __mcp_tool_refresh__needs_mcp_tools_on_its_impl_block: () = {
    const _: () = __mcp_tool_refresh__needs_mcp_tools_on_its_impl_block;
    #[doc(hidden)]
    #[allow(non_local_definitions)]
    #[macro_export]
    macro_rules! __mcp_tool_refresh__is_used_twice__rename_one_with_the_name_option {
        () => {};
    }
    ::mcp_runtime::__private::inventory::submit! {
        ::mcp_runtime::__private::ToolDescriptor {
            name: "refresh",
            title: ::core::option::Option::None,
            description: ::core::option::Option::Some("Called by the view's button."),
            hints: ::mcp_runtime::__private::ToolHints {
                read_only: ::core::option::Option::None,
                destructive: ::core::option::Option::None,
                idempotent: ::core::option::Option::None,
                open_world: ::core::option::Option::None,
            },
            icons: &[],
            tags: &[],
            ui: ::mcp_runtime::__private::ToolUi {
                resource_uri: ::core::option::Option::Some("ui://weather/view"),
                visibility: ::mcp_runtime::__private::Visibility::App,
            },
            params: &[],
            output_schema: ::mcp_runtime::__private::output_schema::<&'static str>,
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
                    refresh,
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
/// The view itself.
fn view() -> &'static str {
    "<html></html>"
}
#[allow(non_upper_case_globals)]
const __mcp_resource_view__must_be_a_free_function_outside_any_impl_block: () = {
    const _: () = __mcp_resource_view__must_be_a_free_function_outside_any_impl_block;
    ::mcp_runtime::__private::inventory::submit! {
        ::mcp_runtime::__private::ResourceDescriptor {
            uri: "ui://weather/view",
            name: "view",
            title: ::core::option::Option::None,
            description: ::core::option::Option::Some("The view itself."),
            mime_type: ::core::option::Option::Some(::mcp_runtime::apps::MIME_TYPE),
            size: ::core::option::Option::None,
            annotations: ::mcp_runtime::__private::ResourceAnnotations {
                audience: &[],
                priority: ::core::option::Option::None,
                last_modified: ::core::option::Option::None,
            },
            icons: &[],
            params: &[],
            completions: &[],
            scopes: &[],
            invoke: |__mcp_tool_call| {
                let __mcp_run = |_: &mut ::mcp_runtime::__private::ToolCall| ::core::result::Result::Ok(
                    view,
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
