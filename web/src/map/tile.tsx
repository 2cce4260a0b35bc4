// One tile drawn from its definition (a title's data.json `board.tiles`), centred at (0, 0):
// track, cities with their token slots, towns, off-board revenue, terrain and its cost, borders,
// label and icons. The same drawing serves the map, the tile picker and the preview of a lay.
import type { JSX } from "preact";
import type { NodeJson, PathEnd, TileDef } from "../types";
import {
  APOTHEM, type Layout, type Point, R, add, edgeCorners, edgePoint, hexCorners, pointsAttr, scale,
} from "./geometry";

export const TILE_COLORS: Record<string, string> = {
  white: "#eae0c8", yellow: "#fde900", green: "#71bf44", brown: "#cb7745", gray: "#bcbdc0",
  red: "#ec232a", blue: "#35a7ff", black: "#4b4b4b", orange: "#f48221", purple: "#8e5ea2", sepia: "#d5b78d",
};
const PHASE_ORDER = ["yellow", "green", "brown", "gray", "black", "orange", "blue", "purple"];
const BORDER_COLORS: Record<string, string> = { impassable: "#d00", water: "#1e64c8", province: "#333", mountain: "#8b5a2b" };

export interface Holder { fill: string; text: string; label: string }

export interface TileDrawing {
  def: TileDef;
  rotation: number;
  layout: Layout;
  money: (amount: number) => string;
  holder: (id: string) => Holder;          // how a corporation's (or minor's) token looks
  tokens?: (city: number) => (string | null)[] | undefined;
  reserved?: (city: number) => string[];
  targets?: Map<number, number>;           // city index -> slot offered for a token here
  onCity?: (city: number, slot: number) => void;
  name?: string;                           // the hex's location name
  badges?: string[];                       // icons, assignments and blockers shown as text
  showTerrain?: boolean;
}

const nodeRef = (end: PathEnd): number | null =>
  typeof end === "string" && end.startsWith("n") ? parseInt(end.slice(1), 10) : null;

/** How far a node reaches from its centre (a city's slots side by side). */
export function nodeExtent(node: NodeJson): number {
  if (node.type !== "city") return 7;
  const slots = Math.max(node.slots ?? 1, 1);
  return slots === 1 ? SLOT_R + 1.5 : slots === 2 ? 2 * SLOT_R + 1.5 : SLOT_R * 2.3;
}

export const SLOT_R = 10.5;

/** Where each node of the definition sits on the rotated tile: at its `loc`, else towards its
 *  exits (at the centre when it is alone), then pushed apart where two would overlap. */
export function nodePositions(def: TileDef, rotation: number, layout: Layout): Point[] {
  const nodes = def.nodes ?? [];
  const exits: number[][] = nodes.map(() => []);
  for (const [a, b] of def.paths ?? []) {
    const na = nodeRef(a), nb = nodeRef(b);
    if (na !== null && typeof b === "number") exits[na].push(b);
    if (nb !== null && typeof a === "number") exits[nb].push(a);
  }
  const shown = nodes.filter((n) => !n.hide).length;
  const out = nodes.map((node, i): Point => {
    if (node.loc !== undefined) {
      if (node.loc === "center") return [0, 0];
      const k = parseFloat(node.loc);
      return edgePoint(k + rotation, layout, APOTHEM * (Number.isInteger(k) ? 0.55 : 0.62));
    }
    if (shown <= 1) return [0, 0];
    if (exits[i].length) {
      const v = exits[i].reduce<Point>((acc, e) => add(acc, edgePoint(e + rotation, layout, 1)), [0, 0]);
      const len = Math.hypot(v[0], v[1]);
      return len < 0.1 ? [0, 0] : scale(v, (APOTHEM * 0.55) / len);
    }
    return edgePoint(1.5 + (i * 6) / nodes.length + rotation, layout, APOTHEM * 0.5);
  });
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < nodes.length; i++) {
      for (let j = i + 1; j < nodes.length; j++) {
        if (nodes[i].hide || nodes[j].hide) continue;
        const need = nodeExtent(nodes[i]) + nodeExtent(nodes[j]) + 2;
        let d: Point = [out[j][0] - out[i][0], out[j][1] - out[i][1]];
        let len = Math.hypot(d[0], d[1]);
        if (len >= need) continue;
        if (len < 0.1) { d = [1, 0]; len = 1; }
        const push = scale(d, (need - len) / (2 * len));
        out[i] = [out[i][0] - push[0], out[i][1] - push[1]];
        out[j] = add(out[j], push);
      }
    }
  }
  return out;
}

