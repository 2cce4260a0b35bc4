"""The lock files pin every dependency pyproject.toml names, at a version its specifier allows,
with hashes; `make install` and the image install from them (`make lock` regenerates them)."""

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[2]


def pins(lock: Path) -> dict[str, str]:
    found = {}
    for line in lock.read_text().splitlines():
        if m := re.match(r"^([A-Za-z0-9_.\-]+)==([^\s\\]+)", line):
            found[canonicalize_name(m.group(1))] = m.group(2)
    return found


def declared(extra: str | None) -> list[Requirement]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    reqs = list(project["dependencies"])
    if extra:
        reqs += project["optional-dependencies"][extra]
    return [Requirement(r) for r in reqs]


def test_every_dependency_is_pinned_in_the_locks():
    for lock, extra in (("requirements.lock", None), ("requirements-dev.lock", "dev")):
        pinned = pins(REPO / lock)
        for req in declared(extra):
            name = canonicalize_name(req.name)
            assert name in pinned, f"{lock} does not pin {req.name}: run `make lock`"
            assert req.specifier.contains(pinned[name], prereleases=True), (
                f"{lock} pins {req.name}=={pinned[name]}, outside {req.specifier}: run `make lock`")


def test_locks_carry_hashes_and_the_image_uses_one():
    for lock in ("requirements.lock", "requirements-dev.lock"):
        text = (REPO / lock).read_text()
        entries = re.findall(r"^[A-Za-z0-9_.\-]+==", text, flags=re.M)
        assert entries and text.count("--hash=sha256:") >= len(entries)
    dockerfile = (REPO / "deploy/images/Dockerfile").read_text()
    assert "--require-hashes -r requirements.lock" in dockerfile
    makefile = (REPO / "Makefile").read_text()
    assert "--require-hashes -r requirements-dev.lock" in makefile
