"""The contenders: how each fetches a corpus into a folder, and how it re-checks a folder it
filled, each with its own means ("only if newer")."""

import subprocess
from pathlib import Path

from .corpus import MiB

# Transfers at once, the same for every contender.
CONCURRENCY = 8


def run_text(command):
    return subprocess.run(command, capture_output=True, text=True).stdout


class Contender:
    """A peer: measured as it is, and "durable" — followed by `sync -f` of its output folder,
    which makes what it wrote survive a power cut, as syncagent's own result does."""
    name = ""
    role = "peer"
    copies_corpus = True  # its output is the served files, so their SHA-256 can be checked

    @property
    def durable_label(self):
        return f"{self.name} + sync -f"

    def version(self):
        return run_text([self.name, "--version"]).split("\n")[0]

    def version_command(self):
        return [self.name, "--version"]


class Curl(Contender):
    name = "curl"

    def version(self):
        return super().version().split(" (")[0]

    def _config(self, origin, corpus, out, recheck):
        # -R stamps Last-Modified, so a later `-z FILE` asks "newer than what I have?".
        common = "show-error\nfail\nremote-time\n"
        if origin.authority:
            common += f'cacert = "{origin.authority}"\n'
        groups = []
        for name, _ in corpus.sizes:
            group = f'url = "{origin.url(corpus, name)}"\noutput = "{out / name}"\n'
            if recheck:
                group += f'time-cond = "{out / name}"\n'
            groups.append(group)
        if recheck:
            # Per-file options need an operation each (`next`), and `next` resets every option.
            text = common + "next\n".join(group + common for group in groups)
        else:
            text = common + "".join(groups)
        path = out.parent / f"{out.name}.curl.cfg"
        path.write_text(text)
        return path

    def fetch(self, origin, corpus, out, recheck=False):
        # Over HTTPS curl negotiates HTTP/2 and, with --parallel, multiplexes on one connection.
        config = self._config(origin, corpus, out, recheck)
        return ["curl", "--no-progress-meter", "--parallel", "--parallel-max", str(CONCURRENCY), "-K", str(config)]

    def recheck(self, origin, corpus, out):
        return self.fetch(origin, corpus, out, recheck=True)


def url_list(origin, corpus, out, suffix):
    path = out.parent / f"{out.name}.{suffix}"
    path.write_text("".join(origin.url(corpus, name) + "\n" for name, _ in corpus.sizes))
    return path


class Wget2(Contender):
    name = "wget2"

    def version(self):
        return super().version().split(" - ")[0]

    def fetch(self, origin, corpus, out, extra=()):
        trust = [f"--ca-certificate={origin.authority}"] if origin.authority else []
        return ["wget2", "--no-config", "--quiet", f"--max-threads={CONCURRENCY}", "--no-directories",
                "--no-hsts", "--no-hpkp", "--no-netrc", *trust, *extra,
                "--directory-prefix", str(out), "--input-file", str(url_list(origin, corpus, out, "urls"))]

    def recheck(self, origin, corpus, out):
        return self.fetch(origin, corpus, out, ["--timestamping"])


class Aria2(Contender):
    name = "aria2c"

    def fetch(self, origin, corpus, out, extra=()):
        trust = [f"--ca-certificate={origin.authority}"] if origin.authority else []
        return ["aria2c", "--no-conf", "--quiet", "-j", str(CONCURRENCY), "-x", "1", "--remote-time=true",
                "--auto-file-renaming=false", "--summary-interval=0", "--console-log-level=error",
                *trust, *extra, "-d", str(out), "-i", str(url_list(origin, corpus, out, "aria2"))]

    def recheck(self, origin, corpus, out):
        return self.fetch(origin, corpus, out, ["--conditional-get=true", "--allow-overwrite=true"])


class DiskCeiling(Contender):
    """Not a downloader: the same number of bytes written straight to the device in 1 MiB
    blocks (`dd oflag=direct`), then `sync -f` — the fastest a durable download can be."""
    name = "dd"
    role = "ceiling"
    copies_corpus = False  # zeros, of the right size and name

    @property
    def durable_label(self):
        return "dd oflag=direct + sync -f (disk's ceiling)"

    def version(self):
        return ""

    def fetch(self, origin, corpus, out):
        (name, size), = corpus.sizes
        return ["dd", "if=/dev/zero", f"of={out / name}", "bs=1M", f"count={size // MiB}", "oflag=direct",
                "status=none"]


class SyncAgent(Contender):
    name = "syncagent"
    role = "syncagent"

    def __init__(self, binary: Path):
        self.binary = binary

    def version(self):
        return f"syncagent {run_text([str(self.binary), '--version']).strip()} ({self.binary})"

    def version_command(self):
        return [str(self.binary), "--version"]

    @staticmethod
    def state_for(out: Path):
        return out.parent / f"{out.name}.state"

    def manifest(self, origin, corpus, out):
        path = out.parent / f"{out.name}.yaml"
        entries = "".join(f"  - url: {origin.url(corpus, name)}\n" for name, _ in corpus.sizes)
        path.write_text(f"destination: {out}\nnotify: false\nlimits:\n  concurrent: {CONCURRENCY}\n"
                        f"  per_host: {CONCURRENCY}\nfiles:\n{entries}")
        return path

    def fetch(self, origin, corpus, out, state: Path = None):
        return [str(self.binary), "--once", "--manifest", str(self.manifest(origin, corpus, out)),
                "--state-dir", str(state or self.state_for(out))]

    def recheck(self, origin, corpus, out):
        return self.fetch(origin, corpus, out)

    def check(self, manifest: Path, state: Path):
        return [str(self.binary), "check", "--manifest", str(manifest), "--state-dir", str(state)]


PEERS = {peer.name: peer for peer in (Curl, Wget2, Aria2)}
