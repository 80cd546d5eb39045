"""Figures: pure functions from a record to a ``plotly.graph_objects.Figure``."""
