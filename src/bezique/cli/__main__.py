"""``python -m bezique.cli``: the same command as ``bezique``."""

from bezique.cli import main

if __name__ == "__main__":  # pragma: no cover
    main()
