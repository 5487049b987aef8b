//! Arguments decoded straight into a tool's parameters against the general path (a map,
//! checked against the input schema by `jsonschema`, then extracted): a call of a tool whose
//! parameter types allow it must get exactly the answer the general path gives — the same
//! accepted and refused calls, the same values reaching the tool, the same messages, byte
//! for byte.
//!
//! Two copies of `argument_shapes` (one parameter shape per tool, each answering with its
//! parameters' `Debug`) get the same lines, one taking the general path for every call
//! (`--general-arguments`: behind a layer that passes every call on). The arguments are generated: per parameter absent, `null`, a value
//! that nearly fits or any JSON (numbers at the edges of each width, floats with and
//! without a fraction, strings an enum or a date would take, objects with the fields the
//! structs have), and written out in varied ways that mean the same to a `Value` (spaces,
//! escaped member names, integers spelt `5.0` or `5e0`, a member repeated).

use std::cell::{Cell, RefCell};

use mcp_tests::StdioClient;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Map, Value, json};

/// Each tool of `argument_shapes` and its parameters' names.
const TOOLS: &[(&str, &[&str])] = &[
    ("integers", &["a", "b", "c", "d"]),
    ("floats", &["x", "y"]),
    ("texts", &["s", "c"]),
    ("flags", &["on"]),
    ("optionals", &["n", "s"]),
    ("defaults", &["n", "s", "o"]),
    ("lists", &["words", "bytes"]),
    ("nested", &["point", "points"]),
    ("strict", &["s"]),
    ("bounded", &["b"]),
    ("choices", &["color", "mode"]),
    ("shapes", &["shape"]),
    ("untagged", &["v"]),
    ("maps", &["m"]),
    ("anything", &["v", "w"]),
    ("tree", &["t"]),
    ("tuple", &["pair"]),
    ("formats", &["day", "id"]),
    ("nothing", &[]),
    ("blocking", &["a", "words"]),
    ("widths", &["a", "b", "c", "d", "e", "f"]),
    ("optional_defaults", &["n", "on", "f"]),
    ("scaled", &["by", "text"]),
];

/// Member names of the structs and enums, so generated objects sometimes fit them.
const KEYS: &[&str] = &[
    "x", "y", "label", "name", "level", "code", "offset", "ratio", "tags", "radius", "Circle",
    "Square", "Empty", "value", "children", "zz",
];

const STRINGS: &[&str] = &[
    "",
    "a",
    "ab",
    "abcde",
    "abcdef",
    "red",
    "green",
    "Fast",
    "Slow",
    "Empty",
    "Circle",
    "é",
    "😀",
    "x\"y",
    "line\nbreak",
    "2024-02-29",
    "2023-02-29",
    "67e55044-10b1-426f-9247-bb680e5fe0c8",
    "5",
];

fn leaf() -> impl Strategy<Value = Value> {
    let integers = vec![
        0_i64,
        1,
        -1,
        2,
        5,
        10,
        11,
        255,
        256,
        -5,
        -6,
        i64::from(i32::MAX),
        i64::from(i32::MAX) + 1,
        i64::from(i32::MIN) - 1,
        i64::MAX,
        i64::MIN,
    ];
    let floats = vec![0.5_f64, 1.0, -0.0, 1e300, 3.25, -2.5, 1e-7, 255.0, 1.5e10];
    prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::from),
        3 => prop::sample::select(integers).prop_map(Value::from),
        1 => Just(json!(u64::MAX)),
        2 => (-300_i64..300).prop_map(Value::from),
        2 => prop::sample::select(floats).prop_map(Value::from),
        3 => prop::sample::select(STRINGS).prop_map(Value::from),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..4).prop_map(|members| {
                Value::Object(
                    members
                        .into_iter()
                        .map(|(key, value)| (key.to_owned(), value))
                        .collect(),
                )
            }),
        ]
    })
}

