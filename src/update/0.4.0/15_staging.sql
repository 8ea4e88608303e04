-- 15_staging.sql: price_history_staging under row-level security, each role's staged rows its own; roles \copy through the new view price_history_stage.

COMMENT ON TABLE llm_econ.price_history_staging IS
  'staging for load_price_history(), one row per role and line, each role seeing only its own; roles \copy into price_history_stage';

-- Each role sees, loads and deletes only the rows it staged (as focus_staging).  COPY cannot
-- write a table under row-level security, so roles \copy into the view price_history_stage,
-- whose trigger inserts each row here as theirs; the owner may still \copy here directly.
ALTER TABLE llm_econ.price_history_staging ENABLE ROW LEVEL SECURITY;
CREATE POLICY price_history_staging_writer ON llm_econ.price_history_staging
    USING (staged_by OPERATOR(pg_catalog.=) CURRENT_USER) WITH CHECK (staged_by OPERATOR(pg_catalog.=) CURRENT_USER);
CREATE VIEW llm_econ.price_history_stage WITH (security_invoker = true) AS
SELECT NULL::text AS observed_at, NULL::text AS valid_to, NULL::text AS cloud, NULL::text AS region,
       NULL::text AS instance_type, NULL::text AS accelerator, NULL::text AS accelerator_count,
       NULL::text AS price_on_demand_usd_per_hour, NULL::text AS spot_price_usd_per_hour,
       NULL::text AS price_on_demand_per_gpu_usd_per_hour, NULL::text AS spot_price_per_gpu_usd_per_hour
 WHERE false;
COMMENT ON VIEW llm_econ.price_history_stage IS
  'where roles \copy a price history for load_price_history() (docs/prices.md); rows go into price_history_staging; reading it gives none';
COMMENT ON COLUMN llm_econ.price_history_stage.observed_at IS 'as price_history_staging.observed_at';
COMMENT ON COLUMN llm_econ.price_history_stage.valid_to IS 'as price_history_staging.valid_to';
COMMENT ON COLUMN llm_econ.price_history_stage.cloud IS 'as price_history_staging.cloud';
COMMENT ON COLUMN llm_econ.price_history_stage.region IS 'as price_history_staging.region';
COMMENT ON COLUMN llm_econ.price_history_stage.instance_type IS 'as price_history_staging.instance_type';
COMMENT ON COLUMN llm_econ.price_history_stage.accelerator IS 'as price_history_staging.accelerator';
COMMENT ON COLUMN llm_econ.price_history_stage.accelerator_count IS 'as price_history_staging.accelerator_count';
COMMENT ON COLUMN llm_econ.price_history_stage.price_on_demand_usd_per_hour IS 'as price_history_staging.price_on_demand_usd_per_hour';
COMMENT ON COLUMN llm_econ.price_history_stage.spot_price_usd_per_hour IS 'as price_history_staging.spot_price_usd_per_hour';
COMMENT ON COLUMN llm_econ.price_history_stage.price_on_demand_per_gpu_usd_per_hour IS 'as price_history_staging.price_on_demand_per_gpu_usd_per_hour';
COMMENT ON COLUMN llm_econ.price_history_stage.spot_price_per_gpu_usd_per_hour IS 'as price_history_staging.spot_price_per_gpu_usd_per_hour';
CREATE FUNCTION llm_econ._price_history_stage_row() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  INSERT INTO llm_econ.price_history_staging
         (observed_at, valid_to, cloud, region, instance_type, accelerator, accelerator_count,
          price_on_demand_usd_per_hour, spot_price_usd_per_hour, price_on_demand_per_gpu_usd_per_hour,
          spot_price_per_gpu_usd_per_hour)
  VALUES (NEW.observed_at, NEW.valid_to, NEW.cloud, NEW.region, NEW.instance_type, NEW.accelerator,
          NEW.accelerator_count, NEW.price_on_demand_usd_per_hour, NEW.spot_price_usd_per_hour,
          NEW.price_on_demand_per_gpu_usd_per_hour, NEW.spot_price_per_gpu_usd_per_hour);
  RETURN NEW;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._price_history_stage_row() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_history_stage_row() IS
  'internal: INSTEAD OF INSERT trigger of price_history_stage: the row into price_history_staging as the inserting role';
CREATE TRIGGER price_history_stage_row INSTEAD OF INSERT ON llm_econ.price_history_stage
    FOR EACH ROW EXECUTE FUNCTION llm_econ._price_history_stage_row();
