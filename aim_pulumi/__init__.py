"""aim-pulumi: the AIM Engine operator's decisions made at deploy time, as Pulumi components."""
