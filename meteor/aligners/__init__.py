"""Aligners: choose a one-to-one alignment among candidate matches.

The interface and the registry are in :mod:`meteor.aligners.base`; the built-in
aligners are registered here, one line each.  ``Params(aligner=name)`` accepts any
registered name.
"""

from meteor.aligners.base import Aligner, aligner_names, get_aligner, register_aligner
from meteor.aligners.beam import BeamAligner
from meteor.aligners.greedy import GreedyAligner
from meteor.aligners.stagewise import StagewiseAligner

__all__ = ["Aligner", "aligner_names", "get_aligner", "register_aligner"]

register_aligner("beam", BeamAligner)  # Meteor 1.5
register_aligner("greedy", GreedyAligner)  # nltk 3.10 (English)
register_aligner("stagewise", StagewiseAligner)  # the 2005 paper
