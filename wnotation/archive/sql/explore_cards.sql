-- Each card's win rate when taken against when passed (`wnotation explore --cards`): over the same hands as
-- explore_moves.sql (complete games played from the deal; Age $age and turn $turn, NULL for every one; the seat's
-- Wonder $wonder and side $side), every card design a hand shows (a card held twice counts once, an unseen card not at all: list_distinct drops NULLs) is either built
-- from that hand, or passed: the seat played another card, so this one went on to the next seat (on turn 6, to the
-- discard pile). A card staged or sold from the hand is neither. Win rates count a shared victory as a win for each
-- winner; the difference is taken minus passed. Parameters are bound, never pasted into the text.
WITH looked AS (
  SELECT h.game_id, h.age, h.turn, h.seat, s.winner, s.total_points, list_distinct(h.held) AS shown
  FROM hands AS h
  JOIN picked_games AS g USING (game_id)
  JOIN seats AS s USING (game_id, seat)
  WHERE g.complete AND g.kind = 'played'
    AND (CAST($age AS INTEGER) IS NULL OR h.age = CAST($age AS INTEGER))
    AND (CAST($turn AS INTEGER) IS NULL OR h.turn = CAST($turn AS INTEGER))
    AND (CAST($wonder AS VARCHAR) IS NULL OR s.wonder = CAST($wonder AS VARCHAR))
    AND (CAST($side AS VARCHAR) IS NULL OR s.side = CAST($side AS VARCHAR))
),
fates AS (
  SELECT l.winner, l.total_points, u.card_key,
    CASE WHEN p.card_key = u.card_key AND p.outcome = 'built' THEN 'taken'
         WHEN p.card_key IS DISTINCT FROM u.card_key THEN 'passed' END AS fate
  FROM looked AS l
  CROSS JOIN unnest(l.shown) AS u(card_key)
  JOIN plays AS p USING (game_id, age, turn, seat)
)
SELECT
  c.card_name AS card,
  f.card_key,
  count(*) AS held,
  count(*) FILTER (WHERE fate = 'taken') AS taken,
  round(avg(CASE WHEN winner THEN 1.0 ELSE 0.0 END) FILTER (WHERE fate = 'taken'), 4) AS taken_win_rate,
  count(*) FILTER (WHERE fate = 'passed') AS passed,
  round(avg(CASE WHEN winner THEN 1.0 ELSE 0.0 END) FILTER (WHERE fate = 'passed'), 4) AS passed_win_rate,
  round(avg(CASE WHEN winner THEN 1.0 ELSE 0.0 END) FILTER (WHERE fate = 'taken')
        - avg(CASE WHEN winner THEN 1.0 ELSE 0.0 END) FILTER (WHERE fate = 'passed'), 4) AS difference
FROM fates AS f
JOIN cards AS c USING (card_key)
GROUP BY f.card_key, c.card_name
ORDER BY difference DESC NULLS LAST, taken DESC, f.card_key
