-- Win rate and average score of each Wonder side over complete games. A shared victory counts as a win for
-- every winner (R-WIN), so win rates of a table can add up to more than one.
SELECT
  s.wonder,
  s.side,
  count(*) AS seats,
  count(*) FILTER (WHERE s.winner) AS wins,
  round(avg(CASE WHEN s.winner THEN 1.0 ELSE 0.0 END), 4) AS win_rate,
  round(avg(s.total_points), 2) AS avg_score
FROM seats AS s
JOIN picked_games AS g USING (game_id)
WHERE g.complete
GROUP BY s.wonder, s.side
ORDER BY win_rate DESC, avg_score DESC, s.wonder, s.side
