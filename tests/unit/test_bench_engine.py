"""The platform benchmark's engine mode (``make bench-platform ARGS="engine"``): the engine alone
playing a recorded game's moves as an engine process does, undos and their letting go measured."""

from runtime import bench


def test_engine_mode_prints_moves_undos_and_their_letting_go_per_title(capsys):
    script = bench.build_script(bench.RECORDED / "1856" / "move_up_price_sr1.json.xz")
    undos = sum(1 for move, _who, _seq in script.moves if move.get("type") in ("undo", "redo"))
    assert undos > 0
    assert bench.mode_engine([script]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("1856 "))
    _title, views, _view, _board, moves, _move, _after_move, counted, undo_ms, after_undo, _total = row.split()
    assert int(views) == len(script.moves) == int(moves) + int(counted) and int(counted) == undos
    # an undo goes back by the journal: no state is dropped, nothing (or a copy due) is left for after
    assert float(undo_ms) > 0 and float(after_undo) >= 0
