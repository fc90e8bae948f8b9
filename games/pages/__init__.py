"""The game pages (htmx): the table, the replay viewer, quick games and sign-in.

``views`` parses with ``forms`` and writes through ``games.services``; ``table`` and ``replay``
build what a page shows, ``faces`` draws cards, ``narration`` puts events and commands in
players' words, and ``viewers`` says who is looking.
"""
