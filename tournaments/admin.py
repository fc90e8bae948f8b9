"""The admin pages of the tournaments app, for Django's admin to find: the leagues' and the
tournaments' (each package's ``admin`` module registers its own)."""

from tournaments.brackets import admin as brackets_admin
from tournaments.leagues import admin as leagues_admin

__all__ = ["brackets_admin", "leagues_admin"]
