"""The files the benchmark serves, and what every contender's output is checked against."""

import hashlib
import os
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .failure import RunFailed

KiB, MiB = 1024, 1024 * 1024


@dataclass
class Corpus:
    """A set of files served under /NAME/ and the output every contender must produce."""
    name: str
    label: str           # how the report names it: "5 guides (48.7 MB)"
    sizes: list          # (file name, size) pairs
    many: bool = False   # many small files: rated in files per second, aria2c's runs come last
    folder: Path = None

    @property
    def total(self):
        return sum(size for _, size in self.sizes)

    @property
    def footprint(self):
        """Bytes one copy takes on ext4: whole 4 KiB blocks, and a block for the inode's share."""
        return sum((size + 4095) // 4096 * 4096 + 4096 for _, size in self.sizes)

    def create(self, root: Path):
        self.folder = root / self.name
        stamp = self.folder / ".complete"
        if stamp.exists():
            return
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(parents=True)
        print(f"creating corpus {self.name}: {len(self.sizes)} files, {human(self.total)}", file=sys.stderr)
        for name, size in self.sizes:
            with open(self.folder / name, "wb") as file:
                remaining = size
                while remaining:
                    chunk = min(remaining, 16 * MiB)
                    file.write(os.urandom(chunk))
                    remaining -= chunk
        # One Last-Modified for all, a minute in the past: re-checks compare against it.
        past = time.time() - 60
        for name, _ in self.sizes:
            os.utime(self.folder / name, (past, past))
        self.hashes(force=True)
        stamp.touch()

    def hashes(self, force=False):
        """name -> sha256, cached beside the corpus."""
        cache = self.folder / ".sha256"
        if not force and cache.exists():
            return dict(line.split("  ", 1)[::-1] for line in cache.read_text().splitlines())
        result = {name: sha256(self.folder / name) for name, _ in self.sizes}
        cache.write_text("".join(f"{digest}  {name}\n" for name, digest in result.items()))
        return result


def corpora(scale=1.0):
    """The corpora by key, shrunk by `scale` for a quick proof that every scenario works: the
    guides and the big file in size (the big one in whole MiB, as `dd` writes it), the many
    small files in number."""
    suffix = "" if scale == 1 else f"-scale{scale:g}"
    guides = [(name, max(KiB, round(size * scale))) for name, size in (
        ("guide-700k.pdf", 700_000), ("guide-2m.pdf", 2_000_000), ("guide-5m.pdf", 5_000_000),
        ("guide-12m.pdf", 12_000_000), ("guide-29m.pdf", 29_000_000))]
    big = max(1, round(1024 * scale)) * MiB
    hundreds = max(10, round(1_000 * scale))
    thousands = max(10, round(10_000 * scale))
    return {
        "guides": Corpus("guides" + suffix, f"5 guides ({sum(s for _, s in guides) / 1e6:.3g} MB)", guides),
        "big": Corpus("big" + suffix, f"{human(big)} file", [("big.bin", big)]),
        "k100": Corpus("k100" + suffix, f"{hundreds:,} × 100 KiB",
                       [(f"f{i:05}.bin", 100 * KiB) for i in range(hundreds)], many=True),
        "k1": Corpus("k1" + suffix, f"{thousands:,} × 1 KiB",
                     [(f"f{i:05}.bin", KiB) for i in range(thousands)], many=True),
    }


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        while chunk := file.read(4 * MiB):
            digest.update(chunk)
    return digest.hexdigest()


def human(count):
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= size:
            return f"{count / size:.3g} {unit}"
    return f"{count} B"


def verify(corpus: Corpus, out: Path, hash_files=True):
    """Every file there, with the corpus's size and (where cheap) SHA-256; nothing else."""
    expected = corpus.hashes()
    present = sorted(p.name for p in out.iterdir())
    wanted = sorted(name for name, _ in corpus.sizes)
    if present != wanted:
        extra, missing = set(present) - set(wanted), set(wanted) - set(present)
        raise RunFailed(f"{out}: unexpected files {sorted(extra)[:5]}, missing {sorted(missing)[:5]}")
    for name, size in corpus.sizes:
        actual = (out / name).stat().st_size
        if actual != size:
            raise RunFailed(f"{out / name}: {actual} bytes, expected {size}")
        if hash_files and sha256(out / name) != expected[name]:
            raise RunFailed(f"{out / name}: SHA-256 differs from the served file")


def snapshot(out: Path):
    """What must not change when a re-check finds nothing new: inode, size, mtime, ctime."""
    result = {}
    for entry in os.scandir(out):
        info = entry.stat(follow_symlinks=False)
        result[entry.name] = (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
    return result
