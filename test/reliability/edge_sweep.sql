-- edge_sweep.sql: prints random calls (one statement per line) of every llm_econ function the current role may execute, with edge-case arguments; run by test/reliability/sqlsmith.sh (psql -At -v seed=N -v calls=K).
\set ON_ERROR_STOP 1
SELECT pg_catalog.setseed(((:seed)::bigint % 2000000) / 1000000.0 - 1) \g /dev/null

-- Edge values per argument type, as SQL expressions (no raw line breaks: E'' escapes instead).
-- An argument of a type not listed here gets NULL of that type.
WITH vals(typ, v) AS (VALUES
  ('float8'::regtype, $$NULL::float8$$), ('float8', $$0::float8$$), ('float8', $$'-0'::float8$$),
  ('float8', $$1::float8$$), ('float8', $$-1::float8$$), ('float8', $$0.5::float8$$), ('float8', $$1.2::float8$$),
  ('float8', $$5::float8$$), ('float8', $$5.000001::float8$$), ('float8', $$1e-300::float8$$),
  ('float8', $$'5e-324'::float8$$), ('float8', $$1e18::float8$$), ('float8', $$1e308::float8$$),
  ('float8', $$'NaN'::float8$$), ('float8', $$'Infinity'::float8$$), ('float8', $$'-Infinity'::float8$$),
  ('float8', $$7e9::float8$$), ('float8', $$0.4234::float8$$), ('float8', $$2147483648::float8$$),
  ('int4', $$NULL::int4$$), ('int4', $$0$$), ('int4', $$1$$), ('int4', $$-1$$), ('int4', $$2$$), ('int4', $$8$$),
  ('int4', $$10$$), ('int4', $$64$$), ('int4', $$4096$$), ('int4', $$4097$$), ('int4', $$2147483647$$),
  ('int4', $$(-2147483647 - 1)$$), ('int4', $$720720$$),
  ('text', $$NULL::text$$), ('text', $$''$$), ('text', $$'H100'$$), ('text', $$'H100-SXM5'$$),
  ('text', $$'h100-sxm5 '$$), ('text', $$'A100-80GB'$$), ('text', $$'A10G'$$), ('text', $$'B200'$$),
  ('text', $$'H10-SXM'$$), ('text', $$'bf16'$$), ('text', $$'fp8'$$), ('text', $$'fp32'$$), ('text', $$'full'$$),
  ('text', $$'sgd'$$), ('text', $$'on_demand'$$), ('text', $$'spot'$$), ('text', $$'reserved'$$),
  ('text', $$'gcp'$$), ('text', $$'lambda'$$), ('text', $$'aws'$$), ('text', $$'runpod'$$), ('text', $$'error'$$),
  ('text', $$'skip'$$), ('text', $$'price_history_staging'$$), ('text', $$'smith_team'$$),
  ('text', $$repeat('x', 10000)$$), ('text', $$E'\u00e9\t\u2603'$$), ('text', $$E'\"unclosed\n'$$),
  ('text', $$E'InstanceType,AcceleratorName,AcceleratorCount,Price,Region\np4d.24xlarge,A100,8,32.77,us-east-1\n'$$),
  ('text', $$E'InstanceType,AcceleratorName,AcceleratorCount,Price,Region,AvailabilityZone,SpotPrice\na3-megagpu-8g,,,10.5,us-central1,us-central1-a,3.1\n,H100,8,20.0,us-central1,us-central1-a,8.0\n,T4,1,NaN,us-east1,us-east1-c,0.11\n'$$),
  ('text', $$E'InstanceType,AcceleratorName,AcceleratorCount,Price,Region\nx,H100,99999999999,1e400,r\n'$$),
  ('text', $$E'BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory,BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,ConsumedQuantity,ConsumedUnit,ChargeDescription,Tags\n111,USD,2025-03-01T00:00:00Z,2025-04-01T00:00:00Z,Usage,1.5,1.5,2025-03-01T00:00:00Z,2025-03-02T00:00:00Z,AWS,24,Hours,p5.48xlarge Instance Hour,"{""run_id"": ""run-1b""}"\n'$$),
  ('text', $$E'BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory,BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName\n111,USD,2025-03-01T00:00:00Z,2025-04-01T00:00:00Z,Usage,NaN,1e999,infinity,-infinity,AWS\n'$$),
  ('text', $$E'a,b\n1,2,3\n'$$), ('text', $$E'\n\n\n'$$),
  ('numeric', $$NULL::numeric$$), ('numeric', $$0::numeric$$), ('numeric', $$-1::numeric$$), ('numeric', $$2.49$$),
  ('numeric', $$1e-20$$), ('numeric', $$1e20$$), ('numeric', $$'NaN'::numeric$$), ('numeric', $$'Infinity'::numeric$$),
  ('numeric', $$'-Infinity'::numeric$$), ('numeric', $$99999999999999999999999999999999999999.99$$), ('numeric', $$0.10$$),
  ('interval', $$NULL::interval$$), ('interval', $$'0'::interval$$), ('interval', $$'-1 s'::interval$$),
  ('interval', $$'1 us'::interval$$), ('interval', $$'90 s'::interval$$), ('interval', $$'30 min'::interval$$),
  ('interval', $$'1 month'::interval$$), ('interval', $$'30 days'::interval$$), ('interval', $$'184320 hours'::interval$$),
  ('interval', $$'178000000 years'::interval$$), ('interval', $$'-178000000 years'::interval$$),
  ('interval', $$'2562047788 hours'::interval$$), ('interval', $$'1 day -86399 s'::interval$$),
  ('timestamptz', $$NULL::timestamptz$$), ('timestamptz', $$now()$$), ('timestamptz', $$'2024-07-01'::timestamptz$$),
  ('timestamptz', $$'2025-03-01'::timestamptz$$), ('timestamptz', $$'infinity'::timestamptz$$),
  ('timestamptz', $$'-infinity'::timestamptz$$), ('timestamptz', $$'4713-01-01 00:00 UTC BC'::timestamptz$$),
  ('timestamptz', $$'294276-12-31 00:00 UTC'::timestamptz$$),
  ('tstzrange', $$NULL::tstzrange$$), ('tstzrange', $$'empty'::tstzrange$$),
  ('tstzrange', $$'[2024-06-01,2024-07-01)'::tstzrange$$), ('tstzrange', $$'(,)'::tstzrange$$),
  ('tstzrange', $$'[2024-06-01,2024-06-01]'::tstzrange$$), ('tstzrange', $$'[-infinity,infinity]'::tstzrange$$),
  ('tstzrange', $$'[2022-01-01,2027-01-01)'::tstzrange$$),
  ('bool', $$NULL::boolean$$), ('bool', $$true$$), ('bool', $$false$$),
  ('jsonb', $$NULL::jsonb$$), ('jsonb', $$'{}'::jsonb$$), ('jsonb', $$'[]'::jsonb$$), ('jsonb', $$'null'::jsonb$$),
  ('jsonb', $$'{"BilledCost": "1", "EffectiveCost": "NaN", "ChargePeriodStart": "2025-03-01"}'::jsonb$$),
  ('text[]', $$NULL::text[]$$), ('text[]', $$'{}'::text[]$$), ('text[]', $$'{NULL}'::text[]$$), ('text[]', $$ARRAY['H100', 'gcp']$$),
  ('timestamptz[]', $$NULL::timestamptz[]$$), ('timestamptz[]', $$'{}'::timestamptz[]$$), ('timestamptz[]', $$ARRAY[now(), 'infinity']$$),
  ('numeric[]', $$NULL::numeric[]$$), ('numeric[]', $$'{}'::numeric[]$$), ('numeric[]', $$ARRAY[1.5, 'NaN']$$),
  ('int4[]', $$NULL::int4[]$$), ('int4[]', $$'{}'::int4[]$$), ('int4[]', $$ARRAY[8, 0]$$),
  -- run_spec: built by the constructor, and by hand (ROW(...)::run_spec bypasses the constructor's checks;
  -- fields: n_params, n_tokens, sku, n_gpus, gpus_per_node, mfu, dtype, peak_flops, hbm_bytes, intra, inter,
  -- tdp, n_layers, d_model, n_heads, seq_len, micro_batch, global_batch, tp, pp, zero_stage, recompute, optimizer)
  ('llm_econ.run_spec', $$NULL::llm_econ.run_spec$$),
  ('llm_econ.run_spec', $$llm_econ.run_spec(7e9, 1.4e12, 64, 'H100-SXM5')$$),
  ('llm_econ.run_spec', $$llm_econ.run_spec(7e9, 1.4e12, 256, 'H100', mfu => 0.45, n_layers => 32, d_model => 4096, n_heads => 32, seq_len => 2048, global_batch => 512)$$),
  ('llm_econ.run_spec', $$llm_econ.run_spec(20e9, 4e11, 64, 'H100', n_layers => 44, d_model => 6144, n_heads => 64, seq_len => 2048, global_batch => 512, tp => 2, pp => 4, zero_stage => 1)$$),
  ('llm_econ.run_spec', $$llm_econ.run_spec(1e15, 1e13, 1, 'H100-SXM5')$$),
  ('llm_econ.run_spec', $$llm_econ.run_spec(1e12, 1e12, 720720, 'H100', n_layers => 48, d_model => 6144, n_heads => 48, seq_len => 2048)$$),
  ('llm_econ.run_spec', $$ROW(7e9, 1.4e12, 'X', 2095133040, 4096, 0.4, 'bf16', 1e15, 8e10, 4.5e11, 5e10, 700, NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::llm_econ.run_spec$$),
  ('llm_econ.run_spec', $$ROW(1e18, 1e18, 'X', 2147483647, 4096, 1, 'fp32', 1e-300, 1e15, 1e-300, 1e-300, 1e5, 100000, 10000000, 1000000, 1000000000, 1000000000, 2147483647, 1, 1, 3, 'full', 'sgd', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::llm_econ.run_spec$$),
  ('llm_econ.run_spec', $$ROW('NaN', 1e12, 'X', 1, 8, 0.4, 'bf16', 1e15, 8e10, 4.5e11, 5e10, 700, NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::llm_econ.run_spec$$),
  ('llm_econ.run_spec', $$ROW(7e9, 1e12, NULL, 0, 0, 'Infinity', 'bogus', -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 'half', 'lion', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::llm_econ.run_spec$$),
  ('llm_econ.run_spec', $$ROW(7e9, 1e12, '', 8, 8, 0.4, '', 1e15, 8e10, 4.5e11, 5e10, 700, 32, 4096, 32, 2048, 1, 8, 2, 2, 2, 'selective', 'adamw_8bit', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::llm_econ.run_spec$$),
  ('llm_econ.run_spec', $$ROW(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::llm_econ.run_spec$$)
),
fn AS (
  SELECT p.oid, p.proname, p.proretset, p.proargtypes::oid[] AS args
    FROM pg_catalog.pg_proc p
   WHERE p.pronamespace = 'llm_econ'::regnamespace AND p.prokind = 'f'
     AND p.prorettype <> 'trigger'::regtype
     AND pg_catalog.has_function_privilege(p.oid, 'EXECUTE')
),
calls AS (SELECT fn.*, k FROM fn, generate_series(1, :calls) AS k)
SELECT CASE WHEN c.proretset
            THEN format('SELECT count(*), md5(string_agg(r::text, %L)) FROM llm_econ.%I(%s) AS r;', ',', c.proname, a.list)
            ELSE format('SELECT (llm_econ.%I(%s))::text;', c.proname, a.list) END
  FROM calls AS c,
       LATERAL (SELECT coalesce(string_agg(coalesce(
                         (SELECT v.v FROM vals AS v WHERE v.typ = t.typ::regtype AND c.k IS NOT NULL ORDER BY random() LIMIT 1),
                         format('NULL::%s', t.typ::regtype)), ', ' ORDER BY t.ord), '') AS list
                  FROM unnest(c.args) WITH ORDINALITY AS t(typ, ord)) AS a
 ORDER BY random();
