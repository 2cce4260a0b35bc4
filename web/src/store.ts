// What this browser keeps for its user: the seat links of games it created or imported, and the
// organiser tokens of its tournaments and the tokens of the players it registered (secrets the
// gateway shows once).
export interface SavedSeats { seats: { player_id: string; name: string; token: string }[]; operator: string }

const get = <T>(key: string): T | null => {
  try { return JSON.parse(localStorage.getItem(key) ?? "null") as T | null; } catch { return null; }
};
const put = (key: string, value: unknown) => {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* storage full or disabled */ }
};

export const savedSeats = (gameId: string) => get<SavedSeats>(`roundhouse.seats.${gameId}`);
export const saveSeats = (gameId: string, seats: SavedSeats) => put(`roundhouse.seats.${gameId}`, seats);
export const organiserToken = (tournamentId: string) => get<string>(`roundhouse.organiser.${tournamentId}`);
export const saveOrganiserToken = (tournamentId: string, token: string) => put(`roundhouse.organiser.${tournamentId}`, token);
// the tokens of the players an organiser registered in this browser (hosted tournaments), by player id
export const playerTokens = (tournamentId: string) => get<Record<string, string>>(`roundhouse.players.${tournamentId}`) ?? {};
export const savePlayerToken = (tournamentId: string, playerId: string, token: string) =>
  put(`roundhouse.players.${tournamentId}`, { ...playerTokens(tournamentId), [playerId]: token });

/** A hosted tournament's page; with a player's id and token, that player's link (its tables). */
export function hostedLink(tournamentId: string, player?: string, token?: string): string {
  const page = `#/hosted/${encodeURIComponent(tournamentId)}`;
  return player && token ? `${page}?player=${encodeURIComponent(player)}&token=${encodeURIComponent(token)}` : page;
}

/** The absolute URL of a hash link, to send to someone. */
export const absolute = (hash: string) => `${location.origin}${location.pathname}${hash}`;

export function seatLink(gameId: string, player: string, token: string): string {
  return `#/game/${encodeURIComponent(gameId)}?player=${encodeURIComponent(player)}&token=${encodeURIComponent(token)}`;
}

export function operatorLink(gameId: string, token: string): string {
  return `#/game/${encodeURIComponent(gameId)}?operator=1&token=${encodeURIComponent(token)}`;
}
