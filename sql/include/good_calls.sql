-- good_calls.sql: a call with good arguments for every function of schema llm_econ and for the statements that fire its triggers (included by robustness.sql and volatility.sql).
--
-- A function is called with the good value of each argument, found by the argument's name and
-- type (rb_good; a row naming a target overrides the general one).  A new function whose
-- arguments are named and typed as existing ones needs nothing here.  pg_temp.rb_sql(target,
-- pos, expr) writes the statement with argument pos replaced by expr (NULL pos: all good), and
-- pg_temp.rb_call(target) the call alone, as `name(arguments)`.

-- Good values, by argument name and type (target NULL = any function); a SQL expression each.
CREATE TEMP TABLE rb_good (target text, arg text, typ regtype, expr text NOT NULL,
                           UNIQUE NULLS NOT DISTINCT (target, arg, typ));
INSERT INTO rb_good VALUES
  -- run_spec's constructor
  (NULL, 'n_params', 'float8', '36e9'), (NULL, 'n_tokens', 'float8', '1.4e12'), (NULL, 'n_gpus', 'int4', '64'),
  ('run_spec', 'sku', 'text', '''H100'''), (NULL, 'mfu', 'float8', '0.45'), (NULL, 'dtype', 'text', '''bf16'''),
  (NULL, 'n_layers', 'int4', '32'), (NULL, 'd_model', 'int4', '4096'), (NULL, 'n_heads', 'int4', '32'),
  (NULL, 'seq_len', 'int4', '2048'), (NULL, 'micro_batch', 'int4', '1'), (NULL, 'global_batch', 'int4', '512'),
  (NULL, 'tp', 'int4', '2'), (NULL, 'pp', 'int4', '2'), (NULL, 'zero_stage', 'int4', '1'),
  (NULL, 'recompute', 'text', '''selective'''), (NULL, 'optimizer', 'text', '''adamw'''),
  (NULL, 'gpus_per_node', 'int4', '8'), (NULL, 'inter_node_gbit_per_s', 'float8', '400'),
  (NULL, 'n_active_params', 'float8', '10e9'), (NULL, 'n_experts', 'int4', '8'), (NULL, 'top_k', 'int4', '2'),
  (NULL, 'ep', 'int4', '2'), (NULL, 'cp', 'int4', '1'), (NULL, 'vpp', 'int4', '2'), (NULL, 'n_kv_heads', 'int4', '32'),
  (NULL, 'ffn_hidden', 'int4', '11008'), (NULL, 'ffn_act', 'text', '''swiglu'''), (NULL, 'vocab_size', 'int4', '32000'),
  (NULL, 'sequence_parallel', 'boolean', 'true'), (NULL, 'attention', 'text', '''flash'''),
  (NULL, 'grad_dtype', 'text', '''fp32'''), (NULL, 'attention_flops', 'boolean', 'true'),
  (NULL, 'q_lora_rank', 'int4', '1024'), (NULL, 'kv_lora_rank', 'int4', '512'), (NULL, 'qk_nope_head_dim', 'int4', '128'),
  (NULL, 'qk_rope_head_dim', 'int4', '64'), (NULL, 'v_head_dim', 'int4', '128'), (NULL, 'dropout', 'boolean', 'true'),
  (NULL, 'stack', 'text', '''torch_compile'''), (NULL, 'fp8_attention', 'boolean', 'true'),
  (NULL, 'fsdp_reshard', 'boolean', 'true'),
  -- functions of a spec
  (NULL, 'spec', 'llm_econ.run_spec', 'GOOD_SPEC'),
  (NULL, 'pue', 'float8', '1.2'), (NULL, 'wall', 'interval', '''184320 hours'''),
  (NULL, 'usd_per_gpu_hour', 'numeric', '2.49'), (NULL, 'kg_co2_per_kwh', 'float8', '0.4'),
  (NULL, 'checkpoint_write', 'interval', '''90 seconds'''), (NULL, 'mtbf_per_node', 'interval', '''30 days'''),
  (NULL, 'checkpoint_every', 'interval', '''30 minutes'''), (NULL, 'checkpoints_kept', 'int4', '10'),
  (NULL, 'checkpoint_gb', 'float8', '98'), (NULL, 'dataset_gb', 'float8', '5600'),
  (NULL, 'storage_usd_per_gb_month', 'numeric', '0.02'), (NULL, 'storage_months', 'float8', '1'),
  (NULL, 'egress_gb', 'float8', '10'), (NULL, 'egress_usd_per_gb', 'numeric', '0.08'),
  (NULL, 'owned', 'boolean', 'true'), (NULL, 'usd_per_kwh', 'numeric', '0.10'),
  (NULL, 'spot_buffer', 'numeric', '0.10'), (NULL, 'years', 'float8', '4'), (NULL, 'utilization', 'float8', '0.7'),
  -- predicted MFU and the cheapest plan
  (NULL, 'dp_overlap', 'boolean', 'true'), (NULL, 'model', 'llm_econ.run_spec', 'GOOD_SPEC'),
  (NULL, 'deadline', 'interval', '''30 days'''), (NULL, 'max_gpus', 'int4', '64'),
  (NULL, 'calibrated', 'boolean', 'false'),
  ('_observed_mfu', 'tokens_per_second', 'float8', '1e5'), ('_observed_mfu', 'step_seconds', 'float8', 'NULL'),
  -- prices
  (NULL, 'sku', 'text', '''H100-SXM5'''), (NULL, 'provider', 'text', '''lambda'''),
  (NULL, 'pricing', 'text', '''on_demand'''), (NULL, 'at', 'timestamptz', '''2024-07-01 00:00+00'''),
  (NULL, 'region', 'text', 'NULL'), (NULL, 'during', 'tstzrange', '''[2024-06-01 00:00+00, 2024-07-01 00:00+00)'''),
  (NULL, 'max_age', 'interval', '''400 days'''), (NULL, 'itype', 'text', 'NULL'),
  (NULL, 'instance_type', 'text', '''p5.48xlarge'''), (NULL, 'source_kinds', 'text[]', 'NULL'),
  (NULL, 'kinds', 'text[]', 'ARRAY[''catalog'']'), (NULL, 'seen', 'timestamptz[]', 'NULL'),
  ('_price_changes/10', 'src', 'text', '''skypilot:lambda'''),
  ('_mark_seen/3', 'series_id', 'int8[]', 'ARRAY[1]::int8[]'),
  ('_mark_seen/3', 'observed_at', 'timestamptz[]', 'ARRAY[''2023-01-01 00:00+00'']::timestamptz[]'),
  ('_mark_seen/3', 'seen', 'timestamptz[]', 'ARRAY[''2023-02-01 00:00+00'']::timestamptz[]'),
  ('_reraise/5', 'sqlstate', 'text', '''22023'''), ('_reraise/5', 'message', 'text', '''robustness'''),
  ('_reraise/5', 'detail', 'text', 'NULL'), ('_reraise/5', 'hint', 'text', 'NULL'), ('_reraise/5', 'context', 'text', 'NULL'),
  (NULL, 'include_suspect', 'boolean', 'false'), (NULL, 'withdraw_missing', 'boolean', 'NULL'),
  (NULL, 'accelerator', 'text', '''H100'''),
  ('_shift/2', 't', 'timestamptz', '''2024-07-01 00:00+00'''), ('_shift/2', 'by', 'interval', '''-400 days'''),
  -- imports
  (NULL, 'cloud', 'text', '''lambda'''),
  (NULL, 'catalog_csv', 'text', 'E''InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,SpotPrice\n'
                                 'gpu_1x_h100_pcie,H100,1.0,26.0,200.0,1.99,us-east-1,\n'
                                 'gpu_8x_a100_80gb_sxm4,A100-80GB,8.0,240.0,1800.0,12.0,us-east-1,6.0\n'''),
  (NULL, 'observed_at', 'timestamptz', '''2023-06-15 00:00+00'''),
  (NULL, 'obs_at', 'timestamptz[]', 'ARRAY[''2023-01-01 00:00+00'']::timestamptz[]'),
  (NULL, 'provider', 'text[]', 'ARRAY[''robustness'']'), (NULL, 'sku', 'text[]', 'ARRAY[''H100-SXM5'']'),
  (NULL, 'region', 'text[]', 'ARRAY[''r1'']'), (NULL, 'pricing', 'text[]', 'ARRAY[''on_demand'']'),
  (NULL, 'usd', 'numeric[]', 'ARRAY[1.5]'), (NULL, 'instance_type', 'text[]', 'ARRAY[''x1.large'']'),
  (NULL, 'gpus', 'int4[]', 'ARRAY[1]'), (NULL, 'source', 'text', '''robustness test'''),
  (NULL, 'kind', 'text', '''catalog'''),
  (NULL, 'on_mismatch', 'text', '''error'''), (NULL, 'quiet', 'boolean', 'false'),
  (NULL, 'v', 'numeric', '1.23456'), (NULL, 'name', 'text', '''H100'''),
  (NULL, 'value', 'text', '''us-east-1'''), (NULL, 'field', 'text', '''region'''),
  (NULL, 'providers', 'text[]', 'ARRAY[''robustness'']'), (NULL, 'names', 'text[]', 'ARRAY[''H100'', ''p5.48xlarge'']'),
  -- the catalog identity rule (issue 45)
  (NULL, 'candidates', 'text[]', 'ARRAY[''H100-SXM5'']'), (NULL, 'family', 'text', '''H100'''),
  (NULL, 'family_default', 'text', '''H100-SXM5'''), (NULL, 'names', 'text', '''p5.48xlarge H100'''),
  (NULL, 'gpu_mib', 'int4', '81920'), (NULL, 'gpus', 'int4', '8'), (NULL, 'variant', 'text', '''sxm'''),
  (NULL, 'gpus_per_instance', 'int4', '8'), (NULL, 'memory_gib', 'text', '''2048.0'''),
  -- FOCUS
  (NULL, 'csv', 'text', 'E''a,b\n1,2\n'''), (NULL, 'what', 'text', '''csv'''),
  (NULL, 'v', 'text', '''2024-06-01T00:00:00Z'''), (NULL, 'tenant', 'text', 'CURRENT_USER::text'),
  (NULL, 'r', 'jsonb', '''{"ChargePeriodStart": "2024-06-01T00:00:00Z", "ChargePeriodEnd": "2024-06-01T01:00:00Z", '
                        '"ProviderName": "AWS", "BilledCost": "98.32", "EffectiveCost": "98.32", "ConsumedQuantity": "1", '
                        '"ConsumedUnit": "Hours", "PricingCategory": "Standard", '
                        '"ChargeDescription": "$98.32 per On Demand Linux p5.48xlarge Instance Hour", '
                        '"Tags": "{\"run_id\": \"r1\"}"}'''),
  (NULL, 'focus_csv', 'text', 'E''BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,ChargeDescription,ConsumedQuantity,ConsumedUnit,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
                              '98.32,98.32,2024-06-01T00:00:00Z,2024-06-01T01:00:00Z,AWS,p5.48xlarge on-demand,1,Hours,111,USD,2024-06-01T00:00:00Z,2024-07-01T00:00:00Z,Usage\n'''),
  (NULL, 'record', 'jsonb', '''{"ChargePeriodStart": "2024-06-01T00:00:00Z", "ProviderName": "AWS", "BilledCost": "98.32"}'''),
  ('_focus_id_key/2', 'id', 'text', ''' /subscriptions/AAAA-1111 '''),
  ('_focus_lines/2', 'csv', 'text', 'E''BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n1,1,2024-06-01,2024-06-02,AWS,111,USD,2024-06-01T00:00:00Z,2024-07-01T00:00:00Z,Usage\n'''),
  (NULL, 'fn', 'text', '''import_focus'''), (NULL, 'who', 'text', 'CURRENT_USER::text'),
  (NULL, 'replacing', 'boolean', 'false'), (NULL, 'staged', 'boolean', 'false'),
  (NULL, 'delivery', 'text', '''2024-06 v1'''), (NULL, 'currency', 'text', '''EUR'''),
  (NULL, 'after_id', 'int8', '0'), (NULL, 'last_id', 'int8', '0'), (NULL, 'first_line', 'int4', '1'),
  (NULL, 'counting', 'boolean', 'false'), (NULL, 'exact', 'boolean', 'false'),
  (NULL, 'start', 'int8', '0'), (NULL, 'stop', 'int8', '0'), (NULL, 'batch', 'int8', '1024'),
  (NULL, 'mode', 'text', '''append'''),
  (NULL, 'billing_period_start', 'timestamptz', '''2025-02-01 08:00+00'''),
  (NULL, 'billing_period_end', 'timestamptz', '''2025-03-01 08:00+00'''),
  (NULL, 'charge_period_start', 'timestamptz', '''2025-02-01 00:00+00'''),
  (NULL, 'charge_period_end', 'timestamptz', '''2025-02-02 00:00+00'''),
  -- the INSERT targets' other columns
  ('INSERT run_plan', 'run_id', 'text', '''robustness'''), ('INSERT run_plan', 'planned_at', 'timestamptz', '''2024-07-01 00:00+00'''),
  ('INSERT run_plan', 'usd_per_gpu_hour', 'numeric', 'NULL'),
  ('INSERT run_plan (frozen)', 'run_id', 'text', '''robustness'''),
  ('INSERT run_plan (frozen)', 'planned_at', 'timestamptz', '''2024-07-01 00:00+00'''),
  ('INSERT run_plan (frozen)', 'usd_per_gpu_hour', 'numeric', '2.49'),
  ('INSERT run_plan (frozen)', 'planned_gpu_hours', 'float8', 'llm_econ.gpu_hours(GOOD_SPEC)'),
  ('INSERT run_plan (frozen)', 'planned_usd', 'numeric', 'llm_econ.estimate_cost(GOOD_SPEC, 2.49)'),
  ('INSERT price_snapshot', 'usd_per_gpu_hour', 'numeric', '1.75'), ('INSERT price_snapshot', 'provider', 'text', '''robustness'''),
  ('INSERT price_snapshot', 'region', 'text', '''r1'''), ('INSERT price_snapshot', 'instance_type', 'text', '''x1.large'''),
  ('INSERT price_snapshot', 'gpus_per_instance', 'int4', '8'),
  ('UPDATE price_snapshot', 'usd_per_gpu_hour', 'numeric', '3.30'), ('UPDATE price_snapshot', 'region', 'text', '''r1'''),
  ('INSERT focus_stage', 'line', 'text', '''BilledCost,EffectiveCost'''),
  ('INSERT observed_run', 'run_id', 'text', '''robustness'''), ('INSERT observed_run', 'tokens_per_second', 'float8', '1e5'),
  ('INSERT observed_run', 'source', 'text', '''training log'''),
  ('INSERT price_history_stage', 'observed_at', 'text', '''2024-07-01T00:00:00Z'''),
  ('INSERT price_history_stage', 'cloud', 'text', '''gcp'''),
  ('INSERT price_history_stage', 'instance_type', 'text', '''a2-highgpu-1g'''),
  ('INSERT price_history_stage', 'accelerator', 'text', '''A100'''),
  ('INSERT price_history_stage', 'accelerator_count', 'text', '''1'''),
  ('INSERT price_history_stage', 'price_on_demand_usd_per_hour', 'text', '''3.67''');


