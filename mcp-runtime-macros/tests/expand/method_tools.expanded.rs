/// `#[mcp_tools]`: `&self` from the server's value of the type, methods without `self`,
/// async and plain `fn`, extractors and a `Self` in a signature; the block stays as written.
impl Notes {
    /// The most notes a page holds.
    const PAGE: usize = 20;
    /// Add a note.
    async fn add(&self, text: String) -> usize {
        let mut db = self.db.lock().unwrap();
        db.push(text);
        db.len()
    }
    /// Count notes.
    fn count(&self) -> usize {
        self.db.lock().unwrap().len()
    }
    /// A method without self works too.
    async fn version() -> &'static str {
        "1"
    }
    /// List notes.
    fn list(&self, limit: usize, ctx: Context) -> Json<Vec<String>> {
        let _ = ctx;
        Json(self.db.lock().unwrap().iter().take(limit).cloned().collect())
    }
    fn helper(&self) {}
}
const _: () = {
    #[allow(unused_imports)]
    use mcp_tool as _;
    #[doc(hidden)]
    #[allow(non_local_definitions)]
    #[macro_export]
    macro_rules! __mcp_tool_add__is_used_twice__rename_one_with_the_name_option {
        () => {};
    }
    ::mcp_runtime::__private::inventory::submit! {
        ::mcp_runtime::__private::ToolDescriptor {
            name: "add",
            title: ::core::option::Option::None,
            description: ::core::option::Option::Some("Add a note."),
            hints: ::mcp_runtime::__private::ToolHints {
                read_only: ::core::option::Option::None,
                destructive: ::core::option::Option::Some(false),
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
                    name: "self",
                    description: ::core::option::Option::None,
                    required: true,
                    default: ::core::option::Option::None,
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::self_schema::<Notes>,
                    check: ::mcp_runtime::__private::self_check::<Notes>,
                    typed: ::mcp_runtime::__private::TypedParam::RECEIVER,
                },
                ::mcp_runtime::__private::ParamDescriptor {
                    name: "text",
                    description: ::core::option::Option::Some("The text."),
                    required: true,
                    default: ::core::option::Option::None,
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::param_schema::<String>,
                    check: ::mcp_runtime::__private::param_check::<String>,
                    typed: ::mcp_runtime::__private::TypedParam::of::<String>(),
                },
            ],
            output_schema: ::mcp_runtime::__private::output_schema::<usize>,
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
                    let __mcp_self = ::mcp_runtime::__private::extract_self::<
                        Notes,
                    >(__mcp_call)?;
                    let __mcp_arg_0 = __mcp_call.extract::<String>("text")?;
                    ::core::result::Result::Ok(async move {
                        Notes::add(&__mcp_self, __mcp_arg_0).await
                    })
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
const _: () = {
    #[allow(unused_imports)]
    use mcp_tool as _;
    #[doc(hidden)]
    #[allow(non_local_definitions)]
    #[macro_export]
    macro_rules! __mcp_tool_count__is_used_twice__rename_one_with_the_name_option {
        () => {};
    }
    ::mcp_runtime::__private::inventory::submit! {
        ::mcp_runtime::__private::ToolDescriptor {
            name: "count",
            title: ::core::option::Option::None,
            description: ::core::option::Option::Some("Count notes."),
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
                    name: "self",
                    description: ::core::option::Option::None,
                    required: true,
                    default: ::core::option::Option::None,
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::self_schema::<Notes>,
                    check: ::mcp_runtime::__private::self_check::<Notes>,
                    typed: ::mcp_runtime::__private::TypedParam::RECEIVER,
                },
            ],
            output_schema: ::mcp_runtime::__private::output_schema::<usize>,
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
                    let __mcp_self = ::mcp_runtime::__private::extract_self::<
                        Notes,
                    >(__mcp_call)?;
                    ::core::result::Result::Ok(move || Notes::count(&__mcp_self))
                };
                ::mcp_runtime::__private::call_blocking(__mcp_tool_call, __mcp_run)
            },
            location: ::mcp_runtime::__private::SourceLocation {
                file: ::core::file!(),
                line: ::core::line!(),
                module_path: ::core::module_path!(),
            },
        }
    }
};
const _: () = {
    #[allow(unused_imports)]
    use mcp_tool as _;
    #[doc(hidden)]
    #[allow(non_local_definitions)]
    #[macro_export]
    macro_rules! __mcp_tool_version__is_used_twice__rename_one_with_the_name_option {
        () => {};
    }
    ::mcp_runtime::__private::inventory::submit! {
        ::mcp_runtime::__private::ToolDescriptor {
            name: "version",
            title: ::core::option::Option::None,
            description: ::core::option::Option::Some("A method without self works too."),
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
            params: &[],
            output_schema: ::mcp_runtime::__private::output_schema::<&'static str>,
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
                    ::core::result::Result::Ok(Notes::version())
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
const _: () = {
    #[allow(unused_imports)]
    use mcp_runtime::mcp_tool as _;
    fn __mcp_default_0() -> usize {
        Notes::PAGE
    }
    #[doc(hidden)]
    #[allow(non_local_definitions)]
    #[macro_export]
    macro_rules! __mcp_escaped_tool_notes_dot_list__is_used_twice__rename_one_with_the_name_option {
        () => {};
    }
    ::mcp_runtime::__private::inventory::submit! {
        ::mcp_runtime::__private::ToolDescriptor {
            name: "notes.list",
            title: ::core::option::Option::None,
            description: ::core::option::Option::Some("List notes."),
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
                    name: "self",
                    description: ::core::option::Option::None,
                    required: true,
                    default: ::core::option::Option::None,
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::self_schema::<Notes>,
                    check: ::mcp_runtime::__private::self_check::<Notes>,
                    typed: ::mcp_runtime::__private::TypedParam::RECEIVER,
                },
                ::mcp_runtime::__private::ParamDescriptor {
                    name: "limit",
                    description: ::core::option::Option::None,
                    required: false,
                    default: ::core::option::Option::Some(|| ::mcp_runtime::__private::default_json::<
                        usize,
                    >(__mcp_default_0())),
                    header: ::core::option::Option::None,
                    schema: ::mcp_runtime::__private::param_schema::<usize>,
                    check: ::mcp_runtime::__private::param_check::<usize>,
                    typed: ::mcp_runtime::__private::TypedParam::of::<usize>(),
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
            output_schema: ::mcp_runtime::__private::output_schema::<Json<Vec<String>>>,
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
                    let __mcp_self = ::mcp_runtime::__private::extract_self::<
                        Notes,
                    >(__mcp_call)?;
                    let __mcp_arg_0 = __mcp_call
                        .extract_or_else::<usize>("limit", __mcp_default_0)?;
                    let __mcp_arg_1 = __mcp_call.extract::<Context>("ctx")?;
                    ::core::result::Result::Ok(move || Notes::list(
                        &__mcp_self,
                        __mcp_arg_0,
                        __mcp_arg_1,
                    ))
                };
                ::mcp_runtime::__private::call_blocking(__mcp_tool_call, __mcp_run)
            },
            location: ::mcp_runtime::__private::SourceLocation {
                file: ::core::file!(),
                line: ::core::line!(),
                module_path: ::core::module_path!(),
            },
        }
    }
};
