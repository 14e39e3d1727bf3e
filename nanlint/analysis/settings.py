"""What the analysis may assume about the code it reads; filled from the configuration."""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from functools import lru_cache
from typing import FrozenSet, Optional, Tuple


@dataclass
class Settings:
    """What the analysis may assume; filled from the configuration."""

    epsilon: float = 1e-7  # the value of `K.epsilon()`
    fix_epsilon: float = 1e-7  # the epsilon that fixes insert
    fix_epsilon_float16: float = 1e-3  # ... next to a float16 value (it holds 1 + 1e-3)
    probability_parameters: FrozenSet[str] = frozenset(
        {"y_pred", "probs", "prob", "probabilities", "predictions", "y_prob", "y_hat"})
    # Parameters that by convention hold a 0/1 mask or weights (glob patterns): the sum of
    # one is a count that is 0 when nothing is selected (medium confidence, said so).
    mask_parameters: FrozenSet[str] = frozenset(
        {"mask", "masks", "*_mask", "mask_*", "valid", "*_valid", "valid_*", "weights",
         "sample_weight", "sample_weights", "is_*", "y_true", "labels"})
    # Parameters that by convention hold a network's raw box-regression output (the deltas
    # or codes a detection head predicts): nothing bounds them, so exp of one overflows.
    delta_parameters: FrozenSet[str] = frozenset(
        {"deltas", "*_deltas", "box_delta", "boxes_delta", "bbox_delta", "rel_codes",
         "box_encodings", "*_box_encodings", "bbox_pred", "box_regression",
         "bbox_regression"})
    fix_epsilon_gradient: float = 1e-12  # the epsilon fixes insert under a root of gradients
    line_length: int = 88  # the longest line a fix writes, where it can break one
    # A function named like a loss computes one (`indices` holds no dice, `conll` no NLL).
    loss_function_pattern: str = (r"loss|entropy|likelihood|(?<!co)nll|divergence|focal"
                                  r"|(?<!in)dice")
    # Functions through which no gradient flows: tests, and Keras metric bookkeeping.
    # Functions where no gradient is taken: tests, metric state, and optimizer updates
    # (they receive gradients and assign to variables outside the tape).
    no_gradient_pattern: str = (r"^test|^(update_state|result|reset_state|reset_states"
                                r"|update_step|_update_step|_resource_apply_dense"
                                r"|_resource_apply_sparse|_apply_dense|_apply_sparse)$")

    def parameter_role(self, name: str) -> Optional[str]:
        """The role a parameter named ``name`` plays by a naming convention, the first whose
        glob patterns match (see ``PARAMETER_ROLES``), or None."""
        return _role((("mask", self.mask_parameters),
                      ("regression_delta", self.delta_parameters)), name)


@lru_cache(maxsize=4096)  # asked for every parameter read; a module has few names
def _role(conventions: Tuple[Tuple[str, FrozenSet[str]], ...], name: str) -> Optional[str]:
    return next((role for role, patterns in conventions
                 if any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)), None)


# What a parameter of each conventional role is, as evidence (the ``Evaluator`` builds the
# value): a tag that a later op turns into evidence (a mask's sum is a count), or evidence
# the parameter carries itself ("huge": exp of it overflows).
PARAMETER_ROLES = {
    "mask": {"tag": "mask_parameter"},
    "regression_delta": {
        "huge": ("a parameter of `{function}`", "which by its name holds a network's raw "
                 "box-regression output, and nothing bounds it (a naming convention: "
                 "`deltas`, `*_deltas`, `rel_codes`, `box_encodings`, ...; the "
                 "`delta-parameters` setting)")},
}
