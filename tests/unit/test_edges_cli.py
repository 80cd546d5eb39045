"""Issue 13 items 4-7, 10-12, 19 and issue 15 item 7: ``python -m meteor score`` at the edges.

Every check on options, inputs and output paths runs before any scoring; a segment that
cannot be scored is named and the others are still written; SIGTERM and Ctrl-C stop the
worker processes at once and leave no half-written file; ``-`` is stdin or stdout.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from meteor import Meteor, batch
from meteor.aligners import stagewise
from meteor.cli import files as cli_io
from meteor.cli.command_line import main

PRESET = "meteor-1.5-paper2005"
ROOT = Path(__file__).resolve().parents[2]
HYPS = ["the cat sat on the mat", "a quick brown fox", "he jumped quickly"]
REFS = ["the cat sat on the mat", "the quick brown fox", "he jumps quickly"]
#: A segment the candidate limit refuses at once (1,000 × 1,000 candidate matches).
EXPLOSIVE = "the " * 1_000


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, out, err = run(capsys, *argv)
    assert code == 2, (code, out, err)
    assert out == "" and err.count("\n") == 1 and err.startswith("meteor: error: "), err
    return err[len("meteor: error: ") :].strip()


def write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    return {"hyp": write(tmp_path / "hyp.txt", HYPS), "ref": write(tmp_path / "ref.txt", REFS)}


class FakeStdin:
    """``sys.stdin`` with bytes behind it (as a pipe gives them)."""

    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)

    def isatty(self) -> bool:
        return False


# -- item 19: options given twice ---------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (["-w", "exact=1", "--weights", "stem=0.5"], "--weights/-w given more than once"),
        (["--alpha", "0.5", "--alpha", "0.6"], "--alpha given more than once"),
        (["-p", "nltk", "-p", "meteor-1.5"], "--preset/-p given more than once"),
        (["--jsonl", "a.jsonl", "--jsonl", "b.jsonl"], "--jsonl given more than once"),
    ],
)
def test_single_valued_options_given_twice_are_refused(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], args: list[str], flag: str
) -> None:
    # before: argparse kept the last value silently
    msg = usage_error(capsys, "score", "-i", files["hyp"], "-r", files["ref"], *args)
    assert flag in msg and "give it once" in msg


def test_repeatable_options_still_repeat(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], tmp_path: Path
) -> None:
    hyp2, ref2 = write(tmp_path / "hyp2.txt", HYPS), write(tmp_path / "ref2.txt", REFS)
    code, out, err = run(
        capsys, "score", "-p", PRESET, "-i", files["hyp"], "-i", hyp2, "-r", files["ref"],
        "-r", ref2,
    )  # fmt: skip
    assert code == 0, err


# -- items 5, 6, 7: limits and checks before scoring --------------------------------------


def test_workers_are_capped_at_the_cpu_count(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    code, out, err = run(
        capsys, "score", "-p", PRESET, "-i", files["hyp"], "-r", files["ref"], "-j", "500"
    )
    assert code == 0 and "METEOR corpus score" in out
    cpus = len(os.sched_getaffinity(0))
    assert err == (
        f"meteor: note: --workers 500 is more than the {cpus} CPU(s) this process may use; "
        f"using {cpus}\n"
    )


def _systems_tsv(path: Path, n_systems: int, n_segments: int) -> str:
    rows = ["system\thyp\tref"]
    for s in range(n_systems):
        rows += [f"s{s}\tw{k} x\tw{k} y" for k in range(n_segments)]
    return write(path, rows)


def test_total_bootstrap_work_is_limited_before_scoring(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tsv = _systems_tsv(tmp_path / "many.tsv", 20, 1_000)

    def no_scoring(*args: object, **kw: object) -> None:
        raise AssertionError("scored before the bootstrap work was checked")

    # before the check: 20,000 segments scored, then over 10 minutes of bootstrap
    monkeypatch.setattr(batch, "score_segments", no_scoring)  # the corpus loop
    # 60,000 resamples × 1,000 segments is within the per-system limit (200,000,000)
    msg = usage_error(capsys, "score", "-p", PRESET, "-i", tsv, "-b", "60000")
    assert msg == (
        "--bootstrap 60,000 is too much work for 20 system(s) × 1,000 segments: "
        "3,480,000,000 segment draws (systems and paired tests), the limit is 500,000,000; "
        "use --bootstrap 8,620 or less, or raise the limit with --max-bootstrap-work "
        "3480000000"
    )


def test_bootstrap_limit_can_be_raised_and_lowered(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    tsv = _systems_tsv(tmp_path / "few.tsv", 3, 10)
    work = 200 * 10 * (3 + 2 * 2)
    msg = usage_error(
        capsys, "score", "-p", PRESET, "-i", tsv, "-b", "200", "--max-bootstrap-work", "1000"
    )
    assert f"--max-bootstrap-work {work}" in msg
    code, out, err = run(
        capsys, "score", "-p", PRESET, "-i", tsv, "-b", "200", "--max-bootstrap-work", str(work)
    )
    assert code == 0 and "paired bootstrap test, Koehn 2004: 200 resamples" in out, err


@pytest.mark.parametrize(
    ("out_path", "match"),
    [
        ("{tmp}/missing/seg.jsonl", "folder '{tmp}/missing' does not exist"),
        ("{tmp}/hyp.txt/seg.jsonl", "'{tmp}/hyp.txt' is not a folder"),
        ("{tmp}", "it is a directory"),
        ("/proc/seg.jsonl", "folder '/proc' is not writable"),
        ("{tmp}/hyp.txt", "is one of the input files; it would be overwritten"),
    ],
)
def test_output_paths_are_checked_before_scoring(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, out_path: str, match: str
) -> None:
    tmp = str(tmp_path)
    hyp = write(tmp_path / "hyp.txt", ["fine", EXPLOSIVE])
    # The explosive segment shows whether scoring ran first: before, its error came
    # (or, for /proc, the run scored everything and then failed to write).
    msg = usage_error(
        capsys, "score", "-p", PRESET, "-i", hyp, "-r", hyp, "--jsonl", out_path.format(tmp=tmp)
    )
    assert match.format(tmp=tmp) in msg


def test_two_outputs_to_one_file_are_refused(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], tmp_path: Path
) -> None:
    same = str(tmp_path / "x.out")
    msg = usage_error(
        capsys, "score", "-i", files["hyp"], "-r", files["ref"], "--jsonl", same, "--csv", same
    )
    assert msg == f"--jsonl and --csv both write {same!r}; give different files"


@pytest.mark.parametrize("seed", ["-5", str(2**128)])
def test_bad_seed_is_refused_before_scoring(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, seed: str
) -> None:
    hyp = write(tmp_path / "hyp.txt", ["fine", EXPLOSIVE])
    msg = usage_error(
        capsys, "score", "-p", PRESET, "-i", hyp, "-r", hyp, "-b", "40", "--seed", seed
    )
    assert msg == f"--seed must be a whole number from 0 to 2**128 - 1, got {seed}"


def test_failed_segments_are_named_and_the_rest_is_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    tsv = tmp_path / "ids.tsv"
    tsv.write_text(
        "seg_id\thyp\tref\n"
        "a1\tthe cat sat\tthe cat sat down\n"
        f"b2\t{EXPLOSIVE}\t{EXPLOSIVE}\n"
        "c3\ta quick fox\tthe quick fox\n",
        encoding="utf-8",
    )
    jsonl, csv_out, align = tmp_path / "s.jsonl", tmp_path / "s.csv", tmp_path / "a.out"
    code, out, err = run(
        capsys, "score", "-p", PRESET, "-i", str(tsv), "--jsonl", str(jsonl), "--csv",
        str(csv_out), "--align-out", str(align),
    )  # fmt: skip
    assert code == 1 and out == ""  # no corpus score: it would leave segment 2 out
    lines = err.splitlines()
    assert lines[0].startswith("meteor: error: segment 2 (id b2): this pair has at least")
    assert lines[1].startswith("meteor: error: 1 of 3 segments could not be scored")
    records = [json.loads(x) for x in jsonl.read_text(encoding="utf-8").splitlines()]
    assert [(r["segment"], r["seg_id"]) for r in records] == [(1, "a1"), (3, "c3")]
    m = Meteor(PRESET)
    assert [r["score"] for r in records] == [
        m.score("the cat sat", "the cat sat down").score,
        m.score("a quick fox", "the quick fox").score,
    ]
    assert csv_out.read_text(encoding="utf-8").count("\n") == 3  # header + 2 rows
    assert [
        x.split("\t")[1] for x in align.read_text().splitlines() if x.startswith("Alignment")
    ] == [
        "1",
        "3",
    ]


def test_segment_the_stagewise_aligner_refuses_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The real search with a smaller budget (the default needs 16 s to run out): a pair
    # of five independent 40-word blocks needs 5 × 10,316 states.
    monkeypatch.setattr(stagewise.StagewiseAligner, "max_nodes", 15_000)
    hard_h = "4 0 4 1 3 2 4 0 4 1 2 2 0 0 0 2 4 4 3 2 0 2 1 0 0 0 2 2 4 4 4 1 3 4 0 0 1 2 4 3"
    hard_r = "3 0 3 3 1 4 1 4 2 3 2 0 4 2 1 0 1 2 2 2 4 0 1 0 3 1 1 0 4 4 4 3 3 1 3 3 4 4 1 2"
    hyp = " ".join(f"v{w}x{b}" for b in range(5) for w in hard_h.split())
    ref = " ".join(f"v{w}x{b}" for b in range(5) for w in hard_r.split())
    h = write(tmp_path / "h.txt", ["the cat", hyp, "a dog"])
    r = write(tmp_path / "r.txt", ["the cat", ref, "a dog"])
    jsonl = tmp_path / "s.jsonl"
    code, out, err = run(
        capsys, "score", "-p", "paper-2005", "-i", h, "-r", r, "-j", "1", "--jsonl", str(jsonl)
    )
    assert code == 1 and out == "", err
    assert err.startswith("meteor: error: segment 2: this sentence pair is too ambiguous")
    assert "the other segments were written to " + str(jsonl) in err
    assert [json.loads(x)["segment"] for x in jsonl.read_text().splitlines()] == [1, 3]


# -- item 10: '-' is stdin and stdout for every flag ----------------------------------------


def test_dash_outputs_write_stdout_and_the_summary_goes_to_stderr(
    capsys: pytest.CaptureFixture[str],
    files: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)  # before: a file named '-' appeared here
    code, out, err = run(capsys, "score", "-p", PRESET, "-i", files["hyp"], "-r", files["ref"],
                         "--jsonl", "-")  # fmt: skip
    assert code == 0 and not (tmp_path / "-").exists()
    assert [json.loads(x)["hyp"] for x in out.splitlines()] == HYPS
    assert "METEOR corpus score" in err
    code, out, err = run(capsys, "score", "-p", PRESET, "-i", files["hyp"], "-r", files["ref"],
                         "--align-out", "-")  # fmt: skip
    assert code == 0 and out.count("Alignment\t") == 3 and not (tmp_path / "-").exists()
    msg = usage_error(capsys, "score", "-i", files["hyp"], "-r", files["ref"], "--jsonl", "-",
                      "--csv", "-")  # fmt: skip
    assert msg == "--jsonl and --csv both write to stdout ('-'); choose one"


def test_references_from_stdin(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", FakeStdin("\n".join(REFS).encode() + b"\n"))
    code, out, err = run(capsys, "score", "-p", PRESET, "-i", files["hyp"], "-r", "-",
                         "--format", "json")  # fmt: skip
    assert code == 0, err
    expected = Meteor(PRESET).corpus_score(HYPS, REFS).score
    assert json.loads(out)["systems"][0]["score"] == expected


# -- item 11: --align-out for systems whose names differ in unsafe characters ---------------


def test_align_out_keeps_systems_apart(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    tsv = tmp_path / "two.tsv"
    tsv.write_text(
        "system\thyp\tref\nx y\tthe cat\tthe cat\nx_y\ta dog\tthe cat\n", encoding="utf-8"
    )
    code, _, err = run(capsys, "score", "-p", PRESET, "-i", str(tsv), "--align-out",
                       str(tmp_path / "run.out"))  # fmt: skip
    assert code == 0, err
    made = sorted(p.name for p in tmp_path.glob("run.*"))
    assert len(made) == 2 and "run.x_y.out" in made  # before: one file, the other lost
    texts = {p.name: p.read_text() for p in tmp_path.glob("run.*")}
    assert "a dog" in texts["run.x_y.out"]
    (other,) = (n for n in made if n != "run.x_y.out")
    assert other.startswith("run.x_y-") and "the cat\nthe cat" in texts[other]


def test_align_out_paths() -> None:
    paths = cli_io.align_out_paths("d/r.out", ["A", "a", "ok", "x/../y", ".."])
    assert paths["ok"] == "d/r.ok.out"
    assert len(set(paths.values())) == 5
    assert all(Path(p).parent == Path("d") for p in paths.values())
    assert len({p.casefold() for p in paths.values()}) == 5


# -- item 12: inputs that are not regular files --------------------------------------------


def test_fifo_input_is_refused_without_hanging(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], tmp_path: Path
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    result: dict[str, Any] = {}

    def go() -> None:
        result["msg"] = usage_error(capsys, "score", "-i", str(fifo), "-r", files["ref"])

    t = threading.Thread(target=go, daemon=True)
    t.start()
    t.join(5.0)
    if t.is_alive():  # before: open() blocked until a writer came; release it
        with open(fifo, "wb"):
            pass
        t.join(5.0)
        pytest.fail("reading a FIFO hung")
    assert "it is a named pipe (FIFO), not a regular file" in result["msg"]


@pytest.mark.parametrize(
    ("path", "match"),
    [
        ("/dev/urandom", "it is a character device, not a regular file"),
        ("/proc/version", "it reports a size of 0 bytes but has content, so it is a virtual file"),
    ],
)
def test_devices_and_virtual_files_are_refused(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], path: str, match: str
) -> None:
    msg = usage_error(capsys, "score", "-i", path, "-r", files["ref"])
    assert match in msg


def test_stdin_over_the_limit_says_what_was_read(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", FakeStdin(b"word " * 1_000))
    stdin_used = [False]
    with pytest.raises(cli_io.CliError) as exc:
        cli_io.read_input("-", "hypothesis", stdin_used, limit=1_000)
    assert str(exc.value).startswith(
        "<stdin> has more than 1,000 bytes (reading stopped at 1,001 bytes); at most 1,000 bytes"
    )


# -- issue 15 item 7: formats, exit codes, help ---------------------------------------------


def test_format_jsonl_and_csv_on_stdout(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    base = ("score", "-p", PRESET, "-i", files["hyp"], "-r", files["ref"])
    code, out, err = run(capsys, *base, "--format", "jsonl")
    assert code == 0 and err == ""
    m = Meteor(PRESET)
    assert [json.loads(x)["score"] for x in out.splitlines()] == [
        m.score(h, r).score for h, r in zip(HYPS, REFS, strict=True)
    ]
    code, out, err = run(capsys, *base, "--format", "csv")
    assert code == 0 and out.startswith("system,segment,seg_id,score,") and out.count("\n") == 4


def test_help_shows_examples_and_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", "-h")
    assert code == 0
    assert "cat hyp.txt | meteor score -r ref.txt" in out
    assert "exit status:" in out and "2  usage error" in out and "130 / 143" in out


def test_stdin_pipe_end_to_end(files: dict[str, str]) -> None:
    """``cat hyps.txt | python -m meteor score -r refs.txt`` in a real process."""
    proc = subprocess.run(
        [sys.executable, "-m", "meteor", "score", "-p", PRESET, "-r", files["ref"], "-f", "json"],
        input=Path(files["hyp"]).read_bytes(),
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    expected = Meteor(PRESET).corpus_score(HYPS, REFS).score
    assert json.loads(proc.stdout)["systems"][0]["score"] == expected


# -- item 4: SIGTERM and Ctrl-C stop every worker -------------------------------------------


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(x) for x in text.split()]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _big_corpus(tmp_path: Path, n: int = 40_000) -> tuple[str, str]:
    words = [f"w{k}" for k in range(400)]
    hyp = [" ".join(words[(k * 7 + j * 13) % 400] for j in range(12)) + f" n{k}" for k in range(n)]
    ref = [" ".join(words[(k * 11 + j * 5) % 400] for j in range(12)) + f" n{k}" for k in range(n)]
    return write(tmp_path / "big_h.txt", hyp), write(tmp_path / "big_r.txt", ref)


def _default_sigint() -> None:
    """In the child before it runs: SIGINT as at a terminal.  A suite started as a
    background job (``pytest &``) ignores SIGINT, and so would the child (Python then
    installs no ``KeyboardInterrupt`` handler): the SIGINT tests would fail."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_signal_stops_every_worker_within_two_seconds(tmp_path: Path, sig: signal.Signals) -> None:
    h, r = _big_corpus(tmp_path)
    out = tmp_path / "seg.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "meteor", "score", "-p", "nltk", "-i", h, "-r", r, "-j", "2",
         "--jsonl", str(out)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        preexec_fn=_default_sigint,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        workers: list[int] = []
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.1)
            workers = _children(proc.pid)
            assert proc.poll() is None, proc.communicate()
        assert len(workers) >= 2, "the workers never started"
        time.sleep(0.5)  # let them get busy
        t0 = time.monotonic()
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)  # Ctrl-C reaches the whole process group
        else:
            proc.send_signal(sig)  # `kill PID`: the parent only
        code = proc.wait(timeout=10)
        while any(_alive(w) for w in workers) and time.monotonic() - t0 < 10:
            time.sleep(0.02)
        elapsed = time.monotonic() - t0
        stderr = proc.stderr.read().decode() if proc.stderr else ""
    finally:
        if proc.poll() is None:
            proc.kill()
        for w in _children(proc.pid):
            os.kill(w, signal.SIGKILL)
    print(f"{sig.name}: parent and {len(workers)} workers gone {elapsed:.2f} s after the signal")
    assert not any(_alive(w) for w in workers)
    assert elapsed < 9.0  # left running, they would wait for work until killed (stopping: ~1 s)
    # SIGKILL cannot be handled: the workers die with their parent (PR_SET_PDEATHSIG)
    expected = {signal.SIGTERM: 143, signal.SIGINT: 130, signal.SIGKILL: -signal.SIGKILL}
    assert code == expected[sig], stderr
    assert "Traceback" not in stderr
    assert not out.exists() and not list(tmp_path.glob("*.part"))  # nothing half-written


