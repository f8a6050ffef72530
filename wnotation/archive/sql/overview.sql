-- How many games the filters keep, how many are complete, and how many plays and findings they hold.
SELECT
  count(*) AS games,
  count(*) FILTER (WHERE complete) AS complete,
  coalesce(sum(actions), 0) AS plays,
  coalesce(sum(error_count), 0) AS errors,
  count(*) FILTER (WHERE results_match = false) AS wrong_results
FROM picked_games
