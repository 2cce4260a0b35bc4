// The Gateway and the Tournaments service (hosted tournaments), as the browser reaches them: the
// Connect protocol (binary) on the page's own origin.
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { Gateway } from "./gen/roundhouse/v1/gateway_pb";
import { Tournaments } from "./gen/roundhouse/v1/tournament_api_pb";

const transport = createConnectTransport({ baseUrl: globalThis.location?.origin ?? "http://localhost", useBinaryFormat: true });
export const gateway = createClient(Gateway, transport);
export const tournaments = createClient(Tournaments, transport);

/** A failed call as a person reads it: the server's message (the engine's reason for an illegal move). */
export function errorText(error: unknown): string {
  if (error instanceof ConnectError) return error.rawMessage || error.message;
  return error instanceof Error ? error.message : String(error);
}

export function isCancel(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError"
    || error instanceof ConnectError && error.code === Code.Canceled;
}

export const isNotFound = (error: unknown) => error instanceof ConnectError && error.code === Code.NotFound;

const decoder = new TextDecoder();
const encoder = new TextEncoder();
export const jsonOf = <T>(bytes: Uint8Array): T => JSON.parse(decoder.decode(bytes)) as T;
export const bytesOf = (value: unknown): Uint8Array => encoder.encode(typeof value === "string" ? value : JSON.stringify(value));

/** Offer `document` to the user as a file called `name` (a download started from the page). */
export function saveFile(document: Uint8Array, name: string, type: string) {
  const url = URL.createObjectURL(new Blob([document as BlobPart], { type }));
  const a = globalThis.document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
