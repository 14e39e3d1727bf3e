"""A notebook's "[*] fixable" count is what --fix can write back: a JSON layout nanlint
reproduces byte for byte (indented with spaces or tabs, or not at all) gets its fixes, and
one it cannot reproduce offers none."""
import json

import pytest

from cli_helpers import check_json, make
from conftest import run_cli

CODE = ["import tensorflow as tf\n", "p = tf.nn.relu(z)\n", "loss = tf.math.log(p)\n"]
FIXED = "loss = tf.math.log(p + 1e-7)\n"


def notebook_text(indent) -> str:
    document = {"cells": [{"cell_type": "code", "execution_count": 1, "metadata": {},
                           "outputs": [], "source": CODE}],
                "metadata": {"language_info": {"name": "python"}}, "nbformat": 4,
                "nbformat_minor": 5}
    return json.dumps(document, indent=indent) + "\n"


@pytest.mark.parametrize("indent", ["\t", 2, None])
def test_the_fixable_count_is_what_fix_writes(tmp_path, indent):
    text = notebook_text(indent)
    make(tmp_path, {"nb.ipynb": text})
    checked = run_cli("check", "nb.ipynb", cwd=tmp_path)
    assert "1 fixable with `--unsafe-fixes`." in checked.stdout, checked.stdout
    fixed = run_cli("check", "--fix", "--unsafe-fixes", "nb.ipynb", cwd=tmp_path)
    assert "Fixed 1 finding." in fixed.stdout, fixed.stdout
    assert (tmp_path / "nb.ipynb").read_text() == text.replace(
        json.dumps(CODE[2])[1:-1], json.dumps(FIXED)[1:-1])


def test_a_layout_that_cannot_be_written_back_offers_no_fix(tmp_path):
    text = notebook_text(1).replace('\n "nbformat"', '\n\n "nbformat"')  # json never writes it
    make(tmp_path, {"nb.ipynb": text})
    checked = run_cli("check", "nb.ipynb", cwd=tmp_path)
    assert checked.returncode == 1
    assert "fixable" not in checked.stdout, checked.stdout
    _, document = check_json(cwd=tmp_path)
    assert [(f["code"], f["fix"]) for f in document["findings"]] == [("NAN102", None)]
    diff = run_cli("check", "--diff", "--unsafe-fixes", "nb.ipynb", cwd=tmp_path)
    assert (diff.stdout, diff.stderr.strip()) == ("", "No fixes available.")
    fixed = run_cli("check", "--fix", "--unsafe-fixes", "nb.ipynb", cwd=tmp_path)
    assert "(fix not applied: the notebook's JSON layout is not one nanlint can write back " \
           "byte for byte; nothing was written)" in fixed.stdout, fixed.stdout
    assert (tmp_path / "nb.ipynb").read_text() == text
