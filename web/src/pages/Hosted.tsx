// Hosted tournaments (roundhouse.v1.Tournaments): the form that hosts one, and a tournament's page.
// For everyone the page shows the settings, the players, the rounds with their tables (each table's
// game and clocks) and the live standings with their tiebreaks and ratings; with the organiser's
// token (kept in this browser) the organiser's controls; with a player's link that player's tables.
import { useEffect, useRef, useState } from "preact/hooks";
import { errorText, isCancel, isNotFound, saveFile, tournaments } from "../api";
import {
  type ClockView, type MySeats, type RegisterResponse, type RoundView, StandingsFormat, type TableView,
  type TournamentStandings, type TournamentView,
} from "../gen/roundhouse/v1/tournament_api_pb";
import { FlagPolicy, IncrementMode, type TournamentSettings, UndoPolicy } from "../gen/roundhouse/v1/tournament_pb";
import {
  absolute, hostedLink, operatorLink, organiserToken, playerTokens, saveOrganiserToken, savePlayerToken, seatLink,
} from "../store";
import type { TitleIndexEntry } from "../types";
import { OptionalRules, SiteHeader } from "./common";

const REFRESH_MS = 5000;   // clocks and live standings are read again this often (records arrive at once)

const UNDO: [UndoPolicy, string][] = [
  [UndoPolicy.UNDO_ALWAYS, "as the rules allow"], [UndoPolicy.UNDO_OWN_TURN, "own actions, in own turn"],
  [UndoPolicy.UNDO_NEVER, "never"],
];
const FLAG: [FlagPolicy, string][] = [
  [FlagPolicy.FLAG_END_GAME, "the game ends"], [FlagPolicy.FLAG_REMOVE_SEAT, "the seat passes from then on"],
];
const INCREMENT: [IncrementMode, string][] = [
  [IncrementMode.INCREMENT_PER_ACTION, "per action"], [IncrementMode.INCREMENT_PER_ROUND, "per game round"],
];
const label = <T,>(pairs: [T, string][], value: T) => (pairs.find(([v]) => v === value) ?? pairs[0])[1];

