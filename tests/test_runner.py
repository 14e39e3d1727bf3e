"""The runner: process pool, result cache by content hash, `nanlint clean`."""

import json

import pytest

from conftest import run_cli
from nanlint import runner

BAD = "import tensorflow as tf\np = tf.nn.relu(z)\nloss = tf.math.log(p)\n"
GOOD = "import tensorflow as tf\np = tf.nn.relu(z)\nloss = tf.math.log(p + 1e-7)\n"


def _json(result):
    assert result.returncode in (0, 1), result.stderr
    return json.loads(result.stdout)


def _project(tmp_path, count):
    for index in range(count):
        (tmp_path / f"m{index:03}.py").write_text(BAD if index % 3 == 0 else GOOD)
    return tmp_path


def test_pool_and_serial_give_the_same_findings(tmp_path):
    _project(tmp_path, 3 * runner.SERIAL_LIMIT)
    serial = _json(run_cli("check", "--format", "json", "--no-cache", "--jobs", "1",
                           cwd=tmp_path))
    pooled = _json(run_cli("check", "--format", "json", "--no-cache", "--jobs", "2",
                           cwd=tmp_path))
    assert serial["findings"] == pooled["findings"]
    assert len(serial["findings"]) == runner.SERIAL_LIMIT  # every third file is bad
    assert pooled["files_scanned"] == 3 * runner.SERIAL_LIMIT


def test_cache_is_written_marked_and_reused(tmp_path):
    _project(tmp_path, 4)
    first = _json(run_cli("check", "--format", "json", cwd=tmp_path))
    folder = tmp_path / runner.CACHE_FOLDER
    assert (folder / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172")
    assert (folder / ".gitignore").read_text().strip().endswith("*")
    cache_file = next(folder.glob("v*.json"))
    entries = json.loads(cache_file.read_text())["entries"]
    assert len(entries) == 2  # keyed by content: the 4 files have 2 distinct contents
    # Poison one cached entry: a second run must take it from the cache, not re-lint.
    key = next(k for k, v in entries.items() if v)
    entries[key][0]["message"] = "from the cache"
    cache_file.write_text(json.dumps({"entries": entries}))
    second = _json(run_cli("check", "--format", "json", cwd=tmp_path))
    # Both bad files have the same bytes, so both come from the one poisoned entry.
    assert [f["message"] for f in second["findings"]] == ["from the cache"] * 2
    assert len(first["findings"]) == 2


def test_changed_content_and_changed_configuration_miss_the_cache(tmp_path):
    (tmp_path / "a.py").write_text(GOOD)
    assert _json(run_cli("check", "--format", "json", cwd=tmp_path))["findings"] == []
    (tmp_path / "a.py").write_text(BAD)
    assert len(_json(run_cli("check", "--format", "json", cwd=tmp_path))["findings"]) == 1
    ignored = _json(run_cli("check", "--format", "json", "--ignore", "NAN102", cwd=tmp_path))
    assert ignored["findings"] == []


def test_corrupt_cache_is_ignored_and_rebuilt(tmp_path):
    (tmp_path / "a.py").write_text(BAD)
    run_cli("check", cwd=tmp_path)
    cache_file = next((tmp_path / runner.CACHE_FOLDER).glob("v*.json"))
    cache_file.write_text('{"entries": {"trunc')  # a truncated write
    result = run_cli("check", "--format", "json", cwd=tmp_path)
    assert result.returncode == 1 and not result.stderr
    assert len(json.loads(result.stdout)["findings"]) == 1
    assert json.loads(cache_file.read_text())["entries"]  # rebuilt


def test_no_cache_writes_nothing_and_clean_removes_the_cache(tmp_path):
    (tmp_path / "a.py").write_text(BAD)
    run_cli("check", "--no-cache", cwd=tmp_path)
    assert not (tmp_path / runner.CACHE_FOLDER).exists()
    run_cli("check", cwd=tmp_path)
    assert (tmp_path / runner.CACHE_FOLDER).is_dir()
    result = run_cli("clean", cwd=tmp_path)
    assert result.returncode == 0 and "removed" in result.stdout
    assert not (tmp_path / runner.CACHE_FOLDER).exists()


def test_negative_jobs_is_a_usage_error(tmp_path):
    (tmp_path / "a.py").write_text(GOOD)
    result = run_cli("check", "--jobs", "-1", cwd=tmp_path)
    assert result.returncode == 2 and "--jobs" in result.stderr


def test_checking_one_file_imports_only_what_it_needs(tmp_path):
    import subprocess
    import sys

    (tmp_path / "a.py").write_text(BAD)
    probe = ("import sys\nfrom nanlint.cli import main\n"
             "code = main(['check', '--quiet', '--select', 'NAN101', 'a.py'])\n"
             "print(' '.join(sorted(sys.modules)))\n")
    result = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True,
                            text=True, timeout=120)
    loaded = set(result.stdout.split())
    assert "nanlint.rules.unguarded_division" in loaded  # the selected rule ran
    for heavy in ("rich", "concurrent.futures.process", "nanlint.rules.log_of_zero",
                  "nanlint.rules.sqrt_zero_gradient", "tensorflow", "yaml", "pathspec"):
        assert heavy not in loaded, f"{heavy} is imported to check one file"


