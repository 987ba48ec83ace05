"""``python -m boardroom`` is the ``boardroom`` command."""

import sys

from boardroom.cli import main

sys.exit(main())
