"""What the analysis may assume about the code it reads; filled from the configuration."""

from __future__ import annotations

from dataclasses import dataclass
from typing import FrozenSet


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
         "sample_weight", "sample_weights", "is_*"})
    fix_epsilon_gradient: float = 1e-12  # the epsilon fixes insert under a root of gradients
    loss_function_pattern: str = r"loss|entropy|likelihood|nll|divergence|focal|dice"
    # Functions through which no gradient flows: tests, and Keras metric bookkeeping.
    # Functions where no gradient is taken: tests, metric state, and optimizer updates
    # (they receive gradients and assign to variables outside the tape).
    no_gradient_pattern: str = (r"^test|^(update_state|result|reset_state|reset_states"
                                r"|update_step|_update_step|_resource_apply_dense"
                                r"|_resource_apply_sparse|_apply_dense|_apply_sparse)$")

