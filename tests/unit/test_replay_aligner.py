"""ReplayAligner: a recorded game's entries lined up with the automatic moves today's rules make."""

import pytest

from runtime.aligner import ReplayAligner, ReplayMismatch, play_entry


def act(kind, entity="A", entity_type="corporation", **fields):
    return {"type": kind, "entity": entity, "entity_type": entity_type, **fields}


PASS_A = act("pass")
TOKEN_A = act("hex_token", hex="L19", token_type="destination")


class Engine:
    """Stands in for the engine: numbers what it is given and answers with scripted automatic moves."""

    def __init__(self, auto=None):
        self.auto = auto or {}      # move type -> automatic moves made after it
        self.submitted = []

    def __call__(self, move):
        self.submitted.append(move)
        return len(self.submitted), self.auto.pop(move["type"], []), None


def play(entries, engine, actions=None):
    aligner = ReplayAligner(entries if actions is None else actions)
    for entry in entries:
        play_entry(aligner, entry, engine)
    return aligner


def test_entries_are_submitted_without_their_record_fields():
    engine = Engine()
    entry = {**act("lay_tile", hex="H19", tile="6-1", rotation=1), "id": 7, "original_id": 3,
             "created_at": 5, "auto_actions": []}
    play([entry], engine)
    assert engine.submitted == [{**act("lay_tile", hex="H19", tile="6-1", rotation=1), "created_at": 5}]


def test_a_later_entry_equal_to_our_automatic_move_is_not_submitted_again():
    engine = Engine({"lay_tile": [{**TOKEN_A, "created_at": 1}, PASS_A]})
    lay = act("lay_tile", hex="L19", tile="5-0", rotation=0)
    aligner = play([lay, {**TOKEN_A, "id": 9, "user": 4, "created_at": 2}, {**PASS_A, "id": 10},
                    act("pass", "B")], engine)
    assert [m["type"] for m in engine.submitted] == ["lay_tile", "pass"]
    assert engine.submitted[1]["entity"] == "B"
    assert aligner.ahead == []


def test_a_different_next_entry_fails_loudly():
    engine = Engine({"lay_tile": [TOKEN_A]})
    aligner = ReplayAligner()
    play_entry(aligner, act("lay_tile", hex="L19"), engine)
    with pytest.raises(ReplayMismatch, match="made .*hex_token.* automatically, but the record's next move is"):
        play_entry(aligner, act("hex_token", hex="M20", token_type="destination"), engine)
    # nothing was taken for that entry: it may be tried again
    play_entry(aligner, TOKEN_A, engine)
    assert aligner.ahead == [] and len(engine.submitted) == 1


def test_a_choice_our_automatic_pass_made_unnecessary_is_dropped():
    player_pass = act("pass", 3714, "player")
    engine = Engine({"pass": [player_pass]})
    play([act("pass", 488, "player"), act("choose", 3714, "player", choice="double"),
          act("pass", "21")], engine)
    assert [(m["type"], m["entity"]) for m in engine.submitted] == [("pass", 488), ("pass", "21")]
    # but not another entity's choice, nor a move that is not a choice
    for other in (act("choose", 488, "player", choice="double"), act("bid", 3714, "player", price=5)):
        with pytest.raises(ReplayMismatch):
            play([act("pass", 488, "player"), other], Engine({"pass": [player_pass]}))


def test_recorded_automatic_moves_ours_no_longer_makes_are_returned_to_submit_by_hand():
    buy = act("buy_shares", 5, "player", shares=["WR_2"], percent=10)
    entry = act("pass", 4, "player", auto_actions=[{**buy, "created_at": 1},
                                                   {**act("pass", 5, "player"), "created_at": 2}])
    # ours disarms the program instead of passing: the pass is the player's own move now
    engine = Engine({"pass": [buy, act("program_disable", 5, "player", reason="done")]})
    play([entry], engine)
    assert engine.submitted == [act("pass", 4, "player"), {**act("pass", 5, "player"), "created_at": 2}]


