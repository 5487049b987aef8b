"""MCP Apps (`appsSchema`): every `_meta.ui` validated against the extension's own published
schema, `@modelcontextprotocol/ext-apps`'s `schema.json` (installed beside the Node clients by
interop/setup.sh). interop/node/expect.mjs does the same for the Node clients."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

APP_MIME_TYPE = "text/html;profile=mcp-app"
SCHEMA = Path(__file__).resolve().parent.parent / "node/node_modules/@modelcontextprotocol/ext-apps/dist/src/generated/schema.json"


@cache
def _validator(definition: str) -> Draft202012Validator:
    schema = json.loads(SCHEMA.read_text())
    if definition not in schema["$defs"]:
        raise KeyError(f"{SCHEMA} has no $defs/{definition}")
    registry = Registry().with_resource(schema["$id"], Resource.from_contents(schema))
    return Draft202012Validator({"$ref": f"{schema['$id']}#/$defs/{definition}"}, registry=registry)


def check_apps_meta(definition: str, item: dict[str, Any], what: str, label: str, rep: Any) -> None:
    """One check line when `item` has a `_meta.ui`: valid against the extension's `definition`."""
    ui = (item.get("_meta") or {}).get("ui")
    if ui is None:
        return
    errors = sorted(_validator(definition).iter_errors(ui), key=lambda e: list(e.path))
    why = "; ".join(f"/{'/'.join(map(str, e.path))} {e.message}" for e in errors)
    shown = json.dumps(ui, separators=(",", ":"))[:120]
    rep.check(not errors, label, f"{what}: _meta.ui {shown} is a valid ext-apps {definition}" + (f" :: {why}" if why else ""))


def check_apps_read(uri: str, outcome: dict[str, Any], label: str, rep: Any) -> None:
    """A `resources/read` result: every `ui://` content is served as `text/html;profile=mcp-app`,
    and its `_meta.ui` is a valid `McpUiResourceMeta`."""
    for content in (outcome.get("result") or {}).get("contents", []):
        if str(content.get("uri", "")).startswith("ui://"):
            mime = content.get("mimeType")
            rep.check(mime == APP_MIME_TYPE, label, f"resources/read {uri}: {content['uri']} is {json.dumps(mime)} (MCP Apps needs {APP_MIME_TYPE})")
        check_apps_meta("McpUiResourceMeta", content, f"resources/read {uri}: {content.get('uri')}", label, rep)
