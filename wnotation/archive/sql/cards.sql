-- Cards built (from the hand or from the discard pile), in complete games: how often, how many per game (the
-- pick rate), and how they go with winning: the win rate of the seats that built them.
WITH built AS (
  SELECT p.game_id, p.seat, p.card, p.colour FROM plays AS p WHERE p.outcome = 'built'
  UNION ALL
  SELECT p.game_id, p.seat, p.pick AS card, NULL AS colour FROM plays AS p WHERE p.pick IS NOT NULL
)
SELECT
  b.card,
  any_value(b.colour) AS colour,
  count(*) AS built,
  round(count(*) / (SELECT count(*) FROM picked_games WHERE complete), 4) AS per_game,
  round(avg(CASE WHEN s.winner THEN 1.0 ELSE 0.0 END), 4) AS builder_win_rate
FROM built AS b
JOIN picked_games AS g USING (game_id)
JOIN seats AS s ON s.game_id = b.game_id AND s.seat = b.seat
WHERE g.complete
GROUP BY b.card
ORDER BY built DESC, b.card
