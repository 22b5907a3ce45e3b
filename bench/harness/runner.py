"""The runs: each scenario's contenders, interleaved, into fresh folders, every output checked."""

import contextlib
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .contenders import PEERS, DiskCeiling, SyncAgent
from .corpus import Corpus, snapshot, verify
from .failure import RunFailed
from .measure import (DELETION_AGE, Row, record_deletions, settle_memory, startup_samples, timed,
                      wait_for_deletions_to_age)
from .scratch import ScratchFileSystem
from .scratch import available as scratch_unavailable
from .servers import Nginx, TestAuthority


@dataclass(frozen=True)
class Scenario:
    key: str
    kind: str                  # "fetch", "recheck", "startup" or "check"
    corpus: str                # key of the corpus it serves
    https: bool = False
    ceiling: bool = False      # also time the disk's ceiling (dd oflag=direct, then sync -f)
    foreign: tuple = ()        # corpora whose earlier runs syncagent's state also holds

    def title(self, corpora):
        corpus = corpora[self.corpus]
        title = {
            "fetch": corpus.label,
            "recheck": f"re-check {corpus.label}, unchanged",
            "startup": "start-up",
            "check": f"check a {len(corpus.sizes):,}-entry manifest",
        }[self.kind]
        if self.foreign:
            records = sum(len(corpora[key].sizes) for key in self.foreign)
            title += f"; state also holding {records:,} other files"
        return "HTTPS: " + title if self.https else title


