"""How quickly does ``nanlint server`` answer an edit, and does its memory stay flat?

    python benchmarks/lsp_latency.py [LARGE.py] [--runs 9]

Drives the real server process (``python -m nanlint server``) with pygls's client, as an
editor does, and measures:

- latency: from sending ``textDocument/didChange`` to receiving the ``publishDiagnostics``
  of that version, on a generated 1,000-line TensorFlow file and on LARGE.py (the largest
  keras source file, for example), the median of ``--runs`` edits. It includes the 300 ms
  debounce the server waits after an edit. The CPU time the server spent per edit is shown
  too: on a busy machine it is the steadier figure;
- memory: the server's resident set after opening (and closing) 10 and 100 different files,
  and before and after 100 more edits of one open file (Linux: read from /proc).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, Tuple

from lsprotocol import types
from pygls.lsp.client import LanguageClient

DEBOUNCE = 0.3  # nanlint.server.DEBOUNCE

BLOCK = '''class Block{i}(tf.keras.layers.Layer):
    def __init__(self, units={units}):
        super().__init__()
        self.dense = tf.keras.layers.Dense(units, activation="relu")
        self.norm = tf.keras.layers.LayerNormalization()

    def call(self, x, training=False):
        h = self.dense(x)
        return self.norm(h + x) if training else h


def loss_{i}(labels, logits, mask):
    per_example = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    count = tf.maximum(tf.reduce_sum(mask), 1.0)
    return tf.reduce_sum(per_example * mask) / count


'''
# Every tenth block has the bugs nanlint is for (NAN103, NAN101, NAN202).
BUGGY = '''def buggy_{i}(labels, logits, x):
    probs = tf.nn.softmax(logits)
    loss = -tf.reduce_sum(labels * tf.math.log(probs), axis=-1)
    count = tf.reduce_sum(tf.cast(labels > 0, tf.float32))
    return loss / count + tf.norm(tf.nn.relu(x), axis=-1)


'''


def generated(lines: int = 1000) -> str:
    """A TensorFlow file of ``lines`` lines: Keras layers and guarded losses, and in every
    tenth block three findings."""
    text = "import tensorflow as tf\n\n\n"
    index = 0
    while True:
        block = (BUGGY if index % 10 == 9 else BLOCK).format(i=index, units=32 + index)
        if text.count("\n") + block.count("\n") > lines:
            break
        text += block
        index += 1
    return text + "\n" * (lines - text.count("\n"))


def cpu_seconds(pid: int) -> float:
    """User + system time of the process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Session:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.client = LanguageClient("nanlint-benchmark", "1")
        self.published: Dict[str, Tuple[int, float, int]] = {}  # uri → (version, time, count)

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_publish(params: types.PublishDiagnosticsParams) -> None:
            self.published[params.uri] = (params.version if params.version is not None
                                          else -1, time.monotonic(), len(params.diagnostics))

    async def start(self) -> None:
        await self.client.start_io(sys.executable, "-m", "nanlint", "server",
                                   cwd=str(self.folder))
        await self.client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=self.folder.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=self.folder.as_uri(), name="bench")]))
        self.client.initialized(types.InitializedParams())

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()

    @property
    def pid(self) -> int:
        return self.client._server.pid  # type: ignore[union-attr]

    async def wait(self, uri: str, version: int, timeout: float = 600.0) -> Tuple[float, int]:
        deadline = time.monotonic() + timeout
        while True:
            got = self.published.get(uri)
            if got is not None and got[0] == version:
                return got[1], got[2]
            if time.monotonic() > deadline:
                raise TimeoutError(f"no diagnostics for {uri} version {version}")
            await asyncio.sleep(0.002)

    async def open(self, path: Path, text: str) -> int:
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=path.as_uri(), language_id="python",
                                                 version=1, text=text)))
        return (await self.wait(path.as_uri(), 1))[1]

    def close(self, path: Path) -> None:
        self.client.text_document_did_close(types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri())))

    async def edit(self, path: Path, text: str, version: int) -> float:
        """Seconds from didChange (the whole text) to the diagnostics of ``version``."""
        sent = time.monotonic()
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(),
                                                                version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
        received, _ = await self.wait(path.as_uri(), version)
        return received - sent


async def latency(session: Session, path: Path, text: str, runs: int
                  ) -> Tuple[float, float, int]:
    """The median wall time from didChange to the diagnostics, the median CPU time the server
    spent per edit, and the number of findings."""
    findings = await session.open(path, text)
    times, cpu = [], []
    for run in range(runs):
        # A real edit: a line is added (and removed again), so the text is linted anew.
        edited = text + ("#\n" if run % 2 == 0 else "")
        before = cpu_seconds(session.pid)
        times.append(await session.edit(path, edited, run + 2))
        cpu.append(cpu_seconds(session.pid) - before)
    session.close(path)
    return statistics.median(times), statistics.median(cpu), findings


async def measure(session: Session, label: str, path: Path, text: str, runs: int) -> None:
    median, cpu, findings = await latency(session, path, text, runs)
    print(f"didChange → publishDiagnostics, {label}: {median * 1000:.0f} ms median of "
          f"{runs} ({DEBOUNCE * 1000:.0f} ms debounce + {max(median - DEBOUNCE, 0) * 1000:.0f} "
          f"ms); server CPU per edit {cpu * 1000:.0f} ms; {findings} findings", flush=True)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("large", nargs="?", type=Path, help="a large Python file")
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        (folder / ".git").mkdir()
        session = Session(folder)
        await session.start()
        print(f"nanlint server on {platform.python_implementation()} "
              f"{platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores, "
              f"load average {os.getloadavg()[0]:.1f}, {time.strftime('%Y-%m-%d')}", flush=True)
        await measure(session, "generated 1,000-line TF file", folder / "generated.py",
                      generated(), args.runs)
        small = generated(200)
        sizes = {}
        for index in range(100):
            path = folder / f"file_{index:03}.py"
            await session.open(path, f"# file {index}\n" + small)
            session.close(path)
            if index + 1 in (10, 100):
                sizes[index + 1] = rss_kib(session.pid)
        path = folder / "edited.py"
        await session.open(path, small)
        before = rss_kib(session.pid)
        for version in range(2, 102):
            await session.edit(path, small + "#\n" * (version % 2), version)
        after = rss_kib(session.pid)
        session.close(path)
        print(f"server memory: {sizes[10] / 1024:.1f} MiB after 10 files, "
              f"{sizes[100] / 1024:.1f} MiB after 100 files; {before / 1024:.1f} MiB before "
              f"and {after / 1024:.1f} MiB after 100 edits of one file", flush=True)
        if args.large is not None:
            text = args.large.read_text(encoding="utf-8")
            await measure(session, f"{args.large.name} ({text.count(chr(10)):,} lines)",
                          folder / args.large.name, text, args.runs)
            print(f"server memory after it: {rss_kib(session.pid) / 1024:.1f} MiB")
        await session.stop()


if __name__ == "__main__":
    asyncio.run(main())
