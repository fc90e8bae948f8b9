from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from games import listeners, registry

        # Quick games: after a person's command, the bot seats take their turns.
        if listeners.after_append not in registry.on_game_event:
            registry.on_game_event.append(listeners.after_append)
