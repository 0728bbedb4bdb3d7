"""Parameter studies: ``mechsim.study`` (docs/studies.md; the study file: docs/format.md).

A study file names a mechanism, what to vary (its parameters or spec paths: grids, lists, seeded
random draws), the analysis each run makes and the outputs reduced from each run's table. The
runs go to threads on this machine, or to a Dask cluster (``client=distributed.Client(address)``);
each is computed by the same compiled code (core/io/study.h), so a run's outputs do not depend on
where it ran. Finished runs are appended to the results table as they come back (``out``), so a
study stopped half-way continues with ``resume=True``.

    python3 -m mechsim.study FILE --out results.csv [--scheduler tcp://HOST:8786] [--resume] [--jobs N]

is the command ``mechsim-cli study FILE --scheduler ...`` hands the cluster's runs to.
"""

import argparse
import concurrent.futures
import csv
import os
import sys
import threading
import time

import numpy as _np

from . import _mechsim

__all__ = ["study", "StudyResult"]

_plans = {}
_plans_lock = threading.Lock()


def _plan(path):
    """The study's plan, read once per process (a Dask worker keeps it between its tasks)."""
    key = (path, os.stat(path).st_mtime_ns)
    with _plans_lock:
        plan = _plans.get(key)
        if plan is None:
            plan = _plans[key] = _mechsim.StudyPlan(path)
        return plan


def _run_remote(path, i):
    """One run, on whichever process Dask chose: (run, values, outputs, ok, error)."""
    return _plan(path).run(i)


class StudyResult:
    """A study's results table: one row per run.

    ``r["L2"]``, ``r["P_deviation"]`` are NumPy arrays (NaN where a run failed); ``r["status"]``
    ("ok" or "failed") and ``r["error"]`` are lists. ``columns``, ``rows``, ``failed`` (how many).
    """

    def __init__(self, columns, rows):
        self.columns = list(columns)
        self._rows = sorted(rows, key=lambda r: r[0])
        self._data = {}
        for c, name in enumerate(self.columns):
            values = [r[c] for r in self._rows]
            if name in ("status", "error"):
                self._data[name] = values
            else:
                self._data[name] = _np.array([float(v) if v not in ("", None) else _np.nan for v in values])

    rows = property(lambda self: len(self._rows))
    failed = property(lambda self: sum(1 for s in self._data["status"] if s != "ok"))

    def __getitem__(self, name):
        try:
            return self._data[name]
        except KeyError:
            raise KeyError(f"no column '{name}' (columns: {', '.join(self.columns)})") from None

    def keys(self):
        return list(self.columns)

    def __repr__(self):
        return f"<mechsim.StudyResult: {self.rows} runs ({self.failed} failed), columns {', '.join(self.columns)}>"


class _Progress:
    def __init__(self, total, done, enabled):
        self.total, self.start_done, self.enabled = total, done, enabled
        self.t0 = time.monotonic()
        self.last = (done, 0.0)
        self.tty = sys.stderr.isatty()

    def __call__(self, done, final=False):
        if not self.enabled:
            return
        t = time.monotonic() - self.t0
        rate = (done - self.start_done) / t if t > 0 else 0.0
        eta = (self.total - done) / rate if rate > 0 else 0.0
        if self.tty:
            filled = int(30 * done / self.total) if self.total else 30
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{self.total} runs  {rate:.1f} runs/s  "
                             f"ETA {eta:.0f} s   " + ("\n" if final else ""))
        elif final or done - self.last[0] >= max(1, self.total // 10) or t - self.last[1] >= 10:
            sys.stderr.write(f"study: {done}/{self.total} runs, {rate:.1f} runs/s, ETA {eta:.0f} s\n")
            self.last = (done, t)
        sys.stderr.flush()


def study(path, out=None, *, client=None, jobs=None, resume=False, force=False, progress=True):
    """Runs the study file ``path`` and returns its results table (a StudyResult).

    Args:
        out: the results CSV (run, the variables, the outputs, status, error), appended as each run
            finishes and sorted by run at the end; None keeps the results in memory only.
        client: a ``distributed.Client``: the runs go to its cluster (the workers must import
            mechsim and read the study's files: a shared file system). None: threads here.
        jobs: threads when local (default: every core).
        resume: continue the study in ``out``: runs already there are not run again.
        force: start again even though ``out`` exists.
        progress: a progress bar (or lines) on stderr.
    A run that fails (no assembly, a diverging step) is a row with status "failed" and its error;
    the study goes on. Raises FileError for a bad study or mechanism file.
    """
    path = os.path.abspath(str(path))
    plan = _plan(path)
    table = _mechsim.StudyTable(str(out), plan, bool(resume), bool(force)) if out is not None else None
    todo = [i for i in range(plan.runs) if table is None or not table.done(i)]
    rows = []
    show = _Progress(plan.runs, plan.runs - len(todo), progress)

    def record(row):
        run, values, outputs, ok, error = row
        if table is not None:
            table.append(run, values, outputs, ok, error)
        rows.append(row)
        show(plan.runs - len(todo) + len(rows))

    if client is None:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
            futures = [pool.submit(plan.run, i) for i in todo]
            try:
                for f in concurrent.futures.as_completed(futures):
                    record(f.result())
            except BaseException:
                for f in futures:
                    f.cancel()
                raise
    else:
        import distributed
        futures = client.map(_run_remote, [path] * len(todo), todo, pure=False)
        try:
            for f in distributed.as_completed(futures):
                record(f.result())
        except BaseException:
            client.cancel(futures)
            raise
    show(plan.runs - len(todo) + len(rows), final=True)
    if table is not None:
        table.finish()
        with open(out, newline="") as f:
            reader = csv.reader(f)
            header = next(reader)
            return StudyResult(header, [[int(r[0])] + r[1:] for r in reader])
    columns = plan.columns
    n_out = len(plan.outputs)
    table_rows = []
    for run, values, outputs, ok, error in rows:
        outs = list(outputs) if ok else [""] * n_out
        table_rows.append([run] + list(values) + outs + ["ok" if ok else "failed", "" if ok else error])
    return StudyResult(columns, table_rows)


def _main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m mechsim.study", description="Runs a parameter study.")
    ap.add_argument("file")
    ap.add_argument("--out", required=True)
    ap.add_argument("--scheduler", help="a Dask scheduler's address (tcp://HOST:8786); default: threads here")
    ap.add_argument("--jobs", type=int)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    from . import FileError
    client = None
    t0 = time.monotonic()
    try:
        if a.scheduler:
            import distributed
            client = distributed.Client(a.scheduler, timeout="30s")
        r = study(a.file, a.out, client=client, jobs=a.jobs, resume=a.resume, force=a.force, progress=not a.quiet)
    except FileError as e:
        print(e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"study: interrupted; `--resume` runs the rest of {a.out}", file=sys.stderr)
        return 130
    except (OSError, RuntimeError, ValueError) as e:
        print(f"mechsim-cli: study: {e}", file=sys.stderr)
        return 2
    finally:
        if client is not None:
            client.close()
    where = f"the cluster at {a.scheduler}" if a.scheduler else "threads"
    print(f"study: {r.rows} runs ({r.failed} failed) in {time.monotonic() - t0:.3f} s on {where}, table {a.out}")
    return 0


if __name__ == "__main__":
    # Run as `python3 -m mechsim.study`: call the package's own module (not this __main__ copy), so
    # that the function Dask sends to its workers is mechsim.study._run_remote, found by name there.
    from mechsim.study import _main as _package_main
    sys.exit(_package_main())
