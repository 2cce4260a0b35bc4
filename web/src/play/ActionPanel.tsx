// Controls for every legal action of the entities this seat controls: one section per entity,
// one control per action type, each building the 18xx.games action JSON from the engine's choices.
// Map-driven types (lay_tile, place_token, run_routes) hand over to the map through `interaction`.
import { useState } from "preact/hooks";
import type { ActionJson, Json } from "../actions";
import type { GameJson, LegalEntry, TitleData } from "../types";
import { type Choice, base, choiceOptions, list } from "./legal";

export type Interaction =
  | { kind: "lay"; entry: number; hex?: string; tiles?: { tile: string; rotations: number[]; cost: number }[]; tile?: number; rotation?: number }
  | { kind: "token"; entry: number }
  | { kind: "routes"; entry: number };

export interface PanelProps {
  game: GameJson;
  data: TitleData;
  entries: LegalEntry[];
  busy: boolean;
  interaction: Interaction | null;
  setInteraction: (i: Interaction | null) => void;
  submit: (action: ActionJson) => Promise<boolean>;
  money: (n: number) => string;
  names: (id: Json | null | undefined) => string;
  routesPanel: (entry: LegalEntry, index: number) => preact.ComponentChildren;
  layPanel: (entry: LegalEntry, index: number) => preact.ComponentChildren;
  tokenPanel: (entry: LegalEntry, index: number) => preact.ComponentChildren;
}

const TYPE_LABELS: Record<string, string> = {
  pass: "Pass", bid: "Bid", par: "Par", buy_shares: "Buy shares", sell_shares: "Sell shares",
  lay_tile: "Lay track", place_token: "Place token", run_routes: "Run routes", dividend: "Dividend",
  buy_train: "Buy train", discard_train: "Discard train", scrap_train: "Scrap train", buy_company: "Buy company",
  take_loan: "Take loan", payoff_loan: "Pay off loan", choose: "Choose", choose_ability: "Use ability",
  assign: "Assign", acquire_company: "Acquire company", merge: "Merge", special_buy: "Buy",
  borrow_train: "Borrow train", remove_token: "Remove token", convert: "Convert", hex_token: "Destination token",
  remove_hex_token: "Collect token", payoff_player_debt: "Pay off debt", payoff_player_debt_partial: "Pay off part of the debt",
  bankrupt: "Declare bankruptcy",
};

function Amount(props: { min: number; max?: number; initial?: number; label: string; onGo: (n: number) => void; disabled: boolean; name: string }) {
  const [value, setValue] = useState(String(props.initial ?? props.min));
  return (
    <span class="amount" data-amount={props.name}>
      <input type="number" name={props.name} min={props.min} max={props.max} value={value}
             onInput={(e) => setValue((e.target as HTMLInputElement).value)} />
      <button type="button" disabled={props.disabled} onClick={() => props.onGo(parseInt(value, 10))}>{props.label}</button>
    </span>
  );
}

function Buttons(props: { items: { key: string; label: string; action: ActionJson }[]; p: PanelProps }) {
  return (
    <div class="choices">
      {props.items.map((it) => (
        <button key={it.key} type="button" data-action={it.action.type} data-act={JSON.stringify(it.action)} disabled={props.p.busy}
                onClick={() => props.p.submit(it.action)}>{it.label}</button>
      ))}
    </div>
  );
}

function shareLabel(share: string) {
  const cut = share.lastIndexOf("_");
  return cut > 0 ? share.slice(0, cut) : share;
}

