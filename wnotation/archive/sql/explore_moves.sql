-- What was taken from a hand, and how the taker did (`wnotation explore`, the opening explorer's table): in
-- complete games played from the deal (kind 'played', among picked_games), each seat's hand at the start of
-- turn $turn of Age $age (the hands table: export --hands), holding every card of $hand (catalogue keys such as
-- 'I:Loom'; NULL: any hand), the seat playing Wonder $wonder on side $side, having taken $first on the Age's
-- first turn (a catalogue key; NULL: anything). One row per play made from such a hand (use and card): how often,
-- its share of those hands, the win rate of the seats that made it (a shared victory is a win for each winner, as
-- in stats) and their average final score. Parameters are bound, never pasted into the text.
WITH looked AS (
  SELECT h.game_id, h.age, h.turn, h.seat
  FROM hands AS h
  JOIN picked_games AS g USING (game_id)
  JOIN seats AS s USING (game_id, seat)
  WHERE g.complete AND g.kind = 'played'
    AND h.age = CAST($age AS INTEGER) AND h.turn = CAST($turn AS INTEGER)
    AND (CAST($hand AS VARCHAR[]) IS NULL OR list_has_all(h.held, CAST($hand AS VARCHAR[])))
    AND (CAST($wonder AS VARCHAR) IS NULL OR s.wonder = CAST($wonder AS VARCHAR))
    AND (CAST($side AS VARCHAR) IS NULL OR s.side = CAST($side AS VARCHAR))
    AND (CAST($first AS VARCHAR) IS NULL OR EXISTS (
      SELECT 1 FROM plays AS f
      WHERE f.game_id = h.game_id AND f.age = h.age AND f.turn = 1 AND f.seat = h.seat
        AND f.card_key = CAST($first AS VARCHAR)))
)
SELECT
  p.play_action,
  p.card,
  p.card_key,
  count(*) AS times,
  round(count(*) / sum(count(*)) OVER (), 4) AS share,
  round(avg(CASE WHEN s.winner THEN 1.0 ELSE 0.0 END), 4) AS win_rate,
  round(avg(s.total_points), 2) AS avg_points
FROM looked AS l
JOIN plays AS p USING (game_id, age, turn, seat)
JOIN seats AS s USING (game_id, seat)
GROUP BY p.play_action, p.card, p.card_key
ORDER BY times DESC, win_rate DESC, p.card, p.play_action
