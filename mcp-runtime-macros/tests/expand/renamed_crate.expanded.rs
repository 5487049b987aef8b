/// `crate = "..."` sets the root of every path; `r#type` is the argument `type`.
async fn find(
    r#type: String,
    limit: Option<u32>,
) -> Result<mcp::Json<Vec<String>>, String> {
    Ok(mcp::Json(vec![r#type; limit.unwrap_or(1) as usize]))
}
#[allow(non_upper_case_globals)]
const __mcp_tool_find__needs_mcp_tools_on_its_impl_block: () = {
    const _: () = __mcp_tool_find__needs_mcp_tools_on_its_impl_block;
    #[doc(hidden)]
    #[allow(non_local_definitions)]
    #[macro_export]
    macro_rules! __mcp_escaped_tool_files_dot_find__is_used_twice__rename_one_with_the_name_option {
        () => {};
    }
    mcp::__private::inventory::submit! {
        mcp::__private::ToolDescriptor {
            name: "files.find",
            title: ::core::option::Option::None,
            description: ::core::option::Option::Some("Find files by type."),
            hints: mcp::__private::ToolHints {
                read_only: ::core::option::Option::None,
                destructive: ::core::option::Option::None,
                idempotent: ::core::option::Option::None,
                open_world: ::core::option::Option::None,
            },
            icons: &[],
            tags: &[],
            ui: mcp::__private::ToolUi {
                resource_uri: ::core::option::Option::None,
                visibility: mcp::__private::Visibility::ModelAndApp,
            },
            params: &[
                mcp::__private::ParamDescriptor {
                    name: "type",
                    description: ::core::option::Option::Some("The file type."),
                    required: true,
                    default: ::core::option::Option::None,
                    header: ::core::option::Option::None,
                    schema: mcp::__private::param_schema::<String>,
                    check: mcp::__private::param_check::<String>,
                    typed: mcp::__private::TypedParam::of::<String>(),
                },
                mcp::__private::ParamDescriptor {
                    name: "limit",
                    description: ::core::option::Option::None,
                    required: false,
                    default: ::core::option::Option::None,
                    header: ::core::option::Option::None,
                    schema: mcp::__private::param_schema::<Option<u32>>,
                    check: mcp::__private::param_check::<Option<u32>>,
                    typed: mcp::__private::TypedParam::of::<Option<u32>>(),
                },
            ],
            output_schema: mcp::__private::output_schema::<
                Result<mcp::Json<Vec<String>>, String>,
            >,
            policy: mcp::__private::ToolPolicy {
                timeout_ms: ::core::option::Option::None,
                max_concurrency: ::core::option::Option::None,
                rate: ::core::option::Option::None,
                task: mcp::__private::TaskSupport::Forbidden,
                input_before_task: false,
                scopes: &[],
            },
            layers: &[],
            invoke: |__mcp_tool_call| {
                let __mcp_run = |__mcp_call: &mut mcp::__private::ToolCall| {
                    let __mcp_arg_0 = __mcp_call.extract::<String>("type")?;
                    let __mcp_arg_1 = __mcp_call.extract::<Option<u32>>("limit")?;
                    ::core::result::Result::Ok(find(__mcp_arg_0, __mcp_arg_1))
                };
                mcp::__private::call_async(__mcp_tool_call, __mcp_run)
            },
            location: mcp::__private::SourceLocation {
                file: ::core::file!(),
                line: ::core::line!(),
                module_path: ::core::module_path!(),
            },
        }
    }
};
