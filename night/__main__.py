import sys

from night.run import main

sys.exit(main())
