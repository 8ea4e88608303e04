-- test/citus/update_data.sql: data stored at llm_econ 0.4.0 before run.sh's update phase (u) updates it to the current version, on Citus and on a single node alike: spend and plans of two tenants.
--
-- psql variable datadir (test/data/focus).  Run by the table owner: 0.4.0's FOCUS loaders cannot
-- store as a tenant role on Citus (fixed in 0.5.0, docs/scale-out.md), which the phase checks after
-- the update.  The tenant roles and the recipe's grants exist already (load.sql, database econ);
-- grants are per database, so they are given here again.
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
GRANT SELECT ON llm_econ.run_plan, llm_econ.spend, llm_econ.observed_run TO team_pretrain, team_research, team_search;
GRANT INSERT, UPDATE, DELETE ON llm_econ.run_plan, llm_econ.spend TO w_pretrain, w_research, w_search;
GRANT USAGE ON SEQUENCE llm_econ.spend_id_seq TO w_pretrain, w_research, w_search;
GRANT SELECT, INSERT, DELETE ON llm_econ.focus_staging TO w_pretrain, w_research, w_search;
GRANT INSERT ON llm_econ.focus_stage TO w_pretrain, w_research, w_search;
GRANT USAGE ON SEQUENCE llm_econ.focus_staging_id_seq TO w_pretrain, w_research, w_search;

\set f13 `cat :'datadir'/focus_1.3_runs.csv`
\set azure `cat :'datadir'/deliveries/azure_sub_a.csv`
\set aws1 `cat :'datadir'/deliveries/aws_part_00001.csv`
SELECT 'team_pretrain' AS tenant, * FROM llm_econ.import_focus(:'f13', 'team_pretrain', 'focus_1.3_runs.csv');
SELECT 'team_research' AS tenant, * FROM llm_econ.import_focus(:'azure', 'team_research', 'azure_sub_a.csv');
SELECT 'team_research' AS tenant, * FROM llm_econ.import_focus(:'aws1', 'team_research', 'aws_part_00001.csv');
-- plans, with the specs 0.4.0's run_spec froze (no stack; the update sets it to megatron without
-- re-pricing them).  Written out: the library serves its own version's declarations only (update
-- before use, docs/internals.md), so 0.4.0's 38-argument run_spec is not called.
\set d040 '"ep": 1, "cp": 1, "vpp": 1, "ffn_act": "gelu", "sequence_parallel": true, "attention": "flash", "grad_dtype": "bf16", "dropout": false, "micro_batch": 1, "tp": 1, "pp": 1, "zero_stage": 0, "recompute": "none", "optimizer": "adamw", "inter_node_bytes_per_s": 50e9, "gpus_per_node": 8, "dtype": "bf16"'
\set h100 '"sku": "H100-SXM5", "peak_flops": 989e12, "hbm_bytes": 85520809984, "intra_node_bytes_per_s": 450e9, "tdp_watts": 700, "hbm_bytes_per_s": 3.35e12, "gpu_generation": "hopper"'
\set a100 '"sku": "A100-80GB", "peak_flops": 312e12, "hbm_bytes": 85899345920, "intra_node_bytes_per_s": 300e9, "tdp_watts": 400, "hbm_bytes_per_s": 2.039e12, "gpu_generation": "ampere"'
INSERT INTO llm_econ.run_plan (run_id, spec, provider, pricing, region, planned_at, usd_per_gpu_hour, tenant, team) VALUES
  ('pt-7b-aws', jsonb_populate_record(NULL::llm_econ.run_spec, ('{"n_params": 7e9, "n_tokens": 4.0e11, "n_gpus": 32, "mfu": 0.42, ' || :'h100' || ', ' || :'d040' || '}')::jsonb),
   'aws', 'on_demand', NULL, '2025-01-01', 6.88, 'team_pretrain', 'pretrain'),
  ('pt-eval-a100', jsonb_populate_record(NULL::llm_econ.run_spec, ('{"n_params": 1.3e9, "n_tokens": 1.0e11, "n_gpus": 8, "mfu": 0.45, ' || :'a100' || ', ' || :'d040' || '}')::jsonb),
   'aws', 'on_demand', NULL, '2025-01-01', 5.12, 'team_pretrain', 'eval'),
  ('r-alpha', jsonb_populate_record(NULL::llm_econ.run_spec, ('{"n_params": 13e9, "n_tokens": 5.0e11, "n_gpus": 64, "mfu": 0.38, ' || :'h100' || ', ' || :'d040' || '}')::jsonb),
   'azure', 'on_demand', NULL, '2025-01-01', 12.29, 'team_research', 'research');
