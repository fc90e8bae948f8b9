"""UNO VETO and Wild Customizable (``variant``: the rules; ``commands``: the VETO slap, the
house rules' answers and the play naming a ``rule``; ``events``: the edition's state, its
events and how they apply)."""
