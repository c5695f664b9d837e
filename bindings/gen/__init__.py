"""Binding generators for include/libdace.h (driven by bindings/generate.py)."""
