"""The component provider plugin's entry point (see PulumiPlugin.yaml)."""

from aim_pulumi.provider import main

if __name__ == "__main__":
    main()
