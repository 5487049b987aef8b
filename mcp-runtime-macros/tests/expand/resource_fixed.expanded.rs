/// Today's notes.
async fn today(db: State<Database>) -> String {
    db.today()
}
#[allow(non_upper_case_globals)]
const __mcp_resource_today__must_be_a_free_function_outside_any_impl_block: () = {
    const _: () = __mcp_resource_today__must_be_a_free_function_outside_any_impl_block;
    ::mcp_runtime::__private::inventory::submit! {
        ::mcp_runtime::__private::ResourceDescriptor {
            uri: "notes://today",
            name: "today",
            title: ::core::option::Option::None,
            description: ::core::option::Option::Some("Today's notes."),
            mime_type: ::core::option::Option::Some("text/markdown"),
            size: ::core::option::Option::Some(1024u64),
            annotations: ::mcp_runtime::__private::ResourceAnnotations {
                audience: &[
                    ::mcp_runtime::__private::Role::User,
                    ::mcp_runtime::__private::Role::Assistant,
                ],
                priority: ::core::option::Option::Some(0.8),
                last_modified: ::core::option::Option::Some("2025-01-12T15:00:58Z"),
            },
            icons: &[],
            params: &[
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
            ],
            completions: &[],
            scopes: &[],
            invoke: |__mcp_tool_call| {
                let __mcp_run = |__mcp_call: &mut ::mcp_runtime::__private::ToolCall| {
                    let __mcp_arg_0 = __mcp_call.extract::<State<Database>>("db")?;
                    ::core::result::Result::Ok(today(__mcp_arg_0))
                };
                ::mcp_runtime::__private::read_async(__mcp_tool_call, __mcp_run)
            },
            location: ::mcp_runtime::__private::SourceLocation {
                file: ::core::file!(),
                line: ::core::line!(),
                module_path: ::core::module_path!(),
            },
        }
    }
};