/** Time left as a chess clock shows it: h:mm:ss, or m:ss under an hour; negative when overdue. */
export function clockText(ms: number): string {
  const total = Math.floor(Math.abs(ms) / 1000);
  const two = (n: number) => String(n).padStart(2, "0");
  const [h, m, s] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  return (ms < 0 ? "−" : "") + (h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`);
}

const minutes = (ms: bigint) => Number(ms) / 60000;
const fixed = (n: number, digits: number) => (Number.isInteger(n) ? String(n) : n.toFixed(digits));

function timeControlText(s: TournamentSettings | undefined): string {
  const tc = s?.timeControl;
  if (!tc) return "no clocks";
  const inc = Number(tc.incrementMs) / 1000;
  return `${fixed(minutes(tc.baseMs), 1)} min` + (inc ? ` + ${fixed(inc, 1)} s ${label(INCREMENT, tc.mode)}` : "");
}

// ---------------------------------------------------------------------------------------------
// Hosting

function NumberField({ name, text, value, set, min, max, step }: {
  name: string; text: string; value: number; set: (n: number) => void; min: number; max?: number; step?: number;
}) {
  return (
    <label>{text} <input type="number" name={name} value={value} min={min} max={max} step={step ?? 1}
                         onInput={(e) => set(Number((e.target as HTMLInputElement).value))} /></label>
  );
}

function Choice<T extends number>({ name, text, value, set, pairs }: {
  name: string; text: string; value: T; set: (v: T) => void; pairs: [T, string][];
}) {
  return (
    <label>{text} <select name={name} value={value} onChange={(e) => set(Number((e.target as HTMLSelectElement).value) as T)}>
      {pairs.map(([v, t]) => <option key={v} value={v}>{t}</option>)}
    </select></label>
  );
}

export function HostTournament({ titles }: { titles: TitleIndexEntry[] }) {
  const [name, setName] = useState("");
  const [slug, setSlug] = useState(titles.find((t) => t.slug === "1856")?.slug ?? titles[0]?.slug ?? "");
  const title = titles.find((t) => t.slug === slug);
  const [, most] = title?.players ?? [2, 6];
  const [tableSize, setTableSize] = useState(4);
  const [minTable, setMinTable] = useState(0);
  const [rounds, setRounds] = useState(3);
  const [base, setBase] = useState(60);
  const [increment, setIncrement] = useState(0);
  const [mode, setMode] = useState(IncrementMode.INCREMENT_PER_ACTION);
  const [undo, setUndo] = useState(UndoPolicy.UNDO_ALWAYS);
  const [flag, setFlag] = useState(FlagPolicy.FLAG_END_GAME);
  const [rated, setRated] = useState(true);
  const [rules, setRules] = useState<string[]>([]);
  const [id, setId] = useState("");
  const [admin, setAdmin] = useState("");
  const [error, setError] = useState<string | null>(null);

  const host = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const made = await tournaments.hostTournament({
        name: name.trim(), tournamentId: id.trim(), adminToken: admin.trim(),
        settings: {
          title: title?.title ?? slug, tableSize, minTableSize: minTable, rounds, undoPolicy: undo, flagPolicy: flag,
          rated, optionalRules: rules,
          timeControl: base > 0
            ? { baseMs: BigInt(Math.round(base * 60_000)), incrementMs: BigInt(Math.round(increment * 1000)), mode }
            : undefined,
        },
      });
      saveOrganiserToken(made.tournamentId, made.organiserToken);
      location.hash = hostedLink(made.tournamentId);
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <form class="panel host-tournament" onSubmit={host}>
      <h3>Host a tournament</h3>
      <label>Name <input name="host-name" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} /></label>
      <label>Title <select name="host-title" value={slug} onChange={(e) => { setSlug((e.target as HTMLSelectElement).value); setRules([]); }}>
        {titles.map((t) => <option key={t.slug} value={t.slug}>{t.display}</option>)}
      </select></label>
      <NumberField name="table-size" text="Seats at a table" value={tableSize} set={setTableSize} min={1} max={most} />
      <NumberField name="min-table-size" text="Fewest seats (0: one fewer)" value={minTable} set={setMinTable} min={0} max={most} />
      <NumberField name="rounds" text="Rounds" value={rounds} set={setRounds} min={1} />
      <fieldset><legend>Clocks</legend>
        <NumberField name="base-minutes" text="Minutes each (0: no clocks)" value={base} set={setBase} min={0} step={0.5} />
        <NumberField name="increment-seconds" text="Increment (s)" value={increment} set={setIncrement} min={0} />
        <Choice name="increment-mode" text="given" value={mode} set={setMode} pairs={INCREMENT} />
        <Choice name="flag-policy" text="When a flag falls" value={flag} set={setFlag} pairs={FLAG} />
      </fieldset>
      <Choice name="undo-policy" text="Undo" value={undo} set={setUndo} pairs={UNDO} />
      <label><input type="checkbox" name="rated" checked={rated} onChange={() => setRated(!rated)} /> rated</label>
      <OptionalRules title={title} rules={rules} set={setRules} />
      <label>Tournament id <input name="host-id" value={id} placeholder="a new one" onInput={(e) => setId((e.target as HTMLInputElement).value)} /></label>
      <label>Admin token <input name="admin-token" value={admin} placeholder="when the platform asks for one" onInput={(e) => setAdmin((e.target as HTMLInputElement).value)} /></label>
      <button type="submit" class="primary" disabled={!name.trim()}>Host</button>
      {error && <p class="error-inline" role="alert">{error}</p>}
    </form>
  );
}

// ---------------------------------------------------------------------------------------------
// A tournament's page

interface Clock { view: ClockView; at: number }   // a ClockView and when (Date.now()) it arrived
interface Ctx {
  id: string;
  organiser: string | null;                        // the organiser's token, when this browser has it
  names: Record<string, string>;
  tokens: Record<string, string>;                  // players' tokens this browser registered
  clocks: Record<string, Clock>;
  act: (what: () => Promise<unknown>) => Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function HostedPage({ id, player }: { id: string; player: { id: string; token: string } | null }) {
  const [view, setView] = useState<TournamentView | null>(null);
  const [standings, setStandings] = useState<TournamentStandings | null>(null);
  const [mine, setMine] = useState<MySeats | null>(null);
  const [clocks, setClocks] = useState<Record<string, Clock>>({});
  const [organiser, setOrganiser] = useState(organiserToken(id));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const token = useRef(organiser);
  token.current = organiser;

  const readStandings = () => tournaments.getTournamentStandings({ tournamentId: id, live: true }).then(setStandings);
  const load = async () => {
    try {
      const [v] = await Promise.all([
        tournaments.getTournament({ tournamentId: id, token: token.current ?? "" }),
        readStandings(),
        player && tournaments.getMySeats({ tournamentId: id, token: player.token }).then(setMine),
      ]);
      setView(v);
    } catch (e) {
      setError(errorText(e));
    }
  };
  const act = async (what: () => Promise<unknown>) => {
    setError(null);
    setBusy(true);
    try {
      await what();
      await load();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  // live: every record of the tournament (registrations, seatings, round starts, results) reloads it
  useEffect(() => {
    const ctrl = new AbortController();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const soon = () => { timer ??= setTimeout(() => { timer = null; void load(); }, 150); };
    void load();
    void (async () => {
      while (!ctrl.signal.aborted) {
        try {
          for await (const _ of tournaments.watchTournament({ tournamentId: id }, { signal: ctrl.signal })) soon();
        } catch (e) {
          if (ctrl.signal.aborted || isCancel(e) || isNotFound(e)) return;   // (load says it is not found)
        }
        await sleep(1000);
      }
    })();
    return () => {
      ctrl.abort();
      if (timer) clearTimeout(timer);
    };
  }, [id, organiser]);

  // the clocks of the latest started round's tables, and the live standings, read again every few seconds
  const current = view?.settings?.timeControl ? [...view.rounds].reverse().find((r) => r.started) : undefined;
  const games = (current?.tables ?? []).map((t) => t.gameId).filter(Boolean).join(" ");
  const readClocks = async (ids: string[]) => {
    const got = await Promise.all(ids.map((gameId) => tournaments.getClocks({ gameId })));
    const at = Date.now();
    setClocks(Object.fromEntries(got.map((c) => [c.gameId, { view: c, at }])));
  };
  useEffect(() => {
    if (!games) return;
    const ids = games.split(" ");
    const read = () => Promise.all([readClocks(ids), readStandings()]).catch((e) => { if (!isCancel(e)) setError(errorText(e)); });
    void read();
    const timer = setInterval(read, REFRESH_MS);
    return () => clearInterval(timer);
  }, [games]);

  const names = Object.fromEntries((view?.players ?? []).map((p) => [p.playerId, p.name]));
  const ctx: Ctx = { id, organiser, names, tokens: organiser ? playerTokens(id) : {}, clocks,
    act: (what) => act(async () => { await what(); if (games) await readClocks(games.split(" ")); }) };
  const claim = (t: string) => { saveOrganiserToken(id, t); setOrganiser(t); };

  return (
    <div class="page hosted" data-tournament={id}>
      <SiteHeader />
      {error && <div class="error" role="alert">{error}</div>}
      {!view ? <p class="muted">Loading…</p> : (
        <>
          <Settings view={view} />
          {player && <YourTables id={id} player={player} mine={mine} />}
          {organiser ? <Organiser view={view} ctx={ctx} busy={busy} /> : <OrganiserToken claim={claim} />}
          <Players view={view} ctx={ctx} busy={busy} />
          {view.rounds.map((r) => <Round key={r.round} round={r} ctx={ctx} busy={busy} />).reverse()}
          <Standings id={id} standings={standings} onError={setError} />
        </>
      )}
    </div>
  );
}

function Settings({ view }: { view: TournamentView }) {
  const s = view.settings;
  return (
    <section class="panel settings">
      <h3>{view.name}</h3>
      <dl class="facts">
        <dt>Title</dt><dd data-fact="title">{s?.title}</dd>
        <dt>Tables</dt><dd data-fact="table-size">{s?.minTableSize === s?.tableSize ? `${s?.tableSize}` : `${s?.minTableSize}–${s?.tableSize}`} seats</dd>
        <dt>Rounds</dt><dd data-fact="rounds">{s?.rounds}</dd>
        <dt>Time control</dt><dd data-fact="time-control">{timeControlText(s)}</dd>
        {s?.timeControl && <><dt>Flag fall</dt><dd>{label(FLAG, s.flagPolicy)}</dd></>}
        <dt>Undo</dt><dd data-fact="undo">{label(UNDO, s?.undoPolicy)}</dd>
        <dt>Rated</dt><dd>{s?.rated ? "yes" : "no"}</dd>
        {s?.optionalRules.length ? <><dt>Optional rules</dt><dd>{s.optionalRules.join(", ")}</dd></> : null}
        <dt>Status</dt><dd data-fact="status">{view.status.replace("_", " ")}{view.registrationOpen ? " (registration open)" : ""}</dd>
      </dl>
    </section>
  );
}

function YourTables({ id, player, mine }: { id: string; player: { id: string; token: string }; mine: MySeats | null }) {
  return (
    <section class="panel your-tables" data-player={player.id}>
      <h3>Your tables</h3>
      {!mine?.seats.length ? <p class="muted">No table yet: the organiser seats the rounds.</p> : (
        <ul>
          {mine.seats.map((s) => (
            <li key={`${s.round}.${s.table}`} data-round={s.round} data-table={s.table}>
              Round {s.round}, table {s.table}, seat {s.seat}:{" "}
              {s.gameId ? <a class="play-link" href={seatLink(s.gameId, player.id, player.token)}>play {s.gameId}</a>
                : <span class="muted">waiting for the round to start</span>}
            </li>
          ))}
        </ul>
      )}
      <p class="muted">Keep this page's link: it is your secret (<a href={hostedLink(id)}>the public page</a>).</p>
    </section>
  );
}

function OrganiserToken({ claim }: { claim: (token: string) => void }) {
  const [token, setToken] = useState("");
  return (
    <details class="panel organiser-claim">
      <summary>Organiser?</summary>
      <form onSubmit={(e) => { e.preventDefault(); claim(token.trim()); }}>
        <label>Organiser token <input name="organiser-token" value={token} onInput={(e) => setToken((e.target as HTMLInputElement).value)} /></label>
        <button type="submit" disabled={!token.trim()}>Use it</button>
      </form>
    </details>
  );
}

function Organiser({ view, ctx, busy }: { view: TournamentView; ctx: Ctx; busy: boolean }) {
  const [name, setName] = useState("");
  const [contact, setContact] = useState("");
  const [webhook, setWebhook] = useState("");
  const [registered, setRegistered] = useState<(RegisterResponse & { name: string }) | null>(null);
  const [seed, setSeed] = useState("");
  const token = ctx.organiser ?? "";
  const tournamentId = ctx.id;
  const last = view.rounds[view.rounds.length - 1];
  const waiting = last && !last.started ? last : undefined;
  const next = waiting ? waiting.round : view.rounds.length + 1;
  const seatable = view.status !== "playing" && view.status !== "finished";

  const register = (e: Event) => {
    e.preventDefault();
    void ctx.act(async () => {
      const done = await tournaments.register({ tournamentId, token, name: name.trim(), contact: contact.trim(), webhookUrl: webhook.trim() });
      savePlayerToken(tournamentId, done.playerId, done.playerToken);
      setRegistered({ ...done, name: name.trim() });
      setName("");
      setContact("");
      setWebhook("");
    });
  };
  const link = registered ? hostedLink(tournamentId, registered.playerId, registered.playerToken) : "";

  return (
    <section class="panel organiser">
      <h3>Organiser</h3>
      <p class="muted">Organiser token (keep it secret; it is also every table's operator token): <code>{token}</code></p>
      <div class="controls">
        <button type="button" name="registration" disabled={busy}
                onClick={() => ctx.act(() => tournaments.setRegistration({ tournamentId, token, open: !view.registrationOpen }))}>
          {view.registrationOpen ? "Close registration" : "Open registration"}
        </button>
        {seatable && (
          <>
            <label>Seed <input name="seed" value={seed} placeholder="random" size={10} onInput={(e) => setSeed((e.target as HTMLInputElement).value)} /></label>
            <button type="button" name="seat-round" disabled={busy || view.registrationOpen}
                    title={view.registrationOpen ? "close registration first" : ""}
                    onClick={() => ctx.act(() => tournaments.seatRound({ tournamentId, token, seed: /^-?\d+$/.test(seed.trim()) ? BigInt(seed.trim()) : undefined }))}>
              {waiting ? `Re-seat round ${next}` : `Seat round ${next}`}
            </button>
          </>
        )}
        {waiting && (
          <button type="button" name="start-round" class="primary" disabled={busy}
                  onClick={() => ctx.act(() => tournaments.startRound({ tournamentId, token, round: waiting.round }))}>
            Start round {waiting.round}
          </button>
        )}
        {view.status === "playing" && view.settings?.timeControl && (
          <>
            <button type="button" name="pause-all" disabled={busy} onClick={() => ctx.act(() => tournaments.pauseClocks({ tournamentId, token }))}>Pause every clock</button>
            <button type="button" name="resume-all" disabled={busy} onClick={() => ctx.act(() => tournaments.resumeClocks({ tournamentId, token }))}>Resume every clock</button>
          </>
        )}
      </div>
      {view.registrationOpen && (
        <form class="register" onSubmit={register}>
          <h4>Register a player</h4>
          <label>Name <input name="player-name" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} /></label>
          <label>Contact <input name="player-contact" value={contact} placeholder="optional" onInput={(e) => setContact((e.target as HTMLInputElement).value)} /></label>
          <label>Webhook URL <input name="player-webhook" value={webhook} placeholder="optional" onInput={(e) => setWebhook((e.target as HTMLInputElement).value)} /></label>
          <button type="submit" disabled={busy || !name.trim()}>Register</button>
        </form>
      )}
      {registered && (
        <div class="registered notice" data-player={registered.playerId}>
          {registered.name} is registered as {registered.playerId}. Send them their link (their secret, shown once):{" "}
          <a class="player-link" href={link}>{registered.name}'s tables</a>
          <input readOnly value={absolute(link)} onFocus={(e) => (e.target as HTMLInputElement).select()} />
          <div>Token: <code class="player-token">{registered.playerToken}</code></div>
          {registered.webhookSecret && <div>Webhook signing key: <code>{registered.webhookSecret}</code></div>}
          <button type="button" name="dismiss" onClick={() => setRegistered(null)}>Done</button>
        </div>
      )}
    </section>
  );
}

function Players({ view, ctx, busy }: { view: TournamentView; ctx: Ctx; busy: boolean }) {
  const token = ctx.organiser ?? "";
  const withdraw = (playerId: string, name: string) => {
    if (!confirm(`Withdraw ${name} from the next seating on?`)) return;
    void ctx.act(() => tournaments.withdraw({ tournamentId: ctx.id, token, playerId, reason: "withdrawn by the organiser" }));
  };
  return (
    <section class="panel players">
      <h3>Players ({view.players.filter((p) => !p.withdrawn).length})</h3>
      <table>
        <thead><tr><th>Id</th><th>Name</th>{ctx.organiser && <><th>Contact</th><th>Webhook</th><th /></>}</tr></thead>
        <tbody>
          {view.players.map((p) => (
            <tr key={p.playerId} data-player={p.playerId} class={p.withdrawn ? "dim" : ""}>
              <td>{p.playerId}</td>
              <td>{p.name}{p.withdrawn && " (withdrawn)"}</td>
              {ctx.organiser && (
                <>
                  <td>{p.contact}</td><td>{p.webhookUrl}</td>
                  <td>
                    {ctx.tokens[p.playerId] && <a class="player-link" href={hostedLink(ctx.id, p.playerId, ctx.tokens[p.playerId])}>link</a>}
                    {!p.withdrawn && <button type="button" name="withdraw" disabled={busy} onClick={() => withdraw(p.playerId, p.name)}>Withdraw</button>}
                  </td>
                </>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Round({ round, ctx, busy }: { round: RoundView; ctx: Ctx; busy: boolean }) {
  const state = round.complete ? "complete" : round.started ? "being played" : "seated, waiting to start";
  return (
    <section class="panel round" data-round={round.round}>
      <h3>Round {round.round} <span class="muted">({state}; seed {String(round.seed)})</span></h3>
      <div class="tables">
        {round.tables.map((t) => <Table key={t.table} table={t} ctx={ctx} busy={busy} />)}
      </div>
    </section>
  );
}

/** Re-render every second while `on` (a running clock). */
function useTick(on: boolean) {
  const [, set] = useState(0);
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => set((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [on]);
}

function Table({ table, ctx, busy }: { table: TableView; ctx: Ctx; busy: boolean }) {
  const clock = table.gameId ? ctx.clocks[table.gameId] : undefined;
  const seats = new Map((clock?.view.seats ?? []).map((s) => [s.seat, s]));
  const running = clock ? clock.view.seats.some((s) => s.running) : false;
  useTick(running);
  const left = (seat: string) => {
    const s = seats.get(seat);
    return s ? Number(s.remainingMs) - (s.running ? Date.now() - clock!.at : 0) : null;
  };
  const token = ctx.organiser ?? "";
  const scores = Object.keys(table.result).length ? table.result : null;
  return (
    <div class={`table-card${clock?.view.paused ? " paused" : ""}`} data-table={table.table} data-game={table.gameId}>
      <div class="table-head">
        <strong>Table {table.table}</strong>{" "}
        {table.gameId ? <a class="spectate" href={`#/game/${encodeURIComponent(table.gameId)}`}>{table.gameId}</a> : <span class="muted">not started</span>}
        {table.gameId && ctx.organiser && <> <a class="operator-link" href={operatorLink(table.gameId, token)}>operator</a></>}
        {table.finished && <span class="badge-finished"> finished</span>}
        {clock?.view.paused && <span class="clock-state"> paused</span>}
      </div>
      <table>
        <tbody>
          {table.playerIds.map((pid, i) => {
            const s = seats.get(pid);
            const ms = left(pid);
            return (
              <tr key={pid} data-player={pid} class={s?.running ? "running" : ""}>
                <td>{i + 1}</td>
                <td>{ctx.names[pid] ?? pid}</td>
                {clock && <td class={`clock num${ms !== null && ms < 0 ? " overdue" : ""}`}>{ms === null ? "" : clockText(ms)}{s?.flagged && " flag fell"}</td>}
                {scores && <td class="num score">{String(scores[pid] ?? "")}{table.forfeited.includes(pid) && " (forfeited)"}</td>}
                {table.gameId && ctx.tokens[pid] && <td><a class="seat-link" href={seatLink(table.gameId, pid, ctx.tokens[pid])}>play as {ctx.names[pid] ?? pid}</a></td>}
              </tr>
            );
          })}
        </tbody>
      </table>
      {clock && ctx.organiser && !clock.view.finished && <ClockControls gameId={table.gameId} clock={clock.view} ctx={ctx} busy={busy} />}
    </div>
  );
}

