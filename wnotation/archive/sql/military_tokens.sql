-- The military-token distribution (R-MILITARY): tokens taken at the end of each Age, by value (1, 3, 5 for a
-- victory, -1 for a defeat, 0 for a tie), in every game read, and each value's share of the Age's tokens.
SELECT
  m.age,
  m.token,
  count(*) AS tokens,
  round(count(*) / sum(count(*)) OVER (PARTITION BY m.age), 4) AS share
FROM military AS m
JOIN picked_games AS g USING (game_id)
GROUP BY m.age, m.token
ORDER BY m.age, m.token