function TypeControl({ entry, index, type, p }: { entry: LegalEntry; index: number; type: string; p: PanelProps }) {
  const { money, busy, submit, names } = p;
  switch (type) {
    case "pass":
      return <Buttons p={p} items={[{ key: "pass", label: "Pass", action: base(entry, "pass") }]} />;
    case "bid": {
      const max = (entry.max_bid ?? {}) as Record<string, number>;
      return (
        <table class="bids">
          <tbody>
            {list(entry, "companies").map((c) => {
              const company = c.company as string;
              const min = c.min_bid as number;
              return (
                <tr key={company} data-company={company}>
                  <td>{company}</td><td>{names(company)}</td><td>min {money(min)}</td>
                  <td><Amount name={`bid-${company}`} min={min} max={max[company]} label="Bid" disabled={busy}
                              onGo={(price) => submit(base(entry, "bid", { company, price }))} /></td>
                </tr>
              );
            })}
          </tbody>
        </table>
      );
    }
    case "par":
      return <ParControl entry={entry} p={p} />;
    case "buy_shares": {
      const items = list(entry, "buy_shares").map((s, i) => {
        if (Array.isArray(s.shares)) {
          return { key: `b${i}`, label: `Redeem ${s.percent}% of ${shareLabel((s.shares as string[])[0])} (${money(s.price as number)})`,
                   action: base(entry, "buy_shares", { shares: s.shares, percent: s.percent }) };
        }
        const share = s.share as string;
        const from = s.from === "ipo" ? "IPO" : s.from === "market" ? "market" : String(s.from);
        return { key: `b${i}`, label: `Buy ${shareLabel(share)} from ${from} (${money(s.price as number)})`,
                 action: base(entry, "buy_shares", { shares: [share] }) };
      });
      for (const [i, x] of list(entry, "exchange").entries()) {
        const shares = x.shares as string[];
        items.push({ key: `x${i}`, label: `Exchange for ${x.president ? "the president's certificate of " : "a share of "}${shareLabel(shares[0])}`,
                     action: base(entry, "buy_shares", { shares, percent: x.percent }) });
      }
      return items.length ? <Buttons p={p} items={items} /> : <p class="muted">No shares to buy now.</p>;
    }
    case "sell_shares": {
      const items = list(entry, "sell_shares").map((b, i) => ({
        key: `s${i}`, label: `${entry.entity_type === "corporation" ? "Issue" : "Sell"} ${b.percent}% ${shareLabel((b.shares as string[])[0])} (${money(b.price as number)})`,
        action: base(entry, "sell_shares", { shares: b.shares, percent: b.percent }),
      }));
      return items.length ? <Buttons p={p} items={items} /> : <p class="muted">Nothing to sell now.</p>;
    }
    case "lay_tile":
      return <>{p.layPanel(entry, index)}</>;
    case "place_token":
      return <>{p.tokenPanel(entry, index)}</>;
    case "run_routes":
      return <>{p.routesPanel(entry, index)}</>;
    case "dividend": {
      const options = (entry.dividend_options ?? {}) as Record<string, { to_corporation: number; per_share: number }>;
      const items = Object.entries(options).map(([kind, o]) => ({
        key: kind, label: `${kind === "payout" ? "Pay out" : kind === "withhold" ? "Withhold" : kind === "half" ? "Half pay" : kind}: ${money(o.per_share)} a share, ${money(o.to_corporation)} to the treasury`,
        action: base(entry, "dividend", { kind }),
      }));
      return (
        <div>
          {entry.revenue !== undefined && <p>Revenue {money(entry.revenue as number)}</p>}
          <Buttons p={p} items={items} />
        </div>
      );
    }
    case "buy_train":
      return <BuyTrain entry={entry} p={p} />;
    case "discard_train":
    case "scrap_train":
    case "borrow_train": {
      const trains = (Array.isArray(entry[type]) ? entry[type] : []) as string[];
      return <Buttons p={p} items={trains.map((t) => ({ key: t, label: `${TYPE_LABELS[type]} ${t}`, action: base(entry, type, { train: t }) }))} />;
    }
    case "buy_company":
      return (
        <table class="bids">
          <tbody>
            {list(entry, "companies").map((c) => {
              const company = c.company as string;
              const min = (c.min_price ?? c.price) as number, max = (c.max_price ?? c.price) as number;
              return (
                <tr key={company} data-company={company}>
                  <td>{company}</td><td>{names(company)}</td><td>{money(min)}–{money(max)}</td>
                  <td><Amount name={`buy-${company}`} min={min} max={max} initial={max} label="Buy" disabled={busy}
                              onGo={(price) => submit(base(entry, "buy_company", { company, price }))} /></td>
                </tr>
              );
            })}
          </tbody>
        </table>
      );
    case "take_loan":
    case "payoff_loan": {
      const loan = (entry[type] as Choice | undefined)?.loan;
      return <Buttons p={p} items={[{ key: type, label: TYPE_LABELS[type], action: base(entry, type, loan === undefined ? {} : { loan }) }]} />;
    }
    case "choose":
    case "choose_ability": {
      const source = entry[type] ?? entry.choices;
      return <Buttons p={p} items={choiceOptions(source).map((o, i) => ({ key: `c${i}`, label: o.label, action: base(entry, type, { choice: o.value }) }))} />;
    }
    case "assign":
      return <Buttons p={p} items={((entry.assign_hexes ?? []) as string[]).map((hex) => ({ key: hex, label: `Assign to ${hex}`, action: base(entry, "assign", { target: hex, target_type: "hex" }) }))} />;
    case "acquire_company":
      return <Buttons p={p} items={((entry.acquire_company ?? []) as string[]).map((c) => ({ key: c, label: `Acquire ${c} (${names(c)})`, action: base(entry, "acquire_company", { company: c }) }))} />;
    case "merge": {
      const merge = entry.merge;
      const targets = (Array.isArray(merge) ? merge : merge ? [merge] : []) as Choice[];
      return <Buttons p={p} items={targets.map((m) => ({ key: String(m.corporation), label: `Merge ${m.corporation}`, action: base(entry, "merge", { corporation: m.corporation }) }))} />;
    }
    case "special_buy":
      return <Buttons p={p} items={list(entry, "special_buy").map((s) => ({ key: String(s.description), label: `${s.description} (${money(s.cost as number)})`, action: base(entry, "special_buy", { description: s.description, cost: s.cost }) }))} />;
    case "remove_token":
      return <Buttons p={p} items={list(entry, "remove_token").map((t) => ({ key: `${t.city}-${t.slot}`, label: `Remove the token on ${t.hex}`, action: base(entry, "remove_token", { city: t.city, slot: t.slot }) }))} />;
    case "convert": {
      const corps = (Array.isArray(entry.convert) ? entry.convert : []) as string[];
      const items = entry.entity_type === "corporation" && !corps.length
        ? [{ key: "convert", label: "Convert", action: base(entry, "convert") }]
        : corps.map((c) => ({ key: c, label: `Convert ${c}`, action: { type: "convert", entity: c, entity_type: "corporation" } as ActionJson }));
      return <Buttons p={p} items={items} />;
    }
    case "hex_token": {
      const ht = entry.hex_token as Choice | undefined;
      return ht ? <Buttons p={p} items={[{ key: "ht", label: `Place the destination token on ${ht.hex}`, action: base(entry, "hex_token", { hex: ht.hex, token_type: "destination" }) }]} /> : null;
    }
    case "remove_hex_token":
      return <Buttons p={p} items={list(entry, "hexes").map((h) => ({ key: String(h.hex), label: `Collect the ${h.kind} token on ${h.hex} (${money(h.price as number)})`, action: base(entry, "remove_hex_token", { hex: h.hex }) }))} />;
    case "payoff_player_debt":
      return <Buttons p={p} items={[{ key: "debt", label: "Pay off the debt", action: base(entry, type) }]} />;
    case "payoff_player_debt_partial": {
      const debt = entry.payoff_player_debt as Choice | undefined;
      return <Amount name="debt" min={1} max={(debt?.max as number) ?? undefined} label="Pay off" disabled={busy} onGo={(amount) => submit(base(entry, type, { amount }))} />;
    }
    default:
      return <Buttons p={p} items={[{ key: type, label: TYPE_LABELS[type] ?? type.replace(/_/g, " "), action: base(entry, type) }]} />;
  }
}

