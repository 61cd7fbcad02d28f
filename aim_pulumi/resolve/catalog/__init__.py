"""The catalog: every AIM object a program declares, the embedded default runtime config and the
profiles generated from ID-backed models, stored and indexed by scope, model and AIM id."""
