"""How well ratings predict (issue 46), pure Python: replay a club's games in time order and,
before each game, ask each candidate rating system for each side's chance to win and the
expected margin (`run.backtest`); score the predictions (`metrics`); leagues whose players'
strengths are known (`simulated`) tell how well each system recovers them."""