function slotOffsets(n: number, rs: number): Point[] {
  if (n <= 1) return [[0, 0]];
  if (n === 2) return [[-rs, 0], [rs, 0]];
  if (n === 3) return [[0, -rs * 1.1], [-rs, rs * 0.65], [rs, rs * 0.65]];
  if (n === 4) return [[-rs, -rs], [rs, -rs], [-rs, rs], [rs, rs]];
  return Array.from({ length: n }, (_, i) => [
    rs * 1.6 * Math.cos((2 * Math.PI * i) / n - Math.PI / 2), rs * 1.6 * Math.sin((2 * Math.PI * i) / n - Math.PI / 2)]);
}

function RevenueTable({ at, revenue }: { at: Point; revenue: Record<string, number> }) {
  const colors = Object.keys(revenue).sort((a, b) => PHASE_ORDER.indexOf(a) - PHASE_ORDER.indexOf(b));
  const w = 17, h = 13;
  const x0 = at[0] - (colors.length * w) / 2;
  return (
    <g class="revenue-table">
      {colors.map((c, i) => (
        <g key={c}>
          <rect x={x0 + i * w} y={at[1] - h / 2} width={w} height={h} fill={TILE_COLORS[c] ?? "#fff"} stroke="#000" stroke-width="0.8" />
          <text x={x0 + i * w + w / 2} y={at[1] + 4} class={c === "black" || c === "purple" ? "rev-num light" : "rev-num"}>{revenue[c]}</text>
        </g>
      ))}
    </g>
  );
}

function Revenue({ at, value }: { at: Point; value: number }) {
  if (!value) return null;
  return (
    <g class="revenue">
      <circle cx={at[0]} cy={at[1]} r={8.5} fill="#fff" stroke="#000" stroke-width="0.8" />
      <text x={at[0]} y={at[1] + 3.5} class="rev-num">{value}</text>
    </g>
  );
}

function trackStyle(options: Record<string, unknown> | undefined) {
  const track = options?.track;
  if (track === "narrow") return { stroke: "#000", "stroke-width": 6, "stroke-dasharray": "7 4" };
  return { stroke: "#000", "stroke-width": 8 };
}

function Track({ def, rotation, layout, positions }: { def: TileDef; rotation: number; layout: Layout; positions: Point[] }) {
  const parts: JSX.Element[] = [];
  (def.paths ?? []).forEach((path, i) => {
    const [a, b] = path;
    const options = path[2] as Record<string, unknown> | undefined;
    const point = (end: PathEnd): Point => (typeof end === "number" ? edgePoint(end + rotation, layout) : positions[nodeRef(end) ?? 0] ?? [0, 0]);
    const pa = point(a), pb = point(b);
    let d: string;
    if (typeof a === "number" && typeof b === "number" && (b - a + 6) % 6 !== 3) {
      d = `M ${pa[0].toFixed(1)} ${pa[1].toFixed(1)} Q 0 0 ${pb[0].toFixed(1)} ${pb[1].toFixed(1)}`;
    } else {
      d = `M ${pa[0].toFixed(1)} ${pa[1].toFixed(1)} L ${pb[0].toFixed(1)} ${pb[1].toFixed(1)}`;
    }
    const style = trackStyle(options);
    parts.push(<path key={`t${i}`} d={d} fill="none" {...style} />);
    if (options?.track === "dual") parts.push(<path key={`d${i}`} d={d} fill="none" stroke="#fff" stroke-width={2} />);
  });
  return <g class="track">{parts}</g>;
}

