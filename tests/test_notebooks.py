"""Jupyter notebooks: code cells linted as one program, findings at cell and line."""

import dataclasses
import json
import shutil

import pytest

from cli_helpers import TF_LOG, check_json, make
from conftest import FIXTURES, options_for, run_cli
from nanlint import notebook
from nanlint.engine import lint_notebook
from nanlint.runner import CACHE_FOLDER

FIXTURE = FIXTURES / "notebooks" / "two_cells.ipynb"
# The fixture: markdown (cell 1), the import (cell 2), a log of a relu output (cell 3, line
# 3), markdown (cell 4), a cell magic whose body is not read (cell 5), an RMSE (cell 6).
EXPECTED = [(3, 3, 8, "NAN102"), (6, 2, 12, "NAN201")]


def cells(*sources, language="python", nbformat=4):
    """A notebook file's bytes: a markdown cell first, then a code cell per source."""
    document = {
        "cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# Title\n"]}] + [
            {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [],
             "source": source.splitlines(keepends=True)} for source in sources],
        "metadata": {"language_info": {"name": language}},
        "nbformat": nbformat, "nbformat_minor": 5}
    return json.dumps(document, indent=1).encode()


def lint(data, path="nb.ipynb"):
    return [(f.cell, f.line, f.column, f.code)
            for f in lint_notebook(data, path, options_for())]


