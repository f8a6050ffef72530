-- Points per score category (R-SCORE order, then the expansion rows of score-pad records, R-SCORE-EXP; UNPIVOT
-- leaves out NULLs, so a row appears only where games were played with it): the average per seat, per winner, and
-- the category's share of all points scored, over complete games.
WITH points AS (
  UNPIVOT (
    SELECT s.game_id, s.seat, s.winner, s.military_points AS military, s.treasury_points AS treasury,
           s.wonder_points AS wonder, s.civilian_points AS civilian, s.commercial_points AS commercial,
           s.guild_points AS guilds, s.science_points AS science, s.cities_points AS cities,
           s.leaders_points AS leaders, s.armada_points AS armada, s.edifice_points AS edifice
    FROM seats AS s
    JOIN picked_games AS g USING (game_id)
    WHERE g.complete
  )
  ON military, treasury, wonder, civilian, commercial, guilds, science, cities, leaders, armada, edifice
  INTO NAME category VALUE points
)
SELECT
  category,
  round(avg(points), 2) AS avg_points,
  round(avg(points) FILTER (WHERE winner), 2) AS avg_winner_points,
  round(sum(points) / nullif(sum(sum(points)) OVER (), 0), 4) AS share
FROM points
GROUP BY category
ORDER BY list_position(['military', 'treasury', 'wonder', 'civilian', 'commercial', 'guilds', 'science', 'cities',
                        'leaders', 'armada', 'edifice'], category)
