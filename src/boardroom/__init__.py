"""Boardroom: a real-time poker room for the multi-board, point-scored Omaha variants."""

__version__ = "0.1.0"
