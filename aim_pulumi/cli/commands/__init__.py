"""One module per subcommand (`plan`, `explain`, `validate`, `migrate`, `completion`, `version`).

Each exposes `register(subparsers)`; `aim_pulumi.cli.parser` lists them in help order.
"""
