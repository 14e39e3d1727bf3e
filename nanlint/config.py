"""Configuration: ``.nanlint.yaml``, or ``[tool.nanlint]`` in ``pyproject.toml``; lookup.py
finds the one that governs each path.

Configuration is data: YAML is read with the safe loader, every key and type is checked, and
an error names the file, the key and what was expected, in one line.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, FrozenSet, List, Optional, Sequence, Tuple

from nanlint import registry
from nanlint.options import LintOptions
from nanlint.finding import CONFIDENCES
from nanlint.analysis import Settings

CONFIG_FILE = ".nanlint.yaml"
_CODE_OR_PREFIX = re.compile(r"^NAN\d{0,3}$")


class ConfigError(Exception):
    """A configuration problem, already phrased for the user (one line); ``path``: the file
    at fault, where one is."""

    def __init__(self, message: str, path: Optional[Path] = None) -> None:
        super().__init__(message)
        self.path = path


@dataclass
class Config:
    path: Optional[Path] = None  # the file it came from; None for defaults
    root: Path = field(default_factory=Path.cwd)  # relative patterns are relative to this
    select: List[str] = field(default_factory=lambda: ["NAN"])
    ignore: List[str] = field(default_factory=list)
    exclude: List[str] = field(default_factory=list)
    per_file_ignores: Dict[str, List[str]] = field(default_factory=dict)
    min_confidence: str = "low"
    respect_gitignore: bool = True
    check_all_files: bool = False
    include_tests: bool = False  # test files are not training code: skipped unless true
    include_uncalled: bool = False  # report code nothing in the checked folders calls
    preview: bool = False  # run preview rules selected by a prefix too
    epsilon: float = 1e-7
    fix_epsilon: float = 1e-7
    fix_epsilon_float16: float = 1e-3
    file_timeout: float = 60.0  # seconds per file; 0: no limit
    probability_parameters: Optional[List[str]] = None
    mask_parameters: Optional[List[str]] = None
    delta_parameters: Optional[List[str]] = None
    fix_epsilon_gradient: float = 1e-12
    line_length: Optional[int] = None  # of the code fixes write (else the formatter's for
    # each file, formatter_line_length, else 88)
    rules: Dict[str, Dict[str, Any]] = field(default_factory=dict)
    # `nanlint suspects`: every rule at any confidence, whatever select and ignore say, and
    # the engine ranks every hazard (LintOptions.suspects).
    suspects: bool = False
    pending: bool = False  # `check` of folders (LintOptions.pending)
    _cache: Dict[Tuple[FrozenSet[str], int], LintOptions] = field(default_factory=dict,
                                                                   repr=False)
    _line_lengths: Dict[Path, Optional[int]] = field(default_factory=dict, repr=False)

    def __getstate__(self) -> Dict[str, Any]:
        # A worker process rebuilds its options: the rule classes they hold may come from a
        # --load-rules file that the worker loads itself (see runner._init_worker).
        state = dict(self.__dict__)
        state["_cache"] = {}
        return state

    def for_path(self, path: Path) -> "Config":
        """One configuration for every path (the interface of Configurations)."""
        return self

    def for_folder(self, folder: Path) -> "Config":
        return self

    @property
    def excluded(self) -> List[str]:
        """The patterns a scan skips: ``exclude``, and the test files unless
        ``include_tests``."""
        return self.exclude + ([] if self.include_tests else list(TEST_PATTERNS))

    def for_suspects(self) -> "Config":
        """This configuration for `nanlint suspects` (options made afresh)."""
        return dataclasses.replace(self, suspects=True, _cache={})

    # -- which codes run where ---------------------------------------------------------------
    def enabled_codes(self, relative_path: Optional[str] = None) -> List[str]:
        codes = [c for c in registry.all_codes() if self._selected(c)
                 and not _matches(c, self.ignore)]
        if relative_path is not None:
            for pattern, ignored in self.per_file_ignores.items():
                if _glob_match(relative_path, pattern):
                    codes = [c for c in codes if not _matches(c, ignored)]
        return codes

    def _selected(self, code: str) -> bool:
        """A preview rule needs `preview: true` or its full code in ``select`` (ruff's rule:
        a prefix such as NAN3 does not enable it)."""
        if code in self.select:
            return True
        return _matches(code, self.select) and (self.preview or not registry.is_preview(code))

    def options_for(self, file_path: Optional[Path]) -> LintOptions:
        relative = None
        if file_path is not None and self.per_file_ignores:
            try:
                relative = file_path.resolve().relative_to(self.root.resolve()).as_posix()
            except ValueError:
                relative = file_path.as_posix()
        codes = frozenset(registry.all_codes() if self.suspects
                          else self.enabled_codes(relative))
        folder = Path(os.path.abspath(file_path)).parent if file_path is not None else Path.cwd()
        line_length = (self.line_length or formatter_line_length(folder, self._line_lengths)
                       or 88)
        options = self._cache.get((codes, line_length))
        if options is None:
            settings = Settings(epsilon=self.epsilon, fix_epsilon=self.fix_epsilon,
                                fix_epsilon_float16=self.fix_epsilon_float16,
                                fix_epsilon_gradient=self.fix_epsilon_gradient,
                                line_length=line_length)
            if self.probability_parameters is not None:
                settings.probability_parameters = frozenset(self.probability_parameters)
            if self.mask_parameters is not None:
                settings.mask_parameters = frozenset(self.mask_parameters)
            if self.delta_parameters is not None:
                settings.delta_parameters = frozenset(self.delta_parameters)
            options = LintOptions(
                rules=registry.rule_classes(sorted(codes)), rule_settings=self.rules,
                silent_rules=[rule for rule in registry.rule_classes(sorted(
                    {s for c in codes for s in registry.SUPERSEDED_BY.get(c, ())} - codes))
                    if rule.supersedes & codes],
                settings=settings, suspects=self.suspects,
                pending=self.pending and not self.suspects,
                min_confidence="low" if self.suspects else self.min_confidence,
                check_all_files=self.check_all_files, file_timeout=self.file_timeout,
                known_codes=frozenset(registry.all_codes()),
                engine_codes=frozenset(c for c in codes if c in registry.ENGINE
                                       and not (self.suspects and c != "NAN000")))
            self._cache[(codes, line_length)] = options
        return options


# Where a formatter sets its line length, in the order ruff reads a folder's files; black's
# after ruff's in the same pyproject.toml.
_FORMATTER_SETTINGS = ((".ruff.toml", ()), ("ruff.toml", ()), ("pyproject.toml", ("tool", "ruff")),
                       ("pyproject.toml", ("tool", "black")))


def formatter_line_length(folder: Path, memo: Dict[Path, Optional[int]]) -> Optional[int]:
    """The line length the project's formatter keeps for the code in ``folder`` (absolute),
    found as ruff finds its settings, from the folder up whatever the repository or the
    nanlint configuration: the nearest ``line-length`` of ``.ruff.toml``, ``ruff.toml``, or
    ``[tool.ruff]``, else ``[tool.black]``, of ``pyproject.toml``. None if no folder sets
    one. A file that is not valid TOML is passed over (it is reported where it is a
    nanlint configuration). ``memo`` remembers the answer per folder."""
    passed: List[Path] = []
    answer: Optional[int] = None
    for current in (folder, *folder.parents):
        if current in memo:
            answer = memo[current]
            break
        passed.append(current)
        answer = _line_length_set_in(current)
        if answer is not None:
            break
    for current in passed:
        memo[current] = answer
    return answer


def _line_length_set_in(folder: Path) -> Optional[int]:
    for name, keys in _FORMATTER_SETTINGS:
        path = folder / name
        if not path.is_file():
            continue
        try:
            section: Any = read_toml(path)
        except ConfigError:
            continue
        for key in keys:
            section = section.get(key) if isinstance(section, dict) else None
        value = section.get("line-length") if isinstance(section, dict) else None
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return None


def _matches(code: str, selectors: Sequence[str]) -> bool:
    return any(code.startswith(selector) for selector in selectors)


def _glob_match(relative_path: str, pattern: str) -> bool:
    if fnmatch.fnmatch(relative_path, pattern):
        return True
    if "/" not in pattern:  # a bare name matches in any folder, as in .gitignore
        return fnmatch.fnmatch(relative_path.rsplit("/", 1)[-1], pattern)
    if pattern.endswith("/**"):
        return relative_path.startswith(pattern[:-3] + "/")
    return False


# -- loading ---------------------------------------------------------------------------------
def read_toml(path: Path) -> Dict[str, Any]:
    try:
        import tomllib  # type: ignore[import-not-found]
    except ModuleNotFoundError:  # Python < 3.11
        import tomli as tomllib  # type: ignore[no-redef]
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read: {error}", path) from None
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: invalid TOML: {error}", path) from None
    tool = document.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(f"{path}: `tool` must be a table", path)
    return document


def load(path: Path) -> Config:
    """Load the configuration file ``path`` (see lookup.py for which one governs a path)."""
    if not path.is_file():
        raise ConfigError(f"{path}: configuration file not found")
    return _validate(_read(path), path)


def _read(path: Path) -> Dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read: {error}") from None
    if path.name == "pyproject.toml":
        section = read_toml(path).get("tool", {}).get("nanlint", {})
        if not isinstance(section, dict):
            raise ConfigError(f"{path}: [tool.nanlint] must be a table")
        return section
    import yaml

    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise ConfigError(f"{path}: invalid YAML{where}: {problem}") from None
    if document is None:
        return {}
    if not isinstance(document, dict):
        raise ConfigError(f"{path}: expected a mapping of keys at the top level, "
                          f"got {_type_name(document)}")
    return document


KEYS = ("select", "ignore", "exclude", "per-file-ignores", "min-confidence",
        "respect-gitignore", "check-all-files", "preview", "epsilon", "fix-epsilon",
        "fix-epsilon-float16", "fix-epsilon-gradient", "probability-parameters",
        "mask-parameters", "delta-parameters", "rules", "file-timeout", "include-tests",
        "include-uncalled", "line-length")
# Test files and folders, skipped unless `include-tests: true` (gitignore patterns).
TEST_PATTERNS = ("tests/", "test/", "test_*.py", "*_test.py", "conftest.py")
# The smallest epsilon that survives being added to 1 in each dtype (half its machine
# epsilon, 2**-24 and 2**-11): a fix never inserts one that NAN105 would report.
_FIX_EPSILON_FLOOR = {"fix-epsilon": (2.0 ** -24, "float32"),
                      "fix-epsilon-float16": (2.0 ** -11, "float16")}


_NUMBERS = ("epsilon", "fix-epsilon", "fix-epsilon-float16", "fix-epsilon-gradient",
            "file-timeout")
# YAML 1.1 reads `1e-5` (no dot, or no sign in the exponent) as a string: a string that
# spells a number is that number.
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def _number(value: Any) -> Any:
    if isinstance(value, str) and _NUMBER.match(value.strip()):
        return float(value)
    return value


def _validate(data: Dict[str, Any], path: Path) -> Config:
    config = Config(path=path, root=path.parent)
    for key, value in data.items():
        if key not in KEYS:
            raise ConfigError(f"{path}: unknown key `{key}`; expected one of "
                              f"{', '.join(KEYS)}")
        where = f"{path}: `{key}`"
        if key in _NUMBERS:
            value = _number(value)
        if key in ("select", "ignore"):
            setattr(config, key, _codes(value, where))
            if key == "select" and not config.select:  # as `--select ""`
                raise ConfigError(f"{where} names no code: nothing would be checked; give "
                                  "codes such as NAN101, prefixes such as NAN1, or ALL")
        elif key == "exclude":
            config.exclude = _strings(value, where)
        elif key == "per-file-ignores":
            if not isinstance(value, dict):
                raise ConfigError(f"{where} must map file patterns to lists of codes, "
                                  f"got {_type_name(value)}")
            config.per_file_ignores = {str(pattern): _codes(codes, f"{where}[{pattern!r}]")
                                       for pattern, codes in value.items()}
        elif key == "min-confidence":
            if value not in CONFIDENCES:
                raise ConfigError(f"{where} must be one of {', '.join(CONFIDENCES)}, "
                                  f"got {value!r}")
            config.min_confidence = value
        elif key in ("respect-gitignore", "check-all-files", "preview", "include-tests",
                     "include-uncalled"):
            if not isinstance(value, bool):
                raise ConfigError(f"{where} must be true or false, got {_type_name(value)}")
            setattr(config, key.replace("-", "_"), value)
        elif key == "epsilon":
            if (isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0
                    or not math.isfinite(value)):
                raise ConfigError(f"{where} must be a positive number, got {value!r}")
            config.epsilon = float(value)
        elif key in _FIX_EPSILON_FLOOR:
            floor, dtype = _FIX_EPSILON_FLOOR[key]
            if (isinstance(value, bool) or not isinstance(value, (int, float))
                    or not floor < value < 1):
                raise ConfigError(f"{where} must be a number above {floor:.3g} (smaller "
                                  f"vanishes next to 1 in {dtype}) and below 1, got {value!r}")
            setattr(config, key.replace("-", "_"), float(value))
        elif key == "file-timeout":
            if (isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0
                    or not math.isfinite(value)):
                raise ConfigError(f"{where} must be a number of seconds, 0 or more (0: no "
                                  f"limit), got {value!r}")
            config.file_timeout = float(value)
        elif key == "fix-epsilon-gradient":
            if (isinstance(value, bool) or not isinstance(value, (int, float))
                    or not 2.0 ** -126 < value < 1):
                raise ConfigError(f"{where} must be a number above 1.2e-38 (the smallest "
                                  f"normal float32) and below 1, got {value!r}")
            config.fix_epsilon_gradient = float(value)
        elif key == "line-length":
            if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= 320:
                raise ConfigError(f"{where} must be a whole number of characters from 1 to "
                                  f"320, got {value!r}")
            config.line_length = value
        elif key == "probability-parameters":
            config.probability_parameters = _strings(value, where)
        elif key == "mask-parameters":
            config.mask_parameters = _strings(value, where)
        elif key == "delta-parameters":
            config.delta_parameters = _strings(value, where)
        elif key == "rules":
            config.rules = _rule_options(value, where)
    return config


def _codes(value: Any, where: str) -> List[str]:
    if isinstance(value, str):
        value = [part for part in re.split(r"[\s,]+", value) if part]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where} must be a list of codes such as NAN101 or prefixes such "
                          f"as NAN1, got {_list_type_name(value)}")
    # `ALL`, as in ruff, is every code: the prefix `NAN`.
    codes = ["NAN" if v.strip().upper() == "ALL" else v.strip().upper() for v in value]
    known = set(registry.all_codes())
    for code in codes:
        if not _CODE_OR_PREFIX.match(code) or not any(k.startswith(code) for k in known):
            raise ConfigError(f"{where}: unknown code `{code}`; expected a code such as "
                              "NAN101 or a prefix such as NAN1 (see `nanlint rules`)")
    return codes


def _strings(value: Any, where: str) -> List[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where} must be a list of strings, got {_list_type_name(value)}")
    return list(value)


def _rule_options(value: Any, where: str) -> Dict[str, Dict[str, Any]]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where} must map rule codes to their options, "
                          f"got {_type_name(value)}")
    result: Dict[str, Dict[str, Any]] = {}
    for code, options in value.items():
        code = str(code).upper()
        rule = registry.rule_class(code)
        if rule is None:
            raise ConfigError(f"{where}: unknown rule `{code}` (see `nanlint rules`)")
        if not isinstance(options, dict):
            raise ConfigError(f"{where}.{code} must be a mapping of options, "
                              f"got {_type_name(options)}")
        options = dict(options)
        for name, setting in options.items():
            option = rule.options.get(name)
            if option is None:
                expected = ", ".join(rule.options) or "none"
                raise ConfigError(f"{where}.{code}: unknown option `{name}`; "
                                  f"{code} has options: {expected}")
            if option.type in (float, int) and isinstance(setting, str):
                setting = _number(setting)
                if option.type is int and isinstance(setting, float) and setting.is_integer():
                    setting = int(setting)
                options[name] = setting
            if not _type_ok(setting, option.type):
                raise ConfigError(f"{where}.{code}.{name} must be "
                                  f"{_type_word(option.type)}, got {_type_name(setting)}")
        result[code] = dict(options)
    return result


def _type_ok(value: Any, expected: type) -> bool:
    if expected is bool:
        return isinstance(value, bool)
    if expected is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if expected is list:
        return isinstance(value, list)
    return isinstance(value, expected) and not isinstance(value, bool)


def _type_word(expected: type) -> str:
    return {bool: "true or false", float: "a number", int: "an integer", str: "a string",
            list: "a list"}.get(expected, expected.__name__)


def _list_type_name(value: Any) -> str:
    """Like _type_name, but for a list names the item that is not a string."""
    if isinstance(value, list):
        item = next((v for v in value if not isinstance(v, str)), None)
        return f"a list with {'an empty item' if item is None else _type_name(item)} in it"
    return _type_name(value)


def _type_name(value: Any) -> str:
    if value is None:
        return "nothing"
    return {bool: "a boolean", int: "a number", float: "a number", str: f"the string {value!r}",
            list: "a list", dict: "a mapping"}.get(type(value), type(value).__name__)


def relative_display(path: Path, cwd: Optional[Path] = None) -> str:
    """The path as reported: relative to the current directory when below it."""
    cwd = cwd or Path.cwd()
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(cwd).as_posix()
    except ValueError:
        return str(absolute)


def split_codes(text: str, where: str) -> List[str]:
    return _codes(text, where)
