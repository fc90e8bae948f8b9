"""UNO Spin (``variant``: the rules and the wheel; ``commands``: spinning, discarding by the
wheel, claiming an UNO Spin; ``events``: the edition's state, its events and how they apply)."""
