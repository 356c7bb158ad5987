"""Game analysis: CardStock's heuristics and TAG's game metrics for any GDL or GDL-II game
(``ggp analyze``, docs/analysis.md).

The package is built as passes, data flowing one way:

- :mod:`ggp.analysis.plan`: what an analysis is to do and has done (its output folder);
- :mod:`ggp.analysis.run`: its matches through the tournament machinery, then each traced;
- :mod:`ggp.analysis.tracing`: a match record played again, every turn measured
  (:mod:`ggp.analysis.trace` holds the result; :mod:`ggp.analysis.outcome`, what goals mean);
- :mod:`ggp.analysis.cardstock`, :mod:`ggp.analysis.tag`, :mod:`ggp.analysis.cards`: the
  metrics, plain functions from a :class:`~ggp.analysis.metric.Dataset` to a
  :class:`~ggp.analysis.metric.Metric` (:mod:`ggp.analysis.stats`: intervals);
- :mod:`ggp.analysis.reference`: the CardStock engine's figures beside ours;
- :mod:`ggp.analysis.series`, :mod:`ggp.analysis.plots`, :mod:`ggp.analysis.report`: the
  report (``analysis.json`` and a self-contained ``report.html``).
"""
