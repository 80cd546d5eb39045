"""Matching stages: each proposes candidate matches between a hypothesis and a reference."""