-- The good spec: a 36B mixture of experts on 64 H100 with every field set (shape, batch, tp 2, pp 2, ZeRO-1,
-- latent attention, dropout, a torch stack, FP8 attention, resharding).
CREATE TEMP TABLE rb_spec_field AS
  SELECT a.attnum, a.attname::text AS field, a.atttypid::regtype AS typ,
         format('%s::%s', quote_nullable(j.value), a.atttypid::regtype) AS good
    FROM pg_attribute a
    JOIN json_each_text(to_json(run_spec(36e9, 1.4e12, 64, 'H100', mfu => 0.45, n_layers => 32, d_model => 4096,
                                         n_heads => 32, seq_len => 2048, global_batch => 512, tp => 2, pp => 2,
                                         zero_stage => 1, recompute => 'selective', gpus_per_node => 8,
                                         n_active_params => 10e9, n_experts => 8, top_k => 2, ep => 2, vpp => 2,
                                         n_kv_heads => 32, ffn_hidden => 11008, ffn_act => 'swiglu', vocab_size => 32000,
                                         grad_dtype => 'fp32', q_lora_rank => 1024, kv_lora_rank => 512,
                                         qk_nope_head_dim => 128, qk_rope_head_dim => 64, v_head_dim => 128,
                                         dropout => true, stack => 'torch_compile', fp8_attention => true,
                                         fsdp_reshard => true))) AS j
      ON j.key = a.attname::text
   WHERE a.attrelid = 'llm_econ.run_spec'::regclass AND a.attnum > 0 AND NOT a.attisdropped;

