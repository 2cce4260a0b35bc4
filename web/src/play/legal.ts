// Reading the engine's legal actions (views.legal_actions: per acting entity, its action types and
// their choices) and building the 18xx.games action JSON for a choice. Everything the client knows
// about the shape of the choices is here, so a change of shape is one change.
//
// Tile lays are reached through `tileLays` only: the choices name the hexes (`lay_hexes`), and a
// hex's tiles and rotations come on request from the Gateway (GetTileLays), checked against the
// track restriction there.
import { gateway } from "../api";
import type { ActionJson, Json } from "../actions";
import type { Id, LegalEntry } from "../types";

export type Choice = Record<string, Json>;

export const list = (entry: LegalEntry, key: string): Choice[] =>
  Array.isArray(entry[key]) ? (entry[key] as Choice[]) : [];

export function base(entry: LegalEntry, type: string, fields: Record<string, Json> = {}): ActionJson {
  return { type, entity: entry.entity as Json, entity_type: entry.entity_type, ...fields };
}

export const sameId = (a: Id | null | undefined, b: Id | null | undefined) => a !== null && a !== undefined && b !== null && b !== undefined && String(a) === String(b);

// ------------------------------------------------------------------ tile lays

export interface TileLay { tile: string; rotations: number[]; cost: number }

export interface TileLays {
  /** The hexes the entity may lay a tile on now. */
  hexes(): string[];
  /** The tiles and rotations it may lay on `hex`. */
  forHex(hex: string): Promise<TileLay[]>;
}

export function tileLays(entry: LegalEntry, gameId: string): TileLays {
  const hexes = Array.isArray(entry.lay_hexes) ? (entry.lay_hexes as string[]) : [];
  return {
    hexes: () => hexes,
    forHex: async (hex) => {
      const answer = await gateway.getTileLays({
        gameId, entity: String(entry.entity), entityType: entry.entity_type, hex,
      });
      return answer.lays.map((l) => ({ tile: l.tile, rotations: [...l.rotations], cost: Number(l.cost ?? 0) }));
    },
  };
}

export const layTile = (entry: LegalEntry, hex: string, tile: string, rotation: number) =>
  base(entry, "lay_tile", { hex, tile, rotation });

// ------------------------------------------------------------------ tokens

export interface TokenTarget { city: string; hex: string; index: number; slot: number; price: number | null }

/** Cities the entity may place a token in (`cities`: {city: "57-0-0", slot, hex, price}). */
export function tokenTargets(entry: LegalEntry): TokenTarget[] {
  return list(entry, "cities").map((c) => {
    const city = c.city as string;
    return {
      city, hex: c.hex as string, index: parseInt(city.slice(city.lastIndexOf("-") + 1), 10),
      slot: (c.slot as number) ?? 0, price: (c.price as number) ?? (entry.token_price as number) ?? null,
    };
  });
}

export const placeToken = (entry: LegalEntry, t: TokenTarget) => base(entry, "place_token", { city: t.city, slot: t.slot });

// ------------------------------------------------------------------ generic choices of the other types

/** The choices a `choose`-like key offers, as (value to send, label) pairs: a {choice: label}
 *  object, a list of strings, or a list of objects. */
export function choiceOptions(value: Json | undefined): { value: Json; label: string }[] {
  if (Array.isArray(value)) {
    return value.map((v) => ({ value: v, label: typeof v === "object" && v !== null ? Object.values(v).join(" ") : String(v) }));
  }
  if (value && typeof value === "object") return Object.entries(value).map(([k, label]) => ({ value: k, label: String(label) }));
  return [];
}
