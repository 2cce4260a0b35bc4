// The 18xx.games action JSON <-> roundhouse.v1.Action, losslessly, as libs/contracts/actions.py
// does: each key goes to the typed field of the same name when its value has that field's JSON
// type; everything else stays in `extra_json`. Driven by the message descriptors, so it follows
// proto/ without per-action code.
import { create, type DescField, type DescMessage, ScalarType } from "@bufbuild/protobuf";
import { type Action, ActionSchema, type Route, RouteSchema } from "./gen/roundhouse/v1/actions_pb";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type ActionJson = { type: string; [key: string]: Json };

const COMMON_KEYS = new Set(["entity_type", "id", "created_at", "user", "skip", "original_id", "auto_actions"]);
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const bodyOneof = ActionSchema.oneofs.find((o) => o.name === "body")!;
const BODY_TYPES = new Map(bodyOneof.fields.filter((f) => f.name !== "other").map((f) => [f.name, f]));

const isInt = (v: unknown): v is number =>
  typeof v === "number" && Number.isInteger(v) && BigInt(v) >= INT64_MIN && BigInt(v) <= INT64_MAX;
const isObject = (v: unknown): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);

function fitsOne(field: DescField, value: unknown): boolean {
  if (field.fieldKind === "scalar" || (field.fieldKind === "list" && field.listKind === "scalar")) {
    switch (field.scalar) {
      case ScalarType.INT64: return isInt(value);
      case ScalarType.STRING: return typeof value === "string";
      case ScalarType.BOOL: return typeof value === "boolean";
      default: return false;
    }
  }
  const message = field.fieldKind === "message" || (field.fieldKind === "list" && field.listKind === "message")
    ? field.message : undefined;
  if (!message) return false;
  if (message.name === "StringList") return Array.isArray(value) && value.every((v) => typeof v === "string");
  if (message.name === "Action") return isObject(value) && typeof value.type === "string";
  return isObject(value);
}

function fits(field: DescField, value: unknown): boolean {
  if (field.fieldKind === "list") return Array.isArray(value) && value.length > 0 && value.every((v) => fitsOne(field, v));
  return fitsOne(field, value);
}

const scalarIn = (field: DescField, value: Json) => (field.scalar === ScalarType.INT64 ? BigInt(value as number) : value);

function messageIn(desc: DescMessage, value: Json): unknown {
  if (desc.name === "StringList") return create(desc, { items: value as string[] } as never);
  if (desc.name === "Action") return actionFromJson(value as ActionJson);
  const msg = create(desc) as Record<string, unknown>;
  const rest = fill(desc, msg, value as Record<string, Json>);
  if (Object.keys(rest).length) msg.extraJson = JSON.stringify(rest);
  return msg;
}

/** Store what fits into `msg`'s fields; return the rest. */
function fill(desc: DescMessage, msg: Record<string, unknown>, data: Record<string, Json>): Record<string, Json> {
  const rest: Record<string, Json> = {};
  for (const [key, value] of Object.entries(data)) {
    const field = desc.fields.find((f) => f.name === key && !f.oneof);
    if (!field || key === "extra_json" || !fits(field, value)) {
      rest[key] = value;
    } else if (field.fieldKind === "list") {
      msg[field.localName] = (value as Json[]).map((v) =>
        field.listKind === "message" ? messageIn(field.message, v) : scalarIn(field, v));
    } else if (field.fieldKind === "message") {
      msg[field.localName] = messageIn(field.message, value);
    } else {
      msg[field.localName] = scalarIn(field, value);
    }
  }
  return rest;
}

export function actionFromJson(data: ActionJson): Action {
  if (!isObject(data) || typeof data.type !== "string" || !data.type) throw new Error("an action needs a string `type`");
  const msg = create(ActionSchema) as unknown as Record<string, unknown> & Action;
  const rest: Record<string, Json> = {};
  const body: Record<string, Json> = {};
  for (const [key, value] of Object.entries(data)) {
    if (key === "type") continue;
    if (key === "entity") {
      if (isInt(value)) msg.entity = { case: "entityNumber", value: BigInt(value) };
      else if (typeof value === "string") msg.entity = { case: "entityName", value };
      else rest[key] = value;
    } else if (COMMON_KEYS.has(key)) {
      Object.assign(rest, fill(ActionSchema, msg, { [key]: value }));
    } else {
      body[key] = value;
    }
  }
  const bodyField = BODY_TYPES.get(data.type);
  if (bodyField && bodyField.fieldKind === "message") {
    const bodyMsg = create(bodyField.message) as Record<string, unknown>;
    Object.assign(rest, fill(bodyField.message, bodyMsg, body));
    msg.body = { case: bodyField.localName, value: bodyMsg } as Action["body"];
  } else {
    msg.body = { case: "other", value: create(bodyOneof.fields.find((f) => f.name === "other")!.message!, { type: data.type } as never) } as Action["body"];
    Object.assign(rest, body);
  }
  if (Object.keys(rest).length) msg.extraJson = JSON.stringify(rest);
  return msg;
}

const scalarOut = (value: unknown): Json =>
  (typeof value === "bigint" ? Number(value) : (value as Json));

function dump(desc: DescMessage, msg: Record<string, unknown>, out: Record<string, Json>): void {
  for (const field of desc.fields) {
    if (field.name === "extra_json" || field.oneof) continue;
    const value = msg[field.localName];
    if (field.fieldKind === "list") {
      const values = value as unknown[];
      if (!values.length) continue;
      out[field.name] = values.map((v) => (field.listKind === "message" ? messageOut(field.message, v) : scalarOut(v)));
    } else if (field.fieldKind === "message") {
      if (value !== undefined) out[field.name] = messageOut(field.message, value);
    } else if (value !== undefined) { // every scalar of these messages is `optional` (explicit presence)
      out[field.name] = scalarOut(value);
    }
  }
}

function messageOut(desc: DescMessage, value: unknown): Json {
  if (desc.name === "StringList") return [...(value as { items: string[] }).items];
  if (desc.name === "Action") return actionToJson(value as Action);
  const out: Record<string, Json> = {};
  dump(desc, value as Record<string, unknown>, out);
  const extra = (value as { extraJson?: string }).extraJson;
  return extra ? { ...out, ...JSON.parse(extra) } : out;
}

export function actionToJson(msg: Action): ActionJson {
  const body = msg.body;
  if (!body.case) throw new Error("the action has no type (no body set)");
  const type = body.case === "other" ? (body.value as { type: string }).type
    : bodyOneof.fields.find((f) => f.localName === body.case)!.name;
  const out: Record<string, Json> = { type };
  if (msg.entity.case) out.entity = typeof msg.entity.value === "bigint" ? Number(msg.entity.value) : msg.entity.value;
  dump(ActionSchema, msg as unknown as Record<string, unknown>, out);
  if (body.case !== "other") {
    const field = bodyOneof.fields.find((f) => f.localName === body.case)!;
    dump(field.message!, body.value as unknown as Record<string, unknown>, out);
  }
  if (msg.extraJson) Object.assign(out, JSON.parse(msg.extraJson));
  return out as ActionJson;
}

export function routeToJson(route: Route): Record<string, Json> {
  return messageOut(RouteSchema, route) as Record<string, Json>;
}
