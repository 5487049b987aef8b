use mcp_runtime::mcp_tool;
use mcp_runtime::middleware::{Audit, Layer, Next, ToolRequest, from_fn};
fn timing() -> impl Layer {
    from_fn(|call: ToolRequest, next: Next| async move { next.run(call).await })
}
/// Write a note.
async fn write_note(text: String) -> String {
    text
}
#[allow(non_upper_case_globals)]
const __mcp_tool_write_note__needs_mcp_tools_on_its_impl_block: () = {
    const _: () = __mcp_tool_write_note__needs_mcp_tools_on_its_impl_block;
    #[doc(hidden)]
    #[allow(non_local_definitions)]
    #[macro_export]
    macro_rules! __mcp_tool_write_note__is_used_twice__rename_one_with_the_name_option {
        () => {};
    }
    ::mcp_runtime::__private::inventory::submit! {
        ::mcp_runtime::__private::ToolDescriptor {
            name: "write_note",
            title: ::core::option::Option::None,
            description: ::core::option::Option::Some("Write a note."),
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
                    name: "text",
                    description: ::core::option::Option::Some("The note."),
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
                task: ::mcp_runtime::__private::TaskSupport::Forbidden,
                input_before_task: false,
                scopes: &["notes:write", "admin"],
            },
            layers: {
                fn __mcp_layer_0() -> ::mcp_runtime::__private::SharedLayer {
                    ::mcp_runtime::__private::shared_layer(Audit::new())
                }
                fn __mcp_layer_1() -> ::mcp_runtime::__private::SharedLayer {
                    ::mcp_runtime::__private::shared_layer(timing())
                }
                &[
                    __mcp_layer_0 as fn() -> ::mcp_runtime::__private::SharedLayer,
                    __mcp_layer_1 as fn() -> ::mcp_runtime::__private::SharedLayer,
                ]
            },
            invoke: |__mcp_tool_call| {
                let __mcp_run = |__mcp_call: &mut ::mcp_runtime::__private::ToolCall| {
                    let __mcp_arg_0 = __mcp_call.extract::<String>("text")?;
                    ::core::result::Result::Ok(write_note(__mcp_arg_0))
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
