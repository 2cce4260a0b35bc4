// Pieces shared by the lobby and the tournament pages.
import type { TitleIndexEntry } from "../types";

export const SiteHeader = () => (
  <header class="site-header"><strong>Roundhouse</strong> <a href="#/">Games</a> <a href="#/tournaments">Tournaments</a></header>
);

/** The title's optional rules as checkboxes (nothing for a title without any). */
export function OptionalRules({ title, rules, set }: { title: TitleIndexEntry | undefined; rules: string[]; set: (rules: string[]) => void }) {
  if (!title?.optional_rules.length) return null;
  return (
    <fieldset><legend>Optional rules</legend>
      {title.optional_rules.map((r) => (
        <label key={r.sym} title={r.desc}><input type="checkbox" checked={rules.includes(r.sym)}
               onChange={() => set(rules.includes(r.sym) ? rules.filter((x) => x !== r.sym) : [...rules, r.sym])} /> {r.short_name}</label>
      ))}
    </fieldset>
  );
}
