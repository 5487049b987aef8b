/// A file of a repository.
async fn file(
    owner: String,
    path: String,
    ctx: Context,
    who: Caller,
) -> Result<Vec<u8>, ToolError> {
    ctx.read(&owner, &path, &who).await
}
#[allow(non_upper_case_globals)]
const __mcp_resource_file__must_be_a_free_function_outside_any_impl_block: () = {
    const _: () = __mcp_resource_file__must_be_a_free_function_outside_any_impl_block;
    const _: () = ::mcp_runtime::__private::require_extractor::<Caller>();
    ::mcp_runtime::__private::inventory::submit! {
        ::mcp_runtime::__private::ResourceDescriptor {
            uri: "repo://{owner}/files/{+path}",
            name: "repository-file",
            title: ::core::option::Option::Some("Repository file"),
            description: ::core::option::Option::Some("A file of a repository."),
            mime_type: ::core::option::Option::None,
            size: ::core::option::Option::None,
            annotations: ::mcp_runtime::__private::ResourceAnnotations {
                audience: &[],
                priority: ::core::option::Option::None,
                last_modified: ::core::option::Option::None,
            },
            icons: &[],
            params: &[
                ::mcp_runtime::__private::ParamDescriptor {
                    name: "owner",
                    description: ::core::option::Option::Some("The repository's owner."),
                    required: true,
                    default: ::core::option::Option::None,
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::param_schema::<String>,
                    check: ::mcp_runtime::__private::param_check::<String>,
                    typed: ::mcp_runtime::__private::TypedParam::of::<String>(),
                },
                ::mcp_runtime::__private::ParamDescriptor {
                    name: "path",
                    description: ::core::option::Option::None,
                    required: true,
                    default: ::core::option::Option::None,
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::param_schema::<String>,
                    check: ::mcp_runtime::__private::param_check::<String>,
                    typed: ::mcp_runtime::__private::TypedParam::of::<String>(),
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
                ::mcp_runtime::__private::ParamDescriptor {
                    name: "who",
                    description: ::core::option::Option::None,
                    required: true,
                    default: ::core::option::Option::None,
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::param_schema::<Caller>,
                    check: ::mcp_runtime::__private::param_check::<Caller>,
                    typed: ::mcp_runtime::__private::TypedParam::of::<Caller>(),
                },
            ],
            completions: &[
                ::mcp_runtime::__private::ArgumentCompletion {
                    argument: "owner",
                    complete: |__mcp_request| ::mcp_runtime::__private::complete_with(
                        __mcp_request,
                        owners,
                    ),
                },
            ],
            scopes: &[],
            invoke: |__mcp_tool_call| {
                let __mcp_run = |__mcp_call: &mut ::mcp_runtime::__private::ToolCall| {
                    let __mcp_arg_0 = __mcp_call.extract::<String>("owner")?;
                    let __mcp_arg_1 = __mcp_call.extract::<String>("path")?;
                    let __mcp_arg_2 = __mcp_call.extract::<Context>("ctx")?;
                    let __mcp_arg_3 = __mcp_call.extract::<Caller>("who")?;
                    ::core::result::Result::Ok(
                        file(__mcp_arg_0, __mcp_arg_1, __mcp_arg_2, __mcp_arg_3),
                    )
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
