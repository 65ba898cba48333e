"""Runs ./tessera's commands: `python3 tools/tessera <command> [args]` (./tessera does this
with Debian's python3)."""
import os
import sys

# The package is tools/tessera: import it from tools/ (./tessera runs Python isolated, -I, so
# that neither the folder nor the user's PYTHONPATH is on the path).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tessera.cli import main  # noqa: E402

sys.exit(main(sys.argv[1:]))
