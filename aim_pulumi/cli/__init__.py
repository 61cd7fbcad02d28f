"""The `aim-pulumi` command line: one module per subcommand in `commands/`, the rooms they share here.

`project` reads PROGRAM and its Pulumi config, `engine` runs it offline and `recording` holds what it
declared, `execution` ties the two for `plan` and `explain` (with `failures` for the one-line error),
`tree`, `summary` and `render` print it, `plan_files` writes the plan files the offline package builds
(`aim_pulumi.offline.plan_document`) and reads one back, `diff` prints what two plans' comparison
found; `common` holds what every command shares and imports nothing else of the CLI.
"""
