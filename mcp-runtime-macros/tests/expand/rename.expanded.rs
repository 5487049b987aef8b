/// `rename`: the published name differs from the Rust name, here an unused `_units`.
async fn convert(amount: f64, _units: Option<String>, digits: u32) -> String {
    format!("{amount:.*}", digits as usize)
}
#[allow(non_upper_case_globals)]
const __mcp_tool_convert__needs_mcp_tools_on_its_impl_block: () = {
    const _: () = __mcp_tool_convert__needs_mcp_tools_on_its_impl_block;
    fn __mcp_default_2() -> u32 {
        2
    }
    #[doc(hidden)]
    #[allow(non_local_definitions)]
    #[macro_export]
    macro_rules! __mcp_tool_convert__is_used_twice__rename_one_with_the_name_option {
        () => {};
    }
    ::mcp_runtime::__private::inventory::submit! {
        ::mcp_runtime::__private::ToolDescriptor {
            name: "convert",
            title: ::core::option::Option::None,
            description: ::core::option::Option::Some(
                "`rename`: the published name differs from the Rust name, here an unused `_units`.",
            ),
            hints: ::mcp_runtime::__private::ToolHints {
                read_only: ::core::option::Option::Some(true),
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
                    name: "amount",
                    description: ::core::option::Option::None,
                    required: true,
                    default: ::core::option::Option::None,
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::param_schema::<f64>,
                    check: ::mcp_runtime::__private::param_check::<f64>,
                    typed: ::mcp_runtime::__private::TypedParam::of::<f64>(),
                },
                ::mcp_runtime::__private::ParamDescriptor {
                    name: "units",
                    description: ::core::option::Option::Some("The unit to convert to."),
                    required: false,
                    default: ::core::option::Option::None,
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::param_schema::<Option<String>>,
                    check: ::mcp_runtime::__private::param_check::<Option<String>>,
                    typed: ::mcp_runtime::__private::TypedParam::of::<Option<String>>(),
                },
                ::mcp_runtime::__private::ParamDescriptor {
                    name: "precision",
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
                    let __mcp_arg_0 = __mcp_call.extract::<f64>("amount")?;
                    let __mcp_arg_1 = __mcp_call.extract::<Option<String>>("units")?;
                    let __mcp_arg_2 = __mcp_call
                        .extract_or_else::<u32>("precision", __mcp_default_2)?;
                    ::core::result::Result::Ok(convert(__mcp_arg_0, __mcp_arg_1, __mcp_arg_2))
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
