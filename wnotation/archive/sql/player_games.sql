-- One player's games ($player), newest first: where, when, the Wonder, the score, the rank and the winner.
SELECT
  g.file,
  g.game_number AS game,
  g.date_text AS date,
  g.event_name AS event,
  s.wonder,
  s.side,
  s.total_points AS total,
  s.place AS rank,
  g.players
FROM seats AS s
JOIN picked_games AS g USING (game_id)
WHERE g.complete AND s.player = CAST($player AS VARCHAR)
ORDER BY g.played_on DESC NULLS LAST, g.file, g.game_number
