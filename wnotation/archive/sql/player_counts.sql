-- Per player count, over complete games: games, the average score of a seat and of the winners, and how many
-- games ended in a shared victory (R-WIN).
WITH per_game AS (
  SELECT
    g.game_id,
    g.players,
    count(*) FILTER (WHERE s.winner) AS winners,
    avg(s.total_points) AS avg_score,
    avg(s.total_points) FILTER (WHERE s.winner) AS winning_score
  FROM seats AS s
  JOIN picked_games AS g USING (game_id)
  WHERE g.complete
  GROUP BY g.game_id, g.players
)
SELECT
  players,
  count(*) AS games,
  round(avg(avg_score), 2) AS avg_score,
  round(avg(winning_score), 2) AS avg_winning_score,
  count(*) FILTER (WHERE winners > 1) AS shared_wins
FROM per_game
GROUP BY players
ORDER BY players
