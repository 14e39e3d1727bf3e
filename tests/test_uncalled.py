"""A folder scan does not report findings in code that nothing in the folder calls; a file
named on the command line, a decorated definition, an installable package's public names
and `include-uncalled: true` keep them."""

import json

from conftest import run_cli

METRICS = """import tensorflow as tf


def masked_accuracy(preds, labels, mask):
    hits = tf.cast(tf.equal(tf.argmax(preds, 1), tf.argmax(labels, 1)), tf.float32)
    return tf.reduce_sum(hits * mask) / tf.reduce_sum(mask)


def masked_l2(preds, labels, mask):
    return tf.reduce_sum(tf.square(preds - labels) * mask) / tf.reduce_sum(mask)


class Unused:
    def score(self, hits, mask):
        return tf.reduce_sum(hits * mask) / tf.reduce_sum(mask)
"""
TRAIN = ("from metrics import masked_accuracy\n\nif __name__ == '__main__':\n"
         "    print(masked_accuracy)\n")


def _lines(tmp_path, *args):
    result = run_cli("check", "--no-cache", "--format", "json", *args, cwd=tmp_path)
    assert result.returncode in (0, 1), result.stderr
    return sorted(f["line"] for f in json.loads(result.stdout)["findings"])


def _project(tmp_path, **files):
    for name, text in {"metrics.py": METRICS, "train.py": TRAIN, **files}.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_folder_scan_skips_what_nothing_calls(tmp_path):
    _project(tmp_path)
    assert _lines(tmp_path, ".") == [6]


def test_a_folder_without_a_program_is_reported_whole(tmp_path):
    # Definitions alone (a library, a snippet): their callers are elsewhere.
    _project(tmp_path, **{"train.py": "from metrics import masked_accuracy\n"})
    assert _lines(tmp_path, ".") == [6, 10, 15]
    # a docstring's line that starts with `for` is no loop
    _project(tmp_path, **{"train.py": '"""Metrics\nfor training.\n"""\n'
                                      "from metrics import masked_accuracy\n"})
    assert _lines(tmp_path, ".") == [6, 10, 15]


def test_a_script_is_a_program(tmp_path):
    _project(tmp_path, **{"train.py": "from metrics import masked_accuracy\n"
                                      "with open('log') as log:\n"
                                      "    log.write(str(masked_accuracy))\n"})
    assert _lines(tmp_path, ".") == [6]


def test_a_file_named_on_the_command_line_is_reported_whole(tmp_path):
    _project(tmp_path)
    assert _lines(tmp_path, "metrics.py") == [6, 10, 15]


def test_a_use_anywhere_in_the_folder_counts_tests_and_strings_too(tmp_path):
    _project(tmp_path, **{"tests/test_metrics.py": "from metrics import masked_l2\n",
                          "config.py": "METRIC = 'Unused.score'\n"})
    assert _lines(tmp_path, ".") == [6, 10, 15]


def test_decorated_definitions_and_packages_are_kept(tmp_path):
    decorated = METRICS.replace("def masked_l2", "@register\ndef masked_l2")
    _project(tmp_path, **{"metrics.py": decorated})
    assert _lines(tmp_path, ".") == [6, 11]
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'm'\n", encoding="utf-8")
    assert _lines(tmp_path, ".") == [6, 11, 16]


def test_the_current_folder_being_a_package_does_not_make_the_scanned_folder_one(tmp_path):
    # A scan run from another project's folder (itself installable) of a folder with no
    # configuration: the package test reads the folder given, not the current folder.
    _project(tmp_path / "scanned")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'other'\n", encoding="utf-8")
    assert _lines(tmp_path, "scanned") == [6]
    (tmp_path / "scanned" / "setup.py").write_text("", encoding="utf-8")
    assert _lines(tmp_path, "scanned") == [6, 10, 15]


