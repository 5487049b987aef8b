/// Greets someone.
fn greeting(name: String) -> String {
    format!("Say hello to {name}")
}
#[allow(non_upper_case_globals)]
const __mcp_prompt_greeting__must_be_a_free_function_outside_any_impl_block: () = {
    const _: () = __mcp_prompt_greeting__must_be_a_free_function_outside_any_impl_block;
    #[doc(hidden)]
    #[allow(non_local_definitions)]
    #[macro_export]
    macro_rules! __mcp_prompt_greet__is_used_twice__rename_one_with_the_name_option {
        () => {};
    }
    ::mcp_runtime::__private::inventory::submit! {
        ::mcp_runtime::__private::PromptDescriptor {
            name: "greet",
            title: ::core::option::Option::None,
            description: ::core::option::Option::Some("Greets someone."),
            icons: &[],
            params: &[
                ::mcp_runtime::__private::ParamDescriptor {
                    name: "name",
                    description: ::core::option::Option::None,
                    required: true,
                    default: ::core::option::Option::None,
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::param_schema::<String>,
                    check: ::mcp_runtime::__private::param_check::<String>,
                    typed: ::mcp_runtime::__private::TypedParam::of::<String>(),
                },
            ],
            completions: &[
                ::mcp_runtime::__private::ArgumentCompletion {
                    argument: "name",
                    complete: |__mcp_request| ::mcp_runtime::__private::complete_with(
                        __mcp_request,
                        names,
                    ),
                },
            ],
            scopes: &[],
            invoke: |__mcp_tool_call| {
                let __mcp_run = |__mcp_call: &mut ::mcp_runtime::__private::ToolCall| {
                    let __mcp_arg_0 = __mcp_call.extract::<String>("name")?;
                    ::core::result::Result::Ok(move || greeting(__mcp_arg_0))
                };
                ::mcp_runtime::__private::prompt_blocking(__mcp_tool_call, __mcp_run)
            },
            location: ::mcp_runtime::__private::SourceLocation {
                file: ::core::file!(),
                line: ::core::line!(),
                module_path: ::core::module_path!(),
            },
        }
    }
};
