"""The web processes' logs (issue 18): every record one line of ``key=value``, a fault's
traceback folded into it, seat tokens hidden."""

from __future__ import annotations

import logging
import logging.config

import pytest

from cardavia.live.logs import LOG_CONFIG, OneLine
from cardavia.web.server import server_options


def _record(message: str, *args: object, error: BaseException | None = None) -> logging.LogRecord:
    exc_info = (type(error), error, error.__traceback__) if error is not None else None
    return logging.LogRecord(
        "cardavia.live.tables", logging.WARNING, "x.py", 1, message, args, exc_info
    )


def test_a_record_is_one_line_of_keys_and_values() -> None:
    line = OneLine().format(_record("game %s: the database is unavailable (%s)", "abc", "full"))
    assert " level=WARNING logger=cardavia.live.tables " in line
    assert line.endswith('msg="game abc: the database is unavailable (full)"')
    assert line.startswith("time=") and "\n" not in line


def test_a_fault_and_its_traceback_fold_into_the_line() -> None:
    try:
        int("two\nlines")
    except ValueError as error:
        line = OneLine().format(_record("a message\nfailed", error=error))
    assert "\n" not in line
    assert 'msg="a message\\nfailed"' in line
    assert 'error="ValueError: invalid literal for int() with base 10:' in line
    assert (
        "test_logs.py:" in line and "in test_a_fault_and_its_traceback_fold_into_the_line" in line
    )


def test_the_web_processes_log_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert server_options()["log_config"] is LOG_CONFIG
    logging.config.dictConfig({k: v for k, v in LOG_CONFIG.items() if k != "root"})
    try:
        logging.getLogger("uvicorn.access").info(
            '%s - "%s %s HTTP/%s" %d', "1.2.3.4", "GET", "/ws/games/g?token=secret", "1.1", 101
        )
    finally:
        for name in ("uvicorn", "uvicorn.access"):
            logging.getLogger(name).handlers.clear()
            logging.getLogger(name).propagate = True
    written = capsys.readouterr().err
    assert written.count("\n") == 1 and "secret" not in written and "token=…" in written