def test_a_setup_py_that_builds_only_extensions_makes_no_package(tmp_path):
    _project(tmp_path)
    setup = ("from distutils.core import setup, Extension\n"
             "setup(ext_modules=[Extension('*', ['*.pyx'])])\n")
    (tmp_path / "setup.py").write_text(setup, encoding="utf-8")
    assert _lines(tmp_path, ".") == [6]
    packaged = setup.replace("ext_modules=", "packages=['m'], ext_modules=")
    (tmp_path / "setup.py").write_text(packaged, encoding="utf-8")
    assert _lines(tmp_path, ".") == [6, 10, 15]


def test_a_module_imported_by_a_computed_name_may_run_any_public_definition(tmp_path):
    # `import_module("models." + name)`: a class chosen by a configuration's string
    dynamic = ("import importlib\n\nif __name__ == '__main__':\n"
               "    module = importlib.import_module('metrics.' + NAME)\n")
    _project(tmp_path, **{"train.py": dynamic})
    assert _lines(tmp_path, ".") == [6, 10, 15]
    literal = dynamic.replace("'metrics.' + NAME", "'metrics'")
    _project(tmp_path, **{"train.py": literal})
    assert _lines(tmp_path, ".") == []


METHODS = """import tensorflow as tf


class Scores:
    def used(self, hits, mask):
        return tf.reduce_sum(hits * mask) / tf.reduce_sum(mask)

    def unused(self, hits, mask):
        return tf.reduce_sum(hits * mask) / tf.reduce_sum(mask)


class Ratio(tf.keras.layers.Layer):
    def call(self, hits, mask):
        return tf.reduce_sum(hits * mask) / tf.reduce_sum(mask)
"""


def test_a_method_nothing_calls_in_a_class_without_a_base(tmp_path):
    # A base class may call its hooks (`call`) by name; a plain class's methods run only
    # where the project calls them.
    _project(tmp_path, **{"scores.py": METHODS,
                          "run.py": "from scores import Scores, Ratio\nScores().used\n"
                                    "app.run(main)\n"})
    assert _lines(tmp_path, "scores.py") == [6, 9, 14]
    result = run_cli("check", "--no-cache", "--format", "json", ".", cwd=tmp_path)
    found = {(f["path"], f["line"]) for f in json.loads(result.stdout)["findings"]}
    assert {line for path, line in found if path.endswith("scores.py")} == {6, 14}


def test_a_file_that_does_not_parse_is_still_reported(tmp_path):
    _project(tmp_path, **{"old.py": "def unused():\n    print 'x'\n"})
    result = run_cli("check", "--no-cache", "--format", "json", ".", cwd=tmp_path)
    assert "NAN000" in {f["code"] for f in json.loads(result.stdout)["findings"]}


def test_the_setting_keeps_everything(tmp_path):
    _project(tmp_path, **{".nanlint.yaml": "include-uncalled: true\n"})
    assert _lines(tmp_path, ".") == [6, 10, 15]
    (tmp_path / ".nanlint.yaml").write_text("include-uncalled: 1\n", encoding="utf-8")
    bad = run_cli("check", ".", cwd=tmp_path)
    assert bad.returncode == 2 and "include-uncalled" in bad.stderr


def test_the_summary_says_how_many_were_left_out(tmp_path):
    _project(tmp_path)
    text = run_cli("check", "--no-cache", ".", cwd=tmp_path)
    assert "2 findings in code nothing calls not shown" in text.stdout
    document = json.loads(run_cli("check", "--no-cache", "--format", "json", ".",
                                  cwd=tmp_path).stdout)
    assert document["in_uncalled_code"] == 2
    named = json.loads(run_cli("check", "--no-cache", "--format", "json", "metrics.py",
                               cwd=tmp_path).stdout)
    assert "in_uncalled_code" not in named


