// Hex geometry for both layouts, in the engine's terms (libs/engine/board/geometry.py): a
// coordinate is letters then a number; (x, y) are doubled coordinates; edges 0-5 run clockwise,
// edge 0 facing down on flat maps and down-left on pointy ones; a tile rotated r has each edge e
// of its definition at edge (e + r) % 6.
import type { BoardJson } from "../types";

export type Layout = "flat" | "pointy";
export type Point = [number, number];

export const R = 50;                        // circumradius of a hex, in map units
export const APOTHEM = (R * Math.sqrt(3)) / 2;

export function letterIndex(letters: string): number {
  if (letters === letters.toLowerCase()) return -(letters.charCodeAt(0) - 96);
  if (letters.length === 1) return letters.charCodeAt(0) - 65;
  return 26 * (letters.charCodeAt(0) - 64) + letters.charCodeAt(1) - 65;
}

export function coordXY(id: string, axes: BoardJson["axes"]): Point {
  const m = /^([A-Za-z]+)(-?\d+)$/.exec(id);
  if (!m) throw new Error(`bad hex coordinate ${id}`);
  const letter = letterIndex(m[1]);
  const number = parseInt(m[2], 10);
  return [axes.x === "letter" ? letter : number - 1, axes.y === "letter" ? letter : number - 1];
}

/** The centre of the hex at doubled coordinates (x, y). */
export function hexCenter([x, y]: Point, layout: Layout): Point {
  return layout === "flat" ? [x * 1.5 * R, y * APOTHEM] : [x * APOTHEM, y * 1.5 * R];
}

const rad = (deg: number) => (deg * Math.PI) / 180;
const polar = (deg: number, dist: number): Point => [dist * Math.cos(rad(deg)), dist * Math.sin(rad(deg))];

/** Direction (degrees, SVG: clockwise from +x) of edge e (may be fractional: k.5 is a corner). */
export function edgeAngle(edge: number, layout: Layout): number {
  return (layout === "flat" ? 90 : 120) + 60 * edge;
}

export const edgePoint = (edge: number, layout: Layout, dist = APOTHEM): Point => polar(edgeAngle(edge, layout), dist);

export function hexCorners(layout: Layout, radius = R): Point[] {
  return [0, 1, 2, 3, 4, 5].map((i) => polar(edgeAngle(i, layout) + 30, radius));
}

export const pointsAttr = (points: Point[]) => points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");

/** The two corners bounding edge e. */
export function edgeCorners(edge: number, layout: Layout): [Point, Point] {
  const a = edgeAngle(edge, layout);
  return [polar(a - 30, R), polar(a + 30, R)];
}

export const add = (a: Point, b: Point): Point => [a[0] + b[0], a[1] + b[1]];
export const scale = (a: Point, k: number): Point => [a[0] * k, a[1] * k];

/** The neighbour of a hex across edge e (doubled coordinates), as the engine's DELTAS. */
export const DELTAS: Record<Layout, Point[]> = {
  flat: [[0, 2], [-1, 1], [-1, -1], [0, -2], [1, -1], [1, 1]],
  pointy: [[-1, 1], [-2, 0], [-1, -1], [1, -1], [2, 0], [1, 1]],
};

export function neighbourEdge(from: Point, to: Point, layout: Layout): number | null {
  const d: Point = [to[0] - from[0], to[1] - from[1]];
  const i = DELTAS[layout].findIndex(([dx, dy]) => dx === d[0] && dy === d[1]);
  return i < 0 ? null : i;
}
