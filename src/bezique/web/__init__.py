"""The web front end: ``bezique serve`` (app), its SQLite store and its SVG cards."""