def _sleep_then_return(seconds: float) -> int:
    time.sleep(seconds)
    return 1


def test_stopping_workers_never_leaves_the_pool_waiting_for_half_a_result() -> None:
    """A worker killed while sending its result leaves half a message in the result
    pipe; shutting the pool down then waited for the rest for ever (the CLI hung after
    SIGTERM on a loaded machine, test above).  Made certain here: this process writes the
    first bytes of a result message itself, then the workers are stopped."""
    import multiprocessing as mp
    import struct
    import threading
    from concurrent.futures import ProcessPoolExecutor

    from meteor.runners import parallel

    pool = ProcessPoolExecutor(max_workers=1, mp_context=mp.get_context("fork"))
    fut = pool.submit(_sleep_then_return, 30.0)
    deadline = time.monotonic() + 20
    while not pool._processes and time.monotonic() < deadline:  # type: ignore[attr-defined]
        time.sleep(0.05)
    # a length header announcing 1,000 bytes, and none of them
    pool._result_queue._writer._send(struct.pack("!i", 1000))  # type: ignore[attr-defined]
    time.sleep(0.3)  # the manager thread is now reading the announced bytes
    parallel._stop_workers(pool)
    done = threading.Event()
    closer = threading.Thread(
        target=lambda: (pool.shutdown(wait=True, cancel_futures=True), done.set()), daemon=True
    )
    closer.start()
    assert done.wait(10), "shutdown still waits for the rest of a half-sent result"
    assert fut.done()


