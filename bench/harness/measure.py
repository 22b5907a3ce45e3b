"""Timing one run (wall, CPU, peak RSS), the many runs of a start-up, and keeping the machine's
traps from landing on one contender rather than another."""

import json
import os
import shlex
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from .corpus import MiB
from .failure import RunFailed


@dataclass
class Sample:
    wall: float  # seconds
    cpu: float   # seconds, user + system, all threads
    rss: int     # KiB

    def then(self, other):
        """This run followed at once by `other`, as one: the times add up, the peak is the higher."""
        return Sample(self.wall + other.wall, self.cpu + other.cpu, max(self.rss, other.rss))


@dataclass
class Row:
    """One line of the report: one contender (or its durable form) in one scenario."""
    scenario: str
    contender: str
    role: str                 # "syncagent", "peer", "durable" (a peer, then sync -f) or "ceiling"
    unit: str = ""            # what the rate counts: "MB/s", "files/s", "checks/s", "entries/s"
    amount: float = 0         # per run, in that unit's numerator
    samples: list = field(default_factory=list)
    failure: str = None       # why its runs stopped, if they did

    @property
    def measured(self):
        return bool(self.samples) and not self.failure

    def median(self, attribute):
        return statistics.median(getattr(sample, attribute) for sample in self.samples)

    def spread(self, attribute):
        values = [getattr(sample, attribute) for sample in self.samples]
        return min(values), max(values)


def timed(command, work: Path, environment=None):
    """Runs `command`; returns its wall time, CPU time (user + sys) and peak RSS.

    GNU time reports the peak RSS: a child forked straight from this Python process would
    count Python's own pages, which the kernel keeps as the high-water mark across exec.
    Standard output goes to a file (syncagent's plain lines; the peers are quiet), kept only to
    say why a run failed.
    """
    report, output = work / "time.out", work / "output.log"
    with open(output, "wb") as sink:
        start = time.perf_counter()
        process = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", str(report), *command], env=environment,
                                   stdin=subprocess.DEVNULL, stdout=sink, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        said = [line for line in output.read_text(errors="replace").splitlines()
                if not line.startswith(("started ", "done ", "unchanged "))]
        raise RunFailed(f"{Path(command[0]).name} exited with {code}: " + " / ".join(said[-3:] or ["(no output)"])
                        + f"\n      command: {shlex.join(command)}")
    return Sample(wall, usage.ru_utime + usage.ru_stime, int(report.read_text().split()[-1]))


def startup_samples(command, runs: int, work: Path):
    """`runs` runs of a command that is over in milliseconds, measured the way each figure is
    measured best: wall time by hyperfine (no shell, after warm-up runs), CPU time from
    `wait4` of the command spawned directly (GNU time would add its own start-up), peak RSS
    by GNU time. Each is a separate series of runs; the report shows each one's median and
    spread, never a mix of the three series' runs."""
    report = work / "hyperfine.json"
    result = subprocess.run(["hyperfine", "--shell=none", "--warmup", "5", "--runs", str(runs), "--style", "none",
                             "--export-json", str(report), shlex.join(command)],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if result.returncode != 0:
        raise RunFailed(f"hyperfine {shlex.join(command)}: {result.stderr.strip()}")
    walls = json.loads(report.read_text())["results"][0]["times"]
    cpus = [spawned_cpu_time(command) for _ in range(runs)]
    peaks = [timed(command, work).rss for _ in range(runs)]
    return [Sample(wall, cpu, rss) for wall, cpu, rss in zip(walls, cpus, peaks)]


def spawned_cpu_time(command):
    pid = os.posix_spawnp(command[0], command, os.environ,
                          file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
    _, status, usage = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RunFailed(f"{shlex.join(command)} exited with {os.waitstatus_to_exitcode(status)}")
    return usage.ru_utime + usage.ru_stime


def settle_memory(work: Path, size: int):
    """Writes back what earlier runs left dirty, then writes and deletes a scratch file of
    `size` bytes right before a timed run.

    Memory freed for about two seconds is handed back to the host and is slow to touch again;
    this makes the run start with as much recently touched page-cache memory as it will fill.
    """
    # The previous run's files are still dirty in the page cache: writing them back must not
    # land on the next contender (the kernel's flusher would, and so would a syncfs).
    os.sync()
    size = max(size, 64 * MiB)
    scratch = work / "scratch"
    block = b"\0" * (4 * MiB)
    with open(scratch, "wb") as file:
        written = 0
        while written < size:
            file.write(block)
            written += len(block)
    scratch.unlink()


# ext4 without a journal (as /tmp is here) will not reuse an inode for 60 s after its deletion
# was written back (360 s before): it scans past each one, so creating thousands of files soon
# after deleting thousands costs seconds. A run deletes its outputs at the end, synced; the next
# run waits until they are old enough.
DELETION_AGE = 65


def wait_for_deletions_to_age(corpus_root: Path):
    stamp = corpus_root / ".last-deletion"
    if not stamp.exists():
        return
    wait = float(stamp.read_text()) + DELETION_AGE - time.time()
    if wait > 0:
        print(f"waiting {wait:.0f} s for the last run's deleted files to age (see the note in the source)",
              file=sys.stderr)
        time.sleep(wait)


def record_deletions(corpus_root: Path):
    (corpus_root / ".last-deletion").write_text(str(time.time()))
