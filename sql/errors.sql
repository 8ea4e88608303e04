-- Bad input: every case is an ERROR with SQLSTATE 22023 (22003 for overflow) that names the field and its range.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET search_path = llm_econ, public;

-- NaN, infinities, zero and negatives
SELECT run_spec('NaN', 1.4e12, 8, 'H100-SXM5');
SELECT run_spec(7e9, 'Infinity', 8, 'H100-SXM5');
SELECT run_spec(7e9, '-Infinity', 8, 'H100-SXM5');
SELECT run_spec(0, 1.4e12, 8, 'H100-SXM5');
SELECT run_spec(-7e9, 1.4e12, 8, 'H100-SXM5');
SELECT run_spec(7e9, 1.4e12, 0, 'H100-SXM5');
SELECT run_spec(7e9, 1.4e12, -8, 'H100-SXM5');
SELECT run_spec(1e308, 1.4e12, 8, 'H100-SXM5');
-- MFU outside (0, 1]
SELECT run_spec(7e9, 1.4e12, 8, 'H100-SXM5', mfu => 1.5);
SELECT run_spec(7e9, 1.4e12, 8, 'H100-SXM5', mfu => 0);
SELECT run_spec(7e9, 1.4e12, 8, 'H100-SXM5', mfu => -0.4);
SELECT run_spec(7e9, 1.4e12, 8, 'H100-SXM5', mfu => 'NaN');
-- unknown SKU, with close matches
SELECT run_spec(7e9, 1.4e12, 8, 'H100-SMX');
SELECT run_spec(7e9, 1.4e12, 8, 'a100-80');
SELECT run_spec(7e9, 1.4e12, 8, 'TPUv5');
SELECT run_spec(7e9, 1.4e12, 8, '');
-- a precision the SKU lacks
SELECT run_spec(7e9, 1.4e12, 8, 'A100-80GB', dtype => 'fp8');
SELECT run_spec(7e9, 1.4e12, 8, 'V100');
SELECT run_spec(7e9, 1.4e12, 8, 'H100-SXM5', dtype => 'int8');
-- tp*pp must divide n_gpus; other strategy fields
SELECT run_spec(7e9, 1.4e12, 8, 'H100-SXM5', tp => 3);
SELECT run_spec(7e9, 1.4e12, 8, 'H100-SXM5', tp => 4, pp => 4);
SELECT run_spec(7e9, 1.4e12, 8, 'H100-SXM5', tp => 0);
SELECT run_spec(7e9, 1.4e12, 8, 'H100-SXM5', zero_stage => 4);
SELECT run_spec(7e9, 1.4e12, 8, 'H100-SXM5', n_layers => -32);
SELECT run_spec(7e9, 1.4e12, 8, 'H100-SXM5', micro_batch => 0);
SELECT run_spec(7e9, 1.4e12, 8, 'H100-SXM5', global_batch => 12);
SELECT run_spec(7e9, 1.4e12, 8, 'H100-SXM5', d_model => 4096, n_heads => 30);
SELECT run_spec(7e9, 1.4e12, 8, 'H100-SXM5', recompute => 'some');
SELECT run_spec(7e9, 1.4e12, 8, 'H100-SXM5', optimizer => 'adam');
SELECT run_spec(7e9, 1.4e12, 8, 'H100-SXM5', gpus_per_node => 0);
SELECT run_spec(7e9, 1.4e12, 8, 'H100-SXM5', inter_node_gbit_per_s => 0);
SELECT run_spec(7e9, 1.4e12, 8, 'H100-SXM5', inter_node_gbit_per_s => NULL);
-- NULL where a value is required
SELECT run_spec(NULL, 1.4e12, 8, 'H100-SXM5');
SELECT run_spec(7e9, 1.4e12, 8, NULL);
SELECT run_spec(7e9, 1.4e12, 8, 'H100-SXM5', mfu => NULL);
-- prices: negative, NaN, infinite; unknown pricing kind
SELECT estimate_cost(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), -2.49);
SELECT estimate_cost(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 'NaN'::numeric);
SELECT estimate_cost(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 'Infinity'::numeric);
SELECT estimate_cost(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), '-Infinity'::numeric);
SELECT price_at('H100-SXM5', 'lambda', 'preemptible');
SELECT estimate_cost(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 'lambda', 'Spot');
SELECT price_at('H200', 'lambda', 'on_demand', '2024-07-01', NULL) IS NOT NULL AS known,
       price_at('H100-SXMS', 'lambda');
