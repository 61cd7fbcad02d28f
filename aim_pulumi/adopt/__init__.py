"""Adopting an AIM operator deployment: what `aim-pulumi import` decides, and what an adopted service keeps.

Pure (no pulumi import) and below the Pulumi layer, so the record an import writes and the rule that
reads it back at plan time live side by side:

- `dump`: a `kubectl get -o yaml` dump read and sorted out, its AIM objects cleaned of what the API
  server and the operator set;
- `matching`: the plan (`PlannedStack`) matched with the live objects, the `pulumi import` document;
- `live_diff`: what the first `pulumi up` would change on an adopted object, and what that does;
- `keep`: what each service keeps of the operator's objects (its adoption record), and `record`:
  that record read back by the plan (`adopt_plan`, `keep_adopted`, `keep_fields`);
- `removal`: the operator's removal as `kubectl` commands; `cluster`: the same objects listed from a
  cluster instead of a dump, and the removal's API calls (`kubernetes.dynamic`);
- `program`: the adopted objects as a Python program (`--format python`);
- `run`: one import, start to end, with the planner handed in.
"""
