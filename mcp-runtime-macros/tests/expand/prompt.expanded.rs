/// Reviews code.
///
/// # Arguments
///
/// * `code` - The code to review.
async fn review(
    code: String,
    language: Option<String>,
    max_findings: u32,
    ctx: Context,
) -> Vec<PromptMessage> {
    ctx.log(LogLevel::Info, "reviewing");
    vec![
        PromptMessage::user(format!("Review this {language:?} code, at most {max_findings} findings:\n{code}"))
    ]
}
#[allow(non_upper_case_globals)]
const __mcp_prompt_review__must_be_a_free_function_outside_any_impl_block: () = {
    const _: () = __mcp_prompt_review__must_be_a_free_function_outside_any_impl_block;
    fn __mcp_default_2() -> u32 {
        3
    }
    #[doc(hidden)]
    #[allow(non_local_definitions)]
    #[macro_export]
    macro_rules! __mcp_prompt_review__is_used_twice__rename_one_with_the_name_option {
        () => {};
    }
    ::mcp_runtime::__private::inventory::submit! {
        ::mcp_runtime::__private::PromptDescriptor {
            name: "review",
            title: ::core::option::Option::Some("Code review"),
            description: ::core::option::Option::Some("Reviews code."),
            icons: &[
                ::mcp_runtime::__private::IconDescriptor {
                    src: "https://example.com/review.png",
                    mime_type: ::core::option::Option::Some("image/png"),
                    sizes: &["48x48"],
                    theme: ::core::option::Option::Some("dark"),
                },
            ],
            params: &[
                ::mcp_runtime::__private::ParamDescriptor {
                    name: "code",
                    description: ::core::option::Option::Some("The code to review."),
                    required: true,
                    default: ::core::option::Option::None,
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::param_schema::<String>,
                    check: ::mcp_runtime::__private::param_check::<String>,
                    typed: ::mcp_runtime::__private::TypedParam::of::<String>(),
                },
                ::mcp_runtime::__private::ParamDescriptor {
                    name: "language",
                    description: ::core::option::Option::Some("The language the code is in."),
                    required: false,
                    default: ::core::option::Option::None,
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::param_schema::<Option<String>>,
                    check: ::mcp_runtime::__private::param_check::<Option<String>>,
                    typed: ::mcp_runtime::__private::TypedParam::of::<Option<String>>(),
                },
                ::mcp_runtime::__private::ParamDescriptor {
                    name: "max-findings",
                    description: ::core::option::Option::None,
                    required: false,
                    default: ::core::option::Option::Some(|| ::mcp_runtime::__private::default_json::<
                        u32,
                    >(__mcp_default_2())),
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::param_schema::<u32>,
                    check: ::mcp_runtime::__private::param_check::<u32>,
                    typed: ::mcp_runtime::__private::TypedParam::of::<u32>(),
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
            completions: &[
                ::mcp_runtime::__private::ArgumentCompletion {
                    argument: "language",
                    complete: |__mcp_request| ::mcp_runtime::__private::complete_with(
                        __mcp_request,
                        languages,
                    ),
                },
            ],
            scopes: &[],
            invoke: |__mcp_tool_call| {
                let __mcp_run = |__mcp_call: &mut ::mcp_runtime::__private::ToolCall| {
                    let __mcp_arg_0 = __mcp_call.extract::<String>("code")?;
                    let __mcp_arg_1 = __mcp_call.extract::<Option<String>>("language")?;
                    let __mcp_arg_2 = __mcp_call
                        .extract_or_else::<u32>("max-findings", __mcp_default_2)?;
                    let __mcp_arg_3 = __mcp_call.extract::<Context>("ctx")?;
                    ::core::result::Result::Ok(
                        review(__mcp_arg_0, __mcp_arg_1, __mcp_arg_2, __mcp_arg_3),
                    )
                };
                ::mcp_runtime::__private::prompt_async(__mcp_tool_call, __mcp_run)
            },
            location: ::mcp_runtime::__private::SourceLocation {
                file: ::core::file!(),
                line: ::core::line!(),
                module_path: ::core::module_path!(),
            },
        }
    }
};