def test_the_hunt_lists_what_nothing_calls(tmp_path):
    _project(tmp_path)
    result = run_cli("suspects", "--no-cache", "--format", "json", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    # (a hazard written again is one entry, naming its other places)
    suspects = json.loads(result.stdout)["suspects"]
    lines = {place["line"] for s in suspects
             if s["path"].endswith("metrics.py") for place in (s, *s["also"])}
    assert {6, 10, 15} <= lines
    # listed below what runs, saying why
    by_line = {s["line"]: s for s in suspects if s["path"].endswith("metrics.py")}
    assert by_line[10]["why"].endswith("in code nothing in the folder calls")
    assert "nothing in the folder calls" not in by_line[6]["why"]
    alone = run_cli("suspects", "--no-cache", "--format", "json", "metrics.py", cwd=tmp_path)
    named = {s["line"]: s for s in json.loads(alone.stdout)["suspects"]}  # a file: all run
    assert by_line[10]["score"] < named[10]["score"]
    assert by_line[6]["score"] == named[6]["score"]


def test_a_comment_or_a_docstring_is_no_use_and_what_only_dead_code_calls_is_dead(tmp_path):
    model = ('"""A model; see Helper and masked_l2 for the metrics."""\n'
             "import metrics\n\n\n"
             "class Helper:  # wraps masked_accuracy\n"
             '    """Calls masked_accuracy."""\n\n'
             "    def run(self, *args):\n        return metrics.masked_accuracy(*args)\n\n\n"
             "def ping(n):\n    return pong(n)\n\n\n"
             "def pong(n):\n    return ping(n) + metrics.masked_l2(n, n, n)\n")
    # masked_accuracy is called only by Helper, which nothing builds; masked_l2 only by
    # ping and pong, which call only each other.
    train = "import metrics\nimport model\n\nif __name__ == '__main__':\n    {}\n"
    _project(tmp_path, **{"train.py": train.format("metrics.Unused().score"),
                          "model.py": model})
    assert _lines(tmp_path, ".") == [15]
    # a call at module level, or a string that is not a statement of its own, still counts
    _project(tmp_path, **{"train.py": train.format("metrics.Unused().score, model.Helper().run"),
                          "model.py": model.replace("def ping", "NAME = 'ping'\n\n\ndef ping")})
    assert _lines(tmp_path, ".") == [6, 10, 15]


def test_a_value_kept_as_an_attribute_nothing_reads_is_left_out(tmp_path):
    model = ("import tensorflow as tf\n\n\nclass Model(object):\n"
             "    def __init__(self, probs, counts):\n"
             "        self.nll = -tf.reduce_sum(tf.math.log(tf.nn.relu(probs)))\n"
             "        self.rate: float = tf.reduce_sum(counts) / tf.reduce_sum(tf.nn.relu(counts))\n"
             "        self.loss = -tf.reduce_sum(tf.math.log(tf.nn.relu(probs)))\n")
    # `nll` is read; `rate` is never named again; `loss` is only assigned again
    train = ("import model\n\nif __name__ == '__main__':\n    m = model.Model(1, 2)\n"
             "    m.loss = None\n    print(m.nll)\n")
    _project(tmp_path, **{"model.py": model, "train.py": train})
    assert _lines(tmp_path, ".") == [6]
    assert _lines(tmp_path, "model.py") == [6, 7, 8]  # named on the command line: all


def test_folders_of_two_projects_are_judged_apart(tmp_path):
    # A package beside a program: the package's public names are its API, the program's
    # unused definitions are still dead, whichever is named first.
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "setup.py").write_text("from setuptools import setup\nsetup()\n")
    (tmp_path / "lib" / "losses.py").write_text(METRICS, encoding="utf-8")
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / ".git").mkdir()
    for name, text in {"metrics.py": METRICS, "train.py": TRAIN}.items():
        (tmp_path / "app" / name).write_text(text, encoding="utf-8")
    result = run_cli("check", "--no-cache", "--format", "json", "lib", "app", cwd=tmp_path)
    found = sorted((f["path"].split("/")[0], f["line"])
                   for f in json.loads(result.stdout)["findings"])
    assert found == [("app", 6), ("lib", 6), ("lib", 10), ("lib", 15)]