class Bench:
    """Runs scenarios and collects their rows; `notes` describe the setup for the report."""

    def __init__(self, options, binary: Path, corpora: dict):
        self.options, self.corpora = options, corpora
        self.corpus_root = Path(options.corpus)
        self.corpus_root.mkdir(parents=True, exist_ok=True)
        self.work = Path(tempfile.mkdtemp(prefix="run-", dir=self.corpus_root.parent))
        self.outputs = self.work  # where the scenario under way writes its outputs
        self.syncagent = SyncAgent(binary)
        self.rows, self.notes = [], []
        # Why many-file scenarios cannot each have a file system of their own, if they cannot.
        self.no_scratch = ("--keep" if options.keep else "--shared-folder" if options.shared_folder
                           else scratch_unavailable())

    def run(self, scenarios, contender_names):
        if self.no_scratch and not self.options.quick:
            wait_for_deletions_to_age(self.corpus_root)
        https = any(s.https for s in scenarios)
        needed = {key for s in scenarios for key in (s.corpus, *s.foreign)}
        if https:
            needed.add("guides")  # the protocol probe fetches some of them
        for key in needed:
            self.corpora[key].create(self.corpus_root)
        self.nginx = Nginx(self.corpus_root, self.work, TestAuthority(self.work / "tls") if https else None)
        try:
            self.contenders = [PEERS[name]() for name in PEERS if name in contender_names]
            if "syncagent" in contender_names:
                self.contenders.append(self.syncagent)
            self.notes.append("contenders: " + "; ".join(c.version() for c in self.contenders))
            if https:
                self.notes.append(self.probe_protocols())
            self.notes.append(self.outputs_note(scenarios))
            for scenario in scenarios:
                print(f"== {scenario.title(self.corpora)}", file=sys.stderr)
                with self.outputs_for(scenario):
                    getattr(self, scenario.kind)(scenario)
        finally:
            self.nginx.stop()
            if not self.options.keep:
                shutil.rmtree(self.work, ignore_errors=True)
                subprocess.run(["sync"])
                record_deletions(self.corpus_root)

    def on_scratch(self, scenario):
        """Whether the scenario writes its outputs to a file system made for it: those that
        create many files (its own corpus, or the earlier runs a big state comes from)."""
        return not self.no_scratch and any(self.corpora[key].many for key in (scenario.corpus, *scenario.foreign))

    @contextlib.contextmanager
    def outputs_for(self, scenario):
        if not self.on_scratch(scenario) or scenario.kind not in ("fetch", "recheck"):
            yield
            return
        corpora = [self.corpora[key] for key in (scenario.corpus, *scenario.foreign)]
        # Every run of every contender keeps its output until the scenario ends (plus the
        # re-checks' first fetches): that many copies of each corpus, block by block.
        copies = (self.options.runs + 1) * (len(self.contenders) + 1)
        size = copies * sum(corpus.footprint for corpus in corpora)
        files = copies * sum(len(corpus.sizes) for corpus in corpora)
        with ScratchFileSystem(self.work, size, files) as root:
            self.outputs = root
            try:
                yield
            finally:
                self.outputs = self.work

    def outputs_note(self, scenarios):
        if not any(self.corpora[key].many for s in scenarios for key in (s.corpus, *s.foreign)):
            return "outputs: in the run's folder"
        if self.no_scratch:
            return f"outputs: in the run's folder, many-file scenarios too ({self.no_scratch})"
        return ("outputs: many-file scenarios each on a new ext4 made for them (loop device, "
                "direct I/O, a journal), the others in the run's folder")

    def origin(self, scenario):
        return self.nginx.secure if scenario.https else self.nginx.plain

    def has_syncagent(self):
        return self.syncagent in self.contenders

    def fetch(self, scenario):
        corpus, origin, title = self.corpora[scenario.corpus], self.origin(scenario), scenario.title(self.corpora)
        unit, amount = ("files/s", len(corpus.sizes)) if corpus.many else ("MB/s", corpus.total / 1e6)
        contenders = self.contenders + ([DiskCeiling()] if scenario.ceiling else [])
        raw = {c.name: Row(title, c.name, c.role, unit, amount) for c in contenders if c.role != "ceiling"}
        durable = {c.name: Row(title, c.durable_label, "ceiling" if c.role == "ceiling" else "durable", unit, amount)
                   for c in contenders if c.role != "syncagent"}
        big = corpus.total >= 256 * 1024 * 1024
        # aria2c creates a control file beside each download and deletes it at the end: with
        # many files, whoever runs after it would pay for 10,000 deleted inodes (see
        # wait_for_deletions_to_age). Its runs come last, after the others' interleaved rounds.
        order = [c for c in contenders if not (corpus.many and c.name == "aria2c")]
        rounds = [(run, c) for run in range(self.options.runs) for c in order]
        rounds += [(run, c) for c in contenders if c not in order for run in range(self.options.runs)]
        for run, contender in rounds:
            rows = [row for row in (raw.get(contender.name), durable.get(contender.name)) if row]
            if any(row.failure for row in rows):
                continue
            with failures_end(rows):
                # A fresh folder each time; old ones go only at the end (see docs/benchmarks.md).
                out = self.outputs / f"{scenario.key}-{contender.name}-{run}"
                out.mkdir()
                command = contender.fetch(origin, corpus, out)
                settle_memory(self.work, corpus.total)
                sample = timed(command, self.work, origin.environment)
                line = f"   {contender.name:9} run {run + 1}: {describe(sample)}"
                if contender.name in raw:
                    raw[contender.name].samples.append(sample)
                if contender.name in durable:
                    flush = timed(["sync", "-f", str(out)], self.work)
                    durable[contender.name].samples.append(sample.then(flush))
                    line += f", then sync -f {flush.wall:.3f} s"
                print(line, file=sys.stderr)
                # Hashing 1 GiB each time would double the run; its first and last runs are hashed.
                verify(corpus, out, hash_files=contender.copies_corpus and (not big or run in (0, self.options.runs - 1)))
                if big:
                    shutil.rmtree(out)  # one file, not thousands: deleting it distorts nothing
        if corpus.many and len(order) < len(contenders) and self.no_scratch and not self.options.quick:
            subprocess.run(["sync"])
            print(f"   waiting {DELETION_AGE} s for aria2c's deleted control files to age", file=sys.stderr)
            time.sleep(DELETION_AGE)
        ours = [raw.pop(self.syncagent.name)] if self.syncagent.name in raw else []
        self.rows += [*raw.values(), *durable.values(), *ours]

    def recheck(self, scenario):
        """Each contender re-checks a folder it filled itself, with its own bookkeeping; nothing
        may be rewritten. With `foreign` corpora, syncagent's state also holds the records of its
        earlier runs of those, as a user's state would after other manifests; that state is put
        back before every run, so each run meets all of it whatever syncagent does with it."""
        corpus, origin, title = self.corpora[scenario.corpus], self.origin(scenario), scenario.title(self.corpora)
        rows = {c.name: Row(title, c.name, c.role, "checks/s", len(corpus.sizes)) for c in self.contenders}
        folders = {}
        for contender in self.contenders:
            with failures_end([rows[contender.name]]):
                out = self.outputs / f"{scenario.key}-{contender.name}"
                out.mkdir()
                if contender is self.syncagent:
                    self.fill_foreign_state(scenario, origin, self.syncagent.state_for(out))
                settle_memory(self.work, corpus.total)
                timed(contender.fetch(origin, corpus, out), self.work, origin.environment)
                verify(corpus, out)
                folders[contender.name] = (out, snapshot(out))
        saved_state = self.save_state(scenario, folders)
        for run in range(self.options.runs):
            for contender in self.contenders:
                row = rows[contender.name]
                if row.failure:
                    continue
                out, before = folders[contender.name]
                with failures_end([row]):
                    if contender is self.syncagent and saved_state:
                        restore(saved_state, self.syncagent.state_for(out))
                    command = contender.recheck(origin, corpus, out)
                    settle_memory(self.work, 0)  # a re-check fills no page cache: the minimum
                    row.samples.append(timed(command, self.work, origin.environment))
                    print(f"   {contender.name:9} run {run + 1}: {describe(row.samples[-1])}", file=sys.stderr)
                    after = snapshot(out)
                    changed = [name for name in before if after.get(name) != before[name]]
                    if changed or after.keys() != before.keys():
                        raise RunFailed(f"{contender.name} rewrote files on a re-check: {changed[:5]}")
        for contender in self.contenders:
            row = rows[contender.name]
            if row.failure:
                continue
            out = folders[contender.name][0]
            with failures_end([row]):
                if contender is self.syncagent:
                    if saved_state:
                        restore(saved_state, self.syncagent.state_for(out))
                    self.audit_reads(self.syncagent.recheck(origin, corpus, out), out, origin.environment)
                verify(corpus, out)
        self.rows += rows.values()

    def fill_foreign_state(self, scenario, origin, state: Path):
        for key in scenario.foreign:
            foreign = self.corpora[key]
            out = self.outputs / f"{scenario.key}-foreign-{foreign.name}"
            out.mkdir()
            print(f"   syncagent fetches {foreign.label} first, into the same state", file=sys.stderr)
            timed(self.syncagent.fetch(origin, foreign, out, state), self.work, origin.environment)

    def save_state(self, scenario, folders):
        if not (scenario.foreign and self.syncagent.name in folders):
            return None
        state = self.syncagent.state_for(folders["syncagent"][0])
        saved = state.with_name(state.name + ".saved")
        shutil.copytree(state, saved)
        print(f"   syncagent's state: {count_records(saved)} records", file=sys.stderr)
        return saved

    def audit_reads(self, command, out, environment):
        """Traces one more syncagent re-check: no kept file may be opened at all."""
        if not shutil.which("strace"):
            print("   (strace not installed: the no-read audit is skipped)", file=sys.stderr)
            return
        trace = self.work / "recheck.strace"
        timed(["strace", "-f", "-qq", "-e", "trace=open,openat,openat2", "-o", str(trace), *command],
              self.work, environment)
        opened = [line for line in trace.read_text().splitlines() if f'"{out}/' in line]
        if opened:
            raise RunFailed(f"syncagent opened kept files during a re-check: {opened[:3]}")
        print("   syncagent re-check audit (strace): no kept file opened", file=sys.stderr)

    def startup(self, scenario):
        """`--version` of every contender, and syncagent's `check` of a 5-entry manifest."""
        title, runs = scenario.title(self.corpora), self.options.startup_runs
        commands = [(f"{c.name} --version", c.role, c.version_command()) for c in self.contenders]
        if self.has_syncagent():
            corpus, out = self.corpora[scenario.corpus], self.work / f"{scenario.key}-syncagent"
            manifest = self.syncagent.manifest(self.nginx.plain, corpus, out)
            commands.append((f"syncagent check ({len(corpus.sizes)} entries)", "syncagent",
                             self.syncagent.check(manifest, SyncAgent.state_for(out))))
        for label, role, command in commands:
            row = Row(title, label, role)
            self.rows.append(row)
            with failures_end([row]):
                row.samples = startup_samples(command, runs, self.work)
                print(f"   {label:32} median {row.median('wall') * 1000:.1f} ms wall over {runs} runs", file=sys.stderr)

    def check(self, scenario):
        """syncagent's `check` alone on a big manifest: load and validate only."""
        if not self.has_syncagent():
            return
        corpus, title = self.corpora[scenario.corpus], scenario.title(self.corpora)
        out, path = self.work / scenario.key, self.work / f"{scenario.key}.yaml"
        hashes = corpus.hashes()
        entries = "".join(
            f"  - title: File {index}\n    url: {self.nginx.plain.url(corpus, name)}\n"
            f"    path: part{index % 100:02}/{name}\n    sha256: {hashes[name]}\n    every: 6h\n"
            for index, (name, _) in enumerate(corpus.sizes))
        path.write_text(f"destination: {out}\nnotify: false\nschedule:\n  every: 1d\n"
                        f"  window: \"01:00-06:00\"\nfiles:\n{entries}")
        row = Row(title, "syncagent", "syncagent", "entries/s", len(corpus.sizes))
        command = self.syncagent.check(path, self.work / f"{scenario.key}.state")
        self.rows.append(row)
        with failures_end([row]):
            for run in range(self.options.runs):
                settle_memory(self.work, 0)
                row.samples.append(timed(command, self.work))
                print(f"   syncagent check run {run + 1}: {describe(row.samples[-1])}", file=sys.stderr)

    def probe_protocols(self):
        """Which TLS and HTTP versions each contender spoke: one untimed fetch of a few files
        each from the audited server (the timed ones keep no log). Succeeding at all also shows
        each trusted the test CA, the only one it was given."""
        guides = self.corpora["guides"]
        probe = Corpus(guides.name, "protocol probe", guides.sizes[:3])
        log, spoken = self.nginx.protocol_log, []
        for contender in self.contenders:
            out = self.work / f"protocol-probe-{contender.name}"
            out.mkdir()
            seen = log.stat().st_size if log.exists() else 0
            try:
                timed(contender.fetch(self.nginx.audited, probe, out), self.work, self.nginx.audited.environment)
            except RunFailed as failure:
                spoken.append(f"{contender.name} failed ({str(failure).splitlines()[0]})")
                continue
            with open(log) as file:
                file.seek(seen)
                protocols = sorted({line.strip() for line in file})
            spoken.append(f"{contender.name} {', '.join(protocols)}")
        return "HTTPS (test CA, TLS 1.3 only, HTTP/2 offered): " + "; ".join(spoken)


@contextlib.contextmanager
def failures_end(rows):
    """A failed run ends its contender's part in the scenario; its rows say why."""
    try:
        yield
    except RunFailed as failure:
        for row in rows:
            row.failure = str(failure).split("\n")[0]
        print(f"   FAILED: {failure}", file=sys.stderr)


def restore(saved: Path, state: Path):
    shutil.rmtree(state)
    shutil.copytree(saved, state)


def count_records(state: Path):
    """How many file records a saved state holds (a check that the big state is big)."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{state / 'state.sqlite3'}?mode=ro", uri=True)) as database:
            return f"{database.execute('SELECT count(*) FROM files').fetchone()[0]:,}"
    except sqlite3.Error as error:
        return f"an unknown number of ({error})"


def describe(sample):
    return f"{sample.wall:6.3f} s wall, {sample.cpu:6.3f} s CPU, {sample.rss / 1024:5.1f} MiB"
