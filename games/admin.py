"""Admin pages of the games app."""
