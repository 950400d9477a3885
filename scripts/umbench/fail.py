"""The one exception a command turns into its one-line message and exit 1
(cli.main): at the bottom of the package, so that every module, env.py
too, can raise it without standing on cli."""


class Fail(Exception):
    """A failure the user can act on: its text is the whole message."""