/// Values that fit parameter `param` of `tool`, or nearly: at and around its bounds.
fn fitting(tool: &str, param: &str) -> Vec<Value> {
    let strings = || STRINGS.iter().map(|text| json!(text)).collect::<Vec<_>>();
    let point = |x: i64| json!({"x": x, "y": -x, "label": "p"});
    match (tool, param) {
        ("integers", _)
        | ("optionals", "n")
        | ("defaults", "n")
        | ("blocking", "a")
        | ("widths", "a" | "b" | "c" | "d")
        | ("optional_defaults", "n")
        | ("scaled", "by") => [0, 1, 7, 255, 256, -1, 2147483647, 2147483648, i64::MAX]
            .map(|n: i64| json!(n))
            .into(),
        ("floats", _) | ("optional_defaults", "f") => {
            vec![json!(0.5), json!(-2), json!(1e300), json!(3), json!(1.0)]
        }
        ("widths", "e") => vec![json!([0.5, -2, 1e300]), json!([]), json!([1, "x"])],
        ("widths", "f") => vec![json!(["a"]), json!([]), json!([null])],
        ("flags", _) | ("optional_defaults", "on") => vec![json!(true), json!(false)],
        ("texts", "c") => ["a", "é", "😀", "ab", ""].map(|c| json!(c)).into(),
        ("defaults", "o") => vec![json!([1, 2]), json!([]), json!(["x"])],
        ("lists" | "blocking", "words") => {
            vec![json!(["a", "b"]), json!([]), json!(["a", 1]), json!("a")]
        }
        ("lists", "bytes") => vec![json!([0, 255]), json!([256]), json!([]), json!([-1])],
        ("nested", "point") => vec![point(1), json!({"x": 1}), json!({"x": 1, "y": 2})],
        ("nested", "points") => vec![json!([point(2), point(3)]), json!([]), json!([{"y": 1}])],
        ("strict", _) => vec![
            json!({"name": "n", "level": 1}),
            json!({"name": "n", "level": 10}),
            json!({"name": "n", "level": 11}),
            json!({"name": "n", "level": 0}),
            json!({"name": "n", "level": 5, "x": 1}),
        ],
        ("bounded", _) => vec![
            json!({"code": "ab", "offset": 5, "ratio": 0.5, "tags": []}),
            json!({"code": "abcde", "offset": -5, "ratio": 1, "tags": ["a", "b"]}),
            json!({"code": "a", "offset": 0, "ratio": 1, "tags": []}),
            json!({"code": "ab", "offset": 6, "ratio": 1, "tags": []}),
            json!({"code": "ab", "offset": 0, "ratio": 1, "tags": ["a", "b", "c"]}),
        ],
        ("choices", "color") => ["red", "green", "blue", "Red"].map(|c| json!(c)).into(),
        ("choices", "mode") => ["Fast", "Slow", "fast"].map(|c| json!(c)).into(),
        ("shapes", _) => vec![
            json!("Empty"),
            json!({"Circle": {"radius": 1.5}}),
            json!({"Square": 3}),
            json!({"Square": -1}),
            json!({"Circle": {}}),
        ],
        ("untagged", _) => vec![json!(5), json!("five"), json!(5.5), json!([5])],
        ("maps", _) => vec![json!({"a": 1, "b": -2}), json!({}), json!({"a": "1"})],
        ("tree", _) => vec![
            json!({"value": 1, "children": [{"value": 2}, {"value": 3, "children": []}]}),
            json!({"value": 1}),
            json!({"value": 1, "children": [{"children": []}]}),
        ],
        ("tuple", _) => vec![
            json!([1, "a"]),
            json!([1]),
            json!(["a", 1]),
            json!([1, "a", 2]),
        ],
        ("formats", "day") => vec![json!("2024-02-29"), json!("2023-02-29"), json!("today")],
        ("formats", "id") => vec![json!("67e55044-10b1-426f-9247-bb680e5fe0c8"), json!("x")],
        _ => strings(),
    }
}

/// A tool and its arguments: per parameter absent, `null`, a value that (nearly) fits or
/// any value; now and then a
/// member no parameter has, or arguments that are no object.
fn call() -> impl Strategy<Value = (&'static str, Value)> {
    prop::sample::select(TOOLS).prop_flat_map(|(tool, params)| {
        let members: Vec<_> = params
            .iter()
            .map(|param| {
                prop_oneof![
                    1 => Just(None),
                    1 => Just(Some(Value::Null)),
                    5 => prop::sample::select(fitting(tool, param)).prop_map(Some),
                    3 => value().prop_map(Some),
                ]
                .prop_map(move |member| member.map(|value| (param.to_string(), value)))
            })
            .collect();
        let extra = prop::option::weighted(0.1, value());
        let not_an_object = prop::option::weighted(0.03, value());
        (members, extra, not_an_object).prop_map(move |(members, extra, not_an_object)| {
            if let Some(arguments) = not_an_object {
                return (tool, arguments);
            }
            let mut arguments: Map<String, Value> = members.into_iter().flatten().collect();
            if let Some(extra) = extra {
                arguments.insert("unknown".to_owned(), extra);
            }
            (tool, Value::Object(arguments))
        })
    })
}

