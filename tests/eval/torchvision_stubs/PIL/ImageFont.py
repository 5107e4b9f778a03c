"""Empty stand-in (robustness test)."""
