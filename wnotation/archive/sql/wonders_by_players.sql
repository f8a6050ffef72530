-- Win rate and average score of each Wonder side at each player count, complete games only.
SELECT
  g.players,
  s.wonder,
  s.side,
  count(*) AS seats,
  round(avg(CASE WHEN s.winner THEN 1.0 ELSE 0.0 END), 4) AS win_rate,
  round(avg(s.total_points), 2) AS avg_score
FROM seats AS s
JOIN picked_games AS g USING (game_id)
WHERE g.complete
GROUP BY g.players, s.wonder, s.side
ORDER BY g.players, win_rate DESC, s.wonder, s.side
