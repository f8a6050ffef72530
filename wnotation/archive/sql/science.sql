-- Science sets completed (R-SCIENCE): seats of complete games by the sets of one tablet, one compass and one gear
-- their cities hold, wildcards left aside (seats.science_wildcards), with their average science points and win
-- rate. Score pads have no city and drop out.
SELECT
  least(s.tablets, s.compasses, s.gears) AS sets,
  count(*) AS seats,
  round(avg(s.science_points), 2) AS avg_science,
  round(avg(CASE WHEN s.winner THEN 1.0 ELSE 0.0 END), 4) AS win_rate
FROM seats AS s
JOIN picked_games AS g USING (game_id)
WHERE g.complete AND s.tablets IS NOT NULL
GROUP BY sets
ORDER BY sets
