"""Configuration through the command line: where it is found, what each key does, and the
one-line error for every kind of mistake."""

import json
from pathlib import Path

import pytest

from cli_helpers import (TF_DIVIDE_NO_NAN, TF_LOG, TF_MIXED, _no_colour_variables,
                         assert_one_line_error, check_json, codes_at, make, nanlint)
from conftest import run_cli

__all__ = ["_no_colour_variables", "nanlint"]  # fixtures, imported to be found by pytest


def codes(out):
    return sorted({f["code"] for f in json.loads(out)["findings"]})


# -- where the configuration comes from ------------------------------------------------------
def test_nanlint_yaml_in_the_current_folder(tmp_path, nanlint):
    make(tmp_path, {"mixed.py": TF_MIXED, ".nanlint.yaml": "select: [NAN101]\n"})
    code, out, err = nanlint("check", "--format", "json", cwd=tmp_path)
    assert (code, err) == (1, "")
    assert codes(out) == ["NAN101"]


def test_nanlint_yaml_in_a_parent_folder(tmp_path):
    make(tmp_path, {"src/pkg/mixed.py": TF_MIXED, ".nanlint.yaml": "ignore: [NAN1]\n"})
    result, document = check_json(".", cwd=tmp_path / "src" / "pkg")
    assert result.returncode == 1, result.stderr
    assert codes_at(document) == [("mixed.py", 12, "NAN201")]


def test_search_stops_at_the_repository_root(tmp_path):
    # A configuration above the folder holding .git belongs to another project.
    make(tmp_path, {".nanlint.yaml": "ignore: [NAN]\n"}, git=False)
    make(tmp_path / "repo", {"bad.py": TF_LOG})
    _, document = check_json(cwd=tmp_path / "repo")
    assert codes_at(document) == [("bad.py", 3, "NAN102")]


def test_pyproject_tool_section_when_there_is_no_nanlint_yaml(tmp_path):
    make(tmp_path, {"mixed.py": TF_MIXED, "pyproject.toml":
                    '[project]\nname = "demo"\n\n[tool.nanlint]\nselect = ["NAN2"]\n'})
    _, document = check_json(cwd=tmp_path)
    assert codes_at(document) == [("mixed.py", 12, "NAN201")]


