use mcp_runtime::mcp_tool;
/// Add two integers.
async fn add(a: i64, b: Option<i64>) -> i64 {
    a + b.unwrap_or(0)
}
#[allow(non_upper_case_globals)]
const __mcp_tool_add__needs_mcp_tools_on_its_impl_block: () = {
    const _: () = __mcp_tool_add__needs_mcp_tools_on_its_impl_block;
    #[doc(hidden)]
    #[allow(non_local_definitions)]
    #[macro_export]
    macro_rules! __mcp_tool_add__is_used_twice__rename_one_with_the_name_option {
        () => {};
    }
    ::mcp_runtime::__private::inventory::submit! {
        ::mcp_runtime::__private::ToolDescriptor {
            name: "add",
            title: ::core::option::Option::Some("Adder"),
            description: ::core::option::Option::Some("Add two integers."),
            hints: ::mcp_runtime::__private::ToolHints {
                read_only: ::core::option::Option::Some(true),
                destructive: ::core::option::Option::None,
                idempotent: ::core::option::Option::Some(true),
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
                    name: "a",
                    description: ::core::option::Option::Some("The first addend."),
                    required: true,
                    default: ::core::option::Option::None,
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::param_schema::<i64>,
                    check: ::mcp_runtime::__private::param_check::<i64>,
                    typed: ::mcp_runtime::__private::TypedParam::of::<i64>(),
                },
                ::mcp_runtime::__private::ParamDescriptor {
                    name: "b",
                    description: ::core::option::Option::Some("The second addend."),
                    required: false,
                    default: ::core::option::Option::None,
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::param_schema::<Option<i64>>,
                    check: ::mcp_runtime::__private::param_check::<Option<i64>>,
                    typed: ::mcp_runtime::__private::TypedParam::of::<Option<i64>>(),
                },
            ],
            output_schema: ::mcp_runtime::__private::output_schema::<i64>,
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
                    let __mcp_arg_0 = __mcp_call.extract::<i64>("a")?;
                    let __mcp_arg_1 = __mcp_call.extract::<Option<i64>>("b")?;
                    ::core::result::Result::Ok(add(__mcp_arg_0, __mcp_arg_1))
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
