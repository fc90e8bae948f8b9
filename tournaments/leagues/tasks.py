"""Celery tasks of leagues: none so far. A league's work is done in the request that asks for
it: a hand moves the standings inside its append's transaction (``projections``), and new
standings options recompute the season's table from its results in one transaction
(``services.set_standings_options``). A league task would go here, as
``tournaments.brackets.tasks`` does it: it takes ids, calls one service, and is idempotent."""
