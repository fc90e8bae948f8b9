"""Leagues, seasons, standings, ratings, tournaments and brackets."""
