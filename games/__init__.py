"""Event store, game services, projections, the game API and pages."""
