"""The preview tier (ruff's): rules whose sampled findings are not yet 2 sound in 3 are
off by default. `--preview` or `preview: true` turns them on; selecting one by its full code
turns that one on; a prefix (NAN3, NAN) does not."""

import json

import pytest

from cli_helpers import _no_colour_variables, assert_one_line_error, make, nanlint
from nanlint import registry

__all__ = ["_no_colour_variables", "nanlint"]

# NAN103 (stable) on line 4; NAN301 (preview) on line 2; NAN304 (preview) on line 3;
# NAN402 (preview) on line 5.
SOURCE = ("import tensorflow as tf\n"
          "opt = tf.keras.optimizers.Adam(learning_rate=5.0)\n"
          "w = tf.Variable(tf.random.normal([784, 10]))\n"
          "p = tf.math.log(tf.nn.softmax(tf.matmul(x, w)))\n"
          "m = tf.keras.Sequential([tf.keras.layers.Dense(8, activation='relu'),\n"
          "                         tf.keras.layers.Dense(8, activation='relu'),\n"
          "                         tf.keras.layers.Dense(8, activation='relu'),\n"
          "                         tf.keras.layers.Dense(1)])\n")
CODES = {"NAN103", "NAN301", "NAN304", "NAN402"}
EVERY = [(2, "NAN301"), (3, "NAN304"), (4, "NAN103"), (5, "NAN402")]


def _found(out):
    return sorted((f["line"], f["code"]) for f in json.loads(out)["findings"]
                  if f["code"] in CODES)


@pytest.mark.parametrize("args, config, expected", [
    ((), None, [(4, "NAN103")]),
    (("--preview",), None, EVERY),
    ((), "preview: true\n", EVERY),
    ((), "preview: false\n", [(4, "NAN103")]),
    (("--select", "NAN304"), None, [(3, "NAN304")]),
    (("--select", "NAN3"), None, []),
    (("--select", "NAN"), None, [(4, "NAN103")]),
    (("--select", "NAN3,NAN402"), None, [(5, "NAN402")]),
    ((), "select: [NAN1, NAN304]\n", [(3, "NAN304"), (4, "NAN103")]),
    (("--preview", "--ignore", "NAN304"), None, [(2, "NAN301"), (4, "NAN103"), (5, "NAN402")]),
    (("--preview", "--select", "NAN4"), None, [(5, "NAN402")]),
])
def test_which_rules_run(tmp_path, nanlint, args, config, expected):
    files = {"train.py": SOURCE}
    if config is not None:
        files[".nanlint.yaml"] = config
    make(tmp_path, files)
    _, out, _ = nanlint("check", "--format", "json", *args, cwd=tmp_path, preview=False)
    assert _found(out) == expected


def test_preview_must_be_a_boolean(tmp_path, nanlint):
    make(tmp_path, {"train.py": SOURCE, ".nanlint.yaml": "preview: 1\n"})
    code, _, err = nanlint("check", cwd=tmp_path, preview=False)
    assert code == 2
    assert_one_line_error(err, "preview", "true or false")


def test_rules_lists_the_tier(tmp_path, nanlint):
    _, out, _ = nanlint("rules", "--format", "json", cwd=tmp_path)
    tiers = {row["code"]: row["tier"] for row in json.loads(out)}
    assert tiers["NAN304"] == "preview" and tiers["NAN103"] == "stable"
    assert {c for c, t in tiers.items() if t == "preview"} == {
        rule.code for rule in registry.every_rule() if rule.preview}
    _, text, _ = nanlint("rules", cwd=tmp_path)
    header, *rows = text.splitlines()
    assert "TIER" in header
    row = next(r for r in rows if r.startswith("NAN402"))
    assert " preview " in row


def test_rule_documentation_says_preview_and_why(tmp_path, nanlint):
    _, out, _ = nanlint("rule", "NAN304", cwd=tmp_path)
    assert "Preview: off by default (`--preview`)." in out
    assert "## Preview" in out
    _, out, _ = nanlint("rule", "NAN103", cwd=tmp_path)
    assert "Preview" not in out


@pytest.mark.parametrize("rule", registry.every_rule(), ids=lambda r: r.code)
def test_a_preview_rule_documents_why_it_waits(rule):
    if rule.preview:
        assert len(rule.section("Preview")) > 80, f"{rule.code}: say why it is in preview"
    else:
        assert rule.section("Preview") == ""


def test_check_help_says_which_rules_run_by_default(tmp_path, nanlint):
    code, out, _ = nanlint("check", "--help", cwd=tmp_path, preview=False)
    assert code == 0
    text = " ".join(out.split())
    assert "By default only the stable rules run" in text and "--preview runs" in text