function ClockControls({ gameId, clock, ctx, busy }: { gameId: string; clock: ClockView; ctx: Ctx; busy: boolean }) {
  const [seat, setSeat] = useState(clock.seats[0]?.seat ?? "");
  const [seconds, setSeconds] = useState(60);
  const token = ctx.organiser ?? "";
  const request = { tournamentId: ctx.id, token, gameId };
  return (
    <div class="clock-controls">
      {clock.paused
        ? <button type="button" name="resume" disabled={busy} onClick={() => ctx.act(() => tournaments.resumeClocks(request))}>Resume</button>
        : <button type="button" name="pause" disabled={busy} onClick={() => ctx.act(() => tournaments.pauseClocks(request))}>Pause</button>}
      <select name="adjust-seat" value={seat} onChange={(e) => setSeat((e.target as HTMLSelectElement).value)}>
        {clock.seats.map((s) => <option key={s.seat} value={s.seat}>{ctx.names[s.seat] ?? s.seat}</option>)}
      </select>
      <input type="number" name="adjust-seconds" value={seconds} step={10} size={5} onInput={(e) => setSeconds(Number((e.target as HTMLInputElement).value))} /> s
      <button type="button" name="adjust" disabled={busy || !seconds}
              onClick={() => ctx.act(() => tournaments.adjustClock({ ...request, seat, deltaMs: BigInt(Math.round(seconds * 1000)), reason: "adjusted by the organiser" }))}>
        Adjust
      </button>
    </div>
  );
}

