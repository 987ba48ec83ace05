"""Every message a test client sees, checked against the JSON Schema the server serves
(``GET /api/protocol.schema.json``, ``boardroom.server.wire``) with the ``jsonschema`` package."""

from __future__ import annotations

import functools
import json
from typing import Any

import httpx
import jsonschema
from jsonschema import Draft202012Validator, ValidationError
from jsonschema.validators import extend

SCHEMA_ROUTE = "/api/protocol.schema.json"


def _one_of(validator: Any, one_of: Any, instance: Any, schema: dict[str, Any]) -> Any:
    """``oneOf``, reading the ``discriminator`` the schema gives beside it (OpenAPI's, as
    pydantic writes it for a tagged union): the branch the tag names is the only one that can
    match, so only it is checked (checking all 29 event kinds made every push cost ~20 ms)."""
    discriminator = schema.get("discriminator")
    if discriminator is None or not validator.is_type(instance, "object"):
        yield from Draft202012Validator.VALIDATORS["oneOf"](validator, one_of, instance, schema)
        return
    name, mapping = discriminator["propertyName"], discriminator["mapping"]
    tag = instance.get(name)
    if not isinstance(tag, str) or tag not in mapping:
        yield ValidationError(f"{name} {tag!r} is none of the schema's: {sorted(mapping)}")
        return
    yield from validator.descend(instance, {"$ref": mapping[tag]})


_VALID: dict[tuple[str, str], None] = {}  # (a $ref, an instance's JSON) known to validate
_KEPT = 200_000


def _ref(validator: Any, ref: str, instance: Any, schema: dict[str, Any]) -> Any:
    """``$ref``, remembering what validated: validation is a pure function of the schema and
    the instance, and most of what a test's clients see is the same object again (one update
    to every connection of an audience, the table in every audience's view, a view that did
    not change), so each distinct object is checked once."""
    if not isinstance(instance, dict | list):
        yield from Draft202012Validator.VALIDATORS["$ref"](validator, ref, instance, schema)
        return
    key = (ref, json.dumps(instance, sort_keys=True))
    if key in _VALID:
        return
    errors = list(Draft202012Validator.VALIDATORS["$ref"](validator, ref, instance, schema))
    if errors:
        yield from errors
        return
    if len(_VALID) > _KEPT:
        _VALID.clear()
    _VALID[key] = None


Validator = extend(Draft202012Validator, {"oneOf": _one_of, "$ref": _ref})


class WireViolation(AssertionError):
    """A message that the served schema does not allow."""


@functools.cache
def _validators(text: str) -> dict[str, Any]:
    """One validator per socket.io event (the schema's top-level properties), made once per
    schema text."""
    schema = json.loads(text)
    Draft202012Validator.check_schema(schema)
    return {event: Validator(
        {"$schema": schema["$schema"], "$defs": schema["$defs"], **part})
        for event, part in schema["properties"].items()}


async def fetch_schema(base_url: str) -> str:
    """The schema the server at ``base_url`` serves, as text (fetched once per server)."""
    if base_url in _SEEN:
        return _SEEN[base_url]
    # The server builds the schema on its first request: on a loaded machine that took over
    # httpx's default 5 s.
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:
        response = await http.get(SCHEMA_ROUTE)
    assert response.status_code == 200, response.text
    _SEEN[base_url] = response.text
    return response.text


_SEEN: dict[str, str] = {}


def violations(schema_text: str, event: str, message: Any) -> list[str]:
    """What is wrong with ``message`` sent as socket.io ``event`` (``answer``: a command's
    acknowledgement), each problem with where it is; empty when it validates."""
    validators = _validators(schema_text)
    if event not in validators:
        return [f"the schema lists no message {event!r} (it lists {sorted(validators)})"]
    found = []
    for error in validators[event].iter_errors(message):
        best = jsonschema.exceptions.best_match([error])
        where = "/".join(str(part) for part in best.absolute_path) or "(the message)"
        found.append(f"{event} at {where}: {best.message[:300]}")
    return found


def check(schema_text: str, event: str, message: Any) -> None:
    """Raise ``WireViolation`` naming every problem of ``message``."""
    found = violations(schema_text, event, message)
    if found:
        raise WireViolation(f"a message off the wire's schema: {json.dumps(message)[:600]}\n"
                            + "\n".join(found[:5]))
