-- Trade flows (R-TRADE): purchases, coins and resource units each Wonder's seats bought from each neighbouring
-- Wonder, in every game read (a seat's left neighbour is the next seat, its right neighbour the previous one).
-- Each seat's purchases are summed first, then named by the Wonders of buyer and seller.
WITH per_seat AS (
  SELECT
    game_id,
    seat,
    count(*) FILTER (WHERE left_coins > 0) AS left_purchases,
    sum(left_coins) AS left_coins,
    sum(coalesce(len(left_units), 0)) AS left_units,
    count(*) FILTER (WHERE right_coins > 0) AS right_purchases,
    sum(right_coins) AS right_coins,
    sum(coalesce(len(right_units), 0)) AS right_units
  FROM plays
  WHERE left_coins > 0 OR right_coins > 0
  GROUP BY game_id, seat
),
flows AS (
  SELECT p.game_id, p.seat AS buyer, (p.seat % g.players) + 1 AS seller, p.left_purchases AS purchases,
         p.left_coins AS coins, p.left_units AS units
  FROM per_seat AS p JOIN picked_games AS g USING (game_id)
  WHERE p.left_purchases > 0
  UNION ALL
  SELECT p.game_id, p.seat, ((p.seat + g.players - 2) % g.players) + 1, p.right_purchases, p.right_coins,
         p.right_units
  FROM per_seat AS p JOIN picked_games AS g USING (game_id)
  WHERE p.right_purchases > 0
)
SELECT
  sb.wonder AS buyer,
  ss.wonder AS seller,
  sum(f.purchases) AS purchases,
  sum(f.coins) AS coins,
  sum(f.units) AS units
FROM flows AS f
JOIN seats AS sb ON sb.game_id = f.game_id AND sb.seat = f.buyer
JOIN seats AS ss ON ss.game_id = f.game_id AND ss.seat = f.seller
GROUP BY sb.wonder, ss.wonder
ORDER BY coins DESC, buyer, seller
