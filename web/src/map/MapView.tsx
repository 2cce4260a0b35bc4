// The map of any title, drawn from its board data and the game's map state: one renderer, no
// per-title code. Hexes, tiles and tokens come from the title's facts plus the view's changes;
// the parent passes what can be clicked (hexes to lay on, cities to token) and what to overlay
// (a tile being placed, routes).
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { CompanyJson, HexRecord, MapState, TileDef, TitleData } from "../types";
import { type Layout, type Point, R, APOTHEM, coordXY, hexCenter, hexCorners, pointsAttr } from "./geometry";
import { type Holder, TileGraphic, splitTile } from "./tile";

export interface PlacedHex {
  rec: HexRecord;
  xy: Point;
  center: Point;
  tileId: string;           // the tile on the hex now ("57-1", or the printed "N11-0")
  def: TileDef;
  rotation: number;
}

export interface RouteOverlay { train: string; color: string; connections: string[][]; hexes: string[] }

export interface MapProps {
  data: TitleData;
  state: MapState | null;
  holder: (id: string) => Holder;
  money: (n: number) => string;
  companies?: CompanyJson[];
  selectable?: Set<string>;
  selected?: string | null;
  preview?: { hex: string; tile: string; rotation: number } | null;
  cityTargets?: Map<string, Map<number, number>>;   // hex -> city index -> slot
  routes?: RouteOverlay[];
  routeDraft?: string[];
  onHex?: (hex: string) => void;
  onCity?: (hex: string, city: number, slot: number) => void;
}

export function placedHexes(data: TitleData, state: MapState | null): PlacedHex[] {
  const board = data.board;
  return board.hexes.map((rec) => {
    const printed = splitTile(rec.tile);
    const now = state?.tiles[rec.id];
    const placed = now ? splitTile(now) : null;
    const defKey = placed ? placed.name : rec.def ?? printed.name;
    const xy = coordXY(rec.id, board.axes);
    return {
      rec, xy, center: hexCenter(xy, board.layout as Layout),
      tileId: placed ? placed.id : printed.id,
      def: board.tiles[defKey] ?? { color: "white" },
      rotation: placed ? placed.rotation : 0,
    };
  });
}

/** The city reference of the view's tokens and reservations: "HEX", or "HEX/k" on multi-city tiles. */
export function cityRef(hex: PlacedHex, city: number): string {
  const cities = (hex.def.nodes ?? []).filter((n) => n.type === "city").length;
  return cities > 1 ? `${hex.rec.id}/${city}` : hex.rec.id;
}

export function MapView(props: MapProps) {
  const { data, state } = props;
  const layout = data.board.layout as Layout;
  const hexes = useMemo(() => placedHexes(data, state), [data, state]);
  const box = useMemo(() => {
    const xs = hexes.map((h) => h.center[0]), ys = hexes.map((h) => h.center[1]);
    const pad = R + 6;
    return { x: Math.min(...xs) - pad, y: Math.min(...ys) - pad, w: Math.max(...xs) - Math.min(...xs) + 2 * pad, h: Math.max(...ys) - Math.min(...ys) + 2 * pad };
  }, [hexes]);
  const frame = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState(0.8);
  useEffect(() => {   // start with the whole width of the map in view
    const width = frame.current?.clientWidth ?? 0;
    if (width > 0) setZoom(Math.min(1.5, Math.max(0.4, (width - 4) / box.w)));
  }, [box.w]);
  const closed = new Set((props.companies ?? []).filter((c) => c.closed).map((c) => c.id));
  const centers = new Map(hexes.map((h) => [h.rec.id, h.center]));

  return (
    <div class="map" ref={frame}>
      <div class="map-tools">
        <button type="button" onClick={() => setZoom((z) => Math.min(z * 1.25, 3))} aria-label="zoom in">+</button>
        <button type="button" onClick={() => setZoom((z) => Math.max(z / 1.25, 0.3))} aria-label="zoom out">−</button>
      </div>
      <svg class="map-svg" viewBox={`${box.x} ${box.y} ${box.w} ${box.h}`} width={box.w * zoom} height={box.h * zoom}>
        {hexes.map((h) => {
          const id = h.rec.id;
          const previewing = props.preview?.hex === id ? props.preview : null;
          const def = previewing ? data.board.tiles[splitTile(previewing.tile).name] ?? h.def : h.def;
          const rotation = previewing ? previewing.rotation : h.rotation;
          const tileId = previewing ? previewing.tile : h.tileId;
          const placed: PlacedHex = { ...h, def, rotation, tileId };
          const badges = [
            ...((state?.icons[id] ?? h.def.icons?.map((i) => i.name) ?? [])),
            ...(state?.assignments[id] ?? []),
            ...((h.rec.blockers ?? []).filter((b) => !closed.has(b))),
          ];
          const selectable = props.selectable?.has(id);
          const targets = props.cityTargets?.get(id);
          const cls = ["hex", selectable ? "selectable" : "", props.selected === id ? "selected" : "", previewing ? "preview" : ""].join(" ");
          return (
            <g key={id} class={cls} data-hex={id} data-tile={tileId} data-rotation={rotation} transform={`translate(${h.center[0].toFixed(1)} ${h.center[1].toFixed(1)})`}
               onClick={props.onHex ? () => props.onHex!(id) : undefined}>
              <title>{h.rec.name ? `${id} ${h.rec.name}` : id}</title>
              <TileGraphic
                def={def} rotation={rotation} layout={layout} money={props.money} holder={props.holder}
                name={h.rec.hide_name ? undefined : h.rec.name}
                badges={badges}
                showTerrain={def === h.def}
                tokens={(k) => (previewing ? undefined : state?.tokens[cityRef(placed, k)])}
                reserved={(k) => [...(state?.reservations[cityRef(placed, k)] ?? []), ...(k === 0 ? state?.reservations[id] ?? [] : [])]}
                targets={targets}
                onCity={props.onCity ? (k, slot) => props.onCity!(id, k, slot) : undefined}
              />
              <polygon class="hex-outline" points={pointsAttr(hexCorners(layout))} />
              <text class="coord" x={0} y={-(layout === "flat" ? APOTHEM : R) * 0.84}>{id}</text>
            </g>
          );
        })}
        {(props.routes ?? []).map((route, i) => (
          <g key={route.train} class="route" data-train={route.train}>
            {route.connections.map((chain, j) => {
              const pts = chain.map((hex) => centers.get(hex)).filter((p): p is Point => !!p)
                .map(([x, y]) => [x + (i - 1) * 4, y + (i - 1) * 4] as Point);
              return <polyline key={j} points={pointsAttr(pts)} fill="none" stroke={route.color} stroke-width={7} stroke-opacity={0.75} stroke-linecap="round" stroke-linejoin="round" />;
            })}
          </g>
        ))}
        {props.routeDraft?.length ? (
          <polyline class="route-draft" points={pointsAttr(props.routeDraft.map((hex) => centers.get(hex)).filter((p): p is Point => !!p))} />
        ) : null}
      </svg>
    </div>
  );
}
