"""The offline engine: a Pulumi program run against the SDK's mocks, and everything it registered.

`aim-pulumi plan`, `explain` and `import` run programs here (`engine.run_program`), and so do the
tests and the benchmarks: no cluster, no Pulumi CLI, no state. It sits above the Pulumi layer,
whose components it runs, and below the command line, which prints what it recorded
(`recording.PlanRecording`) and writes the plan built from it here: the `--json` document and the
manifests (`plan_document`), in the tree's order (`tree`), compared by `plan_diff`.
"""
