use mcp_runtime::{Context, mcp_tool};
/// Search the index.
///
/// # Arguments
///
/// * `query` - What to look for.
/// * `limit` - Overridden by the parameter's own comment.
async fn search(query: String, limit: u32, exact: bool, ctx: Context) -> Vec<String> {
    let _ = (limit, exact, ctx);
    vec![query]
}
#[allow(non_upper_case_globals)]
const __mcp_tool_search__needs_mcp_tools_on_its_impl_block: () = {
    const _: () = __mcp_tool_search__needs_mcp_tools_on_its_impl_block;
    fn __mcp_default_1() -> u32 {
        10
    }
    fn __mcp_default_2() -> bool {
        ::core::default::Default::default()
    }
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
            description: ::core::option::Option::Some("Search the index."),
            hints: ::mcp_runtime::__private::ToolHints {
                read_only: ::core::option::Option::Some(true),
                destructive: ::core::option::Option::None,
                idempotent: ::core::option::Option::None,
                open_world: ::core::option::Option::None,
            },
            icons: &[],
            tags: &["search", "index.v2"],
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
                ::mcp_runtime::__private::ParamDescriptor {
                    name: "limit",
                    description: ::core::option::Option::Some("How many results at most."),
                    required: false,
                    default: ::core::option::Option::Some(|| ::mcp_runtime::__private::default_json::<
                        u32,
                    >(__mcp_default_1())),
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::param_schema::<u32>,
                    check: ::mcp_runtime::__private::param_check::<u32>,
                    typed: ::mcp_runtime::__private::TypedParam::of::<u32>(),
                },
                ::mcp_runtime::__private::ParamDescriptor {
                    name: "exact",
                    description: ::core::option::Option::None,
                    required: false,
                    default: ::core::option::Option::Some(|| ::mcp_runtime::__private::default_json::<
                        bool,
                    >(__mcp_default_2())),
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::param_schema::<bool>,
                    check: ::mcp_runtime::__private::param_check::<bool>,
                    typed: ::mcp_runtime::__private::TypedParam::of::<bool>(),
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
            output_schema: ::mcp_runtime::__private::output_schema::<Vec<String>>,
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
                    let __mcp_arg_0 = __mcp_call.extract::<String>("query")?;
                    let __mcp_arg_1 = __mcp_call
                        .extract_or_else::<u32>("limit", __mcp_default_1)?;
                    let __mcp_arg_2 = __mcp_call
                        .extract_or_else::<bool>("exact", __mcp_default_2)?;
                    let __mcp_arg_3 = __mcp_call.extract::<Context>("ctx")?;
                    ::core::result::Result::Ok(
                        search(__mcp_arg_0, __mcp_arg_1, __mcp_arg_2, __mcp_arg_3),
                    )
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
