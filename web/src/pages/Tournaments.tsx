// Tournament pages: every tournament, hosting one (pages/Hosted.tsx), and club tournaments: creating
// one, its standings, and adding games to it.
import { useEffect, useState } from "preact/hooks";
import { errorText, gateway } from "../api";
import type { GameSummary, Standings, TournamentSummary } from "../gen/roundhouse/v1/gateway_pb";
import { hostedLink, organiserToken, saveOrganiserToken, savedSeats } from "../store";
import { titleIndex } from "../titles";
import type { TitleIndexEntry } from "../types";
import { SiteHeader } from "./common";
import { HostTournament } from "./Hosted";

export function TournamentsPage() {
  const [list, setList] = useState<TournamentSummary[]>([]);
  const [titles, setTitles] = useState<TitleIndexEntry[]>([]);
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const refresh = () => gateway.listTournaments({}).then((r) => setList(r.tournaments), (e) => setError(errorText(e)));
  useEffect(() => {
    void refresh();
    titleIndex().then(setTitles, (e) => setError(errorText(e)));
  }, []);
  const create = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const made = await gateway.createTournament({ name: name.trim() });
      saveOrganiserToken(made.tournamentId, made.operatorToken);
      location.hash = `#/tournament/${encodeURIComponent(made.tournamentId)}`;
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <div class="page tournaments">
      <SiteHeader />
      {error && <div class="error" role="alert">{error}</div>}
      <section class="panel">
        <h3>Tournaments</h3>
        <ul>
          {list.map((t) => (
            <li key={t.tournamentId} data-tournament={t.tournamentId} class={t.hosted ? "hosted" : "club"}>
              <a href={t.hosted ? hostedLink(t.tournamentId) : `#/tournament/${encodeURIComponent(t.tournamentId)}`}>{t.name}</a>
              {" "}({t.hosted ? "hosted, " : ""}{t.gameIds.length} games)
            </li>
          ))}
        </ul>
      </section>
      {titles.length ? <HostTournament titles={titles} /> : null}
      <form class="panel create-club" onSubmit={create}>
        <h3>New club tournament <span class="muted">(games added one by one)</span></h3>
        <label>Name <input name="tournament-name" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} /></label>
        <button type="submit" class="primary" disabled={!name.trim()}>Create</button>
      </form>
    </div>
  );
}

export function TournamentPage({ id }: { id: string }) {
  const [standings, setStandings] = useState<Standings | null>(null);
  const [games, setGames] = useState<GameSummary[]>([]);
  const [pick, setPick] = useState("");
  const [token, setToken] = useState(organiserToken(id) ?? "");
  const [error, setError] = useState<string | null>(null);
  const refresh = () => gateway.getStandings({ tournamentId: id }).then(setStandings, (e) => setError(errorText(e)));
  useEffect(() => {
    void refresh();
    gateway.listGames({ includeFinished: true }).then((r) => setGames(r.games), (e) => setError(errorText(e)));
  }, [id]);
  const add = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      // a game this browser created is added with its operator token (the gateway asks for it)
      const gameOperatorToken = savedSeats(pick)?.operator ?? "";
      setStandings(await gateway.addGame({ tournamentId: id, gameId: pick, token: token.trim(), gameOperatorToken }));
      saveOrganiserToken(id, token.trim());
    } catch (err) {
      setError(errorText(err));
    }
  };
  const secret = organiserToken(id);
  return (
    <div class="page tournament">
      <SiteHeader />
      {error && <div class="error" role="alert">{error}</div>}
      <section class="panel standings">
        <h3>{standings?.name ?? id}</h3>
        {secret && <p class="muted">Organiser token (keep it secret): <code>{secret}</code></p>}
        <table>
          <thead><tr><th>#</th><th>Player</th><th>Points</th><th>Games</th><th>Finished</th><th>Total score</th><th>Live value</th></tr></thead>
          <tbody>
            {(standings?.rows ?? []).map((r, i) => (
              <tr key={r.player} data-player={r.player}>
                <td>{i + 1}</td><td>{r.player}</td><td class="num">{r.points}</td><td class="num">{r.games}</td>
                <td class="num">{r.finished}</td><td class="num">{String(r.totalScore)}</td><td class="num">{String(r.liveValue)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h4>Games</h4>
        <ul>{(standings?.gameIds ?? []).map((g) => <li key={g}><a href={`#/game/${encodeURIComponent(g)}`}>{g}</a></li>)}</ul>
      </section>
      <form class="panel add-game" onSubmit={add}>
        <h3>Add a game</h3>
        <select name="add-game" value={pick} onChange={(e) => setPick((e.target as HTMLSelectElement).value)}>
          <option value="">choose a game…</option>
          {games.filter((g) => !standings?.gameIds.includes(g.gameId)).map((g) => <option key={g.gameId} value={g.gameId}>{g.gameId} ({g.title}: {g.players.join(", ")})</option>)}
        </select>
        <label>Organiser token <input name="organiser-token" value={token} onInput={(e) => setToken((e.target as HTMLInputElement).value)} /></label>
        <button type="submit" disabled={!pick || !token.trim()}>Add</button>
      </form>
    </div>
  );
}
