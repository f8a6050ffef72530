-- One player's record ($player, the seat name as written, in Unicode form C): games, wins, win rate,
-- average score and rank, over all Wonders (wonder '(all)') and per Wonder side, complete games only.
SELECT
  coalesce(s.wonder, '(all)') AS wonder,
  coalesce(s.side, '') AS side,
  count(*) AS games,
  count(*) FILTER (WHERE s.winner) AS wins,
  round(avg(CASE WHEN s.winner THEN 1.0 ELSE 0.0 END), 4) AS win_rate,
  round(avg(s.total_points), 2) AS avg_score,
  round(avg(s.place), 2) AS avg_rank
FROM seats AS s
JOIN picked_games AS g USING (game_id)
WHERE g.complete AND s.player = CAST($player AS VARCHAR)
GROUP BY GROUPING SETS ((), (s.wonder, s.side))
ORDER BY s.wonder NULLS FIRST, s.side
