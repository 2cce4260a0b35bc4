// The lobby: the games on this platform, creating one, importing an 18xx.games export, exporting.
import { useEffect, useState } from "preact/hooks";
import { bytesOf, errorText, gateway, saveFile } from "../api";
import type { CreateGameResponse, GameSummary } from "../gen/roundhouse/v1/gateway_pb";
import { absolute, operatorLink, saveSeats, savedSeats, seatLink } from "../store";
import { titleIndex } from "../titles";
import type { TitleIndexEntry } from "../types";
import { OptionalRules, SiteHeader } from "./common";

function SeatLinks({ gameId, seats }: { gameId: string; seats: ReturnType<typeof savedSeats> }) {
  if (!seats) return null;
  return (
    <div class="seat-links" data-game={gameId}>
      <p>Send each player the link of their seat (it is their secret):</p>
      <ul>
        {seats.seats.map((s) => (
          <li key={s.player_id}><a class="seat-link" data-player={s.player_id} href={seatLink(gameId, s.player_id, s.token)}>{s.name}</a>
            <input readOnly value={absolute(seatLink(gameId, s.player_id, s.token))} onFocus={(e) => (e.target as HTMLInputElement).select()} /></li>
        ))}
        <li><a class="operator-link" href={operatorLink(gameId, seats.operator)}>Operator (any seat)</a></li>
        <li><a href={`#/game/${encodeURIComponent(gameId)}`}>Spectator view</a></li>
      </ul>
    </div>
  );
}

function remember(created: CreateGameResponse) {
  saveSeats(created.gameId, {
    seats: created.seats.map((s) => ({ player_id: s.playerId, name: s.name, token: s.token })),
    operator: created.operatorToken,
  });
}

function CreateGame({ titles, onCreated }: { titles: TitleIndexEntry[]; onCreated: (id: string) => void }) {
  const [slug, setSlug] = useState(titles.find((t) => t.slug === "1856")?.slug ?? titles[0]?.slug ?? "");
  const title = titles.find((t) => t.slug === slug);
  const [min, max] = title?.players ?? [2, 6];
  const [names, setNames] = useState<string[]>(["", "", ""]);
  const [rules, setRules] = useState<string[]>([]);
  const [seed, setSeed] = useState("");
  const [gameId, setGameId] = useState("");
  const [error, setError] = useState<string | null>(null);
  const count = Math.min(Math.max(names.length, min), max);
  const seats = Array.from({ length: count }, (_, i) => names[i] ?? "");

  const create = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const created = await gateway.createGame({
        title: title?.title ?? slug, seats: seats.map((name, i) => ({ name: name.trim() || `Player ${i + 1}` })),
        optionalRules: rules, seed: seed.trim() ? BigInt(seed.trim()) : undefined, gameId: gameId.trim(),
      });
      remember(created);
      onCreated(created.gameId);
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <form class="panel create-game" onSubmit={create}>
      <h3>New game</h3>
      <label>Title <select name="title" value={slug} onChange={(e) => { setSlug((e.target as HTMLSelectElement).value); setRules([]); }}>
        {titles.map((t) => <option key={t.slug} value={t.slug}>{t.display}</option>)}
      </select></label>
      <div class="seats">
        {seats.map((name, i) => (
          <label key={i}>Seat {i + 1} <input name={`seat-${i}`} value={name} placeholder={`Player ${i + 1}`}
                 onInput={(e) => { const next = seats.slice(); next[i] = (e.target as HTMLInputElement).value; setNames(next); }} /></label>
        ))}
        <button type="button" disabled={count >= max} onClick={() => setNames([...seats, ""])}>+ seat</button>
        <button type="button" disabled={count <= min} onClick={() => setNames(seats.slice(0, -1))}>− seat</button>
      </div>
      <OptionalRules title={title} rules={rules} set={setRules} />
      <label>Seed <input name="seed" value={seed} placeholder="from the game id" onInput={(e) => setSeed((e.target as HTMLInputElement).value)} /></label>
      <label>Game id <input name="game-id" value={gameId} placeholder="a new one" onInput={(e) => setGameId((e.target as HTMLInputElement).value)} /></label>
      <button type="submit" class="primary">Create the game</button>
      {error && <p class="error-inline" role="alert">{error}</p>}
    </form>
  );
}

function ImportGame({ onCreated }: { onCreated: (id: string) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [gameId, setGameId] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (e: Event) => {
    e.preventDefault();
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      const created = await gateway.importGame({ exportJson: bytesOf(await file.text()), gameId: gameId.trim() });
      remember(created);
      onCreated(created.gameId);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="panel import-game" onSubmit={run}>
      <h3>Import an 18xx.games export</h3>
      <input type="file" name="export" accept=".json,application/json" onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)} />
      <label>Game id <input name="import-id" value={gameId} placeholder="a new one" onInput={(e) => setGameId((e.target as HTMLInputElement).value)} /></label>
      <button type="submit" disabled={!file || busy}>{busy ? "Importing…" : "Import"}</button>
      {error && <p class="error-inline" role="alert">{error}</p>}
    </form>
  );
}

async function download(gameId: string) {
  const exported = await gateway.exportGame({ gameId });
  saveFile(exported.exportJson, `${gameId}.json`, "application/json");
}

export function LobbyPage() {
  const [titles, setTitles] = useState<TitleIndexEntry[]>([]);
  const [games, setGames] = useState<GameSummary[]>([]);
  const [finished, setFinished] = useState(true);
  const [created, setCreated] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => gateway.listGames({ includeFinished: finished }).then((r) => setGames(r.games), (e) => setError(errorText(e)));
  useEffect(() => { titleIndex().then(setTitles, (e) => setError(errorText(e))); }, []);
  useEffect(() => { void refresh(); }, [finished, created]);

  return (
    <div class="page lobby">
      <SiteHeader />
      {error && <div class="error" role="alert">{error}</div>}
      {created && (
        <section class="panel created">
          <h3>Game {created} is ready</h3>
          <SeatLinks gameId={created} seats={savedSeats(created)} />
        </section>
      )}
      <section class="panel games">
        <h3>Games</h3>
        <label><input type="checkbox" checked={finished} onChange={() => setFinished(!finished)} /> include finished games</label>
        <table>
          <thead><tr><th>Game</th><th>Title</th><th>Players</th><th>Round</th><th>Actions</th><th /></tr></thead>
          <tbody>
            {games.map((g) => (
              <tr key={g.gameId} data-game={g.gameId}>
                <td><a href={`#/game/${encodeURIComponent(g.gameId)}`}>{g.gameId}</a></td>
                <td>{g.title}</td>
                <td>{g.players.join(", ")}</td>
                <td>{g.finished ? "finished" : g.roundLabel}</td>
                <td class="num">{String(g.seq)}</td>
                <td>
                  <button type="button" onClick={() => download(g.gameId).catch((e) => setError(errorText(e)))}>Export</button>
                  {savedSeats(g.gameId) && <button type="button" onClick={() => setCreated(g.gameId)}>Seat links</button>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <div class="lobby-forms">
        {titles.length ? <CreateGame titles={titles} onCreated={setCreated} /> : null}
        <ImportGame onCreated={setCreated} />
      </div>
    </div>
  );
}
