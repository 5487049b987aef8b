/// Arguments and extractors, in any order.
async fn import(
    rows: Vec<String>,
    db: State<Database>,
    ctx: Context,
) -> Result<String, String> {
    ctx.progress(1.0, None, None);
    Ok(format!("{} rows into {:?}", rows.len(), &* db))
}
#[allow(non_upper_case_globals)]
const __mcp_tool_import__needs_mcp_tools_on_its_impl_block: () = {
    const _: () = __mcp_tool_import__needs_mcp_tools_on_its_impl_block;
    #[doc(hidden)]
    #[allow(non_local_definitions)]
    #[macro_export]
    macro_rules! __mcp_tool_import__is_used_twice__rename_one_with_the_name_option {
        () => {};
    }
    ::mcp_runtime::__private::inventory::submit! {
        ::mcp_runtime::__private::ToolDescriptor {
            name: "import",
            title: ::core::option::Option::None,
            description: ::core::option::Option::Some("Arguments and extractors, in any order."),
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
                    name: "rows",
                    description: ::core::option::Option::Some("Rows to import."),
                    required: true,
                    default: ::core::option::Option::None,
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::param_schema::<Vec<String>>,
                    check: ::mcp_runtime::__private::param_check::<Vec<String>>,
                    typed: ::mcp_runtime::__private::TypedParam::of::<Vec<String>>(),
                },
                ::mcp_runtime::__private::ParamDescriptor {
                    name: "db",
                    description: ::core::option::Option::None,
                    required: true,
                    default: ::core::option::Option::None,
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::param_schema::<State<Database>>,
                    check: ::mcp_runtime::__private::param_check::<State<Database>>,
                    typed: ::mcp_runtime::__private::TypedParam::of::<State<Database>>(),
                },
                ::mcp_runtime::__private::ParamDescriptor {
                    name: "ctx",
                    description: ::core::option::Option::None,
                    required: true,
                    default: ::core::option::Option::None,
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::param_schema::<Context>,
                    check: ::mcp_runtime::__private::param_check::<Context>,
                    typed: ::mcp_runtime::__private::TypedParam::of::<Context>(),
                },
            ],
            output_schema: ::mcp_runtime::__private::output_schema::<Result<String, String>>,
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
                    let __mcp_arg_0 = __mcp_call.extract::<Vec<String>>("rows")?;
                    let __mcp_arg_1 = __mcp_call.extract::<State<Database>>("db")?;
                    let __mcp_arg_2 = __mcp_call.extract::<Context>("ctx")?;
                    ::core::result::Result::Ok(import(__mcp_arg_0, __mcp_arg_1, __mcp_arg_2))
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