def test_automatic_moves_that_disagree_fail_loudly():
    entry = act("lay_tile", "WGB", auto_actions=[act("destination_connection", "WGB", corporations=["WGB"])])
    engine = Engine({"lay_tile": [act("destination_connection", "WGB", corporations=[])]})
    with pytest.raises(ReplayMismatch, match="differ from today's rules'"):
        play([entry], engine)
    # a rules' check the record made and ours does not cannot be submitted by hand
    with pytest.raises(ReplayMismatch, match="is not what today's rules do"):
        play([entry], Engine())


def test_an_entry_the_record_undoes_later_may_differ_in_the_rules_own_checks():
    lay = {**act("lay_tile", "CV", auto_actions=[act("destination_connection", "CV", corporations=[])]), "id": 1}
    undo = {**act("undo", "CV"), "id": 2}
    engine = Engine({"lay_tile": [act("destination_connection", "CV", corporations=["CPR"])]})
    play([lay, undo], engine)
    assert [m["type"] for m in engine.submitted] == ["lay_tile", "undo"]
    with pytest.raises(ReplayMismatch):   # kept in the record: it must agree
        play([lay], Engine({"lay_tile": [act("destination_connection", "CV", corporations=["CPR"])]}))


def test_the_skipped_entrys_own_automatic_moves_are_ours_too():
    engine = Engine({"pass": [act("pass", 671, "player"), act("pass", 2438, "player")]})
    play([act("pass", 1635, "player"),
          act("pass", 671, "player", auto_actions=[act("pass", 2438, "player")]),
          act("pass", 156, "player")], engine)
    assert [m["entity"] for m in engine.submitted] == [1635, 156]


def test_a_program_armed_while_ours_is_ahead_is_submitted_and_its_moves_compared():
    engine = Engine({"pass": [act("pass", 671, "player")]})
    program = act("program_share_pass", 671, "player", auto_actions=[act("pass", 671, "player")])
    aligner = play([act("pass", 1635, "player"), program, act("pass", 156, "player")], engine)
    assert [m["type"] for m in engine.submitted] == ["pass", "program_share_pass", "pass"]
    assert aligner.ahead == []


def test_undo_of_an_entry_ours_made_automatically_only_restores_what_is_ahead():
    lay = {**act("lay_tile", hex="L19"), "id": 1}
    token = {**TOKEN_A, "id": 2}
    entries = [lay, token, {**act("undo"), "id": 3}, {**act("redo"), "id": 4}, {**act("pass"), "id": 5}]
    engine = Engine({"lay_tile": [TOKEN_A, PASS_A]})
    aligner = ReplayAligner(entries)
    play_entry(aligner, lay, engine)
    play_entry(aligner, token, engine)
    assert aligner.ahead == [PASS_A]
    assert play_entry(aligner, entries[2], engine) is None      # the token is ahead again
    assert aligner.ahead == [TOKEN_A, PASS_A]
    play_entry(aligner, entries[3], engine)                       # redone: behind us again
    assert aligner.ahead == [PASS_A]
    play_entry(aligner, entries[4], engine)
    assert [m["type"] for m in engine.submitted] == ["lay_tile"]


def test_undo_names_our_actions():
    buy = act("buy_train", train="3-4")
    entries = [{**act("lay_tile"), "id": 11},
               {**act("pass", auto_actions=[act("pass", "B")]), "id": 12},   # ours: one more action
               {**act("undo"), "id": 13},                                       # takes back both
               {**buy, "id": 14}, {**act("pass"), "id": 15},
               {**act("undo", action_id=11), "id": 16},                        # back to after the lay
               {**act("redo"), "id": 17}]
    engine = Engine()
    play(entries, engine)
    undos = [m for m in engine.submitted if m["type"] in ("undo", "redo")]
    # ours: 1 lay, 2 pass, 3 pass B by hand, 4 undo, 5 buy, 6 pass, 7 undo, 8 redo
    assert undos == [act("undo", action_id=1), act("undo", action_id=4), act("redo")]