-- A run_spec literal with field f set to expr (NULL f: the good spec).
CREATE FUNCTION pg_temp.rb_spec(f text, expr text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT 'ROW(' || string_agg(CASE WHEN s.field = f THEN expr ELSE s.good END, ', ' ORDER BY s.attnum)
         || ')::llm_econ.run_spec'
    FROM rb_spec_field s
$$;

-- Targets: every function SQL can call, with its input arguments; plus statements on the tables
-- whose triggers call the trigger functions (an UPDATE changes one shipped row, rolled back).
CREATE TEMP TABLE rb_target (target text COLLATE "C" PRIMARY KEY, fn regprocedure, rel regclass, dml text,
                             args text[], types regtype[]);
INSERT INTO rb_target
  SELECT p.proname || '/' || p.pronargs, p.oid, NULL, NULL,
         (SELECT array_agg(u.nm ORDER BY u.o) FROM unnest(p.proargnames, p.proargmodes) WITH ORDINALITY AS u(nm, md, o)
           WHERE u.md IS NULL OR u.md IN ('i', 'b', 'v')),
         p.proargtypes::regtype[]
    FROM pg_proc p
   WHERE p.pronamespace = 'llm_econ'::regnamespace AND p.prokind = 'f' AND p.prorettype <> 'trigger'::regtype;
INSERT INTO rb_target VALUES
  ('INSERT run_plan', NULL, 'llm_econ.run_plan', 'INSERT', '{run_id,spec,provider,pricing,region,planned_at,usd_per_gpu_hour}',
   '{text,llm_econ.run_spec,text,text,text,timestamptz,numeric}'),
  ('INSERT run_plan (frozen)', NULL, 'llm_econ.run_plan', 'INSERT',
   '{run_id,spec,provider,pricing,region,planned_at,usd_per_gpu_hour,planned_gpu_hours,planned_usd}',
   '{text,llm_econ.run_spec,text,text,text,timestamptz,numeric,float8,numeric}'),
  ('INSERT price_snapshot', NULL, 'llm_econ.price_snapshot', 'INSERT',
   '{observed_at,provider,sku,region,pricing,usd_per_gpu_hour,instance_type,gpus_per_instance,source}',
   '{timestamptz,text,text,text,text,numeric,text,int4,text}'),
  ('UPDATE price_snapshot', NULL, 'llm_econ.price_snapshot', 'UPDATE',
   '{observed_at,sku,region,pricing,usd_per_gpu_hour}', '{timestamptz,text,text,text,numeric}'),
  ('INSERT focus_stage', NULL, 'llm_econ.focus_stage', 'INSERT', '{line}', '{text}'),
  ('INSERT observed_run', NULL, 'llm_econ.observed_run', 'INSERT', '{run_id,spec,provider,tokens_per_second,source}',
   '{text,llm_econ.run_spec,text,float8,text}'),
  ('INSERT price_history_stage', NULL, 'llm_econ.price_history_stage', 'INSERT',
   '{observed_at,cloud,instance_type,accelerator,accelerator_count,price_on_demand_usd_per_hour}',
   '{text,text,text,text,text,text}');

-- Each target's good value per argument (the most specific rb_good row).
CREATE TEMP TABLE rb_arg AS
  SELECT t.target, a.pos, a.arg COLLATE "C" AS arg, a.typ,
         (SELECT g.expr FROM rb_good g
           WHERE g.arg = a.arg AND g.typ = a.typ
             AND (g.target IS NULL OR g.target = t.target OR g.target = split_part(t.target, '/', 1))
           ORDER BY g.target NULLS LAST LIMIT 1) AS good
    FROM rb_target t, unnest(t.args, t.types) WITH ORDINALITY AS a(arg, typ, pos);

-- NULL if every function of a spec alone (spec the only argument without a default) accepts
-- spec (or, for the step-time model, refuses it for a missing shape as documented), else the
-- first one that raises and its message.
CREATE FUNCTION pg_temp.rb_spec_problem(spec llm_econ.run_spec) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  f regproc;
BEGIN
  FOR f IN SELECT p.oid FROM pg_proc p
            WHERE p.pronamespace = 'llm_econ'::regnamespace AND p.proargtypes[0] = 'llm_econ.run_spec'::regtype
              AND p.pronargs - p.pronargdefaults = 1 AND p.provolatile = 'i'
            ORDER BY p.proname LOOP
    BEGIN
      EXECUTE format('SELECT count(*) FROM %s($1)', f) USING spec;
    EXCEPTION WHEN OTHERS THEN
      -- by contract, the step-time model refuses a spec without its shape, global_batch or the
      -- frozen hbm_bytes_per_s / gpu_generation, naming what is missing (22023): not a problem
      IF SQLSTATE = '22023' AND SQLERRM LIKE 'the step-time model needs %' THEN
        CONTINUE;
      END IF;
      RETURN format('%s: %s', f, SQLERRM);
    END;
  END LOOP;
  RETURN NULL;
END $$;

-- NULL if a stored plan is sound: its spec accepted by every function of a spec, and its
-- GPU-hours and USD those of its spec and price; else what is wrong.
CREATE FUNCTION pg_temp.rb_plan_problem(p llm_econ.run_plan) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  spec_problem text := pg_temp.rb_spec_problem(p.spec);
BEGIN
  IF spec_problem IS NOT NULL THEN
    RETURN 'stored spec rejected by ' || spec_problem;
  END IF;
  IF p.planned_gpu_hours IS DISTINCT FROM llm_econ.gpu_hours(p.spec)
     OR p.planned_usd IS DISTINCT FROM llm_econ.estimate_cost(p.spec, p.usd_per_gpu_hour) THEN
    RETURN format('stored plan inconsistent: %s GPU-hours, %s USD at %s', p.planned_gpu_hours, p.planned_usd, p.usd_per_gpu_hour);
  END IF;
  RETURN NULL;
EXCEPTION WHEN OTHERS THEN
  RETURN 'stored plan inconsistent: ' || SQLERRM;
END $$;

-- The statement of a target with argument position pos set to expr (NULL pos: all good).
CREATE FUNCTION pg_temp.rb_sql(tgt text, pos bigint, expr text) RETURNS text LANGUAGE plpgsql STABLE AS $$
DECLARE
  t rb_target;
  vals text[];
BEGIN
  SELECT * INTO t FROM rb_target WHERE target = tgt;
  SELECT array_agg(replace(CASE WHEN a.pos = rb_sql.pos THEN expr ELSE a.good END, 'GOOD_SPEC', pg_temp.rb_spec(NULL, NULL))
                   ORDER BY a.pos)
    INTO vals FROM rb_arg a WHERE a.target = tgt;
  IF t.rel IS NULL THEN
    RETURN format('SELECT string_agg(r::text, '' | '') FROM %s(%s) AS r',
                  (t.fn)::oid::regproc, coalesce(array_to_string(vals, ', '), ''));
  END IF;
  IF t.dml = 'UPDATE' THEN
    RETURN format('WITH u AS (UPDATE %s SET (%s) = ROW(%s) WHERE id = (SELECT min(id) FROM %1$s WHERE provider = ''lambda'')'
                  ' RETURNING *) SELECT string_agg(u::text, '' | '') FROM u',
                  t.rel, array_to_string(t.args, ', '), array_to_string(vals, ', '));
  END IF;
  -- a stored plan must be sound (rb_plan_problem)
  RETURN format('WITH i AS (INSERT INTO %s (%s) VALUES (%s) RETURNING *) SELECT string_agg(%s, '' | '') FROM i',
                t.rel, array_to_string(t.args, ', '), array_to_string(vals, ', '),
                CASE t.rel WHEN 'llm_econ.run_plan'::regclass THEN 'coalesce(pg_temp.rb_plan_problem(i), i::text)'
                            ELSE 'i::text' END);
END $$;


-- A function target's call with good arguments, as `name(arguments)` (NULL for a statement target).
CREATE FUNCTION pg_temp.rb_call(tgt text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT format('%s(%s)', pg_catalog.quote_ident(p.proname),
                (SELECT coalesce(string_agg(replace(a.good, 'GOOD_SPEC', pg_temp.rb_spec(NULL, NULL)), ', ' ORDER BY a.pos), '')
                   FROM rb_arg a WHERE a.target = t.target))
    FROM rb_target t JOIN pg_proc p ON p.oid = t.fn WHERE t.target = tgt
$$;
