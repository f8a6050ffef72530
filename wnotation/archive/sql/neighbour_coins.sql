-- Coins a seat pays each neighbour in a game (R-TRADE): the average over the seats of the games read with plays
-- (a seat's left neighbour is the next seat), by player count.
WITH per_seat AS (
  SELECT p.game_id, p.seat, sum(p.left_coins) AS to_left, sum(p.right_coins) AS to_right
  FROM plays AS p
  GROUP BY p.game_id, p.seat
)
SELECT
  g.players,
  count(*) AS seats,
  round(avg(ps.to_left), 3) AS left_per_game,
  round(avg(ps.to_right), 3) AS right_per_game
FROM per_seat AS ps
JOIN picked_games AS g USING (game_id)
GROUP BY g.players
ORDER BY g.players