-- no price known
SELECT estimate_cost(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 'nosuchcloud', 'on_demand', '2024-07-01');
SELECT estimate_cost(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 'lambda', 'spot', '2020-01-01');
-- other arguments
SELECT energy_kwh(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 0.9);
SELECT energy_kwh(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 'NaN');
SELECT achieved_mfu(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), interval '0');
SELECT achieved_mfu(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), interval '-3 hours');

-- A hand-built composite bypasses the constructor; every function checks what it reads.
-- field order: n_params, n_tokens, sku, n_gpus, gpus_per_node, mfu, dtype, peak_flops, hbm_bytes,
-- intra, inter, tdp_watts, n_layers, d_model, n_heads, seq_len, micro_batch, global_batch,
-- tp, pp, zero_stage, recompute, optimizer
SELECT mfu_time(ROW(7e9, 1.4e12, 'H100-SXM5', 8, 8, 1.5, 'bf16', 989e12, 80e9, 450e9, 50e9, 700,
                    NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec);
SELECT gpu_hours(ROW(7e9, 1.4e12, 'H100-SXM5', 8, 8, 0.4, 'bf16', 0, 80e9, 450e9, 50e9, 700,
                     NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec);
SELECT energy_kwh(ROW(7e9, 1.4e12, 'H100-SXM5', 8, 8, 0.4, 'bf16', 989e12, 80e9, 450e9, 50e9, 'NaN',
                      NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec);
SELECT training_flops(ROW(NULL, 1.4e12, 'H100-SXM5', 8, 8, 0.4, 'bf16', 989e12, 80e9, 450e9, 50e9, 700,
                          NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec);
SELECT estimate_cost(ROW(7e9, 1.4e12, 'H100-SXM5', -8, 8, 0.4, 'bf16', 989e12, 80e9, 450e9, 50e9, 700,
                         NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec, 2.49);
SELECT achieved_mfu(ROW(7e9, 1.4e12, 'H100-SXM5', 8, 8, 0.4, 'bf16', '-Infinity', 80e9, 450e9, 50e9, 700,
                        NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec, interval '1 hour');
-- An all-NULL composite is not NULL (STRICT does not catch it): still an error, not a NULL.
SELECT mfu_time(ROW(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec);
-- Fields a function does not read are not its business: a bad dtype does not stop mfu_time.
SELECT mfu_time(ROW(7e9, 1.4e12, 'H100-SXM5', 1024, 8, 0.45, 'int4', 989e12, 80e9, 450e9, 50e9, 700,
                    NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec);
-- Overflow: each field in range, the combination not: 22003.
SELECT mfu_time(ROW(1e18, 1e18, 'H100-SXM5', 1, 8, 1e-300, 'bf16', 1, 80e9, 450e9, 50e9, 700,
                    NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec);
SELECT mfu_time(ROW(1e18, 1e18, 'H100-SXM5', 1, 8, 1e-6, 'bf16', 1, 80e9, 450e9, 50e9, 700,
                    NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec);

-- The price table refuses duplicate observations and non-positive prices.
-- (terse: the DETAIL would show the row's serial id)
\set VERBOSITY terse
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
VALUES ('2024-06-01 00:00+00', 'lambda', 'H100-SXM5', 'on_demand', 3.29, 'duplicate of a seed row');
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
VALUES ('2025-01-01', 'lambda', 'H100-SXM5', 'on_demand', 0, 'test');
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
VALUES ('2025-01-01', 'lambda', 'H100-SXM5', 'on_demand', -1, 'test');
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
VALUES ('2025-01-01', 'lambda', 'H100-SXM5', 'on_demand', 'NaN', 'test');
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
VALUES ('2025-01-01', 'lambda', 'H100-SXM5', 'spot_market', 2, 'test');
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
VALUES ('2025-01-01', 'Lambda Labs', 'H100-SXM5', 'spot', 2, 'test');
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
VALUES ('2025-01-01', 'lambda', 'H100', 'spot', 2, 'test');
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
VALUES ('infinity', 'lambda', 'H100-SXM5', 'spot', 2, 'test');
-- SKU keys and aliases are unique ignoring case
INSERT INTO gpu_sku_alias (alias, sku) VALUES ('h100', 'H100-PCIe');

\set VERBOSITY default

-- Table-driven: the SQLSTATE of each bad call (the session survives every one).
CREATE FUNCTION pg_temp.outcome(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE;
END $$;
SELECT pg_temp.outcome(q) AS sqlstate, count(*) AS cases
  FROM (VALUES
    ($$SELECT run_spec('NaN', 1e12, 8, 'H100')$$),
    ($$SELECT run_spec(1e9, 'Infinity', 8, 'H100')$$),
    ($$SELECT run_spec(1e9, '-Infinity', 8, 'H100')$$),
    ($$SELECT run_spec(0, 1e12, 8, 'H100')$$),
    ($$SELECT run_spec(-1, 1e12, 8, 'H100')$$),
    ($$SELECT run_spec(1e9, 1e12, 0, 'H100')$$),
    ($$SELECT run_spec(1e9, 1e12, 8, 'H100', mfu => 1.01)$$),
    ($$SELECT run_spec(1e9, 1e12, 8, 'H100', mfu => 0)$$),
    ($$SELECT run_spec(1e9, 1e12, 8, 'nope')$$),
    ($$SELECT run_spec(1e9, 1e12, 8, 'A100-80GB', dtype => 'fp8')$$),
    ($$SELECT run_spec(1e9, 1e12, 8, 'H100', tp => 3)$$),
    ($$SELECT run_spec(1e9, 1e12, 8, 'H100', pp => 16)$$),
    ($$SELECT run_spec(1e9, 1e12, 8, 'H100', zero_stage => -1)$$),
    ($$SELECT price_at('H100', 'lambda', 'on-demand')$$),
    ($$SELECT estimate_cost(run_spec(1e9, 1e12, 8, 'H100'), -0.01)$$),
    ($$SELECT energy_kwh(run_spec(1e9, 1e12, 8, 'H100'), 'Infinity')$$),
    ($$SELECT mfu_time(ROW(1e18, 1e18, 'H100-SXM5', 1, 8, 1e-300, 'bf16', 1, 80e9, 450e9, 50e9, 700,
                           NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec)$$)
  ) AS t(q)
 GROUP BY 1 ORDER BY 1;
SELECT 'session still alive' AS check;

-- The README's table: one example of each SQLSTATE the extension raises by kind, with the
-- DETAIL, HINT and CONTEXT a client sees (a file error's line and column are in the CONTEXT).
\i sql/include/error_report.sql
-- 22023: a value outside its range
SELECT pg_temp.error_report($$SELECT run_spec(7e9, 1.4e12, 8, 'H100-SXM5', mfu => 1.5)$$) AS error;
-- 22003: fields each in range, a result that does not fit
SELECT pg_temp.error_report($$SELECT mfu_time(ROW(1e18, 1e18, 'H100-SXM5', 1, 8, 1e-300, 'bf16', 1, 80e9, 450e9, 50e9, 700,
    NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec)$$) AS error;
-- 22P04: a file that cannot be read; a quote error names its other line in the DETAIL
SELECT pg_temp.error_report($$SELECT * FROM llm_econ._skypilot_offers('lambda',
    E'InstanceType,AcceleratorName,AcceleratorCount,Price,Region\nx,A,1,abc,r\n')$$) AS error;
SELECT pg_temp.error_report($$SELECT * FROM llm_econ._skypilot_offers('lambda',
    E'InstanceType,AcceleratorName,AcceleratorCount,Price,Region\nx,A,1,"1\n2,r\ny,B,1,"3",r\n')$$) AS error;
SELECT pg_temp.error_report($$SELECT llm_econ._csv_header(E'a,b,A\n', 'focus_csv')$$) AS error;
-- 22023 for a field that reads but is not allowed, with the same CONTEXT
SELECT pg_temp.error_report($$SELECT * FROM llm_econ._skypilot_offers('lambda',
    E'InstanceType,AcceleratorName,AcceleratorCount,Price,Region\nx,A,1,-2,r\n')$$) AS error;
-- 54000: beyond a documented size limit
SELECT pg_temp.error_report($$SELECT run_spec(7e9, 1.4e12, 8, repeat('x', 300))$$) AS error;
-- An error SPI raises for the caller keeps its SQLSTATE (here 42501, a missing grant): it does
-- not become an internal error.
BEGIN;
CREATE ROLE regress_errors_nopriv;
GRANT USAGE ON SCHEMA llm_econ TO regress_errors_nopriv;
REVOKE SELECT ON llm_econ.gpu_sku, llm_econ.gpu_sku_alias FROM PUBLIC;
SET LOCAL ROLE regress_errors_nopriv;
SELECT left(e, 49) AS error FROM pg_temp.error_report($$SELECT run_spec(7e9, 1.4e12, 8, 'H100')$$) AS e LIMIT 1;
ROLLBACK;
