"""Files that Python 3 does not parse (Python 2 code, a broken statement): Python 2's forms
are read as Python 3 writes them, the top-level statements that parse then are checked as one
module, the others are skipped and named in one NAN000, and no fix is applied to such a
file."""

import json

import pytest

from cli_helpers import _no_colour_variables, make, nanlint
from conftest import options_for
from nanlint.engine import lint_source
from nanlint.fixing import SAFETIES, fix_source
from nanlint.parsing import check_syntax, top_level_statements
from nanlint.source import SourceError, source_lines

__all__ = ["_no_colour_variables", "nanlint"]  # fixtures, imported to be found by pytest

PYTHON2 = """import tensorflow as tf

EPSILON = 1e-7


def report(step, loss):
    print "step", step, "loss", loss


def ratio(a, b):
    return a / tf.reduce_sum(tf.nn.relu(b))


try:
    import cPickle as pickle
except ImportError, error:
    import pickle
"""


def findings_of(source, path="train.py"):
    return lint_source(source, path, options_for())


def test_a_python2_file_is_read_as_python3_writes_its_forms():
    found = findings_of(PYTHON2)
    [division] = [f for f in found if f.code == "NAN101"]
    assert (division.line, division.column) == (11, 12)
    assert division.source_lines == ("    return a / tf.reduce_sum(tf.nn.relu(b))",)
    assert division.fix is None  # a file read otherwise than as written is not fixed
    [read] = [f for f in found if f.code == "NAN000"]
    assert read.line == 7
    assert read.message == (
        "syntax error: Missing parentheses in call to 'print'. Did you mean print(...)?; "
        "read with its except clauses with a comma and print statements (Python 2) as "
        "Python 3 writes them: the file was checked so, without fixes")
    assert len(found) == 2


PYTHON2_FORMS = """import tensorflow as tf


def train(x, w, log):
    print >>log, "loss", tf.reduce_mean(x) / tf.reduce_sum(tf.nn.relu(w)),
    if x <> None: print `x`; exec "y = 1"
    try:
        mode = 0755 + 10L
    except ValueError, error:
        raise ValueError, "no %d" % tf.math.log(tf.nn.relu(w))
    return tf.math.log(tf.nn.softmax(x))
"""


@pytest.mark.parametrize("form, named", [
    ('print "x", w,', "print statements"), ("print", None), ("print(w)", None),
    ('print >>log, "x"', None),  # a shift in a tuple, for Python 3
    ("if w <> None: pass", "<>"), ("z = `w`", "backquotes"), ('exec "y = 1"', "exec"),
    ("mode = 0755", "octal literals"), ("n = 10L", "long literals"),
    ('raise ValueError, "no"', "raise statements with a comma"), ('s = ur"x"', "ur strings"),
    ("log(w, async=True)", "names `async`"), ("async = 1", "names `async`"),
    ("try:\n        pass\n    except ValueError, e:\n        pass", "except clauses")])
def test_each_python2_form_is_read(form, named):
    source = (f"import tensorflow as tf\n\n\ndef f(w, log):\n    {form}\n"
              "    return tf.math.log(tf.nn.relu(w))\n")
    found = findings_of(source)
    log = len(source.splitlines())
    if named is None:  # Python 3 reads it as it is
        assert [(f.line, f.code) for f in found] == [(log, "NAN102")]
        return
    assert [f.code for f in found] == ["NAN000", "NAN102"] and found[1].line == log
    assert 5 <= found[0].line <= 5 + form.count("\n")
    assert named in found[0].message and found[0].message.endswith(
        "as Python 3 writes them: the file was checked so, without fixes")


def test_python2_forms_keep_their_columns():
    found = findings_of(PYTHON2_FORMS)
    found.sort(key=lambda f: (f.line, f.code))
    assert [(f.line, f.code) for f in found] == [
        (5, "NAN101"), (8, "NAN000"), (10, "NAN102"), (11, "NAN103")]
    lines = PYTHON2_FORMS.splitlines()
    for finding in found[:1] + found[2:]:  # each where it is written, to the column
        line = lines[finding.line - 1]
        assert line[finding.column - 1:].startswith(("tf.reduce_mean", "tf.math.log"))
    assert ("read with its <>, backquotes, except clauses with a comma, exec statements, "
            "long literals, octal literals, print statements and raise statements with a "
            "comma (Python 2) as Python 3 writes them: the file was checked so, without fixes"
            ) in found[1].message


