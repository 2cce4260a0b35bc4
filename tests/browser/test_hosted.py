"""A hosted tournament run from its page in the browser: the organiser hosts it with the form,
registers six players (each player's link shown once), closes registration, seats round 1, seats it
again with a seed of its own, starts it, pauses one table's clocks, adjusts a seat's time, resumes
them, withdraws a player, and takes a running seat's time away at the other table (its flag falls
and the game ends); the settings, the tables, the seat links, the ticking clocks, the
standings with their tiebreaks and ratings, and the CSV export are checked against the Tournaments
service over gRPC. A player's link then shows that player's
table and opens its game as that seat."""

from __future__ import annotations

import re
from urllib.parse import parse_qs

import pytest
from rh_support import wait_until

from contracts.v1 import tournament_api_pb2 as api

pytestmark = pytest.mark.timeout(300)

PLAYERS = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")


def points(x: float) -> str:   # as the page shows a number of points
    return str(int(x)) if x.is_integer() else f"{x:.2f}"


def seconds(text: str) -> int:   # a clock's "m:ss" or "h:mm:ss"
    total = 0
    for part in text.split(":"):
        total = total * 60 + int(part)
    return total


def test_an_organiser_runs_a_round_from_the_page(platform, new_page, artefacts):
    t = platform.tournaments
    page = new_page("organiser")
    p = page.page
    p.goto(f"{platform.url}#/tournaments")
    p.fill("input[name=host-name]", "Spring cup")
    p.select_option("select[name=host-title]", "1856")
    p.fill("input[name=table-size]", "3")
    p.fill("input[name=rounds]", "2")
    p.fill("input[name=base-minutes]", "30")
    p.fill("input[name=increment-seconds]", "20")
    p.select_option("select[name=undo-policy]", label="never")
    p.click("form.host-tournament button[type=submit]")
    tid = p.wait_for_selector(".page.hosted[data-tournament]").get_attribute("data-tournament")
    hosted = t.GetTournament(api.GetTournamentRequest(tournament_id=tid))
    s = hosted.settings
    assert (hosted.name, s.title, s.table_size, s.min_table_size, s.rounds, s.time_control.base_ms,
            s.time_control.increment_ms, s.undo_policy, s.rated) == ("Spring cup", "1856", 3, 3, 2, 1_800_000, 20_000, 3, True)
    facts = lambda: dict(p.eval_on_selector_all(".settings dd[data-fact]", "ds => ds.map(d => [d.dataset.fact, d.textContent])"))
    expected = {"title": "1856", "table-size": "3 seats", "rounds": "2", "time-control": "30 min + 20 s per action",
                "undo": "never", "status": "registering (registration open)"}
    # (the page shows the tournament's facts once its first read of the tournament answers)
    assert wait_until(lambda: facts() == expected), facts()

    tokens = {}
    for i, name in enumerate(PLAYERS, 1):
        p.fill("input[name=player-name]", name)
        p.click("form.register button[type=submit]")
        shown = p.wait_for_selector(f".registered[data-player=p{i}]")
        tokens[f"p{i}"] = shown.query_selector(".player-token").text_content()
        link = shown.query_selector("a.player-link").get_attribute("href")
        assert link == f"#/hosted/{tid}?player=p{i}&token={tokens[f'p{i}']}"
    players = t.GetTournament(api.GetTournamentRequest(tournament_id=tid)).players
    assert [(x.player_id, x.name) for x in players] == [(f"p{i}", n) for i, n in enumerate(PLAYERS, 1)]
    p.wait_for_selector(".players tr[data-player=p6]")
    assert p.locator(".players tr[data-player]").count() == 6

    p.click("button[name=registration]")
    p.wait_for_selector("button[name=seat-round]:not([disabled])")
    p.click("button[name=seat-round]")
    p.wait_for_selector(".round[data-round='1'] .table-card >> nth=1")
    p.fill("input[name=seed]", "7")
    p.click("button[name=seat-round]:has-text('Re-seat round 1')")
    p.wait_for_selector(".round[data-round='1'] h3:has-text('seed 7')")
    p.click("button[name=start-round]")
    p.wait_for_selector(".round[data-round='1'] .table-card a.spectate >> nth=1")

    round1 = t.GetTournament(api.GetTournamentRequest(tournament_id=tid)).rounds[0]
    assert round1.started and round1.seed == 7
    expected = [[tb.game_id, list(tb.player_ids)] for tb in round1.tables]
    shown = p.eval_on_selector_all(".round[data-round='1'] .table-card", """cards => cards.map(c =>
        [c.dataset.game, [...c.querySelectorAll('tr[data-player]')].map(r => r.dataset.player)])""")
    assert shown == expected and len(expected) == 2 and sorted(sum((ps for _, ps in expected), [])) == sorted(tokens)
    for game, seats in expected:
        card = f".table-card[data-game='{game}']"
        assert p.get_attribute(f"{card} a.spectate", "href") == f"#/game/{game}"
        links = [parse_qs(h.split("?", 1)[1]) for h in p.eval_on_selector_all(f"{card} a.seat-link", "as => as.map(a => a.getAttribute('href'))")]
        assert [(q["player"][0], q["token"][0]) for q in links] == [(pid, tokens[pid]) for pid in seats]

    # clocks: the running seats as the gateway computes them, ticking down in the page
    for game, _ in expected:
        clock = t.GetClocks(api.GetClocksRequest(game_id=game))
        running = [c.seat for c in clock.seats if c.running]
        assert running, f"no clock runs at {game}"
        p.wait_for_function("([g, r]) => JSON.stringify([...document.querySelectorAll(`.table-card[data-game='${g}'] tr.running`)]"
                            ".map(tr => tr.dataset.player)) === JSON.stringify(r)", arg=[game, running])
    game1 = expected[0][0]
    running_clock = f".table-card[data-game='{game1}'] tr.running td.clock"
    first = seconds(p.text_content(running_clock))
    assert 29 * 60 < first <= 30 * 60
    p.wait_for_function("([sel, s]) => { const t = document.querySelector(sel)?.textContent ?? ''; "
                        "const n = t.split(':').reduce((a, x) => a * 60 + Number(x), 0); return n < s; }", arg=[running_clock, first])

    # standings: ranks, points, tiebreaks and ratings as GetTournamentStandings gives them
    def standings_shown():
        return p.eval_on_selector_all(".standings tbody tr", "rows => rows.map(r => [...r.cells].slice(0, 9).map(c => c.textContent))")

    def standings_expected():
        rows = t.GetTournamentStandings(api.GetTournamentStandingsRequest(tournament_id=tid, live=True)).rows
        return [[str(r.rank), r.name + (" (withdrawn)" if r.withdrawn else ""), points(r.points), f"{r.share:.3f}", points(r.head_to_head), str(r.games),
                 str(r.finished), str(r.total_score), f"{r.rating:.2f}"] for r in rows]
    assert wait_until(lambda: standings_shown() == standings_expected(), 30), (standings_shown(), standings_expected())
    assert len(standings_expected()) == 6 and all(row[5] == "1" for row in standings_expected())
    headers = p.eval_on_selector_all(".standings thead th", "ths => ths.map(th => th.textContent)")
    assert headers == ["#", "Player", "Points", "Share", "Head to head", "Games", "Finished", "Total score", "Rating", "R1"]

    with p.expect_download() as download:
        p.click("a.export[data-format=csv]")
    exported = t.ExportStandings(api.ExportStandingsRequest(
        standings=api.GetTournamentStandingsRequest(tournament_id=tid, live=True), format=api.STANDINGS_CSV))
    assert open(download.value.path(), "rb").read() == exported.document and download.value.suggested_filename == f"{tid}-standings.csv"

    # the organiser pauses table 1: its clocks stop on the page and in the gateway; table 2 runs on
    p.click(f".table-card[data-game='{game1}'] button[name=pause]")
    p.wait_for_selector(f".table-card.paused[data-game='{game1}'] .clock-state:has-text('paused')")
    paused = t.GetClocks(api.GetClocksRequest(game_id=game1))
    assert paused.paused and not any(c.running for c in paused.seats)
    assert p.locator(f".table-card[data-game='{game1}'] tr.running").count() == 0
    assert p.locator(f".table-card[data-game='{expected[1][0]}'] tr.running").count() >= 1
    assert p.locator(f".table-card[data-game='{game1}'] button[name=resume]").count() == 1
    p.screenshot(path=str(artefacts / "hosted-tournament.png"), full_page=True)

    # two minutes more for a seat of the paused table, then its clocks run again
    seat = expected[0][1][2]
    before = {c.seat: c.remaining_ms for c in paused.seats}[seat]
    card = f".table-card[data-game='{game1}']"
    p.select_option(f"{card} select[name=adjust-seat]", seat)
    p.fill(f"{card} input[name=adjust-seconds]", "120")
    p.click(f"{card} button[name=adjust]")
    after = before + 120_000
    p.wait_for_function("([sel, text]) => document.querySelector(sel)?.textContent === text",
                        arg=[f"{card} tr[data-player={seat}] td.clock", f"{after // 60_000}:{after // 1000 % 60:02d}"])
    assert {c.seat: c.remaining_ms for c in t.GetClocks(api.GetClocksRequest(game_id=game1)).seats}[seat] == after
    p.click(f"{card} button[name=resume]")
    p.wait_for_selector(f".table-card:not(.paused)[data-game='{game1}'] tr.running")
    assert not t.GetClocks(api.GetClocksRequest(game_id=game1)).paused

    # a withdrawal (from the next seating on) asks first
    p.on("dialog", lambda d: d.accept())
    p.click(".players tr[data-player=p6] button[name=withdraw]")
    p.wait_for_selector(".players tr.dim[data-player=p6]")
    assert [x.withdrawn for x in t.GetTournament(api.GetTournamentRequest(tournament_id=tid)).players] == [False] * 5 + [True]

    # the organiser takes an hour from table 2's running seat: its flag falls, the game ends, the
    # seat forfeits; the page shows the result, and the standings and ratings that follow from it
    game2, seats2 = expected[1]
    card = f".table-card[data-game='{game2}']"
    flagged = next(c.seat for c in t.GetClocks(api.GetClocksRequest(game_id=game2)).seats if c.running)
    p.select_option(f"{card} select[name=adjust-seat]", flagged)
    p.fill(f"{card} input[name=adjust-seconds]", "-3600")
    p.click(f"{card} button[name=adjust]")
    p.wait_for_selector(f"{card} .badge-finished", timeout=60_000)
    table2 = t.GetTournament(api.GetTournamentRequest(tournament_id=tid)).rounds[0].tables[1]
    assert table2.finished and list(table2.forfeited) == [flagged]
    p.wait_for_selector(f"{card} tr[data-player={flagged}] td.clock:has-text('flag fell')")
    scores = p.eval_on_selector_all(f"{card} tr[data-player]", "rows => rows.map(r => [r.dataset.player, r.querySelector('td.score').textContent])")
    assert scores == [[pid, str(table2.result[pid]) + (" (forfeited)" if pid == flagged else "")] for pid in seats2]
    rated = PLAYERS[int(seats2[0][1:]) - 1].casefold()   # a rating's identity: the registered name
    assert wait_until(lambda: game2 in {h.game_id for h in t.GetRatings(api.GetRatingsRequest(scope="1856", player=rated)).history}, 30)
    assert wait_until(lambda: standings_shown() == standings_expected(), 30), (standings_shown(), standings_expected())
    assert {row[8] for row in standings_expected()} != {"0.00"}, "table 2's players are rated"
    assert page.errors == [], "\n".join(page.errors)

    p.goto(f"{platform.url}#/tournaments")
    assert p.get_attribute(f".page.tournaments li.hosted[data-tournament='{tid}'] a", "href") == f"#/hosted/{tid}"
    assert page.errors == [], "\n".join(page.errors)

    # a player's link: its table, and the game opened as its seat
    pid, game = next((pid, g) for g, seats in expected for pid in seats if g == expected[1][0])
    player = new_page("player")
    q = player.page
    q.goto(f"{platform.url}#/hosted/{tid}?player={pid}&token={tokens[pid]}")
    link = q.wait_for_selector(".your-tables li[data-round='1'] a.play-link")
    assert link.get_attribute("href") == f"#/game/{game}?player={pid}&token={tokens[pid]}"
    assert q.locator(".page.hosted .organiser").count() == 0, "a player sees no organiser controls"
    link.click()
    q.wait_for_selector(".page.game .map-svg g.hex")
    assert re.search(rf"#/game/{re.escape(game)}\?player={pid}&", q.url)
    assert player.errors == [], "\n".join(player.errors)
