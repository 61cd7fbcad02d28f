"""Which profile a service deploys: the candidate facts, the selector filters and floor, the ranking,
the sticky-binding rule, the explanation of every choice, and the overlay the winner becomes."""
