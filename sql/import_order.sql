-- Import order never changes the stored prices (issue 45): four real Lambda catalogs imported in
-- each of the 24 orders leave the same change points, withdrawals and last_seen_at as the date
-- order, and price_at with max_age answers the same.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS llm_econ;
SET search_path = llm_econ, public;
\set l01 `cat test/data/skypilot/lambda_2024-01-15.csv`
\set l02 `cat test/data/skypilot/lambda_2024-02-15.csv`
\set l03 `cat test/data/skypilot/lambda_2024-03-15.csv`
\set l05 `cat test/data/skypilot/lambda_2024-05-01.csv`
CREATE TEMP TABLE cat (n int, at timestamptz, csv text);
INSERT INTO cat VALUES (1, '2024-01-15', :'l01'), (2, '2024-02-15', :'l02'), (3, '2024-03-15', :'l03'), (4, '2024-05-01', :'l05');

-- the state after importing the catalogs in order ord: every stored Lambda row, and price_at
-- (30 and 10 days' max_age) of every series on every 5th day from the first catalog on
CREATE TEMP TABLE state (ord int[], rows text[], answers text[]);
CREATE FUNCTION pg_temp.run(ord int[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r text[];
  a text[];
  c record;
BEGIN
  BEGIN
    FOR c IN SELECT k.n, cat.at, cat.csv FROM unnest(ord) WITH ORDINALITY AS k(n, i) JOIN cat USING (n) ORDER BY k.i LOOP
      PERFORM import_skypilot_catalog('lambda', c.csv, c.at, withdraw_missing => true);
    END LOOP;
    SELECT array_agg(format('%s %s %s %s %s %s last_seen %s', p.sku, p.region, p.pricing, p.instance_type,
                            to_char(p.observed_at AT TIME ZONE 'UTC', 'MM-DD'), coalesce(p.usd_per_gpu_hour::text, 'withdrawn'),
                            coalesce(to_char(p.last_seen_at AT TIME ZONE 'UTC', 'MM-DD'), '-'))
                     ORDER BY p.sku, p.region, p.pricing, p.instance_type, p.observed_at)
      INTO r FROM price_snapshot p WHERE p.provider = 'lambda' AND NOT p.builtin;
    SELECT array_agg(format('%s %s %s %s: %s / %s', s.sku, s.region, s.pricing, to_char(d, 'MM-DD'),
                            price_at(s.sku, 'lambda', s.pricing, d, s.region, '30 days'),
                            price_at(s.sku, 'lambda', s.pricing, d, s.region, '10 days'))
                     ORDER BY s.sku, s.region, s.pricing, d)
      INTO a
      FROM (SELECT DISTINCT sku, region, pricing FROM price_snapshot WHERE provider = 'lambda' AND NOT builtin) s
     CROSS JOIN generate_series('2024-01-15'::timestamptz, '2024-06-15', '5 days') d;
    RAISE EXCEPTION 'undo';
  EXCEPTION WHEN raise_exception THEN
    NULL;
  END;
  INSERT INTO state VALUES (ord, r, a);
END $$;

SELECT count(pg_temp.run(p)) AS imported_orders FROM (VALUES
  ('{1,2,3,4}'::int[]), ('{1,2,4,3}'), ('{1,3,2,4}'), ('{1,3,4,2}'), ('{1,4,2,3}'), ('{1,4,3,2}'),
  ('{2,1,3,4}'), ('{2,1,4,3}'), ('{2,3,1,4}'), ('{2,3,4,1}'), ('{2,4,1,3}'), ('{2,4,3,1}'),
  ('{3,1,2,4}'), ('{3,1,4,2}'), ('{3,2,1,4}'), ('{3,2,4,1}'), ('{3,4,1,2}'), ('{3,4,2,1}'),
  ('{4,1,2,3}'), ('{4,1,3,2}'), ('{4,2,1,3}'), ('{4,2,3,1}'), ('{4,3,1,2}'), ('{4,3,2,1}')) AS v(p);

-- 24 distinct orders; the date order stores rows (change points, withdrawals, sightings) and
-- price_at answers, some of them NULL (stale under 10 days)
SELECT count(DISTINCT ord) AS orders FROM state;
SELECT cardinality(rows) AS rows, cardinality(answers) AS answers,
       (SELECT count(*) FROM unnest(rows) x WHERE x LIKE '%withdrawn%') AS withdrawals,
       (SELECT count(*) FROM unnest(answers) x WHERE x LIKE '% / ') AS stale_at_10_days
  FROM state WHERE ord = '{1,2,3,4}';
-- every other order: the rows and answers that differ from the date order's (none)
SELECT s.ord, x.what, x.line
  FROM state s, state d,
       LATERAL ((SELECT 'row only here' AS what, l AS line FROM unnest(s.rows) l EXCEPT SELECT 'row only here', l FROM unnest(d.rows) l)
                UNION ALL
                (SELECT 'row missing', l FROM unnest(d.rows) l EXCEPT SELECT 'row missing', l FROM unnest(s.rows) l)
                UNION ALL
                (SELECT 'answer', l FROM unnest(s.answers) l EXCEPT SELECT 'answer', l FROM unnest(d.answers) l)) x
 WHERE d.ord = '{1,2,3,4}' AND s.ord <> d.ord
 ORDER BY s.ord, x.what, x.line
 LIMIT 40;