def test_files_that_never_mention_tensorflow_are_not_analysed_but_still_parsed(lint):
    from nanlint.engine import lint_source
    from nanlint.options import LintOptions
    from nanlint import registry

    # No TF import: the libcst analysis is skipped, Python's parser still checks syntax.
    broken = lint_source("def f(:\n", "broken.py", LintOptions(
        rules=registry.rule_classes(["NAN101"]), engine_codes=frozenset({"NAN000"})))
    assert [(f.code, f.line) for f in broken] == [("NAN000", 1)]
    options = LintOptions(rules=registry.rule_classes(["NAN101"]),
                          known_codes=frozenset(registry.all_codes()),
                          engine_codes=frozenset({"NAN001"}))
    assert [f.code for f in lint_source("x = 1  # nanlint: ignore\n", "s.py", options)] == [
        "NAN001"]


def test_check_all_files_analyses_files_without_tensorflow(tmp_path):
    # A recorder rule shows whether the analysis ran at all.
    from nanlint.engine import lint_source
    from nanlint.options import LintOptions
    from nanlint.rule import Rule

    seen = []

    class Recorder(Rule):
        code = "NAN999"

        def visit_Call(self, node):
            seen.append(node)

    source = "import numpy as np\nnp.log(x)\n"
    lint_source(source, "a.py", LintOptions(rules=[Recorder]))
    assert seen == []
    lint_source(source, "a.py", LintOptions(rules=[Recorder], check_all_files=True))
    assert len(seen) == 1


@pytest.mark.parametrize("sizes, jobs", [
    ([10] * 100, 2),
    ([5000] + [10] * 300, 2),
    ([1, 900, 3, 70000, 12, 0, 0, 450] * 40, 4),
    ([0] * 50, 2),
])
def test_the_pool_gets_every_file_once_largest_first(sizes, jobs):
    chunks = runner._chunks(sizes, jobs)
    flat = [index for chunk in chunks for index in chunk]
    assert sorted(flat) == list(range(len(sizes)))  # each file once
    assert [sizes[i] for i in flat] == sorted(sizes, reverse=True)  # big files start first
    assert all(0 < len(chunk) <= 32 for chunk in chunks)
    if sizes.count(max(sizes)) == 1 and max(sizes) > sum(sizes) // 2:
        assert chunks[0] == [sizes.index(max(sizes))]  # a big file is a chunk of its own


def test_the_cache_follows_nanlint_code_not_only_its_version(tmp_path, monkeypatch):
    # A fingerprint of source folders: a change to any file is another fingerprint.
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "a.py").write_text("x = 1\n")
    (package / "sub" / "b.py").write_text("y = 2\n")
    before = runner.code_fingerprint([str(package)])
    assert runner.code_fingerprint([str(package)]) == before
    (package / "sub" / "b.py").write_text("y = 3\n")
    assert runner.code_fingerprint([str(package)]) != before
    # nanlint's own code is part of every cache key.
    from nanlint.config import Config

    options = Config().options_for("a.py")
    key = runner.options_fingerprint(options)
    monkeypatch.setattr(runner, "_own_code", lambda: "another commit")
    assert runner.options_fingerprint(options) != key
