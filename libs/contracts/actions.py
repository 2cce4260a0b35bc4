"""Lossless conversion between the 18xx.games action JSON and roundhouse.v1.Action.

Each JSON key lands in the typed field of the same name when its value has that field's JSON type;
everything else (unknown keys, values of another type, empty lists whose presence matters) is kept in
the message's `extra_json`, so `action_to_json(action_from_json(a)) == a` for every action.
"""

from __future__ import annotations

from typing import Any

import orjson
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from contracts.v1 import actions_pb2

Action = actions_pb2.Action

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
# Action-level keys shared by every action type (besides `type` and `entity`).
COMMON_KEYS = ("entity_type", "id", "created_at", "user", "skip", "original_id", "auto_actions")
# action type (18xx.games) -> name of the `body` oneof field; they are the same names.
BODY_TYPES = frozenset(
    f.name for f in Action.DESCRIPTOR.oneofs_by_name["body"].fields if f.name != "other"
)


class MalformedAction(ValueError):
    """The JSON is not an action at all (not an object, or no string `type`)."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and INT64_MIN <= value <= INT64_MAX


# What each field holds, worked out once per field: the conversions run for every action the
# platform moves (the gateway, the engine processes), and asking a descriptor again each time cost
# more than the conversion itself.
_INT, _STR, _BOOL, _STRING_LIST, _ACTION, _MESSAGE, _OTHER = range(7)
_KINDS: dict[FieldDescriptor, int] = {}
_SKIPPED: dict[FieldDescriptor, bool] = {}   # extra_json and the `entity`/`body` oneofs


def _kind(field: FieldDescriptor) -> int:
    kind = _KINDS.get(field)
    if kind is None:
        t = field.type
        if t == FieldDescriptor.TYPE_INT64:
            kind = _INT
        elif t == FieldDescriptor.TYPE_STRING:
            kind = _STR
        elif t == FieldDescriptor.TYPE_BOOL:
            kind = _BOOL
        elif t == FieldDescriptor.TYPE_MESSAGE:
            name = field.message_type.name
            kind = _STRING_LIST if name == "StringList" else _ACTION if name == "Action" else _MESSAGE
        else:
            kind = _OTHER
        _KINDS[field] = kind
    return kind


def _skipped(field: FieldDescriptor) -> bool:
    skip = _SKIPPED.get(field)
    if skip is None:
        oneof = field.containing_oneof
        skip = _SKIPPED[field] = field.name == "extra_json" or (oneof is not None and oneof.name in ("entity", "body"))
    return skip


def _fits(field: FieldDescriptor, value: Any) -> bool:
    """Whether `value` can be stored in `field` and read back as the same JSON value."""
    if field.is_repeated:
        return isinstance(value, list) and bool(value) and all(_fits_one(field, v) for v in value)
    return _fits_one(field, value)


def _fits_one(field: FieldDescriptor, value: Any) -> bool:
    kind = _kind(field)
    if kind == _INT:
        return _is_int(value)
    if kind == _STR:
        return isinstance(value, str)
    if kind == _BOOL:
        return isinstance(value, bool)
    if kind == _STRING_LIST:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == _ACTION:
        return isinstance(value, dict) and isinstance(value.get("type"), str)
    return kind == _MESSAGE and isinstance(value, dict)


def _fill(msg: Message, data: dict[str, Any]) -> dict[str, Any]:
    """Store what fits into `msg`'s fields; return the rest."""
    rest: dict[str, Any] = {}
    fields = msg.DESCRIPTOR.fields_by_name
    for key, value in data.items():
        field = fields.get(key)
        if field is None or key == "extra_json" or not _fits(field, value):
            rest[key] = value
            continue
        if field.is_repeated:
            target = getattr(msg, key)
            if field.type != FieldDescriptor.TYPE_MESSAGE:
                target.extend(value)
            elif field.message_type.name == "StringList":
                for items in value:
                    target.add().items.extend(items)
            elif field.message_type.name == "Action":
                for sub in value:
                    target.append(action_from_json(sub))
            else:
                for sub in value:
                    _fill_with_extra(target.add(), sub)
        else:
            setattr(msg, key, value)
    return rest


