"""UNO Mod (``variant``: the rules; ``commands``: its play with ``give``; ``events``: its
event and how it applies)."""
