import sys

from yatzy.cli import main

sys.exit(main())
