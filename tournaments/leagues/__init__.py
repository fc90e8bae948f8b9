"""Leagues: seasons, league nights, score sheets, standings and ratings."""
