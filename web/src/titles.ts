// Each title's facts, built into dist/titles/ from the engine's own data files (web/build.mjs).
import type { TitleData, TitleIndexEntry } from "./types";

let index: Promise<TitleIndexEntry[]> | null = null;
const loaded = new Map<string, Promise<TitleData>>();

async function fetchJson<T>(path: string): Promise<T> {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: ${response.status} ${response.statusText}`);
  return (await response.json()) as T;
}

export function titleIndex(): Promise<TitleIndexEntry[]> {
  index ??= fetchJson<TitleIndexEntry[]>("titles/index.json");
  return index;
}

/** A title's facts by its title string ("1847 AE", "1858India") or slug. */
export async function titleData(title: string): Promise<TitleData> {
  const entry = (await titleIndex()).find((t) => t.title === title || t.slug === title);
  if (!entry) throw new Error(`unknown title ${title}`);
  let data = loaded.get(entry.slug);
  if (!data) {
    data = fetchJson<TitleData>(`titles/${entry.slug}.json`);
    loaded.set(entry.slug, data);
  }
  return data;
}

export function money(data: TitleData | null, amount: number): string {
  return (data?.currency ?? "$%s").replace("%s", String(amount));
}
