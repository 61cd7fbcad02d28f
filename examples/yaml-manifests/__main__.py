"""The quickstart, from plain AIM YAML: every object in `manifests/` is declared through AIMStack.

Teams that already keep AIM manifests for the operator deploy them unchanged; every service
resolves against every object of the directory (and of the rest of the program), whatever the
file order.
"""

from pathlib import Path

import pulumi

from aim_pulumi import AIMStack

stack = AIMStack("aim", {"path": str(Path(__file__).parent / "manifests")})

pulumi.export("services", stack.services)