# -- the fixture, end to end -----------------------------------------------------------------
def test_fixture_in_text_points_at_cell_and_line(tmp_path):
    shutil.copy(FIXTURE, tmp_path / "train.ipynb")
    make(tmp_path, {})
    result = run_cli("check", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    heads = [line for line in result.stdout.splitlines() if line.startswith("train.ipynb")]
    assert [line.split(": ")[0] + ": " + line.split(": ")[1][:6] for line in heads] == [
        "train.ipynb:cell 3:3:8: NAN102", "train.ipynb:cell 6:2:12: NAN201"]
    # The evidence names its place in the notebook too, and the frame numbers the cell's line.
    assert "`p` is the output of `tf.nn.relu` (cell 3, line 2)" in heads[0]
    assert "3 | loss = tf.math.log(p)\n" in result.stdout
    assert "Found 2 findings (1 error, 1 warning) in 1 of 1 file." in result.stdout


def test_fixture_in_json_has_cell_and_positions(tmp_path):
    shutil.copy(FIXTURE, tmp_path / "train.ipynb")
    make(tmp_path, {})
    _, document = check_json(cwd=tmp_path)
    assert document["files_scanned"] == 1
    assert [(f["path"], f["cell"], f["line"], f["column"], f["end_line"], f["end_column"],
             f["code"]) for f in document["findings"]] == [
        ("train.ipynb", 3, 3, 8, 3, 22, "NAN102"), ("train.ipynb", 6, 2, 12, 2, 63, "NAN201")]
    # The evidence is placed in its own cell: the relu of cell 3, line 2.
    evidence = document["findings"][0]["evidence"]
    assert (evidence["cell"], evidence["line"], evidence["column"]) == (3, 2, 5)


def test_fixture_in_sarif_names_the_cell(tmp_path):
    import jsonschema

    shutil.copy(FIXTURE, tmp_path / "train.ipynb")
    make(tmp_path, {})
    result = run_cli("check", "--format", "sarif", cwd=tmp_path)
    document = json.loads(result.stdout)
    schema = json.loads((FIXTURES.parent / "data" / "sarif-schema-2.1.0.json").read_text())
    jsonschema.validate(document, schema)
    found = []
    for item in document["runs"][0]["results"]:
        [location] = item["locations"]
        region = location["physicalLocation"]["region"]
        [logical] = location["logicalLocations"]
        found.append((item["properties"]["cell"], logical["name"], region["startLine"],
                      region["startColumn"], item["ruleId"]))
        assert item["message"]["text"].startswith(f"cell {item['properties']['cell']}: ")
        assert location["properties"] == {"cell": item["properties"]["cell"]}
    assert found == [(3, "cell 3", 3, 8, "NAN102"), (6, "cell 6", 2, 12, "NAN201")]
    # The evidence (the relu of cell 3, line 2) is a related location, in its cell.
    [related] = document["runs"][0]["results"][0]["relatedLocations"]
    region = related["physicalLocation"]["region"]
    assert (related["properties"], region["startLine"], region["startColumn"]) == (
        {"cell": 3}, 2, 5)
    assert related["message"]["text"].startswith("`p` is the output of `tf.nn.relu`")


def test_ci_formats_name_the_cell_not_a_line_of_the_file(tmp_path):
    import xml.etree.ElementTree as ET

    shutil.copy(FIXTURE, tmp_path / "train.ipynb")
    make(tmp_path, {})
    github = run_cli("check", "--format", "github", cwd=tmp_path).stdout.splitlines()
    assert github[0].startswith("::error file=train.ipynb,title=NAN102 log-of-zero::"
                                "cell 3, line 3: `tf.math.log` of `p`")
    gitlab = json.loads(run_cli("check", "--format", "gitlab", cwd=tmp_path).stdout)
    assert gitlab[0]["description"].startswith("NAN102 cell 3, line 3: `tf.math.log`")
    assert gitlab[0]["location"]["lines"] == {"begin": 1}
    junit = ET.fromstring(run_cli("check", "--format", "junit", cwd=tmp_path).stdout)
    case = junit.find("testsuite/testcase")
    assert case.get("name") == "NAN102 log-of-zero at cell 3, line 3, column 8"
    assert case.get("line") is None
    failure = case.find("failure")
    assert failure.get("message").startswith("cell 3, line 3: ")
    assert failure.text.startswith("train.ipynb:cell 3:3:8: NAN102 ")


def test_notebook_fixes_are_in_cell_coordinates(tmp_path):
    # A cell indented as a whole: the edit's column is the cell's, not the dedented line's.
    data = cells("import tensorflow as tf\n", "  p = tf.nn.relu(z)\n  loss = tf.math.log(p)\n")
    [finding] = lint_notebook(data, "nb.ipynb", options_for())
    assert (finding.cell, finding.line, finding.column) == (3, 2, 10)
    assert finding.source_lines == ("  loss = tf.math.log(p)",)
    [edit] = finding.fix["edits"]
    assert (edit["line"], edit["column"], edit["end_column"], edit["replacement"]) == (
        2, 22, 23, "p + 1e-7")


SOFTMAX_LOG = ("import tensorflow as tf\nprobs = tf.nn.softmax(z)\n"
               "loss = tf.math.log(tf.nn.softmax(z)) + tf.math.log(tf.nn.relu(z))\n")


@pytest.mark.parametrize("unsafe", [False, True])
def test_notebook_findings_are_marked_and_counted_as_in_a_python_file(tmp_path, unsafe):
    make(tmp_path, {"a.py": SOFTMAX_LOG, "nb.ipynb": cells(SOFTMAX_LOG).decode()})
    flags = ["--fix", "--unsafe-fixes"] if unsafe else []  # with them, both are fixed

    def heads(name):
        result = run_cli("check", "--no-cache", *flags, name, cwd=tmp_path)
        return ([" ".join(line.split(": ", 1)[1].split()[:2])
                 for line in result.stdout.splitlines() if line.startswith(name)],
                result.stdout.rstrip().splitlines()[-1])

    python, notebook_ = heads("a.py"), heads("nb.ipynb")
    assert notebook_ == python
    if not unsafe:
        assert python[0] == ["NAN103 [*]", "NAN102 error:"]
        assert python[1].endswith(
            "[*] 1 fixable with `--fix`. 1 more fixable with `--unsafe-fixes`.")
    else:
        assert python == ([], "No findings in 1 file. Fixed 2 findings.")


def test_fixture_has_exactly_the_expected_findings():
    assert lint(FIXTURE.read_bytes()) == EXPECTED


def test_cached_notebook_findings_keep_their_cell(tmp_path):
    shutil.copy(FIXTURE, tmp_path / "train.ipynb")
    make(tmp_path, {})
    _, first = check_json(cwd=tmp_path)
    cache = next((tmp_path / CACHE_FOLDER).glob("v*.json")).read_text()
    assert '"cell": 3' in cache
    _, second = check_json(cwd=tmp_path)
    assert second == first


def test_notebooks_are_found_in_folders_and_checkpoints_are_skipped(tmp_path):
    data = FIXTURE.read_bytes()
    make(tmp_path, {"a/train.ipynb": data, "a/.ipynb_checkpoints/train-checkpoint.ipynb": data,
                    "b.py": TF_LOG})
    _, document = check_json(cwd=tmp_path)
    assert document["files_scanned"] == 2
    assert sorted({f["path"] for f in document["findings"]}) == ["a/train.ipynb", "b.py"]


def test_a_python_file_has_no_cell(tmp_path):
    make(tmp_path, {"b.py": TF_LOG})
    _, document = check_json(cwd=tmp_path)
    assert [f["cell"] for f in document["findings"]] == [None]
    assert run_cli("check", cwd=tmp_path).stdout.startswith("b.py:3:8: NAN102 ")


def test_notebook_from_standard_input(tmp_path):
    make(tmp_path, {})
    result = run_cli("check", "-", "--stdin-filename", "nb.ipynb", "-q", cwd=tmp_path,
                     stdin=FIXTURE.read_text())
    assert result.returncode == 1
    assert [line.split(" NAN")[0] for line in result.stdout.splitlines()] == [
        "nb.ipynb:cell 3:3:8:", "nb.ipynb:cell 6:2:12:"]


# -- cells as one program --------------------------------------------------------------------
def test_an_import_in_an_earlier_cell_counts():
    data = cells("import tensorflow as tf\n", "x = 1\n",
                 "p = tf.nn.relu(z)\nloss = tf.math.log(p)\n")
    assert lint(data) == [(4, 2, 8, "NAN102")]  # cell 4: the markdown cell is cell 1


def test_cells_are_numbered_among_all_cells_and_empty_cells_count():
    data = cells("import tensorflow as tf\n", "", "\n\n",
                 "loss = tf.math.log(tf.nn.relu(z))\n")
    assert lint(data) == [(5, 1, 8, "NAN102")]


@pytest.mark.parametrize("magic", [
    "%matplotlib inline", "!pip install tensorflow", "files = !ls", "%time x = 1",
    "?tf.math.log", "%load_ext autoreload",
])
def test_magics_and_shell_lines_are_skipped_and_lines_stay_stable(magic):
    data = cells("import tensorflow as tf\n" + magic + "\np = tf.nn.relu(z)\n"
                 "loss = tf.math.log(p)\n")
    assert lint(data) == [(2, 4, 8, "NAN102")]


def test_a_magic_inside_a_block_keeps_the_block_valid():
    data = cells("import tensorflow as tf\nfor z in zs:\n    %time y = 1\n"
                 "loss = tf.math.log(tf.nn.relu(z))\n")
    assert lint(data) == [(2, 4, 8, "NAN102")]


@pytest.mark.parametrize("code", [
    'msg = (\n    "loss %s"\n    % loss\n)\n',  # black puts the operator first
    "ok = (a\n      != b)\n",
    'doc = """\n%s of the batch\n!important\n"""\n',  # inside a string
    "x = 1 + \\\n    % 2\n",  # after a backslash (not Python either way, but not a magic)
    'print("a=%s" % x)\nprint("b=!")\n',  # `=` then `%` inside a string: no `x = %magic`
    "time (x +\n      y)\n",  # a magic's name starting a longer Python statement
])
def test_lines_that_only_look_like_magics_are_kept(code):
    assert notebook.read(cells(code)).source == code


def test_a_magic_after_a_closed_bracket_or_string_is_still_skipped():
    code = 'x = f(\n    1)\ns = """a\nb"""\n%time g()\n'
    assert notebook.read(cells(code)).source.splitlines()[-1] == "pass"


def test_a_cell_magic_blanks_its_cell():
    data = cells("import tensorflow as tf\n", "%%bash\necho $((1 / 0))\n",
                 "loss = tf.math.log(tf.nn.relu(z))\n")
    assert lint(data) == [(4, 1, 8, "NAN102")]


def test_read_keeps_one_line_per_cell_line():
    document = notebook.read(cells("a = 1\n!ls\nb = 2", "%%bash\nc = 3\n"))
    assert document.source == "a = 1\npass\nb = 2\n\n\n"
    assert document.places == [(2, 1), (2, 2), (2, 3), (3, 1), (3, 2)]


def test_the_python_body_of_a_timing_or_capturing_cell_magic_is_checked(tmp_path):
    """`%%time`, `%%timeit` and `%%capture` run their body as Python: it is checked, at its
    own lines of the cell (its indent removed and added back), and fixed there; the
    magic's line is not Python. Other cell magics stay out."""
    data = cells("import tensorflow as tf\n",
                 "%%time\np = tf.nn.relu(z)\nloss = tf.math.log(p)\n",
                 "\n%%capture output --no-stderr\n  %%timeit -n1\n"
                 "  q = tf.math.log(tf.nn.relu(z))\n",
                 "%%bash\necho $((1 / 0))\n", "%%timer\nr = tf.math.log(tf.nn.relu(z))\n")
    assert lint(data) == [(3, 3, 8, "NAN102"), (4, 4, 7, "NAN102")]
    path = tmp_path / "nb.ipynb"
    path.write_bytes(data)
    result = run_cli("check", "--fix", "--unsafe-fixes", "nb.ipynb", cwd=tmp_path)
    assert result.returncode == 0 and "Fixed 2 findings" in result.stdout, result.stdout
    sources = ["".join(cell["source"]) for cell in json.loads(path.read_bytes())["cells"]]
    assert sources[2:4] == ["%%time\np = tf.nn.relu(z)\nloss = tf.math.log(p + 1e-7)\n",
                            "\n%%capture output --no-stderr\n  %%timeit -n1\n"
                            "  q = tf.math.log(tf.nn.relu(z) + 1e-7)\n"]


def test_a_syntax_error_points_at_its_cell():
    data = cells("import tensorflow as tf\n", "x = 1\ndef f(:\n")
    findings = lint_notebook(data, "nb.ipynb", options_for())
    assert [(f.cell, f.line, f.code) for f in findings] == [(3, 2, "NAN000")]


def test_suppressions_work_in_cells_and_unused_ones_are_reported():
    data = cells("import tensorflow as tf\n",
                 "loss = tf.math.log(tf.nn.relu(z))  # nanlint: ignore[NAN102]\n",
                 "x = tf.exp(y)  # nanlint: ignore[NAN102]\n")
    assert lint(data) == [(4, 1, 16, "NAN001")]


def test_a_notebook_in_another_language_is_not_read():
    assert lint(cells("library(tensorflow)\nx <- log(0)\n", language="R")) == []


# -- notebooks that cannot be read: one NAN000 -----------------------------------------------
@pytest.mark.parametrize("data, fragment", [
    (b"{not json", "not a notebook: invalid JSON at line 1, column 2"),
    (b'{"cells": []', "not a notebook: invalid JSON"),
    (b"[1, 2]", "no list of `cells`"),
    (b'{"cells": {}}', "no list of `cells`"),
    (cells("x = 1\n", nbformat=3), "unsupported notebook format 3: nanlint reads nbformat 4"),
    (b'{"nbformat": 4, "cells": [1]}', "cell 1 is not a mapping"),
    (b'{"nbformat": 4, "cells": [{"cell_type": "code", "source": 5}]}',
     "the source of cell 1 is not text"),
    (b'{"nbformat": 4, "cells": [], "x": "\xff"}', "not valid UTF-8"),
])
def test_a_bad_notebook_is_one_nan000(data, fragment):
    [finding] = lint_notebook(data, "nb.ipynb", options_for())
    assert (finding.code, finding.cell, finding.line) == ("NAN000", None, 1)
    assert fragment in finding.message and "\n" not in finding.message


def test_a_bad_notebook_in_the_cli_gives_no_traceback(tmp_path):
    make(tmp_path, {"broken.ipynb": "{", "good.py": TF_LOG})
    result = run_cli("check", "-q", cwd=tmp_path)
    assert result.returncode == 1 and result.stderr == ""
    assert result.stdout.splitlines()[0].startswith("broken.ipynb:1:1: NAN000 error: not a notebook")


# -- fixes -----------------------------------------------------------------------------------
def test_fix_rewrites_only_the_fixed_line_of_its_cell(tmp_path):
    source = "import tensorflow as tf\n"
    fixable = "%time x = 1\np = tf.nn.relu(z)\nloss = tf.math.log(p)\n"
    data = cells(source, fixable)
    document = json.loads(data)
    document["cells"][2]["outputs"] = [{"output_type": "stream", "name": "stdout",
                                        "text": ["tf.math.log(p)\n"]}]
    document["metadata"]["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    data = (json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode()
    path = tmp_path / "nb.ipynb"
    path.write_bytes(data)
    result = run_cli("check", "--fix", "--unsafe-fixes", "nb.ipynb", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Fixed 1 finding" in result.stdout
    after = path.read_bytes()
    expected = json.loads(data)
    expected["cells"][2]["source"][2] = "loss = tf.math.log(p + 1e-7)\n"
    assert json.loads(after) == expected  # the outputs, the magic and the metadata stay
    assert after == (json.dumps(expected, indent=1, sort_keys=True, ensure_ascii=False)
                     + "\n").encode()
    again = run_cli("check", "--fix", "--unsafe-fixes", "nb.ipynb", cwd=tmp_path)
    assert again.returncode == 0 and path.read_bytes() == after


def test_diff_of_a_notebook_applies_like_fix(tmp_path):
    data = cells("import tensorflow as tf\np = tf.nn.relu(z)\nloss = tf.math.log(p)\n")
    (tmp_path / "nb.ipynb").write_bytes(data)
    diff = run_cli("check", "--diff", "--unsafe-fixes", "nb.ipynb", cwd=tmp_path)
    assert diff.returncode == 1 and '+    "loss = tf.math.log(p + 1e-7)\\n"' in diff.stdout
    assert (tmp_path / "nb.ipynb").read_bytes() == data


SOFTMAX_VARIABLE = ("def f(labels, logits, w):\n    probs = tf.nn.softmax(logits)\n"
                    "    ce = -tf.reduce_sum(labels * tf.math.log(probs), axis=-1)\n"
                    "    h = tf.matmul(logits, w)\n    return ce + tf.math.log(h)\n")


def test_a_fix_that_removes_a_line_does_not_block_the_other_fixes(tmp_path):
    # NAN103's fix removes the `probs = ...` line of cell 3; the fix of cell 4 still applies,
    # and what is left is reported at its place in the fixed notebook.
    data = cells("import tensorflow as tf\n", SOFTMAX_VARIABLE,
                 "p = tf.nn.relu(z)\nloss = tf.math.log(p)\n")
    path = tmp_path / "nb.ipynb"
    path.write_bytes(data)
    diff = run_cli("check", "--diff", "--unsafe-fixes", "nb.ipynb", cwd=tmp_path)
    assert '-    "    probs = tf.nn.softmax(logits)\\n",' in diff.stdout
    assert '+    "loss = tf.math.log(p + 1e-7)\\n"' in diff.stdout
    assert "Would fix 2 findings" in diff.stderr and path.read_bytes() == data
    result = run_cli("check", "--fix", "--unsafe-fixes", "-q", "nb.ipynb", cwd=tmp_path)
    expected = json.loads(data)
    expected["cells"][2]["source"] = [
        "def f(labels, logits, w):\n",
        "    ce = -tf.reduce_sum(labels * tf.nn.log_softmax(logits), axis=-1)\n",
        "    h = tf.matmul(logits, w)\n", "    return ce + tf.math.log(h)\n"]
    expected["cells"][3]["source"][1] = "loss = tf.math.log(p + 1e-7)\n"
    assert path.read_bytes() == json.dumps(expected, indent=1).encode()
    assert result.stdout.splitlines() == [
        "nb.ipynb:cell 3:4:17: NAN102 error: `tf.math.log` of `h`, which can be negative "
        "(NaN): `h` is the output of `tf.matmul` (cell 3, line 3), a linear output, which "
        "takes negative values"]
    assert lint(path.read_bytes()) == [(3, 4, 17, "NAN102")]


def test_fixed_code_that_adds_lines_goes_back_into_its_cell_with_its_indent():
    # A fix that breaks a line inside brackets: the cell gets a line more, each line keeps
    # the cell's indent, and the next cell is untouched.
    data = cells("import tensorflow as tf\n", "  x = tf.nn.relu(z)\n  y = tf.math.log(x)",
                 "loss = 1\n")
    document = notebook.read(data)
    fixed = document.source.replace("y = tf.math.log(x)", "y = tf.math.log(\n    x + 1e-7)")
    starts = notebook.cell_starts(document)
    moved = [starts[0], starts[1], starts[2] + len("\n    x + 1e-7)") - len("x)")]
    new = json.loads(notebook.with_fixed_code(data, document, fixed, moved))
    assert [cell["source"] for cell in new["cells"][1:]] == [
        ["import tensorflow as tf\n"],
        ["  x = tf.nn.relu(z)\n", "  y = tf.math.log(\n", "      x + 1e-7)"], ["loss = 1\n"]]


def test_a_notebook_layout_that_cannot_be_reproduced_is_not_written(tmp_path):
    data = cells("import tensorflow as tf\np = tf.nn.relu(z)\nloss = tf.math.log(p)\n")
    odd = data.replace(b'\n "nbformat"', b'\n\n "nbformat"')  # a blank line json never writes
    (tmp_path / "nb.ipynb").write_bytes(odd)
    result = run_cli("check", "--fix", "--unsafe-fixes", "nb.ipynb", cwd=tmp_path)
    assert result.returncode == 1
    assert (tmp_path / "nb.ipynb").read_bytes() == odd
    assert "fix not applied: the notebook's JSON layout" in result.stdout


# -- cells as IPython reads them (IPython.core.inputtransformer2) ----------------------------
LATER = "loss = tf.math.log(tf.nn.relu(z))\n"  # a finding in the cell after the construct


@pytest.mark.parametrize("construct", [
    " import numpy as np\n x = np.ones(3)\n for i in x:\n     print(i)\n",  # indented cell
    "\t\ty = 1\n\t\tif y:\n\t\t    y = 2\n",
    "tf.keras.Input?\n",  # trailing help
    "x = 1\ntf.nn.relu??\n",
    "?tf.nn.relu\n",  # leading help
    "!t2t-datagen \\\n  --data_dir=/tmp/data \\\n  --problem=translate\nx = 1\n",
    "files = !ls /tmp \\\n  -la\nprint(files)\n",
    "ls ./data/\n",  # automagics that are not Python
    "cd my_project\nimport os\n",
    "pip install -q tensorflow-datasets\n",
    "%%R\nlibrary(ggplot2)\nx <- c(1, 2)\n",  # cell magics in another language
    "%%bash\nfor f in *; do echo $f; done\n",
    "%%html\n<div>1 / 0</div>\n",
    "%%javascript\nconsole.log(1 / 0);\n",
    ">>> x = 1\n>>> for i in range(3):\n...     x += i\n",  # a pasted session
    "In [1]: x = 1\n   ...: y = 2\n",
])
def test_ipython_constructs_parse_and_later_cells_are_checked(construct):
    data = cells("import tensorflow as tf\n", construct, LATER)
    assert lint(data) == [(4, 1, 8, "NAN102")]


def test_an_automagic_that_is_python_stays_python():
    source = notebook.read(cells("ls = [1]\nls\nrun(1)\ncd -1\n")).source
    assert source == "ls = [1]\nls\nrun(1)\ncd -1\n"


@pytest.mark.parametrize("metadata", [
    {"vscode": {"languageId": "r"}}, {"kernel": "R"},
    {"dotnet_interactive": {"language": "csharp"}},
    {"polyglot_notebook": {"kernelName": "fsharp"}},
])
def test_a_cell_in_another_language_by_its_metadata_is_not_read(metadata):
    document = json.loads(cells("import tensorflow as tf\n",
                                "x <- log(0)\nif (x > 1) { print(x) }\n", LATER))
    document["cells"][2]["metadata"] = metadata
    assert lint(json.dumps(document).encode()) == [(4, 1, 8, "NAN102")]


def test_a_notebook_whose_kernel_is_another_language_is_not_read():
    document = json.loads(cells("import tensorflow as tf\nx <- log(0)\n" + LATER))
    document["metadata"] = {"kernelspec": {"name": "ir", "language": "R"}}
    assert lint(json.dumps(document).encode()) == []


def test_a_cell_that_does_not_parse_is_one_nan000_and_the_others_are_checked():
    data = cells("import tensorflow as tf\n", "x = (1,\n", "def f(:\n    pass\n", LATER)
    findings = lint_notebook(data, "nb.ipynb", options_for())
    assert [(f.cell, f.line, f.code) for f in findings] == [
        (3, 1, "NAN000"), (4, 1, "NAN000"), (5, 1, "NAN102")]
    assert "(cell 4 is not checked; the other cells are)" in findings[1].message


def test_a_fix_never_touches_a_replaced_line(tmp_path):
    # The fix is refused where the program's line is a stand-in for IPython syntax.
    document = notebook.read(cells("import tensorflow as tf\n!echo x \\\n  y\n" + LATER))
    with pytest.raises(notebook.NotebookError, match="not Python"):
        notebook.with_fixed_code(cells("import tensorflow as tf\n!echo x \\\n  y\n" + LATER),
                                 document, document.source.replace("pass", "pass  # x"),
                                 notebook.cell_starts(document))


def test_fix_keeps_the_indent_of_an_indented_cell_and_its_shell_lines(tmp_path):
    data = cells("import tensorflow as tf\n",
                 "  !pip install x \\\n    --quiet\n  p = tf.nn.relu(z)\n  loss = tf.math.log(p)\n")
    path = tmp_path / "nb.ipynb"
    path.write_bytes(data)
    result = run_cli("check", "--fix", "--unsafe-fixes", "nb.ipynb", cwd=tmp_path)
    assert "Fixed 1 finding" in result.stdout, result.stdout
    assert json.loads(path.read_bytes())["cells"][2]["source"] == [
        "  !pip install x \\\n", "    --quiet\n", "  p = tf.nn.relu(z)\n",
        "  loss = tf.math.log(p + 1e-7)\n"]


# -- TensorFlow docs notebooks, reconstructed from their public form -------------------------
TF_DOCS = {
    "beginner quickstart": [
        "import tensorflow as tf\nprint(\"TensorFlow version:\", tf.__version__)\n",
        "mnist = tf.keras.datasets.mnist\n\n(x_train, y_train), (x_test, y_test) = "
        "mnist.load_data()\nx_train, x_test = x_train / 255.0, x_test / 255.0\n",
        "model = tf.keras.models.Sequential([\n  tf.keras.layers.Flatten(input_shape=(28, 28)),"
        "\n  tf.keras.layers.Dense(128, activation='relu'),\n  tf.keras.layers.Dropout(0.2),\n"
        "  tf.keras.layers.Dense(10)\n])\n",
        "predictions = model(x_train[:1]).numpy()\npredictions\n",
        "tf.nn.softmax(predictions).numpy()\n",
        "loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)\n",
        "model.compile(optimizer='adam',\n              loss=loss_fn,\n"
        "              metrics=['accuracy'])\n",
        "model.fit(x_train, y_train, epochs=5)\n",
        "model.evaluate(x_test,  y_test, verbose=2)\n",
        "probability_model = tf.keras.Sequential([\n  model,\n  tf.keras.layers.Softmax()\n])\n",
    ],
    "text classification": [
        "import matplotlib.pyplot as plt\nimport os\nimport re\nimport shutil\nimport string\n"
        "import tensorflow as tf\n\nfrom tensorflow.keras import layers\n"
        "from tensorflow.keras import losses\n",
        "url = \"https://ai.stanford.edu/~amaas/data/sentiment/aclImdb_v1.tar.gz\"\n\n"
        "dataset = tf.keras.utils.get_file(\"aclImdb_v1\", url,\n"
        "                                    untar=True, cache_dir='.',\n"
        "                                    cache_subdir='')\n\n"
        "dataset_dir = os.path.join(os.path.dirname(dataset), 'aclImdb')\n",
        "os.listdir(dataset_dir)\n",
        "!ls aclImdb/train\n",
        "def custom_standardization(input_data):\n  lowercase = tf.strings.lower(input_data)\n"
        "  stripped_html = tf.strings.regex_replace(lowercase, '<br />', ' ')\n"
        "  return tf.strings.regex_replace(stripped_html,\n"
        "                                  '[%s]' % re.escape(string.punctuation),\n"
        "                                  '')\n",
        "model = tf.keras.Sequential([\n  layers.Embedding(10000, 16),\n  layers.Dropout(0.2),\n"
        "  layers.GlobalAveragePooling1D(),\n  layers.Dropout(0.2),\n  layers.Dense(1)])\n\n"
        "model.summary()\n",
        "model.compile(loss=losses.BinaryCrossentropy(from_logits=True),\n"
        "              optimizer='adam',\n"
        "              metrics=[tf.metrics.BinaryAccuracy(threshold=0.0)])\n",
        "history_dict = history.history\nhistory_dict.keys()\n",
        "acc = history_dict['binary_accuracy']\nloss = history_dict['loss']\n\n"
        "epochs = range(1, len(acc) + 1)\n\nplt.plot(epochs, loss, 'bo', label='Training loss')\n"
        "plt.show()\n",
    ],
    "images with tf.data and tensorboard": [
        "!pip install -q tensorflow-datasets\n",
        "%load_ext tensorboard\n",
        "import datetime\nimport numpy as np\nimport tensorflow as tf\n"
        "import tensorflow_datasets as tfds\n",
        "rm -rf ./logs/\n",
        "tf.keras.Input?\n",
        "(train_ds, val_ds), metadata = tfds.load(\n    'tf_flowers',\n"
        "    split=['train[:80%]', 'train[80%:]'],\n    with_info=True,\n"
        "    as_supervised=True,\n)\n",
        "  IMG_SIZE = 180\n  resize_and_rescale = tf.keras.Sequential([\n"
        "    tf.keras.layers.Resizing(IMG_SIZE, IMG_SIZE),\n    tf.keras.layers.Rescaling(1./255)\n"
        "  ])\n",
        "AUTOTUNE = tf.data.AUTOTUNE\n\ndef prepare(ds, shuffle=False):\n"
        "  ds = ds.map(lambda x, y: (resize_and_rescale(x), y),\n"
        "              num_parallel_calls=AUTOTUNE)\n  if shuffle:\n    ds = ds.shuffle(1000)\n"
        "  return ds.batch(32).prefetch(buffer_size=AUTOTUNE)\n",
        "log_dir = \"logs/fit/\" + datetime.datetime.now().strftime(\"%Y%m%d-%H%M%S\")\n"
        "tensorboard_callback = tf.keras.callbacks.TensorBoard(log_dir=log_dir, "
        "histogram_freq=1)\n",
        "%tensorboard --logdir logs/fit\n",
        "ls ./logs/\n",
    ],
}


@pytest.mark.parametrize("name", sorted(TF_DOCS))
def test_tensorflow_docs_notebooks_parse(name):
    findings = lint(cells(*TF_DOCS[name]))
    assert not [f for f in findings if f[3] == "NAN000"], findings
    # Their code is checked: a finding added at the end is reported.
    assert lint(cells(*TF_DOCS[name], LATER))[-1][3] == "NAN102"


def test_a_fix_that_edits_another_cell_is_neither_offered_nor_applied():
    from nanlint.finding import Finding
    from nanlint.fixing import _in_its_cell

    document = notebook.read(cells("import tensorflow as tf\nx = 1\n", "y = x\n"))
    edit = {"line": 2, "column": 5, "end_line": 2, "end_column": 6, "replacement": "2"}
    finding = Finding("NAN101", "n", "error", "high", "nb.ipynb", 3, 1, 3, 2, "m",
                      fix={"safety": "safe", "description": "d", "edits": [edit]})
    assert not _in_its_cell(document, finding)
    assert _in_its_cell(document, dataclasses.replace(finding, line=2, end_line=2))


def test_add_noqa_comments_the_lines_in_their_cells(tmp_path):
    data = cells("import tensorflow as tf\n", SOFTMAX_VARIABLE,
                 "  p = tf.nn.relu(z)\n  loss = tf.math.log(p)\n")
    document = json.loads(data)
    document["cells"][3]["outputs"] = [{"output_type": "stream", "name": "stdout",
                                        "text": ["tf.math.log(p)\n"]}]
    data = json.dumps(document, indent=1).encode()
    make(tmp_path, {})
    (tmp_path / "nb.ipynb").write_bytes(data)
    result = run_cli("check", "--add-noqa", cwd=tmp_path)
    assert result.stdout == "Added suppression comments for 3 findings in 1 file.\n"
    expected = json.loads(data)
    source = expected["cells"][2]["source"]
    source[2] = source[2].rstrip("\n") + "  # nanlint: ignore[NAN103]\n"
    source[4] = source[4].rstrip("\n") + "  # nanlint: ignore[NAN102]\n"
    expected["cells"][3]["source"][1] = "  loss = tf.math.log(p)  # nanlint: ignore[NAN102]\n"
    assert (tmp_path / "nb.ipynb").read_bytes() == json.dumps(expected, indent=1).encode()
    assert run_cli("check", cwd=tmp_path).stdout.splitlines()[-1] == "No findings in 1 file."


def test_fix_goes_on_past_a_notebook_in_another_language(tmp_path):
    # A notebook read as empty (an R kernel) next to a file with a safe fix: --fix and
    # --diff fix the file and leave the notebook alone, without an internal error.
    document = json.loads(cells("library(tensorflow)\nx <- log(0)\n", language="R"))
    document["metadata"]["kernelspec"] = {"name": "ir", "language": "R"}
    (tmp_path / "analysis.ipynb").write_text(json.dumps(document), encoding="utf-8")
    (tmp_path / "count.py").write_text(
        "import tensorflow as tf\n\n\ndef share(x):\n"
        "    n = tf.reduce_sum(tf.cast(x > 0, tf.float32))\n"
        "    return tf.reduce_sum(x) / n\n", encoding="utf-8")
    diff = run_cli("check", "--diff", cwd=tmp_path)
    assert "internal error" not in diff.stdout + diff.stderr and "tf.maximum" in diff.stdout
    fixed = run_cli("check", "--fix", cwd=tmp_path)
    assert "internal error" not in fixed.stdout + fixed.stderr, fixed.stdout + fixed.stderr
    assert fixed.returncode == 0
    assert "tf.maximum(n, 1)" in (tmp_path / "count.py").read_text(encoding="utf-8")
