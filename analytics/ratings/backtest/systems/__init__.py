"""The candidate rating systems of the backtest, each behind one small interface
(`base.RatingSystem`): predict a game before it is played, learn from it after, close a night."""
