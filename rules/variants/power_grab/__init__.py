"""UNO Power Grab (``variant``: the rules; ``commands``: the play naming ``towers``, blocking,
taking, Instant UNO; ``events``: the towers' state, its events and how they apply)."""
