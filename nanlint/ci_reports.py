"""The formats CI systems read besides SARIF: GitHub workflow commands, JUnit XML and GitLab
Code Quality. A notebook finding's line is a line of its cell, not of the ``.ipynb`` file, so
these formats name the cell in the message (``cell 4, line 3: ...``) and give no line of the
file where the format would take one as such.
"""

from __future__ import annotations

import json
import re
from typing import IO, TYPE_CHECKING, Any, Dict

from nanlint.fingerprint import fingerprints, posix

if TYPE_CHECKING:
    from nanlint.reporters import Scan


def in_cell(data: Dict[str, Any], text: str) -> str:
    """``text`` with the finding's cell and line in front of it, in a notebook."""
    if data.get("cell") is None:
        return text
    return f"cell {data['cell']}, line {data['line']}: {text}"


# -- GitHub Actions workflow commands ----------------------------------------------------------
GITHUB_LEVELS = {"error": "error", "warning": "warning", "info": "notice"}


def _github_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github_property(text: str) -> str:
    return _github_data(text).replace(":", "%3A").replace(",", "%2C")


def github_error(path: str, message: str) -> str:
    """An error about ``path`` that is not a finding (a path given that does not exist), as
    a workflow command with the file and nanlint as its title."""
    return f"::error file={_github_property(posix(path))},title=nanlint::{_github_data(message)}\n"


def report_github(scan: Scan, stream: IO[str], quiet: bool = False) -> None:
    for finding in scan.findings:
        data = finding.to_json()
        properties: Dict[str, Any] = {"file": posix(data["path"])}
        if data.get("cell") is None:  # in a notebook, an annotation of the whole file
            properties.update(line=data["line"], col=data["column"], endLine=data["end_line"],
                              endColumn=data["end_column"])
        properties["title"] = f"{data['code']} {data['name']}"
        text = in_cell(data, data["message"])
        if data.get("suggestion"):
            text += f"\nhelp: {data['suggestion']}"
        joined = ",".join(f"{key}={_github_property(str(value))}"
                          for key, value in properties.items())
        level = GITHUB_LEVELS.get(data["severity"], "warning")
        stream.write(f"::{level} {joined}::{_github_data(text)}\n")


# -- JUnit XML -------------------------------------------------------------------------------
# XML 1.0 cannot hold most control characters, not even escaped.
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def report_junit(scan: Scan, stream: IO[str], quiet: bool = False) -> None:
    """One test suite; a failing test case per finding, a passing one per clean file."""
    import xml.etree.ElementTree as ET

    counts = {"tests": 0, "failures": 0}
    suite = ET.Element("testsuite", name="nanlint")
    flagged = set()
    for finding in scan.findings:
        data = finding.to_json()
        path = posix(data["path"])
        flagged.add(data["path"])
        place = f"{data['line']}:{data['column']}"
        if data.get("cell") is not None:
            place = f"cell {data['cell']}, line {data['line']}, column {data['column']}"
        case = ET.SubElement(suite, "testcase", name=_xml(
            f"{data['code']} {data['name']} at {place}"),
            classname=_xml(_classname(path)), file=_xml(path))
        if data.get("cell") is None:
            case.set("line", str(data["line"]))
        failure = ET.SubElement(case, "failure", type=data["code"],
                                message=_xml(in_cell(data, data["message"])))
        cell = f"cell {data['cell']}:" if data.get("cell") is not None else ""
        text = (f"{path}:{cell}{data['line']}:{data['column']}: {data['code']} "
                f"{data['message']}")
        if data.get("suggestion"):
            text += f"\nhelp: {data['suggestion']}"
        failure.text = _xml(text)
        counts["failures"] += 1
    for path in scan.files:
        if path not in flagged:
            ET.SubElement(suite, "testcase", name=_xml(posix(path)),
                          classname=_xml(_classname(posix(path))), file=_xml(posix(path)))
    counts["tests"] = len(suite)
    attributes = {key: str(value) for key, value in counts.items()}
    attributes.update(errors="0", skipped="0")
    suite.attrib.update(attributes)
    root = ET.Element("testsuites", name="nanlint", **attributes)
    root.append(suite)
    ET.indent(root)
    stream.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    stream.write(ET.tostring(root, encoding="unicode"))
    stream.write("\n")


def _classname(path: str) -> str:
    """`pkg/train.py` → `pkg.train`, as JUnit viewers group test classes by dots."""
    stem = path[:-len(".py")] if path.endswith(".py") else path
    return stem.strip("/").replace("/", ".")


# -- GitLab Code Quality ---------------------------------------------------------------------
GITLAB_SEVERITIES = {"error": "critical", "warning": "major", "info": "info"}


def report_gitlab(scan: Scan, stream: IO[str], quiet: bool = False) -> None:
    issues = []
    for finding, fingerprint in zip(scan.findings, fingerprints(scan.findings)):
        data = finding.to_json()
        issues.append({
            "type": "issue",
            "description": f"{data['code']} {in_cell(data, data['message'])}",
            "check_name": data["code"],
            "categories": ["Bug Risk"],
            "fingerprint": fingerprint,
            "severity": GITLAB_SEVERITIES.get(data["severity"], "major"),
            # A notebook: line 1 of the file, the cell and its line are in the description.
            "location": {"path": posix(data["path"]),
                         "lines": {"begin": data["line"] if data.get("cell") is None else 1}},
        })
    json.dump(issues, stream, indent=2)
    stream.write("\n")
