"""``python -m bezique``: the same command as ``bezique``."""

from bezique.cli import main

if __name__ == "__main__":  # pragma: no cover
    main(prog_name="bezique")
