// The game page: the map and everything around it, live from WatchGame; with a seat token, the
// controls for every legal action of that seat.
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { type ActionJson, type Json, actionFromJson, actionToJson, routeToJson } from "../actions";
import { errorText, gateway, isCancel, jsonOf } from "../api";
import { MapView, type PlacedHex, type RouteOverlay, placedHexes } from "../map/MapView";
import { R } from "../map/geometry";
import { type Holder, TileGraphic, splitTile } from "../map/tile";
import { ActionPanel, type Interaction } from "../play/ActionPanel";
import { layTile, placeToken, sameId, tileLays, tokenTargets } from "../play/legal";
import { ROUTE_COLORS, canExtend, routeOf } from "../play/routes";
import { Companies, Corporations, Depot, type Helpers, Log, Market, Players, RoundBar } from "../panels";
import { money as formatMoney, titleData } from "../titles";
import type { GameJson, Id, LegalEntry, TitleData } from "../types";

export interface Seat { token: string; player: string | null; operator: boolean }

interface RouteRow { train: string; route: Record<string, Json> | null; run: boolean }
interface RoutesState { entity: string; loading: boolean; rows: RouteRow[]; editing: string | null; draft: string[]; note: string | null }

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function commandId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function contrast(color: string): string {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(color);
  const m = short ? [color, ...short.slice(1).map((c) => c + c)] : /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (!m) return "#000";
  const [r, g, b] = [1, 2, 3].map((i) => parseInt(m[i], 16));
  return r * 0.299 + g * 0.587 + b * 0.114 > 150 ? "#000" : "#fff";
}

