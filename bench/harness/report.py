"""The Markdown report: a summary of syncagent against the fastest peers, then every row with
its median and spread (min–max over the runs)."""

import os
import subprocess
from pathlib import Path

from .corpus import human


def machine(runs, startup_runs):
    return (f"machine: {os.cpu_count()} CPUs (nproc {len(os.sched_getaffinity(0))}), "
            f"{human(os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES'))} memory, "
            f"Linux {os.uname().release}; {runs} runs each ({startup_runs} for start-up), "
            f"medians with (min–max)")


def binary_note(binary: Path):
    """Size and shared libraries: what start-up pays for before main."""
    libraries = subprocess.run(["ldd", str(binary)], capture_output=True, text=True).stdout.count("=>")
    return f"syncagent binary: {human(binary.stat().st_size)}, {libraries} shared libraries (ldd)"


def seconds(value):
    return f"{value * 1000:.1f} ms" if value < 0.1 else f"{value:.3f} s"


def figure(row, attribute):
    """Median, then (min–max) when there is more than one run, all in the median's unit."""
    median = row.median(attribute)
    if attribute == "rss":
        unit, factor, digits = "MiB", 1 / 1024, 1
    else:
        unit, factor, digits = ("ms", 1000, 1) if median < 0.1 else ("s", 1, 3)
    text = f"{median * factor:.{digits}f}"
    if len(row.samples) > 1:
        low, high = row.spread(attribute)
        text += f" ({low * factor:.{digits}f}–{high * factor:.{digits}f})"
    return f"{text} {unit}"


def failed(row):
    """The first words of why (standard error has all of it)."""
    text = " ".join(row.failure.split())
    return "**failed**: " + (text if len(text) <= 90 else text[:89] + "…")


def ratio(ours, theirs, attribute="wall"):
    return f"{ours.median(attribute) / theirs.median(attribute):.2f}×"


def fastest(rows, role):
    candidates = [row for row in rows if row.role == role and row.measured]
    return min(candidates, key=lambda row: row.median("wall")) if candidates else None


def markdown(table):
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    lines = ["| " + " | ".join(cell.ljust(width) for cell, width in zip(line, widths)) + " |" for line in table]
    lines.insert(1, "| " + " | ".join("-" * width for width in widths) + " |")
    return lines


def groups(rows):
    return {title: [row for row in rows if row.scenario == title] for title in dict.fromkeys(r.scenario for r in rows)}


def summary(rows):
    """One line per syncagent row: its figures, and its wall time divided by the fastest raw
    peer's (CPU too), the fastest durable peer's and the disk's ceiling, where the scenario has
    them. Below 1×, syncagent is faster."""
    table = [("scenario", "syncagent", "fastest peer", "÷ it: wall, CPU", "fastest durable peer", "÷ it",
              "disk's ceiling", "÷ it")]
    for title, group in groups(rows).items():
        peer, durable, ceiling = fastest(group, "peer"), fastest(group, "durable"), fastest(group, "ceiling")
        for ours in (row for row in group if row.role == "syncagent"):
            name = title if ours.contender == "syncagent" else f"{title}: {ours.contender}"
            if not ours.measured:
                table.append((name, failed(ours), *("",) * 6))
                continue
            table.append((
                name,
                f"{seconds(ours.median('wall'))}, {seconds(ours.median('cpu'))} CPU, {ours.median('rss') / 1024:.0f} MiB",
                f"{peer.contender} {seconds(peer.median('wall'))}" if peer else "—",
                f"{ratio(ours, peer)}, {ratio(ours, peer, 'cpu')}" if peer else "—",
                f"{durable.contender} {seconds(durable.median('wall'))}" if durable else "—",
                ratio(ours, durable) if durable else "—",
                seconds(ceiling.median("wall")) if ceiling else "—",
                ratio(ours, ceiling) if ceiling else "—"))
    return markdown(table)


def details(rows):
    """Every row; "syncagent ÷ this" where the scenario has one syncagent row to divide (not the
    CPU time of the disk's ceiling, which writes zeros instead of receiving anything)."""
    table = [("scenario", "contender", "wall", "CPU", "peak RSS", "rate", "syncagent ÷ this: wall", "CPU")]
    for title, group in groups(rows).items():
        ours = [row for row in group if row.role == "syncagent"]
        for row in group:
            if not row.measured:
                table.append((title, row.contender, failed(row), *("",) * 5))
                continue
            rate = f"{row.amount / row.median('wall'):,.0f} {row.unit}" if row.unit else ""
            compared = len(ours) == 1 and ours[0].measured and row is not ours[0]
            table.append((title, row.contender, figure(row, "wall"), figure(row, "cpu"), figure(row, "rss"), rate,
                          ratio(ours[0], row) if compared else "",
                          ratio(ours[0], row, "cpu") if compared and row.role != "ceiling" else ""))
    return markdown(table)


def report(bench, runs, startup_runs):
    lines = [machine(runs, startup_runs), *bench.notes, binary_note(bench.syncagent.binary), ""]
    return "\n".join([*lines, *summary(bench.rows), "", *details(bench.rows)])
