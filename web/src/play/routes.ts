// Routes as run_routes takes them, from hexes the player clicks in order along the track: the
// route is split into connections at the hexes with a stop (city, town or off-board area). The
// engine validates the route and computes its revenue when it is submitted.
import type { Json } from "../actions";
import { type Layout, neighbourEdge } from "../map/geometry";
import type { PlacedHex } from "../map/MapView";

export const ROUTE_COLORS = ["#e6194b", "#4363d8", "#3cb44b", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#808000"];

export function isStop(hex: PlacedHex): boolean {
  return (hex.def.nodes ?? []).some((n) => !n.hide && (n.type === "city" || n.type === "town" || n.type === "offboard"));
}

/** Whether `next` may follow the draft (a neighbour of its last hex, not already in it). */
export function canExtend(draft: string[], next: string, hexes: Map<string, PlacedHex>, layout: Layout): boolean {
  if (!draft.length) return hexes.has(next) && isStop(hexes.get(next)!);
  const last = hexes.get(draft[draft.length - 1]), hex = hexes.get(next);
  if (!last || !hex) return false;
  return neighbourEdge(last.xy, hex.xy, layout) !== null && !draft.includes(next);
}

/** The route of `train` along `draft`, or a reason it is not one yet. */
export function routeOf(train: string, draft: string[], hexes: Map<string, PlacedHex>): Record<string, Json> | string {
  if (draft.length < 2) return "a route joins at least two stops";
  const stopAt = draft.map((id) => isStop(hexes.get(id)!));
  if (!stopAt[0] || !stopAt[stopAt.length - 1]) return "a route starts and ends at a stop";
  const connections: string[][] = [];
  const stops: string[] = [draft[0]];
  let chain: string[] = [draft[0]];
  for (let i = 1; i < draft.length; i++) {
    chain.push(draft[i]);
    if (stopAt[i]) {
      connections.push(chain);
      stops.push(draft[i]);
      chain = [draft[i]];
    }
  }
  return { train, connections, hexes: stops, revenue_str: stops.join("-") };
}