def test_pyproject_subtables(tmp_path):
    make(tmp_path, {"scripts/x.py": TF_LOG, "src/x.py": TF_DIVIDE_NO_NAN,
                    "pyproject.toml": '[tool.nanlint.per-file-ignores]\n"scripts/*" = ["NAN102"]\n'
                                      '\n[tool.nanlint.rules.NAN101]\n'
                                      'check-divide-no-nan = false\n'})
    result, document = check_json(cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert document["files_scanned"] == 2 and document["findings"] == []


def test_pyproject_without_tool_section_is_passed_over(tmp_path):
    make(tmp_path, {".nanlint.yaml": "select: [NAN101]\n", "sub/mixed.py": TF_MIXED,
                    "sub/pyproject.toml": '[project]\nname = "sub"\n'})
    _, document = check_json(cwd=tmp_path / "sub")
    assert codes_at(document) == [("mixed.py", 4, "NAN101")]


def test_nanlint_yaml_wins_over_pyproject_in_the_same_folder(tmp_path):
    make(tmp_path, {"mixed.py": TF_MIXED, ".nanlint.yaml": "select: [NAN101]\n",
                    "pyproject.toml": '[tool.nanlint]\nselect = ["NAN201"]\n'})
    _, document = check_json(cwd=tmp_path)
    assert codes_at(document) == [("mixed.py", 4, "NAN101")]


def test_nearest_configuration_wins(tmp_path):
    make(tmp_path, {".nanlint.yaml": "select: [NAN101]\n", "sub/mixed.py": TF_MIXED,
                    "sub/pyproject.toml": '[tool.nanlint]\nselect = ["NAN201"]\n'})
    _, document = check_json(cwd=tmp_path / "sub")
    assert codes_at(document) == [("mixed.py", 12, "NAN201")]


def test_config_option_overrides_the_search(tmp_path):
    make(tmp_path, {"mixed.py": TF_MIXED, ".nanlint.yaml": "select: [NAN101]\n",
                    "ci/strict.yaml": "select: [NAN201]\n",
                    "ci/pyproject.toml": '[tool.nanlint]\nselect = ["NAN102"]\n'})
    _, document = check_json("--config", "ci/strict.yaml", cwd=tmp_path)
    assert codes_at(document) == [("mixed.py", 12, "NAN201")]
    _, document = check_json("--config", str(tmp_path / "ci" / "pyproject.toml"),
                             cwd=tmp_path)
    assert codes_at(document) == [("mixed.py", 4, "NAN102"), ("mixed.py", 8, "NAN102")]


def test_config_option_with_a_missing_file_exits_2(tmp_path):
    make(tmp_path, {"bad.py": TF_LOG})
    result = run_cli("check", "--config", "nowhere.yaml", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert_one_line_error(result.stderr, "nowhere.yaml", "not found")


def test_command_line_select_replaces_and_ignore_adds(tmp_path, nanlint):
    make(tmp_path, {"mixed.py": TF_MIXED, ".nanlint.yaml": "select: [NAN101]\n"
                                                           "ignore: [NAN201]\n"})
    _, out, _ = nanlint("check", "--format", "json", "--select", "NAN1,NAN2", cwd=tmp_path)
    assert codes(out) == ["NAN101", "NAN102"]  # select replaced, ignore kept
    _, out, _ = nanlint("check", "--format", "json", "--select", "NAN",
                        "--ignore", "NAN101", cwd=tmp_path)
    assert codes(out) == ["NAN102"]  # ignore added to


def test_codes_as_one_string(tmp_path, nanlint):
    make(tmp_path, {"mixed.py": TF_MIXED, ".nanlint.yaml": 'select: "NAN101, NAN201"\n'})
    _, out, _ = nanlint("check", "--format", "json", cwd=tmp_path)
    assert codes(out) == ["NAN101", "NAN201"]


def test_empty_configuration_file_means_defaults(tmp_path, nanlint):
    make(tmp_path, {"mixed.py": TF_MIXED, ".nanlint.yaml": "# nothing here yet\n"})
    code, out, err = nanlint("check", "--format", "json", cwd=tmp_path)
    assert (code, err) == (1, "")
    assert codes(out) == ["NAN101", "NAN102", "NAN201"]


# -- what the keys do ------------------------------------------------------------------------
def test_per_file_ignores(tmp_path):
    make(tmp_path, {
        ".nanlint.yaml": 'include-tests: true\n'
                         'per-file-ignores:\n  "tests/*": [NAN102]\n  "legacy.py": [NAN1]\n'
                         '  "gen/**": [NAN]\n',
        "mixed.py": TF_MIXED, "tests/test_a.py": TF_LOG, "other/test_a.py": TF_LOG,
        "pkg/legacy.py": TF_MIXED, "gen/out/model.py": TF_MIXED,
    })
    _, document = check_json(cwd=tmp_path)
    assert codes_at(document) == [
        ("mixed.py", 4, "NAN101"), ("mixed.py", 4, "NAN102"), ("mixed.py", 8, "NAN102"),
        ("mixed.py", 12, "NAN201"), ("other/test_a.py", 3, "NAN102"),
        ("pkg/legacy.py", 12, "NAN201")]  # a pattern without "/" matches in any folder
    # Patterns are relative to the configuration's folder, wherever nanlint runs from.
    result, document = check_json(".", cwd=tmp_path / "tests")
    assert (result.returncode, document["files_scanned"]) == (0, 1)
    assert document["findings"] == []
    _, document = check_json(".", cwd=tmp_path / "pkg")
    assert codes_at(document) == [("legacy.py", 12, "NAN201")]


def test_exclude(tmp_path):
    make(tmp_path, {".nanlint.yaml": 'exclude: ["generated/", "*_pb2.py", "docs/**"]\n',
                    "kept.py": TF_LOG, "generated/g.py": TF_LOG, "pkg/generated/h.py": TF_LOG,
                    "pkg/model_pb2.py": TF_LOG, "docs/conf.py": TF_LOG, "pkg/docs/k.py": TF_LOG})
    _, document = check_json(cwd=tmp_path)
    assert [f["path"] for f in document["findings"]] == ["kept.py", "pkg/docs/k.py"]
    # From a subfolder, the patterns still count from the configuration's folder.
    _, document = check_json(".", cwd=tmp_path / "pkg")
    assert [f["path"] for f in document["findings"]] == ["docs/k.py"]
    # A file named on the command line is checked even when excluded.
    _, document = check_json("generated/g.py", "pkg/model_pb2.py", cwd=tmp_path)
    assert [f["path"] for f in document["findings"]] == ["generated/g.py", "pkg/model_pb2.py"]


def test_rule_option_check_divide_no_nan(tmp_path, nanlint):
    make(tmp_path, {"ratio.py": TF_DIVIDE_NO_NAN})
    code, out, _ = nanlint("check", "--format", "json", cwd=tmp_path)
    assert code == 1
    assert codes_at(json.loads(out)) == [("ratio.py", 4, "NAN101")]
    make(tmp_path, {".nanlint.yaml": "rules: {NAN101: {check-divide-no-nan: false}}\n"})
    code, out, _ = nanlint("check", "--format", "json", cwd=tmp_path)
    assert code == 0
    assert json.loads(out)["findings"] == []


TRAINING = ("import tensorflow as tf\n"
            "opt = tf.keras.optimizers.Adam(learning_rate=0.05)\n"
            "w = tf.Variable(tf.random.normal([16, 16], stddev=1.0))\n"
            "m = tf.keras.Sequential([tf.keras.layers.Dense(8, activation='relu'),\n"
            "                         tf.keras.layers.Dense(8, activation='relu'),\n"
            "                         tf.keras.layers.Dense(1)])\n"
            "p = tf.math.log(tf.nn.softmax(tf.matmul(x, w)))\n")


@pytest.mark.parametrize("options, expected", [
    ("{}", []),
    ("{NAN301: {adaptive-max: 0.01}}", [("train.py", 2, "NAN301")]),
    ("{NAN304: {max-gain: 2}}", [("train.py", 3, "NAN304")]),
    ("{NAN402: {min-layers: 2}}", [("train.py", 4, "NAN402")]),
])
def test_rule_options_of_the_training_rules(tmp_path, nanlint, options, expected):
    make(tmp_path, {"train.py": TRAINING, ".nanlint.yaml": f"rules: {options}\n"})
    code, out, _ = nanlint("check", "--format", "json", "--select", "NAN3,NAN4", "--preview",
                           cwd=tmp_path)
    assert codes_at(json.loads(out)) == expected
    assert code == (1 if expected else 0)


def test_a_wrong_type_for_a_training_rule_option_is_a_one_line_error(tmp_path, nanlint):
    make(tmp_path, {"train.py": TRAINING,
                    ".nanlint.yaml": "rules: {NAN301: {sgd-max: fast}}\n"})
    code, _, err = nanlint("check", cwd=tmp_path)
    assert code == 2
    assert_one_line_error(err, "sgd-max")


def test_min_confidence(tmp_path, nanlint):
    make(tmp_path, {"mixed.py": TF_MIXED})
    expected = {"low": [4, 4, 8, 12], "medium": [4, 4, 12], "high": [4, 4]}
    for level, lines in expected.items():
        (tmp_path / ".nanlint.yaml").write_text(f"min-confidence: {level}\n")
        _, out, _ = nanlint("check", "--format", "json", cwd=tmp_path)
        assert [f["line"] for f in json.loads(out)["findings"]] == lines, level


def test_respect_gitignore_false(tmp_path):
    make(tmp_path, {".gitignore": "ignored.py\n", "ignored.py": TF_LOG})
    walked = run_cli("check", cwd=tmp_path)
    assert walked.returncode == 2 and ".: no Python file or notebook to check" in walked.stderr
    (tmp_path / ".nanlint.yaml").write_text("respect-gitignore: false\n")
    _, document = check_json(cwd=tmp_path)
    assert codes_at(document) == [("ignored.py", 3, "NAN102")]


# -- mistakes: exit 2, one line naming the file, the key and what was expected ---------------
BAD_YAML = [
    ("select: [NAN1\n", ["invalid YAML", "line 2"]),
    ("select: [NAN101]\n  ignore: x\n", ["invalid YAML"]),
    ("- NAN101\n", ["mapping of keys at the top level", "got a list"]),
    ("selct: [NAN101]\n", ["unknown key `selct`", "expected one of select, ignore"]),
    ("select: 5\n", ["`select`", "must be a list of codes", "got a number"]),
    ("select: [NAN101, 5]\n", ["`select`", "must be a list of codes", "a number in it"]),
    ("select: [NAN999]\n", ["`select`", "unknown code `NAN999`"]),
    ("ignore: [NAN9]\n", ["`ignore`", "unknown code `NAN9`"]),
    ("ignore: [E501]\n", ["`ignore`", "unknown code `E501`"]),
    ("exclude: {a: 1}\n", ["`exclude`", "must be a list of strings", "got a mapping"]),
    ("exclude: [build, 3]\n", ["`exclude`", "must be a list of strings", "a number in it"]),
    ("per-file-ignores: [tests]\n", ["`per-file-ignores`", "must map file patterns",
                                     "got a list"]),
    ('per-file-ignores: {"tests/*": 5}\n', ["`per-file-ignores`", "tests/*",
                                            "must be a list of codes", "got a number"]),
    ('per-file-ignores: {"tests/*": [NAN777]}\n', ["`per-file-ignores`",
                                                   "unknown code `NAN777`"]),
    ("min-confidence: sure\n", ["`min-confidence`", "must be one of high, medium, low",
                                "'sure'"]),
    ("respect-gitignore: maybe\n", ["`respect-gitignore`", "must be true or false",
                                    "the string 'maybe'"]),
    ("epsilon: -1\n", ["`epsilon`", "must be a positive number", "-1"]),
    ("epsilon: .nan\n", ["`epsilon`", "must be a positive number", "nan"]),
    ("epsilon: .inf\n", ["`epsilon`", "must be a positive number", "inf"]),
    ("epsilon: true\n", ["`epsilon`", "must be a positive number"]),
    ("probability-parameters: 3\n", ["`probability-parameters`", "list of strings"]),
    ("file-timeout: -1\n", ["`file-timeout`", "must be a number of seconds", "-1"]),
    ("file-timeout: soon\n", ["`file-timeout`", "must be a number of seconds", "'soon'"]),
    ("file-timeout: true\n", ["`file-timeout`", "must be a number of seconds"]),
    ("file-timeout: .inf\n", ["`file-timeout`", "must be a number of seconds", "inf"]),
    ("rules: [NAN101]\n", ["`rules`", "must map rule codes to their options"]),
    ("rules: {NAN999: {}}\n", ["`rules`", "unknown rule `NAN999`"]),
    ("rules: {NAN101: true}\n", ["`rules`", "NAN101", "must be a mapping of options"]),
    ("rules: {NAN101: {check-divide-no-nan: 3}}\n",
     ["`rules`", "check-divide-no-nan", "must be true or false", "got a number"]),
    ("rules: {NAN101: {check-divide-no-nan: \"no\"}}\n",
     ["check-divide-no-nan", "must be true or false", "the string 'no'"]),
    ("rules: {NAN101: {check-divide-by-zero: true}}\n",
     ["`rules`", "NAN101", "unknown option `check-divide-by-zero`", "check-divide-no-nan"]),
    ("rules: {NAN102: {anything: 1}}\n", ["NAN102", "unknown option `anything`"]),
]


@pytest.mark.parametrize("text, fragments", BAD_YAML, ids=[t.strip() for t, _ in BAD_YAML])
def test_bad_yaml_configuration(tmp_path, nanlint, text, fragments):
    make(tmp_path, {"bad.py": TF_LOG, ".nanlint.yaml": text})
    code, out, err = nanlint("check", cwd=tmp_path)
    assert code == 2
    assert out == ""
    assert_one_line_error(err, str(tmp_path / ".nanlint.yaml"), *fragments)


BAD_TOML = [
    ("[tool.nanlint]\nselect = [\n", ["invalid TOML"]),
    ("[tool.nanlint]\nselect = 5\n", ["`select`", "must be a list of codes", "got a number"]),
    ("[tool.nanlint]\nselct = []\n", ["unknown key `selct`"]),
    ('[tool.nanlint.rules.NAN101]\ncheck-divide-no-nan = "x"\n',
     ["check-divide-no-nan", "must be true or false", "the string 'x'"]),
]


@pytest.mark.parametrize("text, fragments", BAD_TOML, ids=[t.strip() for t, _ in BAD_TOML])
def test_bad_pyproject_configuration(tmp_path, nanlint, text, fragments):
    make(tmp_path, {"bad.py": TF_LOG, "pyproject.toml": text})
    code, out, err = nanlint("check", cwd=tmp_path)
    assert code == 2
    assert out == ""
    assert_one_line_error(err, str(tmp_path / "pyproject.toml"), *fragments)


def test_bad_configuration_in_a_subprocess_prints_no_traceback(tmp_path):
    make(tmp_path, {"bad.py": TF_LOG, ".nanlint.yaml": "select: 5\nfoo: [\n"})
    result = run_cli("check", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert_one_line_error(result.stderr, ".nanlint.yaml", "invalid YAML")


def test_bad_config_option_file(tmp_path):
    make(tmp_path, {"bad.py": TF_LOG, "ci.yaml": "select: [NAN101]\nrules: {NAN101: 1}\n"})
    result = run_cli("check", "--config", "ci.yaml", cwd=tmp_path)
    assert result.returncode == 2
    assert_one_line_error(result.stderr, "ci.yaml", "`rules`", "NAN101")


@pytest.mark.parametrize("template", [
    '!!python/object/apply:os.system ["{command}"]\n',
    'select: !!python/object/apply:os.system ["{command}"]\n',
    'rules:\n  NAN101: !!python/object/new:os.system ["{command}"]\n',
])
def test_yaml_tags_are_rejected_and_never_run(tmp_path, template):
    marker = tmp_path / "pwned"
    make(tmp_path, {"bad.py": TF_LOG})
    for command in ("echo hi", f"touch {marker}"):
        (tmp_path / ".nanlint.yaml").write_text(template.format(command=command))
        result = run_cli("check", cwd=tmp_path)
        assert result.returncode == 2
        assert result.stdout == "", "the command in the YAML tag ran"
        assert not marker.exists(), "the command in the YAML tag ran"
        assert_one_line_error(result.stderr, str(tmp_path / ".nanlint.yaml"), "invalid YAML",
                              "python/object")


@pytest.mark.parametrize("module", ["yaml", "libcst", "pathspec", "tomllib"])
def test_a_scanned_repository_cannot_shadow_a_module_nanlint_imports(tmp_path, module):
    # `python -m nanlint` puts the current folder on sys.path; the scanned code must not run.
    marker = tmp_path / "pwned"
    make(tmp_path, {"bad.py": TF_LOG, f"{module}.py": f"open({str(marker)!r}, 'w')\n",
                    ".nanlint.yaml": "select: [NAN102]\n",
                    "pyproject.toml": "[tool.nanlint]\nselect = ['NAN102']\n"})
    result = run_cli("check", "--no-cache", "--config", "pyproject.toml", cwd=tmp_path)
    assert not marker.exists(), f"the repository's {module}.py ran"
    assert result.returncode == 1, result.stderr
    result = run_cli("check", "--no-cache", cwd=tmp_path)
    assert not marker.exists(), f"the repository's {module}.py ran"
    assert result.returncode == 1, result.stderr


@pytest.mark.parametrize("text", [
    'rules: {"os:system": {}}\n',
    'rules: {"nanlint.rules.log_of_zero:LogOfZero": {}}\n',
    "select: !!python/name:os.system\n",
    "select: !!python/module:os\n",
])
def test_nothing_in_the_configuration_names_code_to_import(tmp_path, nanlint, text):
    make(tmp_path, {"bad.py": TF_LOG, ".nanlint.yaml": text})
    code, out, err = nanlint("check", cwd=tmp_path)
    assert (code, out) == (2, "")
    assert_one_line_error(err, str(tmp_path / ".nanlint.yaml"))


# -- the configuration of each path, like ruff -----------------------------------------------
def test_each_path_is_checked_under_its_own_configuration(tmp_path):
    make(tmp_path, {"a/.nanlint.yaml": "select: [NAN101]\nexclude: [gen/]\n",
                    "a/mixed.py": TF_MIXED, "a/gen/g.py": TF_LOG,
                    "b/pyproject.toml": '[tool.nanlint]\nselect = ["NAN201"]\n',
                    "b/mixed.py": TF_MIXED, "c/mixed.py": TF_LOG})
    _, document = check_json("a", "b", "c", cwd=tmp_path)
    assert codes_at(document) == [("a/mixed.py", 4, "NAN101"), ("b/mixed.py", 12, "NAN201"),
                                  ("c/mixed.py", 3, "NAN102")]
    # --config still gives one configuration to every path.
    make(tmp_path, {"ci.yaml": "select: [NAN102]\n"})
    _, document = check_json("--config", "ci.yaml", "a/mixed.py", "b", cwd=tmp_path)
    assert codes_at(document) == [("a/mixed.py", 4, "NAN102"), ("a/mixed.py", 8, "NAN102"),
                                  ("b/mixed.py", 4, "NAN102"), ("b/mixed.py", 8, "NAN102")]
    # `nanlint suspects` walks by the same configuration: a/gen is excluded there too.
    result = run_cli("suspects", "--format", "json", "a", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "a/mixed.py" in result.stdout and "gen/g.py" not in result.stdout


def test_the_cache_is_kept_at_the_project_root(tmp_path):
    make(tmp_path, {"proj/.nanlint.yaml": "select: [NAN1]\n", "proj/src/bad.py": TF_LOG,
                    "repo/src/bad.py": TF_LOG})
    make(tmp_path / "repo", {})  # a repository of its own, with no configuration
    assert run_cli("check", "proj/src", cwd=tmp_path).returncode == 1
    assert (tmp_path / "proj" / ".nanlint_cache").is_dir()
    assert run_cli("check", ".", cwd=tmp_path / "repo" / "src").returncode == 1
    assert (tmp_path / "repo" / ".nanlint_cache").is_dir()
    assert not (tmp_path / ".nanlint_cache").exists()
    assert not (tmp_path / "repo" / "src" / ".nanlint_cache").exists()
    result = run_cli("clean", cwd=tmp_path / "repo" / "src")
    assert result.returncode == 0 and not (tmp_path / "repo" / ".nanlint_cache").exists()


def test_force_exclude_applies_exclude_to_the_paths_given(tmp_path):
    make(tmp_path, {".nanlint.yaml": 'exclude: ["generated/", "*_pb2.py"]\n',
                    "kept.py": TF_LOG, "generated/g.py": TF_LOG, "pkg/model_pb2.py": TF_LOG})
    _, document = check_json("--force-exclude", "kept.py", "generated/g.py",
                             "pkg/model_pb2.py", cwd=tmp_path)
    assert [f["path"] for f in document["findings"]] == ["kept.py"]
    result, document = check_json("--force-exclude", "generated/g.py", cwd=tmp_path)
    assert result.returncode == 0 and document["findings"] == []  # nothing left: no error


@pytest.mark.parametrize("text", ["[project\nname = 'x'\n", "[tool.black]\nline-length = \n"])
def test_a_broken_pyproject_is_an_error_even_without_a_nanlint_section(tmp_path, nanlint, text):
    make(tmp_path, {"bad.py": TF_LOG, "pyproject.toml": text})
    code, out, err = nanlint("check", cwd=tmp_path)
    assert (code, out) == (2, "")
    assert_one_line_error(err, str(tmp_path / "pyproject.toml"), "invalid TOML")
    code, out, err = nanlint("suspects", cwd=tmp_path)
    assert (code, out) == (2, "")
    assert_one_line_error(err, "pyproject.toml", "invalid TOML")


def test_a_nanlint_table_in_dotted_keys_is_found(tmp_path):
    make(tmp_path, {"mixed.py": TF_MIXED, "pyproject.toml": 'tool.nanlint.select = ["NAN2"]\n'})
    _, document = check_json(cwd=tmp_path)
    assert codes_at(document) == [("mixed.py", 12, "NAN201")]


def test_numbers_that_yaml_reads_as_strings_are_numbers(tmp_path, nanlint):
    make(tmp_path, {"bad.py": TF_LOG, ".nanlint.yaml":
                    "fix-epsilon: 1e-5\nepsilon: 1e-8\nfile-timeout: 3e1\n"
                    "rules: {NAN301: {sgd-max: 1e-1}, NAN402: {min-layers: 2e0}}\n"})
    code, out, err = nanlint("check", "--format", "json", cwd=tmp_path)
    assert code == 1, err
    assert json.loads(out)["findings"][0]["fix"]["edits"][0]["replacement"] == "p + 1e-5"
    (tmp_path / ".nanlint.yaml").write_text("epsilon: 1e-x\n")
    code, out, err = nanlint("check", cwd=tmp_path)
    assert code == 2
    assert_one_line_error(err, "`epsilon`", "must be a positive number", "'1e-x'")


@pytest.mark.parametrize("option", ["--select", "--extend-select", "--ignore"])
def test_an_empty_code_list_on_the_command_line_is_an_error(tmp_path, nanlint, option):
    make(tmp_path, {"bad.py": TF_LOG})
    code, out, err = nanlint("check", option, "", cwd=tmp_path)
    assert (code, out) == (2, "")
    assert_one_line_error(err, option, "names no code")


@pytest.mark.parametrize("files", [{".nanlint.yaml": "select: []\n"},
                                   {"pyproject.toml": "[tool.nanlint]\nselect = []\n"}])
def test_an_empty_select_in_the_configuration_is_an_error(tmp_path, nanlint, files):
    make(tmp_path, {**files, "bad.py": TF_LOG})
    code, out, err = nanlint("check", cwd=tmp_path)
    assert (code, out) == (2, "")
    assert_one_line_error(err, "`select` names no code", "nothing would be checked")


def test_standard_input_uses_the_configuration_of_its_file_and_force_exclude(tmp_path):
    make(tmp_path, {"a/.nanlint.yaml": "ignore: [NAN102]\nexclude: [gen/]\n",
                    "b/pyproject.toml": "[tool.nanlint\n"})
    result = run_cli("check", "-", "--stdin-filename", "a/x.py", cwd=tmp_path, stdin=TF_LOG)
    assert result.returncode == 0, result.stdout + result.stderr
    result = run_cli("check", "-", "--stdin-filename", "c/x.py", cwd=tmp_path, stdin=TF_LOG)
    assert result.returncode == 1 and "c/x.py:3:8: NAN102" in result.stdout
    result = run_cli("check", "-", "--stdin-filename", "b/x.py", cwd=tmp_path, stdin=TF_LOG)
    assert result.returncode == 2 and result.stdout == ""
    assert_one_line_error(result.stderr, "pyproject.toml", "invalid TOML")
    make(tmp_path, {"a/.nanlint.yaml": "exclude: [gen/]\n"})
    excluded = ["-", "--stdin-filename", "a/gen/x.py", "--force-exclude"]
    result = run_cli("check", *excluded, cwd=tmp_path, stdin=TF_LOG)
    assert result.returncode == 0 and "NAN102" not in result.stdout
    result = run_cli("check", *excluded, "--fix", "--unsafe-fixes", cwd=tmp_path, stdin=TF_LOG)
    assert (result.returncode, result.stdout) == (0, TF_LOG)
    result = run_cli("check", *excluded[:3], cwd=tmp_path, stdin=TF_LOG)
    assert result.returncode == 1 and "a/gen/x.py:3:8: NAN102" in result.stdout


def test_test_files_are_skipped_unless_the_configuration_includes_them(tmp_path):
    from cli_helpers import TF_LOG, make
    from conftest import run_cli

    files = {"src/train.py": TF_LOG, "tests/test_train.py": TF_LOG,
             "pkg/model_test.py": TF_LOG, "pkg/test_model.py": TF_LOG, "conftest.py": TF_LOG,
             "test/benchmark/speed.py": TF_LOG}
    make(tmp_path, files)
    default = run_cli("check", "--no-cache", "--quiet", cwd=tmp_path)
    assert {line.split(":")[0] for line in default.stdout.splitlines()} == {"src/train.py"}
    named = run_cli("check", "--no-cache", "--quiet", "tests/test_train.py", cwd=tmp_path)
    assert named.stdout.startswith("tests/test_train.py:3:")  # named: always checked
    forced = run_cli("check", "--no-cache", "--quiet", "--force-exclude",
                     "tests/test_train.py", cwd=tmp_path)
    assert forced.stdout == "" and forced.returncode == 0
    (tmp_path / ".nanlint.yaml").write_text("include-tests: true\n", encoding="utf-8")
    included = run_cli("check", "--no-cache", "--quiet", cwd=tmp_path)
    assert {line.split(":")[0] for line in included.stdout.splitlines()} == set(files)
    (tmp_path / ".nanlint.yaml").write_text("include-tests: 3\n", encoding="utf-8")
    bad = run_cli("check", "--no-cache", cwd=tmp_path)
    assert bad.returncode == 2 and "include-tests" in bad.stderr
    assert "Test files are not training code" in run_cli("check", "--help").stdout


def test_test_files_are_skipped_in_a_folder_outside_any_project_scanned_from_elsewhere(
        tmp_path):
    from cli_helpers import TF_LOG, make
    from conftest import run_cli

    # No configuration file nor repository above the folder, and another working folder.
    make(tmp_path / "plain", {"src/train.py": TF_LOG, "tests/test_train.py": TF_LOG,
                              "pkg/model_test.py": TF_LOG}, git=False)
    (tmp_path / "elsewhere").mkdir()
    result = run_cli("check", "--no-cache", "--quiet", str(tmp_path / "plain"),
                     cwd=tmp_path / "elsewhere")
    assert {Path(line.split(":")[0]).relative_to(tmp_path / "plain").as_posix()
            for line in result.stdout.splitlines()} == {"src/train.py"}