/// Writes `value` as JSON that a `Value` reads back the same (or, for an integer spelt as
/// a float, the same number), varied by `style`.
fn write(value: &Value, style: &mut u64, out: &mut String) {
    // xorshift: a different choice at every step, the same for the same `style`.
    fn choose(style: &mut u64, ways: u64) -> u64 {
        *style ^= *style << 13;
        *style ^= *style >> 7;
        *style ^= *style << 17;
        *style % ways
    }
    if choose(style, 4) == 0 {
        out.push(' ');
    }
    match value {
        Value::Number(number) if number.is_i64() || number.is_u64() => match choose(style, 6) {
            0 => out.push_str(&format!("{number}.0")),
            1 => out.push_str(&format!("{number}e0")),
            _ => out.push_str(&number.to_string()),
        },
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write(item, style, out);
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            let mut first = true;
            for (key, member) in members {
                if !first {
                    out.push(',');
                }
                first = false;
                // A repeated member: the first is overridden by the second.
                if choose(style, 10) == 0 {
                    out.push_str(&serde_json::to_string(key).unwrap());
                    out.push_str(":0,");
                }
                if choose(style, 8) == 0 {
                    // The first letter escaped: the same name to a `Value`.
                    let mut chars = key.chars();
                    if let Some(letter) = chars.next() {
                        out.push_str(&format!("\"\\u{:04x}", u32::from(letter)));
                        let rest = serde_json::to_string(chars.as_str()).unwrap();
                        out.push_str(&rest[1..]);
                    } else {
                        out.push_str("\"\"");
                    }
                } else {
                    out.push_str(&serde_json::to_string(key).unwrap());
                }
                out.push(':');
                write(member, style, out);
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
    if choose(style, 4) == 0 {
        out.push(' ');
    }
}

/// One `tools/call` line. Mostly as the SDK clients write it (`method` before `params`,
/// `name` before `arguments`); now and then in the other orders, or with `name` or `method`
/// repeated after the arguments (`method` after `params` has the arguments parsed with the
/// message, which the typed path leaves to the general one).
fn line(id: u64, tool: &str, arguments: &Value, mut style: u64) -> String {
    let mut text = String::new();
    write(arguments, &mut style, &mut text);
    let params = match style % 16 {
        0 => format!("{{\"arguments\":{text},\"name\":\"{tool}\"}}"),
        1 => format!("{{\"name\":\"{tool}\",\"arguments\":{text},\"name\":\"{tool}\"}}"),
        2 => format!("{{\"name\":\"{tool}\",\"arguments\":{text},\"_meta\":{{}}}}"),
        _ => format!("{{\"name\":\"{tool}\",\"arguments\":{text}}}"),
    };
    match (style >> 4) % 16 {
        0 => format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"params\":{params},\"method\":\"tools/call\"}}\n"
        ),
        1 => format!(
            "{{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{params},\"id\":{id},\"method\":\"tools/call\"}}\n"
        ),
        _ => format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/call\",\"params\":{params}}}\n"
        ),
    }
}

fn server(args: &[&str]) -> StdioClient {
    let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_argument_shapes"), args);
    client.initialize("2025-11-25");
    client
}