def _fill_with_extra(msg: Message, data: dict[str, Any]) -> None:
    rest = _fill(msg, data)
    if rest:
        msg.extra_json = orjson.dumps(rest).decode()


def _dump(msg: Message, out: dict[str, Any]) -> None:
    """The inverse of _fill: the set fields of `msg` as JSON values into `out` (in the order the
    message declares them)."""
    fields = msg.ListFields()
    if len(fields) > 1:
        fields.sort(key=lambda fv: fv[0].index)
    for field, value in fields:
        if _skipped(field):
            continue
        name = field.name
        if field.is_repeated:
            kind = _kind(field)
            if kind == _STRING_LIST:
                out[name] = [list(v.items) for v in value]
            elif kind == _ACTION:
                out[name] = [action_to_json(v) for v in value]
            elif kind == _MESSAGE:
                out[name] = [_dump_with_extra(v) for v in value]
            else:
                out[name] = list(value)
        else:
            out[name] = value


def _dump_with_extra(msg: Message) -> dict[str, Any]:
    out: dict[str, Any] = {}
    _dump(msg, out)
    if getattr(msg, "extra_json", ""):
        out.update(orjson.loads(msg.extra_json))
    return out


def action_from_json(data: dict[str, Any]) -> Action:
    """An 18xx.games action (a dict) as an Action message. Raises MalformedAction."""
    if not isinstance(data, dict):
        raise MalformedAction("an action must be a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or not kind:
        raise MalformedAction("an action needs a string `type`")
    msg = Action()
    rest: dict[str, Any] = {}
    body_data: dict[str, Any] = {}
    common = Action.DESCRIPTOR.fields_by_name
    for key, value in data.items():
        if key == "type":
            continue
        if key == "entity":
            if _is_int(value):
                msg.entity_number = value
            elif isinstance(value, str):
                msg.entity_name = value
            else:
                rest[key] = value
        elif key in COMMON_KEYS:
            rest.update(_fill(msg, {key: value}) if _fits(common[key], value) else {key: value})
        else:
            body_data[key] = value
    if kind in BODY_TYPES:
        body = getattr(msg, kind)
        body.SetInParent()
        rest.update(_fill(body, body_data))
    else:
        msg.other.type = kind
        rest.update(body_data)
    if rest:
        try:
            msg.extra_json = orjson.dumps(rest).decode()
        except TypeError as exc:  # e.g. an integer beyond 64 bits
            raise MalformedAction(f"action value not representable: {exc}") from None
    return msg


def route_from_json(data: dict[str, Any]) -> actions_pb2.Route:
    """One route of a run_routes action (train, connections, hexes, ...) as a Route message,
    losslessly like an action (keys it does not name go to its `extra_json`)."""
    msg = actions_pb2.Route()
    _fill_with_extra(msg, data)
    return msg


def action_type(msg: Action) -> str:
    """The 18xx.games `type` of an Action ("" when no body is set)."""
    case = msg.WhichOneof("body")
    if case is None:
        return ""
    return msg.other.type if case == "other" else case


def action_to_json(msg: Action) -> dict[str, Any]:
    """An Action message as the 18xx.games action dict. Raises MalformedAction without a type."""
    kind = action_type(msg)
    if not kind:
        raise MalformedAction("the action has no type (no body set)")
    out: dict[str, Any] = {"type": kind}
    case = msg.WhichOneof("entity")
    if case is not None:
        out["entity"] = getattr(msg, case)
    _dump(msg, out)
    case = msg.WhichOneof("body")
    if case != "other":
        _dump(getattr(msg, case), out)
    if msg.extra_json:
        try:
            extra = orjson.loads(msg.extra_json)
        except orjson.JSONDecodeError as exc:
            raise MalformedAction(f"extra_json is not JSON: {exc}") from None
        if not isinstance(extra, dict):
            raise MalformedAction("extra_json must be a JSON object")
        out.update(extra)
    return out
