-- Trade flows (R-TRADE): coins and resource units each Wonder's seats paid to each neighbouring Wonder, in
-- every game read (a seat's left neighbour is the next seat, its right neighbour the previous one).
WITH bought AS (
  SELECT p.game_id, p.seat AS buyer, (p.seat % g.players) + 1 AS seller, p.left_coins AS coins,
         p.left_units AS units
  FROM plays AS p JOIN picked_games AS g USING (game_id)
  WHERE p.left_coins > 0
  UNION ALL
  SELECT p.game_id, p.seat AS buyer, ((p.seat + g.players - 2) % g.players) + 1 AS seller,
         p.right_coins AS coins, p.right_units AS units
  FROM plays AS p JOIN picked_games AS g USING (game_id)
  WHERE p.right_coins > 0
)
SELECT
  sb.wonder AS buyer,
  ss.wonder AS seller,
  count(*) AS purchases,
  sum(b.coins) AS coins,
  sum(CASE WHEN b.units IS NULL OR b.units = '' THEN 0 ELSE len(string_split(b.units, ' ')) END) AS units
FROM bought AS b
JOIN seats AS sb ON sb.game_id = b.game_id AND sb.seat = b.buyer
JOIN seats AS ss ON ss.game_id = b.game_id AND ss.seat = b.seller
GROUP BY sb.wonder, ss.wonder
ORDER BY coins DESC, buyer, seller