#[test]
fn typed_arguments_are_answered_as_the_general_path_answers() {
    let typed = RefCell::new(server(&[]));
    let general = RefCell::new(server(&["--general-arguments"]));
    let next_id = Cell::new(100_u64);
    let (accepted, refused) = (Cell::new(0_u32), Cell::new(0_u32));
    let cases = std::env::var("MCP_TYPED_ARGUMENTS_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(6000);
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let outcome = runner.run(
        &(call(), any::<u64>().prop_map(|style| style | 1)),
        |((tool, arguments), style)| {
            let id = next_id.get();
            next_id.set(id + 1);
            let line = line(id, tool, &arguments, style);
            let mut answers = [&typed, &general].map(|server| {
                let mut server = server.borrow_mut();
                server.send_raw(line.as_bytes());
                server.receive()
            });
            let [typed_answer, general_answer] = &mut answers;
            if typed_answer != general_answer {
                return Err(TestCaseError::fail(format!(
                    "{line}typed:   {typed_answer}\ngeneral: {general_answer}"
                )));
            }
            let refusal =
                typed_answer["result"]["isError"] == true || typed_answer.get("error").is_some();
            if refusal {
                refused.set(refused.get() + 1);
            } else {
                accepted.set(accepted.get() + 1);
            }
            Ok(())
        },
    );
    if let Err(failure) = outcome {
        panic!("{failure}");
    }
    // Not vacuous: both kinds of answer were compared many times.
    let (accepted, refused) = (accepted.get(), refused.get());
    assert!(
        accepted > cases / 10 && refused > cases / 10,
        "accepted {accepted}, refused {refused} of {cases}"
    );
}

/// A few answers by hand: the values reach the tool, a refusal names the argument, and the
/// text's own spellings mean what they mean to a `Value`.
#[test]
fn arguments_by_hand() {
    let mut client = server(&[]);
    let mut call = |tool: &str, arguments: &str| {
        let line = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{{\"name\":\"{tool}\",\"arguments\":{arguments}}}}}\n"
        );
        client.send_raw(line.as_bytes());
        let answer = client.receive();
        let result = &answer["result"];
        let text = result["content"][0]["text"].as_str().unwrap_or_default();
        (result["isError"] == true, text.to_owned())
    };
    assert_eq!(
        call("integers", r#"{"a":-1,"b":255,"c":7,"d":9007199254740991}"#),
        (false, "(-1, 255, 7, 9007199254740991)".to_owned())
    );
    // A `u64` is bounded by ±(2^53 − 1), as its schema publishes: beyond, the typed path
    // leaves the call to the schema check, which refuses it.
    assert_eq!(
        call(
            "integers",
            r#"{"a":-1,"b":255,"c":7,"d":18446744073709551615}"#
        ),
        (
            true,
            "Invalid arguments for tool `integers`: `d`: 18446744073709551615 is greater than \
             the maximum of 9007199254740991"
                .to_owned()
        )
    );
    let (refused, message) = call("integers", r#"{"a":1,"b":256,"c":7,"d":0}"#);
    assert!(refused, "{message}");
    assert!(
        message.contains("`b`") && message.contains("256"),
        "{message}"
    );
    // The last of a repeated member counts, as in a `serde_json::Map`.
    assert_eq!(
        call("flags", r#"{"on":"no","on":true}"#),
        (false, "true".to_owned())
    );
    // An escaped member name is the name.
    assert_eq!(
        call("flags", r#"{"\u006fn":false}"#),
        (false, "false".to_owned())
    );
    // `null` for an optional parameter is left out; a default applies.
    assert_eq!(
        call("defaults", r#"{"n":null,"s":"y","o":null}"#),
        (false, "(5, \"y\", [2])".to_owned())
    );
    assert_eq!(
        call("optionals", r#"{"n":3}"#),
        (false, "(Some(3), None, \"optionals\")".to_owned())
    );
    assert_eq!(
        call(
            "nested",
            r#"{"point":{"x":1,"y":2,"label":"p"},"points":[{"x":3,"y":4}]}"#
        ),
        (
            false,
            "(Point { x: 1, y: 2, label: Some(\"p\") }, Some([Point { x: 3, y: 4, label: None }]))"
                .to_owned()
        )
    );
    let (refused, message) = call("strict", r#"{"s":{"name":"n","level":1,"extra":true}}"#);
    assert!(refused, "{message}");
    assert_eq!(
        call("blocking", r#"{"a":1,"words":["w"]}"#),
        (false, "(1, [\"w\"])".to_owned())
    );
    assert_eq!(call("nothing", "null"), (false, "nothing".to_owned()));
}

/// A call of a tool that takes nothing but arguments, decoded straight into them (and so
/// made without a context, which nothing could read), is answered as it is the general way,
/// with a context; so is a call whose arguments the typed decoding refuses.
#[test]
fn calls_of_tools_taking_nothing_but_arguments_are_answered_as_ever() {
    let answer = |client: &mut StdioClient, tool: &str, arguments: Value| {
        let line = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{{\"name\":\"{tool}\",\"arguments\":{arguments}}}}}\n"
        );
        client.send_raw(line.as_bytes());
        let answer = client.receive();
        answer["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("a text: {answer}"))
            .to_owned()
    };
    for args in [&[][..], &["--general-arguments"][..]] {
        let mut client = server(args);
        assert_eq!(answer(&mut client, "flags", json!({"on": true})), "true");
        // A plain `fn`, run on a thread of its own.
        assert_eq!(
            answer(&mut client, "blocking", json!({"a": 1, "words": ["x"]})),
            r#"(1, ["x"])"#
        );
        assert_eq!(
            answer(&mut client, "optionals", json!({"n": 1})),
            r#"(Some(1), None, "optionals")"#
        );
        assert_eq!(answer(&mut client, "scaled", json!({"by": 2})), "(2, None)");
        let refused = answer(
            &mut client,
            "integers",
            json!({"a": 1, "b": 256, "c": 7, "d": 0}),
        );
        assert!(refused.contains("`b`"), "{refused}");
    }
}
