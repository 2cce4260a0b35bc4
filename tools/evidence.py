"""The evidence kept in the repository (``evidence/``), and keeping it in step with the shared folder.

``evidence/`` holds what proves the rules without anything outside the checkout: the games recorded
on 18xx.games (``fixtures/``: in the suite; ``fixtures-new/``: complete games joining it as the rules
catch up, see tests/conformance/new_games.py), the reference engine's state after each of their
actions (``traces/``) and the titles' facts the title data is built from (``reference/``). Each file
is the shared folder's file, xz-compressed (traces are stored decompressed first, then xz: half the
size of their gzip), byte for byte once decompressed. The two format descriptions (traces/README.md,
reference/README.md) are kept as plain text.

The shared folder is ``$ROUNDHOUSE_SHARED``, or ``../shared`` beside the checkout:

    make evidence           copy into evidence/ what differs from the shared folder (and drop what it no longer has)
    make evidence-check     list the differences; exit status 1 when there are any

Tests and tools read evidence/ only (``load_game``, ``trace_path``, ``reference`` ...); a missing
file is an error that says how to restore it, never a reason to skip.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import lzma
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EVIDENCE = ROOT / "evidence"

# What is mirrored: shared-folder globs, relative to the shared folder.
DATA = ("fixtures/*/*.json", "fixtures-new/*/*.json", "traces/*/*.jsonl.gz",
        "reference/*/game.json", "reference/rng_examples.json")
DOCS = ("traces/README.md", "reference/README.md")
GAME_FOLDERS = ("fixtures", "fixtures-new")

_XZ = {"format": lzma.FORMAT_XZ, "check": lzma.CHECK_CRC64, "preset": 9 | lzma.PRESET_EXTREME}


class EvidenceMissing(FileNotFoundError):
    """A file the evidence should hold is not there."""

    def __init__(self, path: Path):
        super().__init__(f"{path} is missing from the repository's evidence "
                         f"(restore it with git, or run `make evidence` beside the shared folder)")


def shared_dir() -> Path:
    env = os.environ.get("ROUNDHOUSE_SHARED")
    return Path(env) if env else ROOT.parent / "shared"


# ------------------------------------------------------------------------------------------------
# reading


def read_bytes(path: Path) -> bytes:
    """A file's content, decompressed according to its suffix (.xz, .gz, or none)."""
    path = Path(path)
    if not path.is_file():
        raise EvidenceMissing(path)
    raw = path.read_bytes()
    if path.suffix == ".xz":
        return lzma.decompress(raw)
    if path.suffix == ".gz":
        return gzip.decompress(raw)
    return raw


def read_json(path: Path):
    return json.loads(read_bytes(path))


def open_text(path: Path):
    """A text stream over a (possibly compressed) file, for reading it line by line."""
    return io.TextIOWrapper(io.BytesIO(read_bytes(path)), encoding="utf-8")


def titles() -> list[str]:
    """The titles (slugs) that have recorded games in the evidence."""
    return sorted(p.name for p in (EVIDENCE / "fixtures").iterdir() if p.is_dir())


def game_names(slug: str, folder: str = "fixtures") -> list[str]:
    """Names of the recorded games of a title in ``folder`` (fixtures or fixtures-new)."""
    return sorted(p.name.removesuffix(".json.xz") for p in (EVIDENCE / folder / slug).glob("*.json.xz"))


def game_path(slug: str, name: str) -> Path:
    """The file of a recorded game, in fixtures/ or fixtures-new/ (``name`` with or without .json)."""
    name = name.removesuffix(".json")
    for folder in GAME_FOLDERS:
        path = EVIDENCE / folder / slug / f"{name}.json.xz"
        if path.is_file():
            return path
    raise EvidenceMissing(EVIDENCE / "fixtures" / slug / f"{name}.json.xz")


def load_game(slug: str, name: str) -> dict:
    """A recorded 18xx.games export, as exported."""
    return read_json(game_path(slug, name))


