"""`nanlint ops`: the op model, as text and as JSON."""

import json

from cli_helpers import _no_colour_variables, nanlint
from conftest import run_cli
from nanlint import optable

__all__ = ["_no_colour_variables", "nanlint"]  # fixtures, imported to be found by pytest

OP_KEYS = {"name", "family", "transfer", "spellings", "range", "domain", "zero", "negative",
           "gradient", "overflows"}


def _ops(nanlint, tmp_path):
    code, out, err = nanlint("ops", "--format", "json", cwd=tmp_path)
    assert code == 0 and err == ""
    return json.loads(out)


def test_json_lists_every_op_once_with_its_model(nanlint, tmp_path):
    model = _ops(nanlint, tmp_path)
    assert set(model) == {"ops", "not_numeric"}
    names = [op["name"] for op in model["ops"]]
    assert sorted(names) == sorted(optable.TABLE.by_name) and len(names) == len(set(names))
    assert all(set(op) == OP_KEYS for op in model["ops"])
    by_name = {op["name"]: op for op in model["ops"]}
    log = by_name["log"]
    assert log["spellings"] == ["tf.math.log", "tf.log", "K.log", "ops.log", "np.log"]
    assert (log["family"], log["domain"], log["gradient"], log["overflows"]) == (
        None, [0.0, None], ["0"], True)
    # infinite bounds are null; a family's member names its family
    assert by_name["acos"]["range"] == [0.0, 3.141592653589793]
    assert by_name["acos"]["gradient"] == ["-1", "1"] and by_name["acos"]["family"] == "acos"
    assert by_name["relu"]["range"] == [0.0, None]
    assert by_name["relu"]["zero"] == "which is exactly 0 for every negative input"
    # numpy's spread is numpy's own op, which claims no 0 (see optable.NUMPY_TRANSFERS)
    assert by_name["np.std"]["spellings"] == ["np.std"] and by_name["np.std"]["zero"] is None


def test_json_lists_what_is_not_numeric(nanlint, tmp_path):
    not_numeric = _ops(nanlint, tmp_path)["not_numeric"]
    assert "tf.shape" in not_numeric and "tf.summary.*" in not_numeric
    assert "tf.math.log" not in not_numeric
    assert {"tf.contrib.slim.arg_scope", "tf.initializers.*", "tf.RaggedTensor.*",
            "tf.Summary.*"} <= set(not_numeric)


def test_json_models_sparse_ragged_and_tf1_layers(nanlint, tmp_path):
    by_spelling = {spelling: op for op in _ops(nanlint, tmp_path)["ops"]
                   for spelling in op["spellings"]}
    assert by_spelling["tf.sparse.reduce_sum"]["transfer"] == "sum"
    assert by_spelling["tf.sparse.sparse_dense_matmul"]["name"] == "matmul"
    assert by_spelling["tf.ragged.constant"]["name"] == "identity"
    assert by_spelling["tf.layers.flatten"]["name"] == "identity"
    assert by_spelling["tf.contrib.slim.conv2d"]["transfer"] == "layer_fn"
    assert by_spelling["tf.sparse.softmax"]["range"] == [0.0, 1.0]


def test_text_shows_each_op_and_its_spellings(tmp_path):
    result = run_cli("ops", cwd=tmp_path)
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    index = lines.index(
        "acos (acos): transfer range; range [0, 3.14159]; domain [-1, 1]; "
        "gradient singular at -1, 1")
    assert lines[index + 1] == "    tf.acos tf.math.acos"
    assert lines[-1].startswith("not numeric: ") and " tf.summary.* " in lines[-1]


def test_an_unknown_format_is_a_one_line_error(tmp_path):
    result = run_cli("ops", "--format", "yaml", cwd=tmp_path)
    assert result.returncode == 2 and "invalid choice: 'yaml'" in result.stderr
