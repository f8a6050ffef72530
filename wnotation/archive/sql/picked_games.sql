-- The games a stats run looks at: every game that was read, narrowed by the filters. A NULL parameter
-- filters nothing. Parameters: $players (INTEGER), $event (VARCHAR), $date_from and $date_to (DATE, on
-- games.played_on: games with an unknown or partly unknown date drop out once a date filter is set).
SELECT *
FROM games
WHERE readable
  AND (CAST($players AS INTEGER) IS NULL OR players = CAST($players AS INTEGER))
  AND (CAST($event AS VARCHAR) IS NULL OR event_name = CAST($event AS VARCHAR))
  AND (CAST($date_from AS DATE) IS NULL OR played_on >= CAST($date_from AS DATE))
  AND (CAST($date_to AS DATE) IS NULL OR played_on <= CAST($date_to AS DATE))
