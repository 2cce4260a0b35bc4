// Each title's facts, as the engine reads them, from the Gateway (ListTitles, GetTitle): fetched once
// per page load and title, since they never change while the platform runs.
import { gateway, jsonOf } from "./api";
import type { TitleData, TitleIndexEntry } from "./types";

let index: Promise<TitleIndexEntry[]> | null = null;
const loaded = new Map<string, Promise<TitleData>>();

export function titleIndex(): Promise<TitleIndexEntry[]> {
  index ??= gateway.listTitles({}).then((response) => response.titles.map((t) => ({
    title: t.title, slug: t.slug, display: t.display,
    players: [t.minPlayers, t.maxPlayers] as [number, number],
    optional_rules: t.optionalRules.map((r) => ({ sym: r.sym, short_name: r.shortName, desc: r.desc })),
  })));
  index.catch(() => { index = null; });   // a failed call is tried again next time
  return index;
}

/** A title's facts by its title string ("1847 AE", "1858India") or slug. */
export async function titleData(title: string): Promise<TitleData> {
  const entry = (await titleIndex()).find((t) => t.title === title || t.slug === title);
  if (!entry) throw new Error(`unknown title ${title}`);
  let data = loaded.get(entry.slug);
  if (!data) {
    data = gateway.getTitle({ title: entry.slug }).then((facts) => jsonOf<TitleData>(facts.factsJson));
    data.catch(() => loaded.delete(entry.slug));
    loaded.set(entry.slug, data);
  }
  return data;
}

export function money(data: TitleData | null, amount: number): string {
  return (data?.currency ?? "$%s").replace("%s", String(amount));
}
