// The game's state around the map: round and turn, players, corporations, companies, the stock
// market with its markers, the depot and phase, and the log.
import type { ActionJson } from "./actions";
import type { GameJson, Id, TitleData } from "./types";
import type { Holder } from "./map/tile";

export interface Helpers {
  money: (n: number) => string;
  playerName: (id: Id | null | undefined) => string;
  holder: (id: string) => Holder;
}

const CELL_COLORS: Record<string, string> = {
  par: "#c9c9ff", no_cert_limit: "#fff49a", unlimited: "#ffc68a", multiple_buy: "#e7b98a",
  close: "#555", closing: "#555", endgame: "#ff8f8f", liquidation: "#ffb3b3", safe_par: "#c9e6ff",
  acquisition: "#cdeccd", ignore_one_sale: "#ddd", par_1: "#d9c9ff", par_2: "#c9d9ff", par_overlap: "#e0c9ff",
};

export function Chip({ id, h }: { id: string; h: Helpers }) {
  const look = h.holder(id);
  return <span class="chip" style={{ background: look.fill, color: look.text }}>{id}</span>;
}

export function RoundBar({ game, h, me }: { game: GameJson; h: Helpers; me: Id | null }) {
  const acting = game.acting.map((p) => h.playerName(p));
  return (
    <div class="round-bar" data-round={game.round.label}>
      <strong class="round-label">{game.round.label}</strong>
      <span>{game.round.name}{game.round.step ? ` — ${game.round.step}` : ""}</span>
      <span>Phase {game.phase}</span>
      <span>Bank {h.money(game.bank)}</span>
      <span>Cert limit {game.cert_limit}</span>
      {game.finished
        ? <span class="finished">Game over{game.game_end_reason ? ` (${game.game_end_reason})` : ""}</span>
        : <span class="turn">Waiting for <strong>{acting.join(", ") || "—"}</strong>{me !== null && game.acting.some((p) => String(p) === String(me)) ? " (you)" : ""}</span>}
    </div>
  );
}

