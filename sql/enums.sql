-- Every enumerated argument of the API refuses a value outside its list with 22023 naming the valid values (issue 31: a misspelled source_kinds element returned no rows).
SET search_path = llm_econ, public;
\set SHOW_CONTEXT never
\i sql/include/error_report.sql

-- pricing, everywhere it is an argument
SELECT pg_temp.error_report($$SELECT price_at('H100', 'gcp', 'spotty')$$);
SELECT pg_temp.error_report($$SELECT price_twap('H100', 'gcp', 'spotty', '[2024-01-01, 2024-02-01)')$$);
SELECT pg_temp.error_report($$SELECT price_twap_coverage('H100', 'gcp', 'spotty', '[2024-01-01, 2024-02-01)')$$);
SELECT pg_temp.error_report($$SELECT estimate_cost(run_spec(7e9, 1.4e12, 8, 'H100'), 'gcp', 'spotty')$$);
SELECT pg_temp.error_report($$SELECT * FROM cheapest_offers(run_spec(7e9, 1.4e12, 8, 'H100'), pricing => 'spotty')$$);
SELECT pg_temp.error_report($$SELECT * FROM cheapest_plan(run_spec(7e9, 1.4e12, 8, 'H100', n_layers => 32, d_model => 4096, n_heads => 32, seq_len => 2048, global_batch => 512), '30 days', pricing => 'spotty')$$);
-- ... and any case is the same pricing
SELECT price_at('H100', 'lambda', ' SPOT ', '2024-07-01') = price_at('H100', 'lambda', 'spot', '2024-07-01') AS any_case;

-- source_kinds: each element, even where no offer exists (B200 has no price series: the check
-- does not depend on rows); any case accepted; an empty list or a NULL element is an error
SELECT pg_temp.error_report($$SELECT * FROM cheapest_offers(run_spec(7e9, 1.4e12, 8, 'H100'), source_kinds => ARRAY['catalgo'])$$);
SELECT pg_temp.error_report($$SELECT * FROM cheapest_offers(run_spec(7e9, 1.4e12, 8, 'B200'), source_kinds => ARRAY['catalog', 'sed'])$$);
SELECT pg_temp.error_report($$SELECT * FROM cheapest_offers(run_spec(7e9, 1.4e12, 8, 'H100'), source_kinds => ARRAY[]::text[])$$);
SELECT pg_temp.error_report($$SELECT * FROM cheapest_offers(run_spec(7e9, 1.4e12, 8, 'H100'), source_kinds => ARRAY[NULL]::text[])$$);
SELECT (SELECT count(*) FROM cheapest_offers(run_spec(7e9, 1.4e12, 8, 'H100'), '2024-07-01', source_kinds => ARRAY[' Seed ', 'HISTORY']))
     = (SELECT count(*) FROM cheapest_offers(run_spec(7e9, 1.4e12, 8, 'H100'), '2024-07-01', source_kinds => ARRAY['seed', 'history'])) AS any_case,
       (SELECT count(*) FROM cheapest_offers(run_spec(7e9, 1.4e12, 8, 'H100'), '2024-07-01', source_kinds => ARRAY['seed'])) AS seed_offers;

-- the importers' choices
SELECT pg_temp.error_report($$SELECT * FROM import_skypilot_catalog('amazon', 'InstanceType,AcceleratorName,AcceleratorCount,Price,Region', '2024-01-01')$$);
SELECT pg_temp.error_report($$SELECT * FROM load_price_history(on_mismatch => 'skp')$$);

-- run_spec's named choices
SELECT pg_temp.error_report($$SELECT run_spec(7e9, 1.4e12, 8, 'H100', dtype => 'bf61')$$);
SELECT pg_temp.error_report($$SELECT run_spec(7e9, 1.4e12, 8, 'H100', recompute => 'some')$$);
SELECT pg_temp.error_report($$SELECT run_spec(7e9, 1.4e12, 8, 'H100', optimizer => 'adam')$$);
SELECT pg_temp.error_report($$SELECT run_spec(7e9, 1.4e12, 8, 'H100', ffn_act => 'relu')$$);
SELECT pg_temp.error_report($$SELECT run_spec(7e9, 1.4e12, 8, 'H100', attention => 'sdpa')$$);
SELECT pg_temp.error_report($$SELECT run_spec(7e9, 1.4e12, 8, 'H100', grad_dtype => 'fp16')$$);

-- Errors speak to users: an import's error carries the line and column of the file in its
-- CONTEXT, and no internal query text (0.3.0 printed ~60 lines of an internal CTE).
\set SHOW_CONTEXT always
SELECT * FROM import_skypilot_catalog('lambda', E'InstanceType,AcceleratorName,AcceleratorCount,Region\ngpu_1x_h100_pcie,H100,1,us-east-1\n', '2024-01-01');
SELECT * FROM import_skypilot_catalog('lambda', E'InstanceType,AcceleratorName,AcceleratorCount,Price,Region\ngpu_1x_h100_pcie,H100,abc,1.99,us-east-1\n', '2024-01-01');
SELECT * FROM import_skypilot_catalog('lamda', E'InstanceType,AcceleratorName,AcceleratorCount,Price,Region\n', '2024-01-01');
\set SHOW_CONTEXT never