export function GamePage({ gameId, seat }: { gameId: string; seat: Seat | null }) {
  const [game, setGame] = useState<GameJson | null>(null);
  const [data, setData] = useState<TitleData | null>(null);
  const [history, setHistory] = useState<{ seq: number; action: ActionJson }[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [live, setLive] = useState(false);
  const [interaction, setInteraction] = useState<Interaction | null>(null);
  const [routes, setRoutes] = useState<RoutesState | null>(null);
  const seqRef = useRef(-1);
  const loading = useRef<{ running: boolean; again: boolean }>({ running: false, again: false });

  const load = useCallback(async () => {
    if (loading.current.running) { loading.current.again = true; return; }
    loading.current.running = true;
    try {
      do {
        loading.current.again = false;
        const view = await gateway.getGame({ gameId });
        const json = jsonOf<GameJson>(view.viewJson);
        if (json.seq !== seqRef.current) {
          seqRef.current = json.seq;
          setGame(json);
          setInteraction(null);
          setRoutes(null);
        }
      } while (loading.current.again);
    } catch (e) {
      setError(errorText(e));
    } finally {
      loading.current.running = false;
    }
  }, [gameId]);

  useEffect(() => { void load(); }, [gameId]);
  useEffect(() => {
    if (game && !data) titleData(game.title).then(setData, (e) => setError(errorText(e)));
  }, [game?.title]);

  // live: every action appended to the game arrives here; the view is read again after it
  useEffect(() => {
    const ctrl = new AbortController();
    let from = 0;
    // a game's whole history arrives at once: it goes into the page in batches, not one render each
    let pending: { seq: number; action: ActionJson }[] = [];
    let flush: ReturnType<typeof setTimeout> | null = null;
    const add = (entry: { seq: number; action: ActionJson }) => {
      pending.push(entry);
      flush ??= setTimeout(() => {
        const batch = pending;
        pending = [];
        flush = null;
        setHistory((h) => [...h, ...batch]);
        if (batch[batch.length - 1].seq > seqRef.current && seqRef.current >= 0) void load();
      }, 50);
    };
    (async () => {
      while (!ctrl.signal.aborted) {
        try {
          setLive(true);
          for await (const env of gateway.watchGame({ gameId, fromSeq: BigInt(from) }, { signal: ctrl.signal })) {
            if (env.body.case !== "actionApplied") continue;
            const seq = Number(env.body.value.seq);
            if (seq <= from) continue;
            from = seq;
            add({ seq, action: env.body.value.action ? actionToJson(env.body.value.action) : { type: "unknown" } });
          }
        } catch (e) {
          if (ctrl.signal.aborted || isCancel(e)) return;
        }
        setLive(false);
        await sleep(1000);
      }
    })();
    return () => {
      ctrl.abort();
      if (flush) clearTimeout(flush);
    };
  }, [gameId]);

  const h: Helpers = useMemo(() => {
    const corpColors = new Map<string, Holder>();
    for (const c of data?.corporations ?? []) corpColors.set(c.sym, { fill: c.color, text: c.text_color ?? contrast(c.color), label: c.sym });
    for (const c of data?.minors ?? []) corpColors.set(c.sym, { fill: c.color ?? "#fff", text: c.text_color ?? contrast(c.color ?? "#fff"), label: c.sym });
    for (const c of game?.corporations ?? []) if (!corpColors.has(c.id)) corpColors.set(c.id, { fill: c.color || "#fff", text: contrast(c.color || "#fff"), label: c.id });
    return {
      money: (n: number) => formatMoney(data, n),
      playerName: (id: Id | null | undefined) => game?.players.find((p) => sameId(p.id, id))?.name ?? String(id ?? ""),
      holder: (id: string) => corpColors.get(id) ?? { fill: "#ddd", text: "#000", label: id },
    };
  }, [data, game]);

  const names = (id: Json | null | undefined): string => {
    if (id === null || id === undefined) return "";
    const s = String(id);
    const player = game?.players.find((p) => String(p.id) === s);
    if (player) return player.name;
    const corp = game?.corporations.find((c) => c.id === s);
    if (corp) return `${corp.id} ${corp.name}`;
    const company = game?.companies.find((c) => c.id === s);
    return company ? company.name : s;
  };

  const mine: LegalEntry[] = useMemo(() => {
    if (!seat || !game?.legal_actions) return [];
    return game.legal_actions.filter((e) => seat.operator || sameId(e.player, seat.player));
  }, [game, seat]);

  // the map-driven action comes up by itself: a tile lay first, else a token
  useEffect(() => {
    if (interaction) return;
    const lay = mine.findIndex((e) => e.types.includes("lay_tile") && tileLays(e, gameId).hexes().length);
    if (lay >= 0) { setInteraction({ kind: "lay", entry: lay }); return; }
    const token = mine.findIndex((e) => e.types.includes("place_token") && tokenTargets(e).length);
    if (token >= 0) setInteraction({ kind: "token", entry: token });
  }, [mine, interaction]);

  const submit = async (action: ActionJson): Promise<boolean> => {
    if (!seat || !game) return false;
    setBusy(true);
    setError(null);
    try {
      await gateway.submitAction({
        gameId, token: seat.token, action: actionFromJson(action), expectedSeq: BigInt(game.seq), commandId: commandId(),
      });
      setNotice(`${action.type.replace(/_/g, " ")} done`);
      await load();
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const myTurn = !!game && !!seat && mine.length > 0;
  useEffect(() => {
    if (game) document.title = `${myTurn ? "▶ Your move — " : ""}${game.title} ${game.round.label} — Roundhouse`;
  }, [game, myTurn]);

  const hexes = useMemo(() => (data && game ? new Map(placedHexes(data, game.map).map((x) => [x.rec.id, x])) : new Map<string, PlacedHex>()), [data, game]);

  if (!game || !data) {
    return <div class="page"><p>{error ?? "Loading the game…"}</p></div>;
  }

  // ------------------------------------------------------------ map interaction
  const active = interaction ? mine[interaction.entry] : undefined;
  let selectable: Set<string> | undefined;
  let preview: { hex: string; tile: string; rotation: number } | null = null;
  let cityTargets: Map<string, Map<number, number>> | undefined;
  if (interaction?.kind === "lay" && active) {
    selectable = new Set(tileLays(active, gameId).hexes());
    if (interaction.hex && interaction.tiles && interaction.tile !== undefined) {
      const lay = interaction.tiles[interaction.tile];
      preview = { hex: interaction.hex, tile: lay.tile, rotation: lay.rotations[interaction.rotation ?? 0] };
    }
  } else if (interaction?.kind === "token" && active) {
    cityTargets = new Map();
    for (const t of tokenTargets(active)) {
      if (!cityTargets.has(t.hex)) cityTargets.set(t.hex, new Map());
      cityTargets.get(t.hex)!.set(t.index, t.slot);
    }
  }

  const chooseHex = async (hex: string) => {
    if (interaction?.kind === "routes" && routes?.editing) {
      if (canExtend(routes.draft, hex, hexes, data.board.layout)) setRoutes({ ...routes, draft: [...routes.draft, hex], note: null });
      else setRoutes({ ...routes, note: `${hex} does not continue the route` });
      return;
    }
    if (interaction?.kind !== "lay" || !active || !selectable?.has(hex)) return;
    if (interaction.hex === hex && interaction.tiles && interaction.tile !== undefined) {
      const n = interaction.tiles[interaction.tile].rotations.length;
      setInteraction({ ...interaction, rotation: ((interaction.rotation ?? 0) + 1) % n });
      return;
    }
    let tiles;
    try {
      tiles = await tileLays(active, gameId).forHex(hex);
    } catch (e) {
      setError(errorText(e));
      return;
    }
    setInteraction({ kind: "lay", entry: interaction.entry, hex, tiles, tile: tiles.length ? 0 : undefined, rotation: 0 });
  };

  const chooseCity = (hex: string, city: number) => {
    if (interaction?.kind !== "token" || !active) return;
    const target = tokenTargets(active).find((t) => t.hex === hex && t.index === city);
    if (target) void submit(placeToken(active, target));
  };

  // ------------------------------------------------------------ panels for map-driven actions
  const layPanel = (entry: LegalEntry, index: number) => {
    const on = interaction?.kind === "lay" && interaction.entry === index ? interaction : null;
    if (!on) return <button type="button" onClick={() => setInteraction({ kind: "lay", entry: index })}>Lay a tile…</button>;
    if (!on.hex) {
      return <p class="hint">Click a highlighted hex on the map ({tileLays(entry, gameId).hexes().length} possible).</p>;
    }
    const tiles = on.tiles ?? [];
    const chosen = on.tile !== undefined ? tiles[on.tile] : undefined;
    const rotation = chosen ? chosen.rotations[on.rotation ?? 0] : 0;
    return (
      <div class="lay">
        {tiles.length
          ? <p>Hex <strong>{on.hex}</strong>: choose a tile, then its rotation (click the hex or the arrows).</p>
          : <p class="hint">No tile can be laid on <strong>{on.hex}</strong> now (the new track must connect); choose another hex.</p>}
        <div class="tile-picker">
          {tiles.map((t, i) => {
            const name = splitTile(t.tile).name;
            const def = data.board.tiles[name];
            return (
              <button key={t.tile} type="button" class={i === on.tile ? "tile-choice chosen" : "tile-choice"} data-tile={t.tile}
                      onClick={() => setInteraction({ ...on, tile: i, rotation: 0 })}>
                <svg viewBox={`${-R} ${-R} ${2 * R} ${2 * R}`} width="64" height="64">
                  {def && <TileGraphic def={def} rotation={t.rotations[0]} layout={data.board.layout} money={h.money} holder={h.holder} />}
                </svg>
                <span>{name}{t.cost ? ` (${h.money(t.cost)})` : ""}</span>
              </button>
            );
          })}
        </div>
        {chosen && (
          <div class="rotate">
            <button type="button" aria-label="rotate left" onClick={() => setInteraction({ ...on, rotation: ((on.rotation ?? 0) + chosen.rotations.length - 1) % chosen.rotations.length })}>⟲</button>
            <span data-rotation={rotation}>rotation {rotation} ({(on.rotation ?? 0) + 1} of {chosen.rotations.length})</span>
            <button type="button" aria-label="rotate right" onClick={() => setInteraction({ ...on, rotation: ((on.rotation ?? 0) + 1) % chosen.rotations.length })}>⟳</button>
            <button type="button" class="primary" data-action="lay_tile" disabled={busy}
                    onClick={() => submit(layTile(entry, on.hex!, chosen.tile, rotation))}>Lay tile</button>
          </div>
        )}
        <button type="button" onClick={() => setInteraction({ kind: "lay", entry: index })}>Choose another hex</button>
      </div>
    );
  };

  const tokenPanel = (entry: LegalEntry, index: number) => {
    const targets = tokenTargets(entry);
    const on = interaction?.kind === "token" && interaction.entry === index;
    return (
      <div class="token">
        {on ? <p class="hint">Click a marked city on the map, or:</p>
            : <button type="button" onClick={() => setInteraction({ kind: "token", entry: index })}>Place a token on the map…</button>}
        <div class="choices">
          {targets.map((t) => (
            <button key={`${t.city}-${t.slot}`} type="button" data-action="place_token" data-city={t.city} disabled={busy}
                    onClick={() => submit(placeToken(entry, t))}>
              Token in {t.hex} ({t.city}){t.price !== null ? ` ${h.money(t.price)}` : ""}
            </button>
          ))}
        </div>
      </div>
    );
  };

  const findRoutes = async (entry: LegalEntry, index: number) => {
    const entity = String(entry.entity);
    setInteraction({ kind: "routes", entry: index });
    setRoutes({ entity, loading: true, rows: [], editing: null, draft: [], note: null });
    try {
      const found = await gateway.bestRoutes({ gameId, corporation: entity });
      const byTrain = new Map(found.routes.map((r) => [r.train ?? "", routeToJson(r)]));
      const trains = (Array.isArray(entry.trains) ? entry.trains : game.corporations.find((c) => c.id === entity)?.trains ?? []) as string[];
      const all = [...new Set([...trains, ...byTrain.keys()])];
      setRoutes({ entity, loading: false, rows: all.map((t) => ({ train: t, route: byTrain.get(t) ?? null, run: byTrain.has(t) })), editing: null, draft: [], note: null });
    } catch (e) {
      setRoutes({ entity, loading: false, rows: [], editing: null, draft: [], note: errorText(e) });
    }
  };

  const routesPanel = (entry: LegalEntry, index: number) => {
    const on = interaction?.kind === "routes" && interaction.entry === index && routes ? routes : null;
    if (!on) return <button type="button" data-action="find_routes" onClick={() => findRoutes(entry, index)}>Show the best routes…</button>;
    if (on.loading) return <p class="hint">Finding the best routes…</p>;
    const total = on.rows.reduce((s, r) => s + (r.run && r.route && typeof r.route.revenue === "number" ? r.route.revenue : 0), 0);
    const run = on.rows.filter((r) => r.run && r.route).map((r) => r.route!);
    return (
      <div class="routes">
        <table>
          <tbody>
            {on.rows.map((row, i) => (
              <tr key={row.train} data-train={row.train}>
                <td><span class="swatch" style={{ background: ROUTE_COLORS[i % ROUTE_COLORS.length] }} /> {row.train}</td>
                <td>{row.route ? String(row.route.revenue_str ?? "") : "no route"}</td>
                <td class="num">{row.route && typeof row.route.revenue === "number" ? h.money(row.route.revenue) : row.route ? "?" : ""}</td>
                <td><label><input type="checkbox" checked={row.run} disabled={!row.route}
                                  onChange={() => setRoutes({ ...on, rows: on.rows.map((r) => (r === row ? { ...r, run: !r.run } : r)) })} /> run</label></td>
                <td>{on.editing === row.train
                  ? <>
                      <button type="button" onClick={() => {
                        const route = routeOf(row.train, on.draft, hexes);
                        if (typeof route === "string") setRoutes({ ...on, note: route });
                        else setRoutes({ ...on, editing: null, draft: [], note: null, rows: on.rows.map((r) => (r === row ? { ...r, route, run: true } : r)) });
                      }}>Done</button>
                      <button type="button" onClick={() => setRoutes({ ...on, editing: null, draft: [], note: null })}>Cancel</button>
                    </>
                  : <button type="button" onClick={() => setRoutes({ ...on, editing: row.train, draft: [], note: null })}>Draw</button>}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {on.editing && <p class="hint">Click the hexes of {on.editing}'s route in order, from a stop to a stop ({on.draft.join(" → ") || "start at a stop"}). The engine computes the revenue.</p>}
        {on.note && <p class="error-inline">{on.note}</p>}
        <p>Total {h.money(total)}{run.some((r) => typeof r.revenue !== "number") ? " + drawn routes" : ""}</p>
        <button type="button" class="primary" data-action="run_routes" disabled={busy || on.editing !== null}
                onClick={() => submit({ type: "run_routes", entity: entry.entity as Json, entity_type: entry.entity_type, routes: run })}>Run these routes</button>
      </div>
    );
  };

  const overlay: RouteOverlay[] | undefined = routes && interaction?.kind === "routes"
    ? routes.rows.map((r, i) => ({ r, i })).filter(({ r }) => r.run && r.route).map(({ r, i }) => ({
      train: r.train, color: ROUTE_COLORS[i % ROUTE_COLORS.length],
      connections: (r.route!.connections as string[][]) ?? [], hexes: (r.route!.hexes as string[]) ?? [],
    }))
    : undefined;

  const me = seat?.player ?? null;
  const seatLabel = !seat ? "spectator" : seat.operator ? "operator (acts for every seat)" : `playing as ${h.playerName(me)}`;

  return (
    <div class="page game" data-seq={game.seq}>
      <header class="game-header">
        <a href="#/">Roundhouse</a>
        <span class="title">{game.title}</span>
        <span class="game-id">{gameId}</span>
        <span class="seat" data-seat={seat ? (seat.operator ? "operator" : String(me)) : "spectator"}>{seatLabel}</span>
        <span class={live ? "live on" : "live"}>{live ? "live" : "reconnecting"}</span>
        <span class="seq">action {game.seq}</span>
        {seat && !game.finished && (
          <>
            <button type="button" data-action="undo" disabled={busy || game.seq === 0}
                    onClick={() => submit({ type: "undo", entity: (me ?? game.acting[0] ?? game.players[0].id) as Json, entity_type: "player" })}>Undo</button>
            <button type="button" data-action="redo" disabled={busy}
                    onClick={() => submit({ type: "redo", entity: (me ?? game.acting[0] ?? game.players[0].id) as Json, entity_type: "player" })}>Redo</button>
          </>
        )}
        {seat?.operator && !game.finished && (
          <button type="button" data-action="end_game" disabled={busy}
                  onClick={() => { if (confirm("End this game now? The scores as they stand become the result.")) void submit({ type: "end_game", entity: (game.acting[0] ?? game.players[0].id) as Json, entity_type: "player" }); }}>
            End the game
          </button>
        )}
      </header>
      <RoundBar game={game} h={h} me={me} />
      {error && <div class="error" role="alert">{error} <button type="button" onClick={() => setError(null)}>×</button></div>}
      {notice && !error && <div class="notice">{notice}</div>}
      <div class="game-main">
        <MapView data={data} state={game.map} holder={h.holder} money={h.money} companies={game.companies}
                 selectable={selectable} selected={interaction?.kind === "lay" ? interaction.hex ?? null : null}
                 preview={preview} cityTargets={cityTargets} routes={overlay} routeDraft={routes?.editing ? routes.draft : undefined}
                 onHex={chooseHex} onCity={chooseCity} />
        <div class="side">
          <ActionPanel game={game} data={data} entries={mine} busy={busy} interaction={interaction} setInteraction={setInteraction}
                       submit={submit} money={h.money} names={names} routesPanel={routesPanel} layPanel={layPanel} tokenPanel={tokenPanel} />
          {!seat && <p class="muted spectating">Spectating: open the game with a seat link to play.</p>}
          <Players game={game} h={h} me={me} />
          <Corporations game={game} h={h} />
        </div>
      </div>
      <div class="game-lower">
        <Market game={game} h={h} />
        <Companies game={game} h={h} />
        <Depot game={game} h={h} data={data} />
        <Log game={game} history={history} h={h} />
      </div>
    </div>
  );
}
