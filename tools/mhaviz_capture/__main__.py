"""`python3 -m mhaviz_capture example PREFIX | compare A B` (see the package's docstring)."""

import sys

from mhaviz_capture import main

sys.exit(main())
