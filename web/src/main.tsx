// The browser client's entry: a hash router over the lobby, the organiser pages and the game page.
//   #/                                  games: list, create, import, export
//   #/tournaments, #/tournament/ID      tournaments; a club tournament's standings
//   #/hosted/ID                         a hosted tournament (the organiser's controls with its token)
//   #/hosted/ID?player=P&token=T        the same with player P's tables (the link a player receives)
//   #/game/ID                           spectator view
//   #/game/ID?player=P&token=T          playing seat P (the link a player receives)
//   #/game/ID?operator=1&token=T        the game's operator (may act for any seat)
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { GamePage, type Seat } from "./pages/Game";
import { LobbyPage } from "./pages/Lobby";
import { HostedPage } from "./pages/Hosted";
import { TournamentPage, TournamentsPage } from "./pages/Tournaments";

function parse(hash: string) {
  const [path, query] = hash.replace(/^#/, "").split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  return { parts, params: new URLSearchParams(query ?? "") };
}

function App() {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    addEventListener("hashchange", on);
    return () => removeEventListener("hashchange", on);
  }, []);
  const { parts, params } = parse(hash);
  if (parts[0] === "game" && parts[1]) {
    const token = params.get("token");
    const seat: Seat | null = token ? { token, player: params.get("player"), operator: params.get("operator") === "1" } : null;
    return <GamePage key={`${parts[1]}:${token ?? ""}`} gameId={parts[1]} seat={seat} />;
  }
  if (parts[0] === "tournaments") return <TournamentsPage />;
  if (parts[0] === "tournament" && parts[1]) return <TournamentPage key={parts[1]} id={parts[1]} />;
  if (parts[0] === "hosted" && parts[1]) {
    const token = params.get("token");
    const player = token && params.get("player") ? { id: params.get("player")!, token } : null;
    return <HostedPage key={`${parts[1]}:${token ?? ""}`} id={parts[1]} player={player} />;
  }
  return <LobbyPage />;
}

render(<App />, document.getElementById("app")!);
