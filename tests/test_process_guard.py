"""The guard of tests/conftest.py: a process a test starts and leaves running fails that test,
and is killed; a process of a fixture of the session's scope is that fixture's until it ends."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

CONFTEST = Path(__file__).with_name("conftest.py")


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] not in "ZX"


@pytest.mark.slow  # a pytest run of its own
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes in /proc")
def test_a_process_left_running_fails_its_test_and_is_killed(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDAVIA_TEST_PROCESS_GRACE", "0.5")
    pytester.makeconftest(CONFTEST.read_text())
    pids = pytester.path / "pids"
    pytester.makepyfile(
        test_inner=f"""
        import subprocess
        import pytest

        @pytest.fixture(scope="session")
        def session_server():
            process = subprocess.Popen(["sleep", "600"])
            yield process
            process.terminate()
            process.wait()

        def test_leaves_a_worker():
            worker = subprocess.Popen(["sleep", "600"])
            open({str(pids)!r}, "a").write(f"{{worker.pid}}\\n")

        def test_stops_its_worker():
            worker = subprocess.Popen(["sleep", "600"])
            worker.terminate()
            worker.wait()

        def test_uses_the_sessions_server(session_server):
            open({str(pids)!r}, "a").write(f"session {{session_server.pid}}\\n")

        def test_uses_it_again(session_server):
            assert session_server.poll() is None
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:xdist")
    result.assert_outcomes(passed=4, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at teardown of test_leaves_a_worker*",
            "*processes started by this test outlived it (now killed): * sleep 600*",
        ]
    )
    lines = pids.read_text().split()
    leaked = int(lines[0])
    assert not alive(leaked)
    session = int(lines[-1])
    assert not alive(session)
    assert os.getpid() not in (leaked, session)


@pytest.mark.slow  # a pytest run of its own, and a fork server
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes in /proc")
def test_a_process_of_a_fork_server_left_running_fails_its_test(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fork server itself lives as long as the interpreter, but the processes it starts
    for a test (tests/preloaded.py) are the test's: one left running is found and killed."""
    monkeypatch.setenv("CARDAVIA_TEST_PROCESS_GRACE", "0.5")
    pytester.makeconftest(CONFTEST.read_text())
    pids = pytester.path / "pids"
    pytester.makepyfile(
        test_inner=f"""
        import multiprocessing
        import time

        FORKED = multiprocessing.get_context("forkserver")

        def test_stops_its_process():
            process = FORKED.Process(target=time.sleep, args=(600,))
            process.start()
            process.kill()
            process.join()

        def test_leaves_a_process():
            process = FORKED.Process(target=time.sleep, args=(600,))
            process.start()
            open({str(pids)!r}, "a").write(f"{{process.pid}}\\n")

        def test_after():
            pass
        """
    )
    # A process the guard misses keeps the run's output open: the run would wait for it.
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:xdist", timeout=120)
    result.assert_outcomes(passed=3, errors=1)
    result.stdout.fnmatch_lines(
        ["*ERROR at teardown of test_leaves_a_process*", "*outlived it (now killed)*"]
    )
    assert not alive(int(pids.read_text().split()[0]))
