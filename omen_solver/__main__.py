from omen_solver.cli import main

raise SystemExit(main())
