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
-- plans (0.4.0's run_spec: no stack; the update sets it to megatron without re-pricing them)
INSERT INTO llm_econ.run_plan (run_id, spec, provider, pricing, region, planned_at, usd_per_gpu_hour, tenant, team) VALUES
  ('pt-7b-aws', llm_econ.run_spec(7e9, 4.0e11, 32, 'H100', mfu => 0.42), 'aws', 'on_demand', NULL, '2025-01-01', 6.88, 'team_pretrain', 'pretrain'),
  ('pt-eval-a100', llm_econ.run_spec(1.3e9, 1.0e11, 8, 'A100-80GB', mfu => 0.45), 'aws', 'on_demand', NULL, '2025-01-01', 5.12, 'team_pretrain', 'eval'),
  ('r-alpha', llm_econ.run_spec(13e9, 5.0e11, 64, 'H100', mfu => 0.38), 'azure', 'on_demand', NULL, '2025-01-01', 12.29, 'team_research', 'research');