def test_a_hazard_in_a_function_with_a_print_statement_is_found():
    source = ("import tensorflow as tf\n\n\ndef step(x, w):\n    print 'step'\n"
              "    return tf.reduce_mean(x) / tf.reduce_sum(tf.nn.relu(w))\n")
    found = findings_of(source)
    assert [(f.line, f.column, f.code) for f in found] == [(5, 5, "NAN000"),
                                                          (6, 12, "NAN101")]
    assert "\n" not in found[0].message and "print statements" in found[0].message


def test_names_defined_in_good_statements_are_seen_by_the_others():
    source = ("import tensorflow as tf\n\nscores = tf.nn.softmax(logits)\n"
              "show(scores,, 1)\n\nloss = -tf.reduce_sum(labels * tf.math.log(scores))\n")
    found = findings_of(source)
    assert [(f.line, f.code) for f in found] == [(4, "NAN000"), (6, "NAN103")]
    assert "; line 4 does not parse and was skipped" in found[0].message
    assert "(line 3)" in found[1].message  # the softmax two statements above


def test_a_syntax_error_in_the_middle_skips_that_statement_only():
    source = ("import tensorflow as tf\n\n\ndef first(a, b):\n    return a / tf.nn.relu(b)\n"
              "\n\ndef broken(:\n    pass\n\n\n"
              "def last(p):\n    return tf.math.log(tf.nn.relu(p))\n")
    found = findings_of(source)
    assert [(f.line, f.code) for f in found] == [(5, "NAN101"), (8, "NAN000"),
                                                (13, "NAN102")]
    assert found[1].message.startswith("syntax error: ")
    assert "; lines 8-9 do not parse and were skipped: the rest" in found[1].message
    assert "Python 2" not in found[1].message


def test_tabs_count_as_python2_counted_them():
    # A tab, then eight spaces: one indentation level for Python 2, a TabError for Python 3.
    source = ("import tensorflow as tf\n\n\ndef norm(a):\n\tscale = tf.nn.relu(a)\n"
              "        return a / scale\n")
    [skipped, division] = findings_of(source)
    assert (skipped.code, division.code) == ("NAN000", "NAN101")
    assert "counted to the next multiple of 8, as Python 2 did" in skipped.message
    assert (division.line, division.column, division.end_column) == (6, 16, 25)
    assert division.evidence["line"] == 5
    assert division.evidence["column"] == 10  # in the line as written: a tab, `scale = `
    assert division.source_lines == ("        return a / scale",)


def test_the_frame_of_a_syntax_error_underlines_its_word_or_its_indentation():
    [skipped, _] = findings_of(PYTHON2)
    assert skipped.source_lines == ('    print "step", step, "loss", loss',)
    assert (skipped.column, skipped.end_column) == (5, 10)  # `print`, not the whole line
    source = ("import tensorflow as tf\n\n\ndef norm(a):\n\tscale = tf.nn.relu(a)\n"
              "        return a / scale\n")
    tabs = findings_of(source)[0]
    assert (tabs.line, tabs.column, tabs.end_column) == (6, 1, 9)  # its eight spaces


def test_tabs_count_as_an_editor_set_to_four_shows_them_when_eight_does_not_parse():
    # A tab, then eight spaces under it: at 8 columns the body is not indented below the
    # `def` (Python 2 refused it too); at 4 it is nested, as the author saw it.
    source = ("import tensorflow as tf\n\n\ndef make():\n\tdef loss(p):\n"
              "        scale = tf.nn.relu(p)\n        return p / scale\n    return loss\n")
    [skipped, division] = findings_of(source)
    assert (skipped.code, division.code) == ("NAN000", "NAN101")
    assert "counted as 4 columns, as an editor set so shows it" in skipped.message
    assert "multiple of 8" not in skipped.message
    assert (division.line, division.column) == (7, 16)
    assert division.evidence["line"] == 6


def test_tabs_and_a_python2_statement_together():
    source = ("import tensorflow as tf\n\nprint 'starting'\n\n\ndef norm(a):\n"
              "\tscale = tf.nn.relu(a)\n        return a / scale\n")
    found = findings_of(source)
    assert [(f.line, f.code) for f in found] == [(3, "NAN000"), (8, "NAN101")]
    assert found[0].message.endswith(
        "; read with a tab in the indentation counted to the next multiple of 8, as Python 2 "
        "did and its print statements (Python 2) as Python 3 writes them: the file was "
        "checked so, without fixes")


