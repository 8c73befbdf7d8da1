"""Teaching the rules: the worked examples of the rules pages, and the words that explain them.

- :mod:`cardavia.teach.examples`: the examples as data, computed by the engine and verified by
  :mod:`cardavia.verify`.
- :mod:`cardavia.teach.explain` and :mod:`cardavia.teach.pages`: the pages' content, every
  sentence generated from the example it explains, in the ``rules`` domain of
  :mod:`cardavia.words` (which names the cards, seats and suits of each language).
- :mod:`cardavia.teach.learning`: the words of the analysis, the hints, the training problems
  and the fairness page.
- :mod:`cardavia.teach.pictures`: the cards drawn as SVG.

The engine is used through its public face, :mod:`cardavia.belote`, only (an import-linter
contract keeps it so).

>>> all_verified()
True
"""

from cardavia.teach.examples import (
    ANNOUNCEMENT_EXAMPLES,
    LEGAL_EXAMPLES,
    SCORING_EXAMPLES,
    all_verified,
    announcement_results,
    legal_results,
    scoring_results,
)

__all__ = [
    "ANNOUNCEMENT_EXAMPLES",
    "LEGAL_EXAMPLES",
    "SCORING_EXAMPLES",
    "all_verified",
    "announcement_results",
    "legal_results",
    "scoring_results",
]