def test_a_plain_undo_of_one_action_stays_plain():
    entries = [{**act("lay_tile"), "id": 1}, {**act("pass"), "id": 2}, {**act("undo"), "id": 3}]
    engine = Engine()
    play(entries, engine)
    assert engine.submitted[-1] == act("undo")


def test_messages_pass_while_ours_is_ahead():
    engine = Engine({"lay_tile": [TOKEN_A]})
    play([act("lay_tile"), act("message", 1, "player", message="hi"), TOKEN_A], engine)
    assert [m["type"] for m in engine.submitted] == ["lay_tile", "message"]


class Refused(Exception):
    """The stand-in engine's refusal of a move."""


class Strict(Engine):
    """An engine whose rules refuse the moves of some types (a move legal when it was played)."""

    def __init__(self, refuses, auto=None):
        super().__init__(auto)
        self.refuses = refuses

    def __call__(self, move):
        if move["type"] in self.refuses:
            raise Refused(f"{move['type']} is not allowed today")
        return super().__call__(move)


def refusal(exc):
    return str(exc) if isinstance(exc, Refused) else None


def test_a_refused_move_the_record_undoes_later_is_skipped_and_its_undo_sends_nothing():
    entries = [{**act("lay_tile"), "id": 1},
               {**act("buy_train", train="4-1"), "id": 2},                # legal then, refused today
               {**act("message", 1, "player", message="oops"), "id": 3},
               {**act("undo"), "id": 4},                                   # takes the purchase back
               {**act("buy_train", train="4-0"), "id": 5}]
    engine = Strict({"buy_train"})
    aligner = ReplayAligner(entries)
    for entry in entries[:4]:
        play_entry(aligner, entry, engine, refusal)
    assert [m["type"] for m in engine.submitted] == ["lay_tile", "message"]   # the undo: nothing to send
    assert aligner.skipped == [{"index": 1, "id": 2, "type": "buy_train", "reason": "buy_train is not allowed today",
                                "undone_at": 3}]
    engine.refuses = set()
    play_entry(aligner, entries[4], engine, refusal)
    assert engine.submitted[-1] == act("buy_train", train="4-0")


def test_moves_after_a_skipped_one_are_undone_with_it():
    entries = [{**act("lay_tile", hex="M6", rotation=1), "id": 1},        # refused today
               {**act("run_routes"), "id": 2},                              # accepted without the tile
               {**act("undo"), "id": 3}, {**act("undo"), "id": 4},
               {**act("lay_tile", hex="M6", rotation=0), "id": 5}]
    engine = Strict(set())

    def lay(move):
        if move["type"] == "lay_tile" and move["rotation"] == 1:
            raise Refused("M6 is not legally rotated for 4")
        return engine(move)

    aligner = ReplayAligner(entries)
    for entry in entries:
        play_entry(aligner, entry, lay, refusal)
    assert [m["type"] for m in engine.submitted] == ["run_routes", "undo", "lay_tile"]
    assert [(s["index"], s["undone_at"]) for s in aligner.skipped] == [(0, 3)]


def test_a_refused_move_the_record_keeps_stops_the_replay():
    entries = [{**act("lay_tile"), "id": 1}, {**act("buy_train", train="4-1"), "id": 2}]
    aligner = ReplayAligner(entries)
    play_entry(aligner, entries[0], Strict({"buy_train"}), refusal)
    with pytest.raises(Refused):
        play_entry(aligner, entries[1], Strict({"buy_train"}), refusal)
    assert aligner.skipped == []
    with pytest.raises(Refused):                 # nor without a way to tell refusals from failures
        play([{**act("buy_train"), "id": 1}, {**act("undo"), "id": 2}], Strict({"buy_train"}))