export function Players({ game, h, me }: { game: GameJson; h: Helpers; me: Id | null }) {
  return (
    <section class="panel players">
      <h3>Players</h3>
      <table>
        <thead><tr><th>Player</th><th>Cash</th><th>Value</th><th>Certs</th><th>Shares</th><th>Companies</th></tr></thead>
        <tbody>
          {game.players.map((p) => (
            <tr key={String(p.id)} data-player={String(p.id)} class={[game.acting.some((a) => String(a) === String(p.id)) ? "acting" : "", String(p.id) === String(me) ? "me" : ""].join(" ")}>
              <td>{p.name}{String(game.priority) === String(p.id) ? <span class="priority" title="priority deal"> PD</span> : null}{p.bankrupt ? " (bankrupt)" : ""}</td>
              <td class="num">{h.money(p.cash)}</td>
              <td class="num">{h.money(p.value)}</td>
              <td class="num">{p.certs}/{game.cert_limit}</td>
              <td>{Object.entries(p.shares).map(([c, s]) => <span key={c} class="holding"><Chip id={c} h={h} />{s.percent}%{s.president ? "P" : ""}</span>)}</td>
              <td>{p.companies.join(", ")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function Corporations({ game, h }: { game: GameJson; h: Helpers }) {
  const shown = game.corporations.filter((c) => !c.closed);
  return (
    <section class="panel corporations">
      <h3>Corporations</h3>
      <table>
        <thead><tr><th>Corp</th><th>President</th><th>Price</th><th>Par</th><th>Cash</th><th>Trains</th><th>Tokens</th><th>IPO</th><th>Market</th><th>Loans</th><th>Companies</th></tr></thead>
        <tbody>
          {shown.map((c) => (
            <tr key={c.id} data-corporation={c.id} class={c.ipoed ? "" : "dim"} title={c.name}>
              <td><Chip id={c.id} h={h} />{c.floated ? "" : c.ipoed ? " (not floated)" : ""}</td>
              <td>{c.president !== null ? h.playerName(c.president) : ""}</td>
              <td class="num">{c.share_price ? h.money(c.share_price.price) : ""}</td>
              <td class="num">{c.par_price ? h.money(c.par_price.price) : ""}</td>
              <td class="num">{c.ipoed ? h.money(c.cash) : ""}</td>
              <td>{c.trains.join(" ")}</td>
              <td class="num">{c.tokens.filter((t) => t.hex === null).length}/{c.tokens.length}</td>
              <td class="num">{c.ipo_percent}%</td>
              <td class="num">{c.market_percent}%</td>
              <td class="num">{c.loans || ""}</td>
              <td>{c.companies.join(", ")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function Companies({ game, h }: { game: GameJson; h: Helpers }) {
  const owner = (id: Id | null) => {
    if (id === null) return "bank";
    return game.players.some((p) => String(p.id) === String(id)) ? h.playerName(id) : String(id);
  };
  return (
    <section class="panel companies">
      <h3>Companies</h3>
      <table>
        <thead><tr><th>Company</th><th>Name</th><th>Value</th><th>Revenue</th><th>Owner</th></tr></thead>
        <tbody>
          {game.companies.map((c) => (
            <tr key={c.id} data-company={c.id} class={c.closed ? "dim" : ""}>
              <td>{c.id}</td><td>{c.name}</td><td class="num">{h.money(c.value)}</td><td class="num">{h.money(c.revenue)}</td>
              <td>{c.closed ? "closed" : owner(c.owner)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function Market({ game, h }: { game: GameJson; h: Helpers }) {
  return (
    <section class="panel market">
      <h3>Stock market</h3>
      <div class="market-scroll">
        <table class="market-grid">
          <tbody>
            {game.market.rows.map((row, r) => (
              <tr key={r}>
                {row.map((cell, c) => cell ? (
                  <td key={c} data-cell={cell.cell} style={{ background: CELL_COLORS[cell.types[0] ?? ""] ?? "#f4f1ea", color: cell.types[0] === "close" ? "#fff" : undefined }}
                      title={cell.types.join(", ")}>
                    <div class="price">{cell.price}</div>
                    <div class="markers">{cell.corporations.map((id) => <Chip key={id} id={id} h={h} />)}</div>
                  </td>
                ) : <td key={c} class="empty" />)}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function trainName(id: string) {
  const cut = id.lastIndexOf("-");
  return cut > 0 ? id.slice(0, cut) : id;
}

export function Depot({ game, h, data }: { game: GameJson; h: Helpers; data: TitleData }) {
  const counts = new Map<string, number>();
  for (const t of game.depot.upcoming) counts.set(trainName(t), (counts.get(trainName(t)) ?? 0) + 1);
  const phase = data.phases.find((p) => p.name === game.phase);
  return (
    <section class="panel depot">
      <h3>Depot and phase</h3>
      <p>Phase <strong>{game.phase}</strong>{phase?.tiles ? ` — tiles: ${phase.tiles.join(", ")}` : ""}{phase?.train_limit !== undefined ? ` — train limit ${JSON.stringify(phase.train_limit)}` : ""}</p>
      <p>For sale: {game.depot.available.map((t) => <span key={t.train} class="train">{t.train} {h.money(t.price)}</span>)}</p>
      <p>Upcoming: {[...counts].map(([name, n]) => <span key={name} class="train">{name} ×{n}</span>)}</p>
      {game.depot.discarded.length ? <p>Discarded: {game.depot.discarded.join(" ")}</p> : null}
    </section>
  );
}

export function describe(action: ActionJson, h: Helpers): string {
  const who = action.entity_type === "player" ? h.playerName(action.entity as Id) : String(action.entity ?? "");
  const rest = Object.entries(action)
    .filter(([k]) => !["type", "entity", "entity_type", "id", "created_at", "user", "auto_actions", "original_id"].includes(k))
    .map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : String(v)}`)
    .join(" ");
  return `${who}: ${action.type.replace(/_/g, " ")}${rest ? ` (${rest.length > 140 ? rest.slice(0, 140) + "…" : rest})` : ""}`;
}

export function Log({ game, history, h }: { game: GameJson; history: { seq: number; action: ActionJson }[]; h: Helpers }) {
  return (
    <section class="panel log">
      <h3>Log</h3>
      <ol class="log-lines">{game.log_tail.map((line, i) => <li key={i}>{line}</li>)}</ol>
      <details open>
        <summary>Actions ({history.length})</summary>
        <ol class="history" reversed>
          {[...history].reverse().slice(0, 300).map((e) => <li key={e.seq} value={e.seq} data-seq={e.seq}>{describe(e.action, h)}</li>)}
        </ol>
      </details>
    </section>
  );
}
