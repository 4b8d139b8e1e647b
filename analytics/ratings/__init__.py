"""Player ratings: the pure computation (`compute`), the reads of the ratings job
(`selectors`) and its writes, the rating history and the current ratings (`services`)."""