# A signal delivered inside ``concurrent.futures.wait`` while it takes its futures' locks
# one by one: the moment that hung the CLI after Ctrl-C in CI (stop 30).  Forced here by
# wrapping that lock-taking step; the child process is what may hang, so the test waits
# for it with a timeout instead.
_SIGNAL_MID_WAIT = """
import concurrent.futures._base as base, signal, sys
from meteor.cli.command_line import main
calls = [0]
def enter(self):
    calls[0] += 1
    for i, f in enumerate(self.futures):
        f._condition.acquire()
        if calls[0] == 3 and i == len(self.futures) // 2:
            signal.raise_signal(getattr(signal, sys.argv[1]))
base._AcquireFutures.__enter__ = enter
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_a_signal_while_waiting_for_the_workers_never_hangs(tmp_path: Path, sig: str) -> None:
    h, r = _big_corpus(tmp_path, n=4_000)  # 16 chunks: the third wait still has several
    out = tmp_path / "seg.jsonl"
    argv = ["score", "-p", "nltk", "-i", h, "-r", r, "-j", "2", "--jsonl", str(out)]
    proc = subprocess.Popen(
        [sys.executable, "-c", _SIGNAL_MID_WAIT, sig, *argv],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        preexec_fn=_default_sigint,
    )  # fmt: skip
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"{sig} inside concurrent.futures.wait: the CLI never exited")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # any worker left
    assert proc.returncode == {"SIGINT": 130, "SIGTERM": 143}[sig], err
    assert "Traceback" not in err.decode()
    assert not out.exists() and not list(tmp_path.glob("*.part"))


def test_a_signal_handler_that_does_not_raise_lets_the_workers_finish(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While the pool runs a signal is held back and its handler run between waits: a
    handler that only takes note (not the CLI's) is called once and the corpus is
    scored in full, equal to one process."""
    import concurrent.futures._base as base

    from meteor.runners.parallel import MIN_PARALLEL_SEGMENTS_FRESH, score_corpus

    # enough for a pool whether workers are forked or (threads left by earlier tests)
    # started by a fork server
    n = MIN_PARALLEL_SEGMENTS_FRESH + 500
    words = [f"w{k}" for k in range(60)]
    hyps = [" ".join(words[(k * 7 + j) % 60] for j in range(8)) + f" n{k}" for k in range(n)]
    refs = [" ".join(words[(k * 5 + j) % 60] for j in range(8)) + f" n{k}" for k in range(n)]
    original = base._AcquireFutures.__enter__
    calls = [0]

    def enter(self: Any) -> None:
        calls[0] += 1
        if calls[0] == 2:
            signal.raise_signal(signal.SIGTERM)
        original(self)

    noted: list[int] = []
    previous = signal.signal(signal.SIGTERM, lambda signum, _frame: noted.append(signum))
    try:
        monkeypatch.setattr(base._AcquireFutures, "__enter__", enter)
        m = Meteor("nltk")
        got = score_corpus(m, hyps, refs, workers=2, chunk_size=250)
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert calls[0] >= 2 and noted == [signal.SIGTERM]
    assert got.score == m.corpus_score(hyps, refs).score
    assert [s.score for s in got.segments] == [s.score for s in m.corpus_score(hyps, refs).segments]
