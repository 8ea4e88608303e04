-- Import order never changes the stored prices (issue 45): four real Lambda catalogs, and four
-- RunPod catalogs built from a real one (its 1-GPU machines in CA, CZ and US; a mid-week catalog
-- without the CZ offers, as a missed catalog imported late), imported in each of the 24 orders, leave the same change points,
-- withdrawals and last_seen_at as the date order, and price_at with max_age answers the same.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS llm_econ;
SET search_path = llm_econ, public;
\set l01 `cat test/data/skypilot/lambda_2024-01-15.csv`
\set l02 `cat test/data/skypilot/lambda_2024-02-15.csv`
\set l03 `cat test/data/skypilot/lambda_2024-03-15.csv`
\set l05 `cat test/data/skypilot/lambda_2024-05-01.csv`
\set rp `cat test/data/skypilot/runpod_2024-01-08.csv`
SELECT array_to_string(array(SELECT l FROM regexp_split_to_table(:'rp', '\n') WITH ORDINALITY AS x(l, i)
                              WHERE i = 1 OR l ~ '^1x_.*,(CA|CZ|US),' ORDER BY i), E'\n') AS rp \gset
CREATE TEMP TABLE cat (cloud text, n int, at timestamptz, csv text);
INSERT INTO cat VALUES ('lambda', 1, '2024-01-15', :'l01'), ('lambda', 2, '2024-02-15', :'l02'),
                       ('lambda', 3, '2024-03-15', :'l03'), ('lambda', 4, '2024-05-01', :'l05'),
                       ('runpod', 1, '2024-03-01', :'rp'),
                       ('runpod', 2, '2024-03-04', regexp_replace(:'rp', '\n[^\n]*,CZ,[^\n]*', '', 'g')),
                       ('runpod', 3, '2024-03-08', :'rp'), ('runpod', 4, '2024-03-15', :'rp');
SELECT cloud, n, (SELECT count(*) FROM regexp_matches(csv, ',CZ,', 'g')) AS cz_rows FROM cat ORDER BY 1, 2;

-- the state after importing cloud's catalogs in order ord: every stored row of the cloud, and
-- price_at (30 and 3 days' max_age) of every series (of regions, NULL: all) every step from the
-- first catalog on
CREATE TEMP TABLE state (cloud text, ord int[], rows text[], answers text[]);
CREATE FUNCTION pg_temp.run(cloud text, ord int[], step interval, regions text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r text[];
  a text[];
  c record;
BEGIN
  BEGIN
    FOR c IN SELECT k.n, cat.at, cat.csv FROM unnest(ord) WITH ORDINALITY AS k(n, i) JOIN cat USING (n)
              WHERE cat.cloud = run.cloud ORDER BY k.i LOOP
      PERFORM import_skypilot_catalog(cloud, c.csv, c.at, withdraw_missing => true);
    END LOOP;
    SELECT array_agg(format('%s %s %s %s %s %s last_seen %s', p.sku, p.region, p.pricing, p.instance_type,
                            to_char(p.observed_at AT TIME ZONE 'UTC', 'MM-DD'), coalesce(p.usd_per_gpu_hour::text, 'withdrawn'),
                            coalesce(to_char(p.last_seen_at AT TIME ZONE 'UTC', 'MM-DD'), '-'))
                     ORDER BY p.sku, p.region, p.pricing, p.instance_type, p.observed_at)
      INTO r FROM price_snapshot p WHERE p.provider = cloud AND NOT p.builtin;
    SELECT array_agg(format('%s %s %s %s: %s / %s', s.sku, s.region, s.pricing, to_char(d, 'MM-DD'),
                            price_at(s.sku, cloud, s.pricing, d, s.region, '30 days'),
                            price_at(s.sku, cloud, s.pricing, d, s.region, '3 days'))
                     ORDER BY s.sku, s.region, s.pricing, d)
      INTO a
      FROM (SELECT DISTINCT p.sku, p.region, p.pricing FROM price_snapshot p
             WHERE p.provider = cloud AND NOT p.builtin AND (regions IS NULL OR p.region = ANY (regions))) s
     CROSS JOIN generate_series((SELECT min(at) FROM cat WHERE cat.cloud = run.cloud),
                                (SELECT max(at) + interval '31 days' FROM cat WHERE cat.cloud = run.cloud), step) d;
    RAISE EXCEPTION 'undo';
  EXCEPTION WHEN raise_exception THEN
    NULL;
  END;
  INSERT INTO state VALUES (cloud, ord, r, a);
END $$;

SELECT count(pg_temp.run(c.cloud, p, c.step, c.regions)) AS imported_orders
  FROM (VALUES ('lambda', interval '5 days', NULL::text[]), ('runpod', interval '1 day', NULL)) AS c(cloud, step, regions),
       (VALUES
  ('{1,2,3,4}'::int[]), ('{1,2,4,3}'), ('{1,3,2,4}'), ('{1,3,4,2}'), ('{1,4,2,3}'), ('{1,4,3,2}'),
  ('{2,1,3,4}'), ('{2,1,4,3}'), ('{2,3,1,4}'), ('{2,3,4,1}'), ('{2,4,1,3}'), ('{2,4,3,1}'),
  ('{3,1,2,4}'), ('{3,1,4,2}'), ('{3,2,1,4}'), ('{3,2,4,1}'), ('{3,4,1,2}'), ('{3,4,2,1}'),
  ('{4,1,2,3}'), ('{4,1,3,2}'), ('{4,2,1,3}'), ('{4,2,3,1}'), ('{4,3,1,2}'), ('{4,3,2,1}')) AS v(p);

-- 24 distinct orders per cloud; the date order stores rows (change points, withdrawals,
-- sightings) and price_at answers, some of them NULL (stale under 3 days)
SELECT cloud, count(DISTINCT ord) AS orders FROM state GROUP BY 1 ORDER BY 1;
SELECT cloud, cardinality(rows) AS rows, cardinality(answers) AS answers,
       (SELECT count(*) FROM unnest(rows) x WHERE x LIKE '%withdrawn%') AS withdrawals,
       (SELECT count(*) FROM unnest(answers) x WHERE x LIKE '% / ') AS stale_at_3_days
  FROM state WHERE ord = '{1,2,3,4}' ORDER BY 1;
-- the RunPod case of issue 45: the CZ offer withdrawn on 03-04 is back from 03-08, seen up to
-- 03-15, so on 03-14 it is fresh under 3 days
SELECT s.ord, l
  FROM state s, unnest(s.answers) l
 WHERE s.cloud = 'runpod' AND s.ord IN ('{1,2,3,4}', '{1,3,4,2}') AND l ~ '^A40 CZ on_demand 03-(03|04|07|08|14|18|19):'
 ORDER BY 1, 2;
-- every other order: the rows and answers that differ from the date order's (none)
SELECT s.cloud, s.ord, x.what, x.line
  FROM state s, state d,
       LATERAL ((SELECT 'row only here' AS what, l AS line FROM unnest(s.rows) l EXCEPT SELECT 'row only here', l FROM unnest(d.rows) l)
                UNION ALL
                (SELECT 'row missing', l FROM unnest(d.rows) l EXCEPT SELECT 'row missing', l FROM unnest(s.rows) l)
                UNION ALL
                (SELECT 'answer', l FROM unnest(s.answers) l EXCEPT SELECT 'answer', l FROM unnest(d.answers) l)) x
 WHERE d.cloud = s.cloud AND d.ord = '{1,2,3,4}' AND s.ord <> d.ord
 ORDER BY s.cloud, s.ord, x.what, x.line
 LIMIT 40;
