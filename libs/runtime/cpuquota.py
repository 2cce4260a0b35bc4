"""Hold processes to a share of the machine's CPUs: a Linux control group with a CPU quota.

The platform benchmark's `--cpus N` runs the platform, its load generator and (over Kafka) the
development broker in one such group, so that together they get at most N CPUs' worth of time in
every `period`: the same run on a smaller, or slower, machine. It says how much headroom a load has
(how few CPUs still meet a latency target), which the machine's own speed, drifting from one hour to
the next, does not.

cgroup v2 (the unified hierarchy: `cpu.max`) and cgroup v1 (the `cpu` controller:
`cpu.cfs_quota_us`, `cpu.cfs_period_us`) are both handled; the group is made under the hierarchy's
root, which takes root (or a delegated hierarchy). The period is short (10 ms) so that a group that
used up its quota waits at most that long for the next (the default 100 ms would add stalls of up to
100 ms that a smaller machine does not have).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
PERIOD_US = 10_000


class QuotaUnavailable(RuntimeError):
    """No CPU controller here that this process may write to."""


class CpuQuota:
    """A control group holding its processes to `cpus` CPUs; `add` processes, `close` at the end
    (each process goes back to the group it came from, and the group is removed)."""

    def __init__(self, cpus: float, name: str, root: Path = ROOT, period_us: int = PERIOD_US):
        if cpus <= 0:
            raise ValueError(f"--cpus must be more than 0, not {cpus:g}")
        self.cpus = cpus
        self.period_us = period_us
        quota_us = max(1000, round(cpus * period_us))   # (the kernel's least quota is 1 ms)
        self._origins: dict[int, Path] = {}
        if (root / "cgroup.controllers").exists():
            self.version = 2
            self.hierarchy = root
            if "cpu" not in (root / "cgroup.controllers").read_text().split():
                raise QuotaUnavailable(f"{root}: the cpu controller is not available")
            if "cpu" not in (root / "cgroup.subtree_control").read_text().split():
                self._write(root / "cgroup.subtree_control", "+cpu")
            self.path = root / name
            self._make()
            self._write(self.path / "cpu.max", f"{quota_us} {period_us}")
        elif (root / "cpu" / "cpu.cfs_quota_us").exists():
            self.version = 1
            self.hierarchy = root / "cpu"
            self.path = self.hierarchy / name
            self._make()
            self._write(self.path / "cpu.cfs_period_us", str(period_us))
            self._write(self.path / "cpu.cfs_quota_us", str(quota_us))
        else:
            raise QuotaUnavailable(f"no cgroup cpu controller under {root}")

    def sweep(self, prefix: str) -> list[Path]:
        """Groups named `prefix` and the number of a process that is gone (a benchmark killed before
        it could close its group): their processes back to the hierarchy's root (else the broker
        would stay held), the groups removed. The groups swept."""
        swept = []
        for group in self.hierarchy.glob(f"{prefix}*"):
            owner = group.name[len(prefix):]
            if not owner.isdigit() or group == self.path or Path(f"/proc/{owner}").exists():
                continue
            _release(group, lambda pid: self.hierarchy)
            swept.append(group)
        return swept

    def _make(self) -> None:
        try:
            self.path.mkdir()
        except OSError as exc:
            raise QuotaUnavailable(f"cannot make the control group {self.path}: {exc.strerror} "
                                   "(--cpus needs root, or a delegated cgroup hierarchy)") from exc

    @staticmethod
    def _write(path: Path, text: str) -> None:
        try:
            path.write_text(text)
        except OSError as exc:
            raise QuotaUnavailable(f"cannot write {text!r} to {path}: {exc.strerror}") from exc

    def add(self, pid: int) -> None:
        """Move process `pid` (all its threads) into the group; its children follow it."""
        self._origins.setdefault(pid, self._group_of(pid))
        self._write(self.path / "cgroup.procs", str(pid))

    def _group_of(self, pid: int) -> Path:
        """The group of this hierarchy that `pid` is in now (its root when not listed)."""
        lines = Path(f"/proc/{pid}/cgroup").read_text().splitlines()
        for line in lines:
            _id, controllers, where = line.split(":", 2)
            if (self.version == 2 and _id == "0") or (self.version == 1 and "cpu" in controllers.split(",")):
                return self.hierarchy / where.lstrip("/")
        return self.hierarchy

    def throttled(self) -> tuple[int, int, float]:
        """Periods so far, periods in which the group used up its quota, seconds it waited then."""
        stat = dict(line.split() for line in (self.path / "cpu.stat").read_text().splitlines() if line.strip())
        waited = int(stat.get("throttled_usec", 0)) / 1e6 if self.version == 2 else int(stat.get("throttled_time", 0)) / 1e9
        return int(stat.get("nr_periods", 0)), int(stat.get("nr_throttled", 0)), waited

    def close(self) -> None:
        """Every process still in the group back where it came from (the group of this process when
        it was not added itself: a child started inside), then the group removed."""
        home = self._origins.get(os.getpid(), self.hierarchy)
        _release(self.path, lambda pid: self._origins.get(pid, home))


def _release(group: Path, origin: Callable[[int], Path]) -> None:
    """Every process in `group` to `origin(pid)`, then the group removed (when it can be: a process
    that could not be moved keeps it, and a later run's sweep tries again)."""
    try:
        left = [int(p) for p in (group / "cgroup.procs").read_text().split()]
    except OSError:
        left = []
    for pid in left:
        try:
            (origin(pid) / "cgroup.procs").write_text(str(pid))
        except OSError:
            pass   # (gone meanwhile)
    try:
        group.rmdir()
    except OSError:
        pass
