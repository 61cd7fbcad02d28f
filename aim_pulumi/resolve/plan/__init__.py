"""One AIMService in, one ServicePlan out: the sequence of every decision the other rooms make, the
conditions and the status rollup, and degradations turned into errors under strict mode."""
