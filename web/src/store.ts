// What this browser keeps for its user: the seat links of games it created or imported, and the
// organiser tokens of its tournaments (secrets the gateway shows once).
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

export function seatLink(gameId: string, player: string, token: string): string {
  return `#/game/${encodeURIComponent(gameId)}?player=${encodeURIComponent(player)}&token=${encodeURIComponent(token)}`;
}

export function operatorLink(gameId: string, token: string): string {
  return `#/game/${encodeURIComponent(gameId)}?operator=1&token=${encodeURIComponent(token)}`;
}
