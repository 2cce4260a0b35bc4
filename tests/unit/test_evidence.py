"""The repository's evidence (evidence/, tools/evidence.py): complete, readable, and in step with the
shared folder it is copied from."""

import json
import lzma

import pytest

from engine import titles
from tools import evidence

from conformance.new_games import NOT_YET


def test_every_title_has_recorded_games_and_reference_facts():
    for slug in titles.SLUGS:
        assert evidence.game_names(slug), f"no recorded {slug} game in evidence/fixtures"
        assert evidence.reference(slug)["title"] == titles.SLUGS[slug]


def test_every_recorded_game_has_the_reference_trace_of_its_actions():
    for path in evidence.all_game_paths():
        slug, name = path.parent.name, path.name.removesuffix(".json.xz")
        export = evidence.read_json(path)
        with evidence.open_text(evidence.trace_path(slug, name)) as trace:
            header = json.loads(trace.readline())
        assert (header["slug"], header["fixture"]) == (slug, f"{name}.json")
        assert header["n_actions"] == len(export["actions"])


def test_the_games_not_yet_in_the_suite_are_games_of_fixtures_new():
    new = {f"{slug}/{name}" for slug in titles.SLUGS for name in evidence.game_names(slug, "fixtures-new")}
    assert set(NOT_YET) <= new
    for parts in NOT_YET.values():
        assert parts and set(parts) <= {"import", "move_by_move"} and all(parts.values())


def test_a_missing_file_is_an_error_that_says_how_to_restore_it():
    with pytest.raises(evidence.EvidenceMissing, match="make evidence"):
        evidence.load_game("1856", "no_such_game")
    with pytest.raises(evidence.EvidenceMissing):
        evidence.trace_path("1856", "no_such_game")


def test_sync_writes_what_differs_and_removes_what_the_shared_folder_lost(tmp_path, monkeypatch):
    shared, stored = tmp_path / "shared", tmp_path / "evidence"
    (shared / "fixtures" / "1856").mkdir(parents=True)
    (shared / "fixtures" / "1856" / "g.json").write_text('{"a": 1}')
    (shared / "traces").mkdir()
    (shared / "traces" / "README.md").write_text("format")
    monkeypatch.setattr(evidence, "EVIDENCE", stored)
    assert evidence.differences(shared) == ["missing: evidence/fixtures/1856/g.json.xz (shared has fixtures/1856/g.json)",
                                            "missing: evidence/traces/README.md (shared has traces/README.md)"]
    assert len(evidence.sync(shared)) == 2
    assert lzma.decompress((stored / "fixtures" / "1856" / "g.json.xz").read_bytes()) == b'{"a": 1}'
    assert (stored / "traces" / "README.md").read_text() == "format"
    assert evidence.differences(shared) == [] and evidence.sync(shared) == []
    (shared / "fixtures" / "1856" / "g.json").write_text('{"a": 2}')
    (shared / "fixtures" / "1856" / "g.json").rename(shared / "fixtures" / "1856" / "h.json")
    assert evidence.differences(shared) == ["missing: evidence/fixtures/1856/h.json.xz (shared has fixtures/1856/h.json)",
                                            "extra: evidence/fixtures/1856/g.json.xz (not in the shared folder)"]
    evidence.sync(shared)
    assert sorted(p.name for p in (stored / "fixtures" / "1856").iterdir()) == ["h.json.xz"]


def test_the_evidence_is_in_step_with_the_shared_folder():
    """`make evidence` copies what changed; this says what did (when a shared folder is here to compare)."""
    shared = evidence.shared_dir()
    if not shared.is_dir():
        pytest.skip(f"no shared folder at {shared} to compare evidence/ with (ROUNDHOUSE_SHARED)")
    assert evidence.differences(shared) == [], "evidence/ differs from the shared folder: run `make evidence`"
