"""The terminal front end: ``bezique play``, a full-screen game against the computer."""

from .session import PlayConfig, Session, data_dir, save_path

__all__ = ["PlayConfig", "Session", "data_dir", "save_path"]
