-- Cards built (from the hand or from the discard pile), in complete games played from the deal (kind 'played'):
-- how often, how many per game (the pick rate), and how they go with winning: the win rate of the seats that
-- built them. A card design is its catalogue key, so Age I's and Age II's Loom are two rows ($age: one Age only).
WITH built AS (
  SELECT p.game_id, p.seat, p.card_key, p.card, p.colour FROM plays AS p
  WHERE p.outcome = 'built' AND p.card_key IS NOT NULL
  UNION ALL
  SELECT p.game_id, p.seat, p.picked_key, p.picked_card, NULL FROM plays AS p WHERE p.picked_key IS NOT NULL
),
played AS (
  SELECT game_id FROM picked_games WHERE complete AND kind = 'played'
)
SELECT
  any_value(b.card) AS card,
  split_part(b.card_key, ':', 1) AS age,
  any_value(b.colour) AS colour,
  count(*) AS built,
  round(count(*) / (SELECT count(*) FROM played), 4) AS per_game,
  round(avg(CASE WHEN s.winner THEN 1.0 ELSE 0.0 END), 4) AS builder_win_rate
FROM built AS b
JOIN played AS g USING (game_id)
JOIN seats AS s ON s.game_id = b.game_id AND s.seat = b.seat
WHERE CAST($age AS INTEGER) IS NULL OR split_part(b.card_key, ':', 1) = ['I', 'II', 'III'][CAST($age AS INTEGER)]
GROUP BY b.card_key
ORDER BY built DESC, card, age