def all_game_paths() -> list[Path]:
    return sorted(p for folder in GAME_FOLDERS for p in (EVIDENCE / folder).glob("*/*.json.xz"))


def trace_path(slug: str, name: str) -> Path:
    path = EVIDENCE / "traces" / slug / f"{name.removesuffix('.json')}.jsonl.xz"
    if not path.is_file():
        raise EvidenceMissing(path)
    return path


def reference_path(slug: str) -> Path:
    return EVIDENCE / "reference" / slug / "game.json.xz"


def reference(slug: str) -> dict:
    """A title's facts as the reference engine holds them (evidence/reference/README.md)."""
    return read_json(reference_path(slug))


def rng_examples() -> dict:
    return read_json(EVIDENCE / "reference" / "rng_examples.json.xz")


# ------------------------------------------------------------------------------------------------
# keeping in step with the shared folder


def stored_name(relative: str) -> str:
    """Where a shared file lives in evidence/: data files compressed (.gz replaced by .xz)."""
    if relative in DOCS:
        return relative
    return relative.removesuffix(".gz") + ".xz"


def _shared_files(shared: Path) -> dict[str, Path]:
    """evidence-relative name -> shared file, for everything mirrored."""
    out = {}
    for pattern in DATA:
        for path in sorted(shared.glob(pattern)):
            out[stored_name(path.relative_to(shared).as_posix())] = path
    for relative in DOCS:
        if (shared / relative).is_file():
            out[relative] = shared / relative
    return out


def _stored_files() -> set[str]:
    if not EVIDENCE.is_dir():
        return set()
    names = {p.relative_to(EVIDENCE).as_posix() for p in EVIDENCE.rglob("*.xz")}
    return names | {d for d in DOCS if (EVIDENCE / d).is_file()}


def _out_of_step(shared: Path):
    """(evidence-relative name, shared file or None, content or None, how) for every file of
    evidence/ out of step with the shared folder: how is "missing", "differs" or "extra"."""
    if not shared.is_dir():
        raise FileNotFoundError(f"no shared folder at {shared} (set ROUNDHOUSE_SHARED)")
    expected = _shared_files(shared)
    for name, source in sorted(expected.items()):
        target, content = EVIDENCE / name, read_bytes(source)
        if not target.is_file():
            yield name, source, content, "missing"
        elif read_bytes(target) != content:
            yield name, source, content, "differs"
    for name in sorted(_stored_files() - set(expected)):
        yield name, None, None, "extra"


def differences(shared: Path | None = None) -> list[str]:
    """How evidence/ differs from the shared folder, one line per file (empty: in step)."""
    shared = shared or shared_dir()
    out = []
    for name, source, _, how in _out_of_step(shared):
        where = "not in the shared folder" if source is None else f"shared has {source.relative_to(shared)}"
        out.append(f"{how}: evidence/{name} ({where})")
    return out


def sync(shared: Path | None = None) -> list[str]:
    """Write into evidence/ every mirrored file that is missing or differs, remove what the shared
    folder no longer has; files already equal are left untouched (so unchanged files never churn).
    Returns what was done, one line per file."""
    done = []
    for name, _, content, how in list(_out_of_step(shared or shared_dir())):
        target = EVIDENCE / name
        if how == "extra":
            target.unlink()
            done.append(f"removed evidence/{name}")
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content if name in DOCS else lzma.compress(content, **_XZ))
        done.append(f"wrote evidence/{name}")
    return done


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only list the differences (exit 1 if any)")
    ap.add_argument("--shared", type=Path, default=None, help="the shared folder (default: $ROUNDHOUSE_SHARED or ../shared)")
    args = ap.parse_args(argv)
    try:
        lines = differences(args.shared) if args.check else sync(args.shared)
    except FileNotFoundError as exc:
        print(exc, file=sys.stderr)
        return 2
    for line in lines:
        print(line)
    if args.check:
        print("evidence/ is in step with the shared folder" if not lines else f"{len(lines)} difference(s)",
              file=sys.stderr)
        return 1 if lines else 0
    print(f"{len(lines)} file(s) changed", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