def test_a_python2_statement_that_does_not_parse_as_python3_writes_it_is_skipped():
    source = ("import tensorflow as tf\n\nprint 'starting' +\n\n\ndef norm(a):\n"
              "    return a / tf.nn.relu(a)\n")
    found = findings_of(source)
    assert [(f.line, f.code) for f in found] == [(3, "NAN000"), (7, "NAN101")]
    assert "; line 3 does not parse (a Python 2 print statement?) and was skipped: the rest " \
           "of the file was checked, without fixes" in found[0].message


def test_a_file_where_nothing_parses_is_one_nan000_as_before():
    source = "import tensorflow as tf, \nprint 'loss' +\n"
    [finding] = findings_of(source)
    with pytest.raises(SourceError) as whole:
        check_syntax(source)
    assert (finding.code, finding.line, finding.message) == ("NAN000", 1, str(whole.value))
    [python2] = findings_of("print 'x' +\n")
    assert python2.message.endswith("(this looks like Python 2, in a form nanlint does not "
                                    "read)")


def test_a_file_without_tensorflow_names_its_skipped_lines_too():
    [finding] = findings_of("import os\n\nprint os.getcwd() +\n\nx = 1\n")
    assert finding.code == "NAN000" and finding.line == 3
    assert "; line 3 does not parse (a Python 2 print statement?) and was skipped" in (
        finding.message)


def test_fix_leaves_a_partly_parsed_file_alone(tmp_path, nanlint):
    outcome = fix_source(PYTHON2, "train.py", options_for(), SAFETIES["unsafe"])
    assert not outcome.changed and outcome.fixed == 0
    make(tmp_path, {"train.py": PYTHON2})
    code, out, _ = nanlint("check", "--fix", "--unsafe-fixes", "--no-cache", "--format",
                           "json", "train.py", cwd=tmp_path)
    assert code == 1
    assert (tmp_path / "train.py").read_text(encoding="utf-8") == PYTHON2
    assert [f["code"] for f in json.loads(out)["findings"]] == ["NAN000", "NAN101"]
    # The same division, in a file that parses, is fixed.
    fine = PYTHON2.replace('print "step", step, "loss", loss', "print(step, loss)").replace(
        "except ImportError, error:", "except ImportError:")
    assert fix_source(fine, "train.py", options_for(), SAFETIES["unsafe"]).fixed == 1


def test_add_noqa_leaves_a_partly_parsed_file_alone(tmp_path, nanlint):
    make(tmp_path, {"train.py": PYTHON2})
    code, out, err = nanlint("check", "--add-noqa", "--no-cache", "train.py", cwd=tmp_path)
    assert (code, err) == (0, "")
    assert out == "Added suppression comments for 0 findings in 0 files.\n"
    assert (tmp_path / "train.py").read_text(encoding="utf-8") == PYTHON2


def test_top_level_statements_keep_clauses_decorators_brackets_and_strings():
    source = ('"""Doc.\n\nprint x\n"""\nimport os\n@decorate(\n    1)\ndef f():\n    pass\n'
              "# a comment\nif a:\n    pass\nelse:\n    pass\nx = (1,\n2)\ny = 1 + \\\n2\n"
              "z = (\ndef g():\n    pass\n")
    assert top_level_statements(source_lines(source)) == [
        (1, 4), (5, 5), (6, 10), (11, 14), (15, 16), (17, 18), (19, 19), (20, 21)]


def test_a_file_python_reads_but_libcst_refuses_is_read_with_its_tabs_counted():
    # A block indented by a tab and two spaces inside one indented by two spaces: Python 3
    # reads it (column 10 after column 2), libcst's tokenizer does not. The file is analysed
    # whole, with no NAN000, in the file's columns.
    source = ("import tensorflow as tf\n\n\ndef norm(a, n):\n  if n:\n"
              "\t  scale = tf.nn.relu(a)\n\t  return a / scale\n  return a\n")
    check_syntax(source)  # Python reads it
    [division] = findings_of(source)
    assert division.code == "NAN101" and (division.line, division.column) == (7, 11)
    assert division.evidence["line"] == 6 and division.evidence["column"] == 12