function ParControl({ entry, p }: { entry: LegalEntry; p: PanelProps }) {
  const options = list(entry, "par");
  const [corp, setCorp] = useState<string>((options[0]?.corporation as string) ?? "");
  const chosen = options.find((o) => o.corporation === corp);
  if (!options.length) return <p class="muted">No corporation to start now.</p>;
  return (
    <div class="par">
      <select name="par-corporation" value={corp} onChange={(e) => setCorp((e.target as HTMLSelectElement).value)}>
        {options.map((o) => <option key={String(o.corporation)} value={String(o.corporation)}>{String(o.corporation)} — {p.names(o.corporation)}</option>)}
      </select>
      <div class="choices">
        {((chosen?.share_prices ?? []) as string[]).map((cell) => (
          <button key={cell} type="button" data-action="par" data-price={cell} disabled={p.busy}
                  onClick={() => p.submit(base(entry, "par", { corporation: corp, share_price: cell }))}>
            Par at {p.money(parseInt(cell, 10))}
          </button>
        ))}
      </div>
    </div>
  );
}

function BuyTrain({ entry, p }: { entry: LegalEntry; p: PanelProps }) {
  const trains = list(entry, "trains");
  const exchanges = list(entry, "exchanges");
  const sales = list(entry, "emergency_sales");
  if (!trains.length && !exchanges.length) return <p class="muted">No train to buy now.</p>;
  return (
    <div>
      <table class="trains-buy">
        <tbody>
          {trains.map((t, i) => {
            const fromDepot = t.owner === "depot" || t.owner === null || t.owner === undefined;
            const fields: Record<string, Json> = { train: t.train as string, variant: t.variant as string };
            return (
              <tr key={i} data-train={String(t.train)}>
                <td>{String(t.variant ?? t.train)}</td>
                <td>{fromDepot ? "from the bank" : `from ${t.owner}`}</td>
                <td>
                  {t.min_price === undefined
                    ? <button type="button" data-action="buy_train" disabled={p.busy} onClick={() => p.submit(base(entry, "buy_train", { ...fields, price: t.price as number }))}>Buy {t.train} for {p.money(t.price as number)}</button>
                    : <Amount name={`price-${t.train}`} min={t.min_price as number} max={t.max_price as number} initial={t.min_price as number} label={`Buy ${t.train}`} disabled={p.busy}
                              onGo={(price) => p.submit(base(entry, "buy_train", { ...fields, price }))} />}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {exchanges.length ? (
        <Buttons p={p} items={exchanges.map((x, i) => ({
          key: `x${i}`, label: `Buy ${x.variant} ${x.train} trading in ${x.exchange} for ${p.money(x.price as number)}`,
          action: base(entry, "buy_train", { train: x.train, variant: x.variant, exchange: x.exchange, price: x.price }),
        }))} />
      ) : null}
      {sales.length ? (
        <div><div class="type-name">The president may sell</div>
          <Buttons p={p} items={sales.map((b, i) => ({
            key: `e${i}`, label: `Sell ${b.percent}% ${shareLabel((b.shares as string[])[0])} (${p.money(b.price as number)})`,
            action: { type: "sell_shares", entity: b.entity, entity_type: b.entity_type as string, shares: b.shares, percent: b.percent } as ActionJson,
          }))} />
        </div>
      ) : null}
    </div>
  );
}

export function ActionPanel(p: PanelProps) {
  if (!p.entries.length) return null;
  return (
    <section class="actions panel">
      <h3>Your move</h3>
      {p.entries.map((entry, index) => (
        <div key={`${entry.entity_type}:${entry.entity}`} class="entry" data-entity={String(entry.entity)}>
          <h4>{p.names(entry.entity)} <span class="muted">({entry.entity_type})</span></h4>
          {entry.types.map((type) => (
            <div key={type} class="type" data-type={type}>
              <div class="type-name">{TYPE_LABELS[type] ?? type.replace(/_/g, " ")}</div>
              <TypeControl entry={entry} index={index} type={type} p={p} />
            </div>
          ))}
        </div>
      ))}
    </section>
  );
}