function Terrain({ def, layout, money }: { def: TileDef; layout: Layout; money: (n: number) => string }) {
  if (!def.terrain?.length) return null;
  const at: Point = layout === "flat" ? [R * 0.42, APOTHEM * 0.55] : [APOTHEM * 0.45, R * 0.55];
  return (
    <g class="terrain">
      {def.terrain.map((t, i) => {
        const kind = t.terrains[0] ?? "";
        const [x, y] = [at[0] - i * 22, at[1]];
        const mark = kind === "mountain" || kind === "hill"
          ? <polygon points={`${x - 16},${y - 2} ${x - 10},${y - 12} ${x - 4},${y - 2}`} fill="#8b5a2b" />
          : kind ? <path d={`M ${x - 18} ${y - 6} q 3 -4 6 0 t 6 0 t 6 0`} fill="none" stroke="#1e64c8" stroke-width="2" /> : null;
        return <g key={i}>{mark}<text x={x + 2} y={y - 3} class="cost">{money(t.cost)}</text></g>;
      })}
    </g>
  );
}

function City(props: {
  at: Point; index: number; node: NodeJson; tile: TileDrawing;
}) {
  const { at, index, node, tile } = props;
  const slots = Math.max(node.slots ?? 1, 1);
  const rs = SLOT_R;
  const offsets = slotOffsets(slots, rs);
  const tokens = tile.tokens?.(index) ?? [];
  const reserved = tile.reserved?.(index) ?? [];
  const target = tile.targets?.get(index);
  const shape = slots === 1 ? <circle cx={at[0]} cy={at[1]} r={rs + 1.5} fill="#fff" stroke="#000" stroke-width="1.5" />
    : slots === 2 ? <rect x={at[0] - 2 * rs - 1.5} y={at[1] - rs - 1.5} width={4 * rs + 3} height={2 * rs + 3} rx={rs + 1.5} fill="#fff" stroke="#000" stroke-width="1.5" />
      : <circle cx={at[0]} cy={at[1]} r={rs * 2.3} fill="#fff" stroke="#000" stroke-width="1.5" />;
  const free = reserved.slice();
  return (
    <g class={target !== undefined ? "city target" : "city"} data-city={index}>
      {shape}
      {offsets.map((off, slot) => {
        const corp = tokens[slot] ?? null;
        const look = corp ? tile.holder(corp) : null;
        const hold = !corp && free.length ? free.shift()! : null;
        const [x, y] = add(at, off);
        const clickable = target !== undefined && tile.onCity !== undefined;
        return (
          <g key={slot} class={clickable ? "slot clickable" : "slot"} data-slot={slot} data-token={corp ?? undefined}
             onClick={clickable ? (e) => { e.stopPropagation(); tile.onCity!(index, target!); } : undefined}>
            <circle cx={x} cy={y} r={rs} fill={look ? look.fill : "#fff"} stroke="#000" stroke-width="1" />
            {look && <text x={x} y={y + 3} class="token-label" fill={look.text}>{look.label}</text>}
            {hold && <text x={x} y={y + 3} class="token-label reserved">{tile.holder(hold).label}</text>}
          </g>
        );
      })}
      {tokens.slice(slots).map((corp, i) => corp && (
        <g key={`x${i}`} class="slot extra" data-token={corp}>
          <circle cx={at[0] + rs * (slots + 0.6 + i * 1.6)} cy={at[1] - rs} r={rs * 0.8} fill={tile.holder(corp).fill} stroke="#000" stroke-width="1" />
          <text x={at[0] + rs * (slots + 0.6 + i * 1.6)} y={at[1] - rs + 3} class="token-label small" fill={tile.holder(corp).text}>{tile.holder(corp).label}</text>
        </g>
      ))}
    </g>
  );
}

