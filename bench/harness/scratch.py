"""A brand-new ext4 file system for the outputs of one many-file scenario.

ext4 does not hand out an inode again until its deletion is old (a minute once written back,
six before): it scans past each such inode, so creating 10,000 files soon after 10,000 were
deleted costs every contender seconds, and how many were deleted depends on what ran before —
another scenario, another benchmark, a build. On a file system made for the scenario nothing
was ever deleted: its many-file rows measure the contenders, not the machine's history.

The file system lives in a sparse image beside the run's other files, on a loop device with
direct I/O (so its pages are not cached twice), made with mkfs.ext4's defaults — a journal,
as a user's home has — and its inode tables written at once, so no background initialisation
competes with the runs. It needs root (mount, losetup); without it the scenario runs in the
run's folder as before, and the report says which.
"""

import os
import shutil
import subprocess
from pathlib import Path

from .corpus import MiB

# Room for every contender's outputs of every run, with ext4's own needs on top; the image is
# sparse, so only what is written takes space.
SLACK = 2


def available():
    """Why a scratch file system cannot be made here, or None if it can."""
    if os.geteuid() != 0:
        return "not root (mount and losetup need it)"
    missing = [tool for tool in ("mkfs.ext4", "losetup", "mount", "umount") if not shutil.which(tool)]
    if missing:
        return f"missing {', '.join(missing)} (apt-get install e2fsprogs mount)"
    return None


class ScratchFileSystem:
    """`with ScratchFileSystem(folder, size, files) as root:` gives an empty, mounted ext4 with
    room for at least `size` bytes in `files` files, and unmounts and deletes it afterwards,
    whatever happened in between."""

    def __init__(self, folder: Path, size: int, files: int):
        self.image = folder / "outputs.ext4"
        self.root = folder / "outputs"
        self.size = max(SLACK * size, 1024 * MiB)
        self.inodes = SLACK * files + 1024
        self.device = None

    def __enter__(self):
        self.image.unlink(missing_ok=True)
        with open(self.image, "wb") as image:
            image.truncate(self.size)
        run("mkfs.ext4", "-q", "-F", "-N", str(self.inodes), "-E", "lazy_itable_init=0,lazy_journal_init=0",
            str(self.image))
        self.device = run("losetup", "--find", "--show", "--direct-io=on", str(self.image)).strip()
        try:
            self.root.mkdir(exist_ok=True)
            run("mount", "-t", "ext4", self.device, str(self.root))
        except BaseException:
            self.__exit__()
            raise
        return self.root

    def __exit__(self, *failure):
        if self.device:
            if os.path.ismount(self.root):
                run("umount", str(self.root))
            run("losetup", "--detach", self.device)
            self.device = None
        self.image.unlink(missing_ok=True)


def run(*command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)}: {result.stderr.strip() or f'exit status {result.returncode}'}")
    return result.stdout
