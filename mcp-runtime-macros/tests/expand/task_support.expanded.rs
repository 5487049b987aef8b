use mcp_runtime::{mcp_tool, mcp_tools};
/// Build the monthly report.
async fn report(month: String) -> String {
    month
}
#[allow(non_upper_case_globals)]
const __mcp_tool_report__needs_mcp_tools_on_its_impl_block: () = {
    const _: () = __mcp_tool_report__needs_mcp_tools_on_its_impl_block;
    #[doc(hidden)]
    #[allow(non_local_definitions)]
    #[macro_export]
    macro_rules! __mcp_tool_report__is_used_twice__rename_one_with_the_name_option {
        () => {};
    }
    ::mcp_runtime::__private::inventory::submit! {
        ::mcp_runtime::__private::ToolDescriptor {
            name: "report",
            title: ::core::option::Option::None,
            description: ::core::option::Option::Some("Build the monthly report."),
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
                    name: "month",
                    description: ::core::option::Option::Some("The month, `YYYY-MM`."),
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
                task: ::mcp_runtime::__private::TaskSupport::Optional,
                input_before_task: false,
                scopes: &[],
            },
            layers: &[],
            invoke: |__mcp_tool_call| {
                let __mcp_run = |__mcp_call: &mut ::mcp_runtime::__private::ToolCall| {
                    let __mcp_arg_0 = __mcp_call.extract::<String>("month")?;
                    ::core::result::Result::Ok(report(__mcp_arg_0))
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
struct Archive;
impl Archive {
    /// Rebuild the index (takes hours).
    async fn rebuild(&self) -> usize {
        0
    }
}
const _: () = {
    #[allow(unused_imports)]
    use mcp_tool as _;
    #[doc(hidden)]
    #[allow(non_local_definitions)]
    #[macro_export]
    macro_rules! __mcp_tool_rebuild__is_used_twice__rename_one_with_the_name_option {
        () => {};
    }
    ::mcp_runtime::__private::inventory::submit! {
        ::mcp_runtime::__private::ToolDescriptor {
            name: "rebuild",
            title: ::core::option::Option::None,
            description: ::core::option::Option::Some("Rebuild the index (takes hours)."),
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
                    name: "self",
                    description: ::core::option::Option::None,
                    required: true,
                    default: ::core::option::Option::None,
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::self_schema::<Archive>,
                    check: ::mcp_runtime::__private::self_check::<Archive>,
                    typed: ::mcp_runtime::__private::TypedParam::RECEIVER,
                },
            ],
            output_schema: ::mcp_runtime::__private::output_schema::<usize>,
            policy: ::mcp_runtime::__private::ToolPolicy {
                timeout_ms: ::core::option::Option::Some(21600000u64),
                max_concurrency: ::core::option::Option::None,
                rate: ::core::option::Option::None,
                task: ::mcp_runtime::__private::TaskSupport::Required,
                input_before_task: true,
                scopes: &[],
            },
            layers: &[],
            invoke: |__mcp_tool_call| {
                let __mcp_run = |__mcp_call: &mut ::mcp_runtime::__private::ToolCall| {
                    let __mcp_self = ::mcp_runtime::__private::extract_self::<
                        Archive,
                    >(__mcp_call)?;
                    ::core::result::Result::Ok(async move {
                        Archive::rebuild(&__mcp_self).await
                    })
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
fn main() {}
