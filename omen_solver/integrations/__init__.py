"""Bridges to other libraries, each behind an optional extra."""
