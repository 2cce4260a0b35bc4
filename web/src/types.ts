// The shapes the client reads: the engine's game view (GameView.view_json, libs/engine/views.py)
// and a title's facts (GetTitle: the engine's title data, libs/engine/titles). Only the keys the client uses.
import type { Json } from "./actions";

export type Id = string | number;

export interface PriceRef { price: number; cell: string }

export interface PlayerJson {
  id: Id; name: string; cash: number; value: number; bankrupt: boolean; certs: number;
  companies: string[];
  shares: Record<string, { percent: number; certificates: number; president: boolean; shares: number[] }>;
}

export interface CorporationJson {
  id: string; name: string; president: Id | null; cash: number;
  share_price: PriceRef | null; par_price: PriceRef | null;
  ipoed: boolean; floated: boolean; closed: boolean; ipo_percent: number; market_percent: number;
  trains: string[]; tokens: { price: number; hex: string | null }[]; companies: string[];
  loans: number; capitalization: string | null; color: string;
}

export interface CompanyJson {
  id: string; name: string; value: number; revenue: number; closed: boolean;
  owner: Id | null; owner_type: string | null;
}

export interface MarketCell { price: number; cell: string; types: string[]; corporations: string[] }

export interface MapState {
  tiles: Record<string, string>;              // hex -> "tile id@rotation" (not the printed tile)
  tokens: Record<string, (string | null)[]>;  // city ref ("H" or "H/k") -> slot contents
  reservations: Record<string, string[]>;     // city ref or hex -> holders
  icons: Record<string, string[]>;            // hex -> icon names where they differ from printed
  assignments: Record<string, string[]>;      // hex -> assigned keys
}

/** One acting entity's legal actions: the types and the choices a client needs (views.legal_actions). */
export interface LegalEntry {
  entity: Id; entity_type: string; player: Id | null; types: string[];
  [choice: string]: Json | undefined;
}

export interface GameJson {
  title: string; game_id: string; seq: number;
  round: { label: string; kind: string; name: string; step: string | null };
  turn: number; phase: string; bank: number; cert_limit: number; finished: boolean;
  game_end_reason: string | null; result: Record<string, number>;
  players: PlayerJson[]; priority: Id | null;
  corporations: CorporationJson[]; companies: CompanyJson[];
  market: { rows: (MarketCell | null)[][]; par_prices: string[] };
  depot: { upcoming: string[]; available: { train: string; price: number }[]; discarded: string[] };
  map: MapState | null;
  acting: Id[];
  log_tail: string[];
  legal_actions?: LegalEntry[];
}

// ---------------------------------------------------------------- title facts

export type PathEnd = number | string; // an edge 0-5, or a node "n0"
export type PathJson = [PathEnd, PathEnd] | [PathEnd, PathEnd, Record<string, Json>];

export interface NodeJson {
  type: "city" | "town" | "offboard" | string;
  revenue?: number | Record<string, number>;
  slots?: number; loc?: string; groups?: string[]; hide?: boolean; style?: string;
}

export interface TileDef {
  color: string; label?: string; nodes?: NodeJson[]; paths?: PathJson[];
  terrain?: { cost: number; terrains: string[] }[];
  borders?: { edge: number; type?: string; cost?: number }[];
  icons?: { name: string; sticky?: boolean }[];
  future_label?: [string, string];
}

export interface HexRecord {
  id: string; tile: string; def?: string; name?: string; blockers?: string[]; hide_name?: boolean;
}

export interface BoardJson {
  layout: "flat" | "pointy";
  axes: { x: "letter" | "number"; y: "letter" | "number" };
  tiles: Record<string, TileDef>;
  supply: [string, number | "unlimited"][];
  hexes: HexRecord[];
}

export interface TitleData {
  title: string; slug: string; currency: string;
  board: BoardJson;
  corporations: { sym: string; name: string; color: string; text_color?: string; coordinates?: string | string[] }[];
  minors?: { sym: string; name: string; color?: string; text_color?: string }[];
  companies: { sym: string; name: string; desc?: string }[];
  trains: { name: string; distance?: Json; price?: number }[];
  phases: { name: string; tiles?: string[]; train_limit?: Json; operating_rounds?: number }[];
}

export interface TitleIndexEntry {
  title: string; slug: string; display: string;
  players: [number, number] | null;
  optional_rules: { sym: string; short_name: string; desc?: string }[];
}
