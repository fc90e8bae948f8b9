"""Tournaments: entries, rounds of tables, pairing, and who advances (the bracket)."""
