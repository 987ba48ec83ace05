"""Benchmarks: our code and its peers measured in one run, with the ratios printed.

The peers (phevaluator, eval7, PokerKit) are test-only dependencies: install them with
``pip install -e '.[test]'`` (``scripts/test.sh`` does) before running a benchmark.
"""
