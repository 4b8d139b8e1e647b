"""The room's pace, pure Python (no Django): each table's rounds as they were entered
(`TableRounds`), its clock (`clock`), how late it runs against the room (`lateness`) and when
the night will end (`forecast`). The games layer reads the rounds from the database
(`games.selectors.round_times`); the pages show what these functions make of them."""
