"""Classic UNO, the base every edition builds on (``variant``: the rules; ``commands`` and
``events``: the core's, which every edition's game takes and records)."""
