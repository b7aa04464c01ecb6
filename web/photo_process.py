"""The process a photo is decoded in (web/decoding.py): the upload's bytes on stdin; on
stdout one JSON line — the stored JPEG's and thumbnail's lengths and size, or the refusal's
code — then the two JPEGs' bytes. Its memory, CPU time and priority are bounded before
Pillow is imported, so a hostile image costs this process, never a server worker."""
from __future__ import annotations

import json
import os
import resource
import sys


def _bounded(memory: int, cpu_seconds: int, nicer_by: int) -> None:
    """Address space and CPU time capped (past them: MemoryError, then the kernel's
    SIGXCPU), and the CPU given to the server's workers first."""
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    try:
        os.nice(nicer_by)
    except OSError:
        pass


def main() -> int:
    memory, cpu_seconds, nicer_by = (int(arg) for arg in sys.argv[1:4])
    _bounded(memory, cpu_seconds, nicer_by)
    from events.application import pixels  # Pillow, within the bounds
    raw = sys.stdin.buffer.read()
    out = sys.stdout.buffer
    try:
        done = pixels.prepare(raw, memory)
    except pixels.Refused as refused:
        out.write(json.dumps({"refused": refused.code, "size": refused.size}).encode() + b"\n")
        return 0
    out.write(json.dumps({"image": len(done.image), "thumb": len(done.thumb),
                          "width": done.width, "height": done.height}).encode() + b"\n")
    out.write(done.image + done.thumb)
    return 0


if __name__ == "__main__":
    sys.exit(main())
