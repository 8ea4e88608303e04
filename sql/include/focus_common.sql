-- focus_common.sql: what the FOCUS load tests share (\i sql/include/focus_common.sql): a view of the
-- stored lines without their surrogate id and import time, and a statement's SQLSTATE and message.
CREATE TEMP VIEW stored AS
  SELECT tenant, charge_period_start, charge_period_end, billing_period_start, billing_period_end, provider,
         service_name, service_category, charge_category, charge_description, pricing_category, pricing, region,
         sku, instance_type, gpus_per_instance, consumed_quantity, consumed_unit, gpu_hours, billed_cost,
         effective_cost, list_cost, billing_currency, run_id, resource_id, tags, record, line, row_hash,
         occurrence, billing_account_id, delivery
    FROM llm_econ.spend;
-- (a SQLSTATE and message only: the DETAIL of a constraint violation shows the row's id and time)
CREATE FUNCTION pg_temp.error_code(statement text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE statement;
  RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
