"""Admin pages of the tournaments app."""