function Standings({ id, standings, onError }: { id: string; standings: TournamentStandings | null; onError: (e: string) => void }) {
  const rows = standings?.rows ?? [];
  const rated = rows.some((r) => r.rating !== undefined);
  const rounds = Math.max(0, ...rows.flatMap((r) => r.rounds.map((x) => x.round)));
  const download = (format: StandingsFormat, ext: string) => (e: Event) => {
    e.preventDefault();
    tournaments.exportStandings({ standings: { tournamentId: id, live: true }, format })
      .then((d) => saveFile(d.document, `${id}-standings.${ext}`, d.contentType), (err) => onError(errorText(err)));
  };
  const state = !standings ? "" : standings.final ? "final" : standings.live ? "live: running tables at their current value" : "";
  return (
    <section class="panel standings">
      <h3>Standings {state && <span class="muted">({state})</span>}</h3>
      <p class="exports">
        Download: <a class="export" data-format="csv" href={hostedLink(id)} onClick={download(StandingsFormat.STANDINGS_CSV, "csv")}>CSV</a>{" "}
        <a class="export" data-format="json" href={hostedLink(id)} onClick={download(StandingsFormat.STANDINGS_JSON, "json")}>JSON</a>
      </p>
      <table>
        <thead>
          <tr>
            <th>#</th><th>Player</th><th>Points</th><th title="sum of score / table total">Share</th>
            <th title="points against the others tied on points and share">Head to head</th><th>Games</th><th>Finished</th>
            <th>Total score</th>{rated && <th title="rating in the title (mu − 3 sigma)">Rating</th>}
            {Array.from({ length: rounds }, (_, i) => <th key={i}>R{i + 1}</th>)}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.playerId} data-player={r.playerId} data-rank={r.rank} class={r.withdrawn ? "dim" : ""}>
              <td>{r.rank}</td><td>{r.name}{r.withdrawn && " (withdrawn)"}</td>
              <td class="num points">{fixed(r.points, 2)}</td><td class="num">{r.share.toFixed(3)}</td>
              <td class="num">{fixed(r.headToHead, 2)}</td><td class="num">{r.games}</td><td class="num">{r.finished}</td>
              <td class="num">{String(r.totalScore)}</td>
              {rated && <td class="num rating">{r.rating === undefined ? "" : r.rating.toFixed(2)}</td>}
              {Array.from({ length: rounds }, (_, i) => {
                const x = r.rounds.find((y) => y.round === i + 1);
                return (
                  <td key={i} class={`num${x?.provisional ? " provisional" : ""}`}
                      title={x ? `table ${x.table}: score ${x.score}${x.provisional ? " (so far)" : ""}${x.forfeited ? ", forfeited" : ""}` : ""}>
                    {x ? fixed(x.points, 2) + (x.provisional ? "*" : "") : ""}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {rounds > 0 && <p class="muted">* a table still being played, counted at its current value.</p>}
    </section>
  );
}
