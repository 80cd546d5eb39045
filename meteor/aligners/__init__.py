"""Aligners: choose a one-to-one alignment among candidate matches (beam, greedy, stagewise)."""
