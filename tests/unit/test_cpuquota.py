"""runtime.cpuquota, the platform benchmark's `--cpus`: a control group holding processes to a share
of the machine's CPUs (cgroup v1 and v2 layouts on a stand-in hierarchy; the real one when this
process may write to it)."""

import os
import subprocess
import sys
import time
from types import SimpleNamespace

import pytest

from runtime import bench
from runtime.cpuquota import ROOT, CpuQuota, QuotaUnavailable


def test_a_v1_group_gets_the_quota_in_short_periods_and_gives_its_processes_back(tmp_path):
    (tmp_path / "cpu").mkdir()
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text("-1")
    quota = CpuQuota(1.5, "bench-1", root=tmp_path)
    group = tmp_path / "cpu" / "bench-1"
    assert quota.version == 1 and quota.path == group
    assert (group / "cpu.cfs_period_us").read_text() == "10000"
    assert (group / "cpu.cfs_quota_us").read_text() == "15000"   # 1.5 CPUs' worth of every period
    quota.add(os.getpid())
    assert (group / "cgroup.procs").read_text() == str(os.getpid())
    (group / "cpu.stat").write_text("nr_periods 120\nnr_throttled 30\nthrottled_time 2500000000\n")
    assert quota.throttled() == (120, 30, 2.5)
    origin = quota._origins[os.getpid()]   # (where /proc says this process is: the root, or below it)
    assert origin == tmp_path / "cpu" or tmp_path / "cpu" in origin.parents
    origin.mkdir(parents=True, exist_ok=True)
    quota.close()
    assert (origin / "cgroup.procs").read_text() == str(os.getpid())   # back where it came from


def test_a_group_left_by_a_killed_run_is_swept_and_its_processes_set_free(tmp_path):
    (tmp_path / "cpu").mkdir()
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text("-1")
    stale = tmp_path / "cpu" / "roundhouse-bench-999999999"   # (no such process)
    stale.mkdir()
    (stale / "cgroup.procs").write_text("4242")                # (say, the broker)
    alive = tmp_path / "cpu" / f"roundhouse-bench-{os.getppid()}"
    alive.mkdir()
    (alive / "cgroup.procs").write_text("4343")
    quota = CpuQuota(1, f"roundhouse-bench-{os.getpid()}", root=tmp_path)
    assert quota.sweep("roundhouse-bench-") == [stale]
    assert (tmp_path / "cpu" / "cgroup.procs").read_text() == "4242"
    assert (alive / "cgroup.procs").read_text() == "4343"     # another run's, still going
    assert quota.path.exists()


def test_a_v2_group_turns_the_cpu_controller_on_and_sets_cpu_max(tmp_path):
    (tmp_path / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
    (tmp_path / "cgroup.subtree_control").write_text("memory\n")
    quota = CpuQuota(0.5, "bench-2", root=tmp_path)
    assert quota.version == 2
    assert (tmp_path / "cgroup.subtree_control").read_text() == "+cpu"
    assert (tmp_path / "bench-2" / "cpu.max").read_text() == "5000 10000"
    (tmp_path / "bench-2" / "cpu.stat").write_text("usage_usec 9\nnr_periods 10\nnr_throttled 4\nthrottled_usec 1500000\n")
    assert quota.throttled() == (10, 4, 1.5)


def test_no_controller_or_no_share_is_a_clear_error(tmp_path):
    with pytest.raises(QuotaUnavailable, match="no cgroup cpu controller"):
        CpuQuota(1, "x", root=tmp_path)
    (tmp_path / "cgroup.controllers").write_text("memory pids\n")
    with pytest.raises(QuotaUnavailable, match="cpu controller is not available"):
        CpuQuota(1, "x", root=tmp_path)
    with pytest.raises(ValueError, match="more than 0"):
        CpuQuota(0, "x", root=tmp_path)


def test_the_bench_says_why_it_cannot_hold_the_platform(tmp_path, monkeypatch):
    monkeypatch.setattr(bench, "CpuQuota", lambda cpus, name: CpuQuota(cpus, name, root=tmp_path))
    with pytest.raises(SystemExit, match="--cpus: no cgroup cpu controller"):
        bench.hold_to_cpus(SimpleNamespace(cpus=1.2, kafka=None))


def test_a_busy_process_in_the_group_gets_no_more_than_its_share():
    """The real hierarchy (as root): a busy loop held to a quarter of a CPU for a second."""
    try:
        quota = CpuQuota(0.25, f"roundhouse-test-{os.getpid()}")
    except QuotaUnavailable as exc:
        pytest.skip(f"no writable cgroup CPU controller here ({exc}); CI runs as root")
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        quota.add(busy.pid)
        start = bench.process_cpu(busy.pid)
        time.sleep(1.0)
        used = bench.process_cpu(busy.pid) - start
        _periods, throttled, _waited = quota.throttled()
    finally:
        busy.kill()
        busy.wait()
        quota.close()
    assert used <= 0.5, f"{used:.2f} s of CPU in a second at a quarter of a CPU"
    assert throttled > 0
    assert not quota.path.exists()
    assert ROOT in quota.path.parents
