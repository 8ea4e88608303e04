-- llm_econ 0.3.0 -> 0.4.0 update script, part 40: FOCUS files as the clouds write them (issue 32): currency codes in any case, run tags by llm_econ.run_tag_keys.
-- (Column names in any case, BigQuery's "... UTC" timestamps, the run tags and the currency stored
-- upper case are the C code's; these are the SQL objects that changed with them.)

-- a currency code in any case: usd is USD (lines stored by 0.3.0 keep the case they were written in)
CREATE OR REPLACE FUNCTION llm_econ._usd_per_unit(currency text, at timestamptz) RETURNS numeric
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT CASE WHEN $1 IS NULL OR pg_catalog.upper($1) OPERATOR(pg_catalog.=) 'USD' THEN 1::numeric
              ELSE (SELECT f.usd_per_unit FROM llm_econ.fx_rate f
                     WHERE f.currency OPERATOR(pg_catalog.=) pg_catalog.upper($1) AND f.valid_from OPERATOR(pg_catalog.<=) $2
                     ORDER BY f.valid_from DESC LIMIT 1) END;
END;
COMMENT ON FUNCTION llm_econ._usd_per_unit(text, timestamptz) IS
  'internal: USD per unit of a currency (any case) at an instant: 1 for USD or none, else the fx_rate in effect, or NULL';

COMMENT ON COLUMN llm_econ.spend.billing_currency IS 'FOCUS BillingCurrency (ISO 4217, stored upper case); views convert with fx_rate, NULL counts as USD';
COMMENT ON COLUMN llm_econ.spend.run_id IS
  'the run: the Tags key that names it (setting llm_econ.run_tag_keys; docs/finance.md), else the x_run_id column; NULL when empty';
COMMENT ON COLUMN llm_econ._focus_line.run_id IS 'the run: the Tags key of setting llm_econ.run_tag_keys (case, _, - and a leading user: ignored), x_run_id column, Tags x_run_id; trimmed, NULL when empty';