/** A tile and what stands on it, centred at (0, 0). */
export function TileGraphic(tile: TileDrawing) {
  const { def, rotation, layout } = tile;
  const positions = nodePositions(def, rotation, layout);
  const nodes = def.nodes ?? [];
  const cityIndex: number[] = [];
  let cities = 0;
  nodes.forEach((n, i) => { cityIndex[i] = n.type === "city" ? cities++ : -1; });
  const labelAt: Point = [-(layout === "flat" ? R * 0.6 : APOTHEM * 0.68), 5];
  const nameAt: Point = [0, layout === "flat" ? APOTHEM * 0.82 : R * 0.72];
  return (
    <g class="tile">
      <polygon points={pointsAttr(hexCorners(layout))} fill={TILE_COLORS[def.color] ?? "#ddd"} stroke="none" />
      {tile.showTerrain !== false && <Terrain def={def} layout={layout} money={tile.money} />}
      {(def.borders ?? []).map((b, i) => {
        const [p, q] = edgeCorners(b.edge + rotation, layout);
        return <line key={`b${i}`} x1={p[0]} y1={p[1]} x2={q[0]} y2={q[1]} stroke={BORDER_COLORS[b.type ?? "water"] ?? "#1e64c8"}
                     stroke-width={b.type === "province" ? 3 : 6} stroke-dasharray={b.type === "province" ? "5 3" : undefined} />;
      })}
      <Track def={def} rotation={rotation} layout={layout} positions={positions} />
      {nodes.map((node, i) => {
        if (node.hide) return null;
        const at = positions[i];
        if (node.type === "city") {
          const rev = node.revenue;
          const slots = Math.max(node.slots ?? 1, 1);
          const revAt: Point = add(at, [slots === 2 ? 0 : 17, slots === 2 ? -19 : -15]);
          return (
            <g key={i}>
              <City at={at} index={cityIndex[i]} node={node} tile={tile} />
              {typeof rev === "object" && rev ? <RevenueTable at={add(at, [0, -24])} revenue={rev} /> : <Revenue at={revAt} value={(rev as number) ?? 0} />}
            </g>
          );
        }
        if (node.type === "town") {
          const rev = node.revenue;
          return (
            <g key={i} class="town">
              <circle cx={at[0]} cy={at[1]} r={node.style === "dot" ? 5 : 6} fill="#000" />
              {typeof rev === "number" && <Revenue at={add(at, [13, -11])} value={rev} />}
            </g>
          );
        }
        const rev = node.revenue;
        return (
          <g key={i} class="offboard">
            {typeof rev === "object" && rev ? <RevenueTable at={at} revenue={rev} /> : <Revenue at={at} value={(rev as number) ?? 0} />}
          </g>
        );
      })}
      {def.label && <text x={labelAt[0]} y={labelAt[1]} class="tile-label">{def.label}</text>}
      {tile.name && <text x={nameAt[0]} y={nameAt[1]} class="hex-name">{tile.name}</text>}
      {tile.badges?.length ? (
        <g class="badges">
          {tile.badges.map((b, i) => {
            const x = (i - (tile.badges!.length - 1) / 2) * 26, y = -(layout === "flat" ? APOTHEM : R) * 0.66;
            return <g key={i}><rect x={x - 12} y={y - 6} width={24} height={11} rx={3} class="badge" /><text x={x} y={y + 3} class="badge-text">{b.slice(0, 5)}</text></g>;
          })}
        </g>
      ) : null}
    </g>
  );
}

/** Rotated ids of a tile id with its rotation ("57-1@3") or a printed tile record. */
export function splitTile(value: string): { id: string; name: string; rotation: number } {
  const [id, rot] = value.split("@");
  const cut = id.lastIndexOf("-");
  return { id, name: cut > 0 ? id.slice(0, cut) : id, rotation: rot ? parseInt(rot, 10) : 0 };
}
