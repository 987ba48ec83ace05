"""One module per ``boardroom`` command: ``configure(parser)`` and ``run(args) -> exit code``.

Top-level imports here stay light: every module is imported to build ``boardroom --help``.
"""
