"""nanlint's built-in rules, one module per rule (installed as ``nanlint.rules``)."""
